import { Type, type Static, type TSchema } from 'typebox';

/**
 * The one error body of the API: `{ "error": { "status", "code", "message" } }`, the message a sentence a
 * person can act on. Every 4xx/5xx answer has it (src/server/errors.ts builds it).
 */
export const ErrorBody = Type.Object({
  error: Type.Object({ status: Type.Integer(), code: Type.String(), message: Type.String() }),
});
export type ErrorBody = Static<typeof ErrorBody>;

/** A value or null (JSON Schema `anyOf`). */
export const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

/** An answer that is not JSON (an event stream, an HTML page), for the OpenAPI document: its media type and what it is. */
export const NotJson = (mediaType: string, description: string) => ({ description, content: { [mediaType]: { schema: Type.String() } } });

/** A 204 answer: no body. */
export const NoContent = Type.Null();
