/**
 * Tic-tac-toe's wire, as TypeBox values: every message the arena sends and every answer the game reads. The
 * message types (wire.ts, the SDK) are their static types, and `npm run generate` publishes each value with
 * an `$id` as `schemas/tictactoe/*.schema.json`.
 */
import { Type, type Static } from 'typebox';
import { Ref, schemaId } from '../../core/wire-schema.js';

const Cell = Type.Enum(['', 'X', 'O'], { description: 'An empty cell ("") or the mark on it.' });
const defs = { cell: Cell };
const cell = Ref(defs, 'cell');
const GameId = Type.String({ description: 'The match id, as text.' });

/** The init message, as botsarena sent it. */
export const TicTacToeInit = Type.Object(
  {
    'game-id': GameId,
    action: Type.Literal('init'),
    game: Type.Literal('tictactoe'),
    players: Type.Literal(2),
    board: Type.Literal('', { description: 'Always the empty string in the hello.' }),
    'player-index': Type.Enum([0, 1], { description: 'Your seat: 0 plays X and moves first, 1 plays O.' }),
  },
  {
    $id: schemaId('tictactoe', 'init'),
    title: 'Tic-tac-toe: init message',
    description:
      'The hello the arena sends each bot once, before the first move, one seat after the other (X first). It carries no board yet. Whatever the bot answers is ignored (see init-answer). The arena writes the fields in the order listed here, as botsarena did.',
    additionalProperties: false,
    examples: [{ 'game-id': 'example', action: 'init', game: 'tictactoe', players: 2, board: '', 'player-index': 0 }],
  },
);
export type TicTacToeInit = Static<typeof TicTacToeInit>;

/** The play-turn message: the board as nine "row-col" keys, and the mark you play. */
export const TicTacToeTurn = Type.Object(
  {
    'game-id': GameId,
    action: Type.Literal('play-turn'),
    game: Type.Literal('tictactoe'),
    players: Type.Literal(2),
    board: Type.Object(
      { '0-0': cell, '0-1': cell, '0-2': cell, '1-0': cell, '1-1': cell, '1-2': cell, '2-0': cell, '2-1': cell, '2-2': cell },
      { additionalProperties: false },
    ),
    you: Type.Enum(['X', 'O'], { description: 'The mark you play.' }),
    'player-index': Type.Enum([0, 1], { description: 'Your seat: 0 is X, 1 is O.' }),
  },
  {
    $id: schemaId('tictactoe', 'turn'),
    title: 'Tic-tac-toe: turn message',
    description:
      'Sent to the bot whose move it is. The board has exactly nine cells keyed "row-col" (rows and columns 0 to 2, row by row); each is empty (""), "X" or "O". `you` is your mark, which always matches your seat: X for player-index 0, O for player-index 1. Answer with turn-answer.',
    additionalProperties: false,
    if: { properties: { 'player-index': { const: 0 } } },
    then: { properties: { you: { const: 'X' } } },
    else: { properties: { you: { const: 'O' } } },
    $defs: defs,
    examples: [
      {
        'game-id': 'example',
        action: 'play-turn',
        game: 'tictactoe',
        players: 2,
        board: { '0-0': '', '0-1': '', '0-2': '', '1-0': '', '1-1': 'X', '1-2': '', '2-0': '', '2-1': '', '2-2': '' },
        you: 'O',
        'player-index': 1,
      },
    ],
  },
);
export type TicTacToeTurn = Static<typeof TicTacToeTurn>;

/** A message to a tic-tac-toe bot. */
export type TicTacToeMessage = TicTacToeInit | TicTacToeTurn;

/** The answer to the hello: any JSON value, since the game ignores it. */
export const TicTacToeInitAnswer = Type.Unknown({
  $id: schemaId('tictactoe', 'init-answer'),
  title: 'Tic-tac-toe: answer to the init message',
  description:
    'The game ignores this answer entirely, so any JSON value is accepted (the arena still needs one line of JSON, nested at most 32 levels deep, before the deadline). Bots conventionally send {"name": "..."}, but the name is not read. A late answer is dropped and does not count for the first move.',
  examples: [{ name: 'random' }],
});
export type TicTacToeInitAnswer = Static<typeof TicTacToeInitAnswer>;

/** A tic-tac-toe move: a "row-col" key of an empty cell. */
export const TicTacToeAnswer = Type.Object(
  { play: Type.Enum(['0-0', '0-1', '0-2', '1-0', '1-1', '1-2', '2-0', '2-1', '2-2']) },
  {
    $id: schemaId('tictactoe', 'turn-answer'),
    title: 'Tic-tac-toe: answer to a turn message',
    description:
      'The cell to play, as one of the nine "row-col" keys of the board, spelt exactly (no spaces, no numbers). Other fields are ignored. The cell must also be empty, which this schema cannot check: playing a taken cell, like any bad answer, forfeits the game.',
    examples: [{ play: '1-1' }],
  },
);
export type TicTacToeAnswer = Static<typeof TicTacToeAnswer>;
