import { describeValue, type Parsed, type ViewContext } from '../../core/game.js';
import { MARKS, readPlay } from '../botsarena/duel.js';
import { CELLS, type CellKey, type TicTacToeState } from './rules.js';
import type { TicTacToeMessage } from './schema.js';

export type { TicTacToeInit, TicTacToeMessage, TicTacToeTurn } from './schema.js';

/** Builds the message for `slot`, field for field and in the original order. */
export function view(s: TicTacToeState, slot: number, ctx: ViewContext): TicTacToeMessage {
  const seat = slot as 0 | 1;
  if (ctx.phase === 'init') {
    return { 'game-id': ctx.matchId, action: 'init', game: 'tictactoe', players: 2, board: '', 'player-index': seat };
  }
  const board = {} as Record<CellKey, '' | 'X' | 'O'>;
  CELLS.forEach((k, i) => (board[k] = s.board[i] as '' | 'X' | 'O'));
  return { 'game-id': ctx.matchId, action: 'play-turn', game: 'tictactoe', players: 2, board, you: MARKS[slot]!, 'player-index': seat };
}

/** Reads `{"play":"r-c"}`: `play` must be exactly one of the nine keys. */
export function parseAnswer(answer: unknown): Parsed<CellKey> {
  const read = readPlay(answer);
  if (!('play' in read)) return read;
  if (typeof read.play === 'string' && (CELLS as readonly string[]).includes(read.play)) return { ok: true, action: read.play as CellKey };
  return { ok: false, kind: 'bad-answer', detail: `"play" must be a cell key "row-col" from "0-0" to "2-2", got ${describeValue(read.play)}` };
}
