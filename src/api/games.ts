import { Type, type Static } from 'typebox';

/** `:game` of the game routes. */
export const GameParams = Type.Object({ game: Type.String({ maxLength: 64, description: 'a game id, as `GET /api/games` lists them' }) });
export type GameParams = Static<typeof GameParams>;

/** One key of a game's match configuration (core/config.ts ConfigField, as JSON). */
export const ConfigKey = Type.Object({
  type: Type.String({ description: 'int, bool or string' }),
  default: Type.Unknown(),
  min: Type.Optional(Type.Number()),
  max: Type.Optional(Type.Number()),
  choices: Type.Optional(Type.Immutable(Type.Array(Type.String()))),
  file: Type.Optional(Type.Boolean({ description: 'the value may be a file’s text (a map, a board)' })),
  description: Type.String(),
});
export type ConfigKey = Static<typeof ConfigKey>;

const factsFields = {
  id: Type.String(),
  title: Type.String(),
  summary: Type.String(),
  players: Type.Object({ min: Type.Integer(), max: Type.Integer() }),
  timeouts: Type.Object({ initMs: Type.Number(), turnMs: Type.Number(), slowMs: Type.Optional(Type.Number()), exitMs: Type.Optional(Type.Number()) }),
  hello: Type.Boolean({ description: 'whether bots are greeted (an init message) before the first turn' }),
  lobby: Type.Boolean({
    description:
      "whether bots connect in to a lobby and play when their hub fills (smart-dog's gateway): such a game has no registered bots and no on-demand matches of bots",
  }),
  dialects: Type.Array(Type.String()),
  config: Type.Record(Type.String(), ConfigKey),
  bots: Type.Record(Type.String(), Type.String(), { description: 'built-in bots: name → what it plays like' }),
};

/** A game as `GET /api/games` lists it (what `botarena games` shows). */
export const GameFacts = Type.Object(factsFields);
export type GameFacts = Static<typeof GameFacts>;

/** `GET /api/games`: every game. */
export const GameList = Type.Array(GameFacts);
export type GameList = Static<typeof GameList>;

/** One message a bot receives and the answer a built-in bot gave it, as the wire carries them. */
export const WireExample = Type.Object({
  phase: Type.String(),
  turn: Type.Integer(),
  message: Type.String({ description: "the message's bytes in the game's own wire dialect" }),
  answer: Type.String({ description: "the answer's bytes, as a bot would write them" }),
});
export type WireExample = Static<typeof WireExample>;

/** `GET /api/games/:game`: the facts and a real message of each phase with its answer. */
export const GamePage = Type.Object({ ...factsFields, examples: Type.Array(WireExample) });
export type GamePage = Static<typeof GamePage>;

/** `GET /api/games/:game/rules`. */
export const GameRules = Type.Object({ markdown: Type.String(), page: Type.String({ description: 'the docs page it is taken from' }) });
export type GameRules = Static<typeof GameRules>;

/** `GET /api/games/:game/schemas`: message or answer name → its JSON Schema (the files of schemas/GAME/). */
export const GameSchemas = Type.Record(Type.String(), Type.Unknown());
export type GameSchemas = Static<typeof GameSchemas>;
