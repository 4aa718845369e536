import { describeValue, type Parsed, type ViewContext } from '../../core/game.js';
import { MARKS, readPlay } from '../botsarena/duel.js';
import { COLS, type ConnectFourState } from './rules.js';

/** The init message (wire game name "connectfour"). */
export interface ConnectFourInit {
  'game-id': string;
  action: 'init';
  game: 'connectfour';
  players: 2;
  board: '';
  'player-index': number;
}

/** The play-turn message: the other bot's name, your mark, `board[row][col]` with row 0 at the bottom. */
export interface ConnectFourTurn {
  'game-id': string;
  action: 'play-turn';
  game: 'connectfour';
  players: 2;
  opponent: string;
  you: 'X' | 'O';
  board: ('' | 'X' | 'O')[][];
  'player-index': number;
}

/** A message to a Connect Four bot. */
export type ConnectFourMessage = ConnectFourInit | ConnectFourTurn;

/** Builds the message for `slot`, field for field and in the original order. */
export function view(s: ConnectFourState, slot: number, ctx: ViewContext): ConnectFourMessage {
  if (ctx.phase === 'init') {
    return { 'game-id': ctx.matchId, action: 'init', game: 'connectfour', players: 2, board: '', 'player-index': slot };
  }
  return {
    'game-id': ctx.matchId,
    action: 'play-turn',
    game: 'connectfour',
    players: 2,
    opponent: ctx.names[1 - slot] ?? '',
    you: MARKS[slot]!,
    board: s.board.map((row) => row.slice()) as ('' | 'X' | 'O')[][],
    'player-index': slot,
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
