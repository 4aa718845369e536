/**
 * Connect Four's wire, as TypeBox values: every message the arena sends and every answer the game reads. The
 * message types (wire.ts, the SDK) are their static types, and `npm run generate` publishes each value with
 * an `$id` as `schemas/connect4/*.schema.json`.
 */
import { Type, type Static } from 'typebox';
import { Typed, schemaId } from '../../core/wire-schema.js';

const GameId = Type.String({ description: 'The match id, as text.' });

/** The init message (wire game name "connectfour"). */
export const ConnectFourInit = Type.Object(
  {
    'game-id': GameId,
    action: Type.Literal('init'),
    game: Type.Literal('connectfour'),
    players: Type.Literal(2),
    board: Type.Literal('', { description: 'Always the empty string in the hello.' }),
    'player-index': Type.Enum([0, 1], { description: 'Your seat: 0 plays X and moves first, 1 plays O.' }),
  },
  {
    $id: schemaId('connect4', 'init'),
    title: 'Connect Four: init message',
    description:
      'The hello the arena sends each bot once, before the first move, one seat after the other (X first). Note the wire\'s game name is "connectfour", not the arena\'s game id "connect4". Whatever the bot answers is ignored (see init-answer).',
    additionalProperties: false,
    examples: [{ 'game-id': 'example', action: 'init', game: 'connectfour', players: 2, board: '', 'player-index': 0 }],
  },
);
export type ConnectFourInit = Static<typeof ConnectFourInit>;

/** The play-turn message: the other bot's name, your mark, `board[row][col]` with row 0 at the bottom. */
export const ConnectFourTurn = Type.Object(
  {
    'game-id': GameId,
    action: Type.Literal('play-turn'),
    game: Type.Literal('connectfour'),
    players: Type.Literal(2),
    opponent: Type.String({ description: "The other bot's display name (may be empty)." }),
    you: Type.Enum(['X', 'O'], { description: 'The mark you play.' }),
    board: Type.Array(Type.Array(Type.Enum(['', 'X', 'O']), { description: 'One row: seven cells, column 0 first.', minItems: 7, maxItems: 7 }), {
      description: 'Six rows, bottom row first.',
      minItems: 6,
      maxItems: 6,
    }),
    'player-index': Type.Enum([0, 1], { description: 'Your seat: 0 is X, 1 is O.' }),
  },
  {
    $id: schemaId('connect4', 'turn'),
    title: 'Connect Four: turn message',
    description:
      'Sent to the bot whose move it is. The board is 6 rows of 7 cells, board[row][column], with row 0 at the bottom (pieces fall towards it); a cell is empty (""), "X" or "O". `opponent` is the other seat\'s display name, and `you` your mark, which always matches your seat: X for player-index 0, O for player-index 1. Answer with turn-answer.',
    additionalProperties: false,
    if: { properties: { 'player-index': { const: 0 } } },
    then: { properties: { you: { const: 'X' } } },
    else: { properties: { you: { const: 'O' } } },
  },
);
export type ConnectFourTurn = Static<typeof ConnectFourTurn>;

/** A message to a Connect Four bot. */
export type ConnectFourMessage = ConnectFourInit | ConnectFourTurn;

/** The answer to the hello: any JSON value, since the game ignores it. */
export const ConnectFourInitAnswer = Type.Unknown({
  $id: schemaId('connect4', 'init-answer'),
  title: 'Connect Four: answer to the init message',
  description:
    'The game ignores this answer entirely, so any JSON value is accepted (the arena still needs one line of JSON, nested at most 32 levels deep, before the deadline). Bots conventionally send {"name": "..."}, but the name is not read. A late answer is dropped and does not count for the first move.',
  examples: [{ name: 'random' }],
});
export type ConnectFourInitAnswer = Static<typeof ConnectFourInitAnswer>;

/** A Connect Four move: a column 0..6, as a number or a one-digit string (typed: TypeBox reads no pattern). */
export const ConnectFourAnswer = Type.Object(
  {
    play: Typed<number | `${0 | 1 | 2 | 3 | 4 | 5 | 6}`>(Type.Union([Type.Integer({ minimum: 0, maximum: 6 }), Type.String({ pattern: '^[0-6]$' })])),
  },
  {
    $id: schemaId('connect4', 'turn-answer'),
    title: 'Connect Four: answer to a turn message',
    description:
      'The column to drop a piece into, 0 to 6, either as a JSON integer or as a string of exactly one digit "0" to "6". Nothing looser is read: not "03", " 3", "3.0" as a string, "-1", fractions, booleans or null (a number written 3.0 is the integer 3 in JSON, and is accepted). Other fields are ignored. The column must also have room, which this schema cannot check: a full column, like any bad answer, forfeits the game.',
    examples: [{ play: 3 }, { play: '3' }],
  },
);
export type ConnectFourAnswer = Static<typeof ConnectFourAnswer>;
