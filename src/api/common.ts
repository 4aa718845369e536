import { Type, type Static, type TSchema } from 'typebox';

/**
 * The one error body of the API: `{ "error": { "status", "code", "message" } }`, the message a sentence a
 * person can act on. Every 4xx/5xx answer has it (src/server/errors.ts builds it).
 */
export const ErrorBody = Type.Object({
  error: Type.Object({ status: Type.Integer(), code: Type.String(), message: Type.String() }),
});
export type ErrorBody = Static<typeof ErrorBody>;

/**
 * A value or null: the schema with `null` added to its `type` (`{ "type": ["string", "null"] }`), which the
 * serialiser reads with a `=== null` test; an `anyOf` would be checked branch by branch with a validator, ten
 * times as slow on a match's answer. The OpenAPI 3.0 document shows it as `nullable: true`.
 */
export const Nullable = <T extends TSchema & { type: string }>(schema: T) => Type.Unsafe<Static<T> | null>({ ...schema, type: [schema.type, 'null'] });

/** An answer that is not JSON (an event stream, an HTML page), for the OpenAPI document: its media type and what it is. */
export const NotJson = (mediaType: string, description: string) => ({ description, content: { [mediaType]: { schema: Type.String() } } });

/** A 204 answer: no body. */
export const NoContent = Type.Null();
