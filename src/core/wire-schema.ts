/**
 * Helpers for writing a game's wire messages as TypeBox values (`src/games/GAME/schema.ts`): the forms the
 * botsarena-era wires use that TypeBox's own builders write differently or type loosely. Every helper gives
 * plain draft 2020-12 JSON Schema, so `npm run generate` can publish a value as `schemas/GAME/NAME.schema.json`
 * unchanged, and a static type that is the one the games and the SDK use.
 */
import { Type, type Static, type TSchema, type TSchemaOptions, type TUnsafe } from 'typebox';

/** The draft every published schema declares. */
export const SCHEMA_DRAFT = 'https://json-schema.org/draft/2020-12/schema';

/**
 * The `$id` of a published message schema, which is also where `npm run generate` writes it
 * (`schemas/GAME/NAME.schema.json`): a TypeBox value exported from a game's schema.ts with such an `$id` is
 * one published file.
 */
export function schemaId(game: string, name: string): string {
  return `https://botarena.dev/schemas/${game}/${name}.schema.json`;
}

/** The game and file name of a published schema's `$id`, or null when `id` is not one. */
export function schemaFile(id: unknown): { game: string; name: string } | null {
  const m = typeof id === 'string' ? /^https:\/\/botarena\.dev\/schemas\/([a-z0-9-]+)\/([a-z0-9-]+)\.schema\.json$/.exec(id) : null;
  return m ? { game: m[1]!, name: m[2]! } : null;
}

/**
 * Two `item`s in an array, typed as a pair: a cell [x, y], a square [row, column]. (TypeBox's Tuple writes
 * the draft-07 array form of `items`, which draft 2020-12 reads differently.)
 *
 * @example const Cell = Pair(Type.Integer({ minimum: 0 }), { description: 'A cell [x, y].' });
 */
export function Pair<T extends TSchema>(item: T, options: TSchemaOptions = {}): TUnsafe<[Static<T>, Static<T>]> {
  return Type.Unsafe<[Static<T>, Static<T>]>({ type: 'array', ...options, minItems: 2, maxItems: 2, items: item });
}

/**
 * A reference to the definition `name` of `defs`, which the message lists as its `$defs`: the published file
 * says what a repeated part is once, and the reference is typed as the definition.
 *
 * @example const defs = { side: Side }; Type.Object({ width: Ref(defs, 'side') }, { $defs: defs });
 */
export function Ref<D extends Record<string, TSchema>, K extends keyof D & string>(defs: D, name: K, options: TSchemaOptions = {}): TUnsafe<Static<D[K]>> {
  return Type.Unsafe<Static<D[K]>>({ $ref: `#/$defs/${name}`, ...options });
}

/**
 * An object of any keys whose values are all `value` (paint's player ids): `additionalProperties`, typed as a
 * record. (TypeBox's Record writes `patternProperties` and types an Object with open properties as `{}`.)
 */
export function Dictionary<T extends TSchema>(value: T, options: TSchemaOptions = {}): TUnsafe<Record<string, Static<T>>> {
  return Type.Unsafe<Record<string, Static<T>>>({ type: 'object', ...options, additionalProperties: value });
}

/**
 * A schema with the static type `Type`, where TypeBox cannot infer it (a string `pattern`: Connect Four's
 * `"0"`..`"6"`), or where an answer the game reads leniently is typed as the form a bot should send (paint's
 * direction `[1, 0]`, whose schema also accepts `[" +1 ", 0.5]`, as the game does). The comment on its use
 * says which.
 */
export function Typed<Type>(schema: TSchema): TUnsafe<Type> {
  return Type.Unsafe<Type>(schema);
}
