import { defineGame } from '../../core/game.js';
import { duelNext, duelOutcome, MARKS } from '../botsarena/duel.js';
import { bots } from './bots.js';
import { human } from './human.js';
import { renderBoard } from './render.js';
import { apply, check, setup, type ConnectFourState } from './rules.js';
import { parseAnswer, view, type ConnectFourMessage } from './wire.js';

export type { ConnectFourInit, ConnectFourMessage, ConnectFourTurn } from './wire.js';

/** Connect Four as on botsarena: 6×7, row 0 at the bottom, X (slot 0) first, any fault forfeits. */
export const connect4 = defineGame<Record<string, never>, ConnectFourState, number | null, ConnectFourMessage>({
  id: 'connect4',
  title: 'Connect Four (botsarena)',
  summary: 'four in a row on a 6×7 board, pieces drop; answer {"play": column 0..6}',
  players: { min: 2, max: 2 },
  config: {},
  timeouts: { initMs: 10_000, turnMs: 10_000 },
  seatLabel: (slot) => MARKS[slot] ?? String(slot),
  setup,
  next: (s) => duelNext(s.duel),
  view,
  parseAnswer,
  check: (s, slot, col) => (col === null ? null : check(s, slot, col)),
  apply,
  outcome: (s) => duelOutcome(s.duel),
  render: (s) => renderBoard(s.board),
  bots,
  human,
});
