import { describeValue, type Parsed, type ViewContext } from '../../core/game.js';
import { MARKS, readPlay } from '../botsarena/duel.js';
import { CELLS, type CellKey, type TicTacToeState } from './rules.js';

/** The init message, as botsarena sent it. */
export interface TicTacToeInit {
  'game-id': string;
  action: 'init';
  game: 'tictactoe';
  players: 2;
  board: '';
  'player-index': number;
}

/** The play-turn message: the board as nine "row-col" keys, and the mark you play. */
export interface TicTacToeTurn {
  'game-id': string;
  action: 'play-turn';
  game: 'tictactoe';
  players: 2;
  board: Record<CellKey, '' | 'X' | 'O'>;
  you: 'X' | 'O';
  'player-index': number;
}

/** A message to a tic-tac-toe bot. */
export type TicTacToeMessage = TicTacToeInit | TicTacToeTurn;

/** Builds the message for `slot`, field for field and in the original order. */
export function view(s: TicTacToeState, slot: number, ctx: ViewContext): TicTacToeMessage {
  if (ctx.phase === 'init') {
    return { 'game-id': ctx.matchId, action: 'init', game: 'tictactoe', players: 2, board: '', 'player-index': slot };
  }
  const board = {} as Record<CellKey, '' | 'X' | 'O'>;
  CELLS.forEach((k, i) => (board[k] = s.board[i] as '' | 'X' | 'O'));
  return { 'game-id': ctx.matchId, action: 'play-turn', game: 'tictactoe', players: 2, board, you: MARKS[slot]!, 'player-index': slot };
}

/** Reads `{"play":"r-c"}`: `play` must be exactly one of the nine keys. */
export function parseAnswer(answer: unknown): Parsed<CellKey> {
  const read = readPlay(answer);
  if (!('play' in read)) return read;
  if (typeof read.play === 'string' && (CELLS as readonly string[]).includes(read.play)) return { ok: true, action: read.play as CellKey };
  return { ok: false, kind: 'bad-answer', detail: `"play" must be a cell key "row-col" from "0-0" to "2-2", got ${describeValue(read.play)}` };
}
