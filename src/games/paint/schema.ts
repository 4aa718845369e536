/**
 * Paint's wire, as TypeBox values: every message the arena sends and every answer the game reads. The message
 * types (wire.ts, the SDK) are their static types, and `npm run generate` publishes each value with an `$id`
 * as `schemas/paint/*.schema.json`.
 */
import { Type, type Static } from 'typebox';
import { Dictionary, Pair, Ref, schemaId, Typed } from '../../core/wire-schema.js';

/** The hello: the bot's id in the game. The answer must be `{"ready":true}`. */
export const PaintInit = Type.Object(
  {
    player_id: Type.String({ description: 'Your id: alice, bob, charlie… unless the match or its board names the players otherwise.' }),
  },
  {
    $id: schemaId('paint', 'init'),
    title: 'Paint: init message',
    description:
      'The hello every bot gets at once before the first turn: its player id, which is also its colour on the board and its key in player_positions and previous_actions. Answer with init-answer ({"ready":true}).',
    additionalProperties: false,
    examples: [{ player_id: 'alice' }],
  },
);
export type PaintInit = Static<typeof PaintInit>;

const Square = Pair(Type.Integer({ minimum: 0 }), { description: 'A square [row, column].' });
const defs = { square: Square };

/** An action as listed in `previous_actions`. */
const Action = Type.Object(
  {
    type: Type.Enum(['walk', 'shoot']),
    direction: Pair(Type.Enum([-1, 0, 1]), { description: '[row step, column step], each -1, 0 or 1, not both 0.', not: { const: [0, 0] } }),
  },
  { additionalProperties: false },
);
export type PaintActionJson = Static<typeof Action>;

/** The state sent each turn, keys in the reference's order; `obstacles` only when the board has some. */
export const PaintTurn = Type.Object(
  {
    width: Type.Integer({ minimum: 1, description: 'Columns.' }),
    height: Type.Integer({ minimum: 1, description: 'Rows.' }),
    player_positions: Dictionary(Ref(defs, 'square'), { description: "Each player's square, by player id.", minProperties: 1 }),
    colors: Type.Array(Type.Array(Type.Union([Type.String(), Type.Null()]), { minItems: 1 }), {
      description:
        'colors[row][column]: the id of the player whose paint covers the square, or null for an unpainted square or an obstacle. `height` rows of `width` squares.',
      minItems: 1,
    }),
    previous_actions: Type.Array(Dictionary(Action), {
      description: "One object per turn played so far, oldest first: each player's action that turn, by player id (a player who took no action is left out).",
    }),
    turns_left: Type.Integer({ minimum: 1, description: 'Turns still to play, this one included; echo it in the answer.' }),
    obstacles: Type.Optional(
      Type.Array(Ref(defs, 'square'), { description: 'The obstacle squares: never painted, never walked on. Present only when there are some.', minItems: 1 }),
    ),
  },
  {
    $id: schemaId('paint', 'turn'),
    title: 'Paint: turn message',
    description:
      'The whole state, sent every turn to every bot at once (the same message for all). Squares are [row, column], rows 0 to height-1 and columns 0 to width-1. `turns_left` counts this turn and works as a nonce: the answer must echo it. `obstacles` is present only when the board has obstacles (a variant; off by default). Answer with turn-answer.',
    additionalProperties: false,
    $defs: defs,
  },
);
export type PaintTurn = Static<typeof PaintTurn>;

/** A message to a paint bot. */
export type PaintMessage = PaintInit | PaintTurn;

/** Paint's answer to the hello. */
export const PaintInitAnswer = Type.Object(
  { ready: Type.Literal(true) },
  {
    $id: schemaId('paint', 'init-answer'),
    title: 'Paint: answer to the init message',
    description:
      'Every bot must say it is ready: an object whose `ready` is exactly true. Other fields are ignored. If any bot fails to, no turn is played and the bots that failed rank last.',
    examples: [{ ready: true }],
  },
);
export type PaintInitAnswer = Static<typeof PaintInitAnswer>;

const steps = {
  step: Type.Union([Type.Number({ exclusiveMinimum: -2, exclusiveMaximum: 2 }), Type.String({ pattern: '^\\s*[+-]?0*[01]\\s*$' })], {
    description: '-1, 0 or 1 once read: a number above -2 and below 2 (truncated towards zero), or such a whole number written as a string.',
  }),
  zero: Type.Union([Type.Number({ exclusiveMinimum: -1, exclusiveMaximum: 1 }), Type.String({ pattern: '^\\s*[+-]?0+\\s*$' })], {
    description: 'A step that reads as 0.',
  }),
};

/**
 * A paint action: walk or shoot in one of the 8 directions [drow, dcol]; `turns_left` copied from the turn's
 * message. The direction is typed as a bot should send it; the schema accepts every form the game reads.
 */
export const PaintAnswer = Type.Object(
  {
    turns_left: Type.Integer({ minimum: 1, description: 'The `turns_left` of the message this answers.' }),
    type: Type.Enum(['walk', 'shoot'], { description: 'Walk one square, or shoot paint in a line.' }),
    direction: Typed<[-1 | 0 | 1, -1 | 0 | 1]>(
      Type.Array(Ref(steps, 'step'), {
        minItems: 2,
        maxItems: 2,
        not: { description: 'Both steps 0 is no direction.', minItems: 2, maxItems: 2, prefixItems: [Ref(steps, 'zero'), Ref(steps, 'zero')] },
      }),
    ),
  },
  {
    $id: schemaId('paint', 'turn-answer'),
    title: 'Paint: answer to a turn message',
    description:
      'The bot\'s action this turn: walk or shoot paint in one of the 8 directions, echoing the message\'s `turns_left`. The echo must equal the current number exactly, which this schema cannot check: over a line transport (stdio) an object whose `turns_left` is another number is taken for a late answer to an earlier turn and skipped (the bot may still answer before the deadline). Any answer the game cannot read, a missing or wrong `turns_left` included, is not fatal: it counts as no action this turn. `direction` is [row step, column step], each -1, 0 or 1 and not both 0. The game reads the two steps as leniently as the reference engine: a number is truncated towards zero (so 0.9 is 0 and -1.5 is -1), and a string of an optionally signed whole number, with spaces around it, is read as that number (" +1 " is 1). This schema accepts exactly those forms. Other fields are ignored.',
    $defs: steps,
    examples: [{ turns_left: 100, type: 'walk', direction: [-1, 1] }],
  },
);
export type PaintAnswer = Static<typeof PaintAnswer>;
