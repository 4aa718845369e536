import { describeValue, type Parsed, type ViewContext } from '../../core/game.js';
import { MARKS, readPlay } from '../botsarena/duel.js';
import { COLS, type ConnectFourState } from './rules.js';
import type { ConnectFourMessage } from './schema.js';

export type { ConnectFourInit, ConnectFourMessage, ConnectFourTurn } from './schema.js';

/** Builds the message for `slot`, field for field and in the original order. */
export function view(s: ConnectFourState, slot: number, ctx: ViewContext): ConnectFourMessage {
  const seat = slot as 0 | 1;
  if (ctx.phase === 'init') {
    return { 'game-id': ctx.matchId, action: 'init', game: 'connectfour', players: 2, board: '', 'player-index': seat };
  }
  return {
    'game-id': ctx.matchId,
    action: 'play-turn',
    game: 'connectfour',
    players: 2,
    opponent: ctx.names[1 - slot] ?? '',
    you: MARKS[slot]!,
    board: s.board.map((row) => row.slice()) as ('' | 'X' | 'O')[][],
    'player-index': seat,
  };
}

/**
 * Reads `{"play": column}`: a JSON integer 0..6 or a one-character string "0".."6". Everything else
 * (booleans, fractions, "03", " 3", "3.0", "-1", null) is refused, unlike the original's loose reading.
 */
export function parseAnswer(answer: unknown): Parsed<number> {
  const read = readPlay(answer);
  if (!('play' in read)) return read;
  const p = read.play;
  if (typeof p === 'number' && Number.isInteger(p) && p >= 0 && p < COLS) return { ok: true, action: p };
  if (typeof p === 'string' && /^[0-6]$/.test(p)) return { ok: true, action: Number(p) };
  return { ok: false, kind: 'bad-answer', detail: `"play" must be a column 0..6, as an integer or a one-digit string, got ${describeValue(p)}` };
}
