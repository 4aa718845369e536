import { defineGame } from '../../core/game.js';
import { botsarenaAnswerPhase, cellCode, duelChanges, duelInit, duelNext, duelOutcome, MARKS, stringOr } from '../botsarena/duel.js';
import { bots } from './bots.js';
import { human } from './human.js';
import { renderBoard } from './render.js';
import { apply, check, readBoard, setup, writeBoard, type ConnectFourState } from './rules.js';
import { parseAnswer, view, type ConnectFourMessage } from './wire.js';

export type { ConnectFourInit, ConnectFourMessage, ConnectFourTurn } from './wire.js';

/** Connect Four as on botsarena: 6×7, row 0 at the bottom, X (slot 0) first, any fault forfeits. */
export const connect4 = defineGame<{ board: string }, ConnectFourState, number, ConnectFourMessage, null>({
  id: 'connect4',
  title: 'Connect Four (botsarena)',
  summary: 'four in a row on a 6×7 board, pieces drop; answer {"play": column 0..6}',
  players: { min: 2, max: 2 },
  config: {
    board: {
      type: 'string',
      default: '',
      description: 'a starting board: six rows of X, O and . separated by /, the top row first; who plays follows from the counts',
    },
  },
  timeouts: { initMs: 10_000, turnMs: 10_000, exitMs: 500 },
  bots,
  rules: {
    validateConfig: ({ board }) => (board ? stringOr(readBoard(board)) : null),
    // A 7 × 6 board: 42 cells, at most 42 moves, each about the board: always small.
    work: () => 42 * (42 + 2),
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
    // A move changes only the column it drops into: the bookkeeping, that column's index and its cells
    // (bottom up). A piece landing on another row or column changes the column's cells.
    changes(s, moves) {
      const col = moves[0]?.action;
      // (No move: the hellos, a forfeit, the board as set up: the whole board.)
      if (typeof col !== 'number') return duelChanges(s.duel, s.board);
      const out = duelChanges(s.duel, []);
      let cells = 0;
      for (let r = 0; r < s.board.length; r++) cells = (cells << 2) | cellCode(s.board[r]![col]!);
      out.push(col, cells);
      return out;
    },
  },
  tooling: {
    position: { write: (s) => ({ board: writeBoard(s) }) },
  },
});
