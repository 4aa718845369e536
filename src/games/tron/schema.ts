/**
 * Tron's wire, as TypeBox values: every message the arena sends and every answer the game reads. The message
 * types (wire.ts, the SDK) are their static types, and `npm run generate` publishes each value with an `$id`
 * as `schemas/tron/*.schema.json`.
 */
import { Type, type Static } from 'typebox';
import { Pair, Ref, schemaId } from '../../core/wire-schema.js';

const Size = Type.Integer({ minimum: 2, maximum: 1000 });
const Cell = Pair(Type.Integer({ minimum: 0, maximum: 999 }), { description: "A cell [x, y], each 0 to the grid's size minus one." });
const GameId = Type.String({ description: 'The match id, as text.' });
/** Off the original grid only, both or neither (see ORIGINAL_SIZE in wire.ts). */
const SIZED = {
  dependentRequired: { width: ['height'], height: ['width'] },
  not: {
    description: 'The size is never sent for the original 100×100 grid.',
    properties: { width: { const: 100 }, height: { const: 100 } },
    required: ['width', 'height'],
  },
};

const initDefs = { size: Size };
/** The init message, as botsarena sent it (with the grid's size after `board` off the original grid). */
export const TronInit = Type.Object(
  {
    'game-id': GameId,
    action: Type.Literal('init'),
    game: Type.Literal('tron'),
    board: Type.Literal('', { description: 'Always the empty string in the hello.' }),
    width: Type.Optional(Ref(initDefs, 'size', { description: 'Grid width (x is 0 to width-1); only present off the 100×100 grid.' })),
    height: Type.Optional(Ref(initDefs, 'size', { description: 'Grid height (y is 0 to height-1); only present off the 100×100 grid.' })),
    players: Type.Integer({ minimum: 2, maximum: 12, description: 'How many bots play.' }),
    'player-index': Type.Integer({ minimum: 0, maximum: 11, description: 'Your seat, 0 to players-1.' }),
  },
  {
    $id: schemaId('tron', 'init'),
    title: 'Tron: init message',
    description:
      "The hello the arena sends each bot once, before the first lap, one seat after the other. On the original 100×100 grid it is exactly botsarena's message; on any other grid it also carries `width` and `height` (right after `board`), so a bot written for the original never sees them. Whatever the bot answers is ignored (see init-answer).",
    additionalProperties: false,
    ...SIZED,
    $defs: initDefs,
    examples: [
      { 'game-id': 'example', action: 'init', game: 'tron', board: '', players: 2, 'player-index': 0 },
      { 'game-id': 'example', action: 'init', game: 'tron', board: '', width: 20, height: 12, players: 4, 'player-index': 3 },
    ],
  },
);
export type TronInit = Static<typeof TronInit>;

const turnDefs = { size: Size, cell: Cell };
/**
 * The lap message: every slot's trail head first (`[]` once dead); `players` counts the dead too; the grid's
 * size after `board` off the original grid.
 */
export const TronTurn = Type.Object(
  {
    'game-id': GameId,
    action: Type.Literal('play-turn'),
    game: Type.Literal('tron'),
    board: Type.Array(Type.Array(Ref(turnDefs, 'cell'), { description: 'A trail, head first; empty once the bot is dead.' }), {
      description: 'One trail per seat, seat 0 first.',
      minItems: 2,
      maxItems: 12,
    }),
    width: Type.Optional(Ref(turnDefs, 'size', { description: 'Grid width; only present off the 100×100 grid.' })),
    height: Type.Optional(Ref(turnDefs, 'size', { description: 'Grid height; only present off the 100×100 grid.' })),
    'player-index': Type.Integer({ minimum: 0, maximum: 11, description: 'Your seat: your trail is board[player-index].' }),
    players: Type.Integer({ minimum: 2, maximum: 12, description: 'How many bots play, dead ones included.' }),
  },
  {
    $id: schemaId('tron', 'turn'),
    title: 'Tron: turn message',
    description:
      "Sent every lap to every bot still alive, all at once. `board` has one trail per seat, in seat order, dead bots included: each trail lists its cells [x, y] head first, and a dead bot's trail is empty ([]). `players` counts the dead too. Off the original 100×100 grid the message also carries `width` and `height` right after `board`. Answer with turn-answer.",
    additionalProperties: false,
    ...SIZED,
    $defs: turnDefs,
    examples: [
      {
        'game-id': 'example',
        action: 'play-turn',
        game: 'tron',
        board: [
          [
            [2, 91],
            [1, 91],
          ],
          [],
        ],
        'player-index': 0,
        players: 2,
      },
    ],
  },
);
export type TronTurn = Static<typeof TronTurn>;

/** A message to a Tron bot. */
export type TronMessage = TronInit | TronTurn;

/** The answer to the hello: any JSON value, since the game ignores it. */
export const TronInitAnswer = Type.Unknown({
  $id: schemaId('tron', 'init-answer'),
  title: 'Tron: answer to the init message',
  description:
    'The game ignores this answer entirely, so any JSON value is accepted (the arena still needs one line of JSON, nested at most 32 levels deep, before the deadline). Bots conventionally send {"name": "..."}, but the name is not read. A late answer is dropped and does not count for the first lap.',
  examples: [{ name: 'stupid' }],
});
export type TronInitAnswer = Static<typeof TronInitAnswer>;

/** A Tron move: one cell along x or y (x+ is x+1). */
export const TronAnswer = Type.Object(
  { play: Type.Enum(['x+', 'x-', 'y+', 'y-']) },
  {
    $id: schemaId('tron', 'turn-answer'),
    title: 'Tron: answer to a turn message',
    description:
      'The direction to move this lap: "x+", "x-", "y+" or "y-", exactly (case-sensitive, no surrounding spaces). Other fields are ignored. Any other answer kills the bot, and so does moving off the grid, into a trail or head-on into another bot, none of which this schema can check.',
    examples: [{ play: 'x+' }],
  },
);
export type TronAnswer = Static<typeof TronAnswer>;
