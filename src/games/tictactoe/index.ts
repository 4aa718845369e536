import { defineGame } from '../../core/game.js';
import { botsarenaAnswerPhase, duelChanges, duelInit, duelNext, duelOutcome, MARKS, stringOr } from '../botsarena/duel.js';
import { bots } from './bots.js';
import { human } from './human.js';
import { renderBoard } from './render.js';
import { apply, check, readBoard, setup, writeBoard, type CellKey, type TicTacToeState } from './rules.js';
import { parseAnswer, view, type TicTacToeMessage } from './wire.js';

export type { TicTacToeInit, TicTacToeMessage, TicTacToeTurn } from './wire.js';

/** Tic-tac-toe as on botsarena: "row-col" keys, X (slot 0) first, any fault forfeits. */
export const tictactoe = defineGame<{ board: string }, TicTacToeState, CellKey, TicTacToeMessage, null>({
  id: 'tictactoe',
  title: 'Tic-tac-toe (botsarena)',
  summary: 'three in a row on a 3×3 board; answer {"play":"row-col"}',
  players: { min: 2, max: 2 },
  config: {
    board: {
      type: 'string',
      default: '',
      description: 'a starting board: rows of X, O and . separated by /, row 0 first (X.O/.X./...); who plays follows from the counts',
    },
  },
  timeouts: { initMs: 10_000, turnMs: 10_000, exitMs: 500 },
  bots,
  rules: {
    validateConfig: ({ board }) => (board ? stringOr(readBoard(board)) : null),
    // A 3 × 3 board: 9 cells, at most 9 moves, each about the board: always small.
    work: () => 9 * (9 + 2),
    setup: ({ config }) => setup(config.board),
    next: (s) => duelNext(s.duel),
    parseAnswer,
    init: duelInit(),
    check,
    apply,
    outcome: (s) => duelOutcome(s.duel),
  },
  wire: {
    // One line answers one message: a late hello answer pays for the hello, never for turn 1.
    strictPairing: true,
    // A line shaped as a turn answer (`play`) is never taken for a missed hello's: that bot skipped the hello.
    answerPhase: botsarenaAnswerPhase,
    view,
  },
  presentation: {
    seatLabel: (slot) => MARKS[slot] ?? String(slot),
    render: (s) => renderBoard(s.board),
    human,
  },
  replay: {
    changes: (s) => duelChanges(s.duel, s.board),
  },
  tooling: {
    position: { write: (s) => ({ board: writeBoard(s) }) },
  },
});
