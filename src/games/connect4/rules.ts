import type { Move } from '../../core/game.js';
import { duelFromBoard, duelStep, MARKS, newDuel, readBoardRows, writeBoardRows, type DuelState } from '../botsarena/duel.js';

export const ROWS = 6;
export const COLS = 7;

/** Connect Four state: the duel bookkeeping and `board[row][col]` ('' | 'X' | 'O'), row 0 at the bottom. */
export interface ConnectFourState {
  duel: DuelState;
  board: string[][];
}

/** An empty 6×7 board, or the board of `--set board=…` (see `readBoard`). */
export function setup(board = ''): ConnectFourState {
  if (!board) return { duel: newDuel(), board: Array.from({ length: ROWS }, () => Array.from({ length: COLS }, () => '')) };
  const s = readBoard(board);
  if (typeof s === 'string') throw new Error(s);
  return s;
}

/**
 * A starting board: six rows of seven X, O and `.` separated by `/`, the top row (row 5) first, as it is
 * drawn. Pieces must rest on the bottom or on a piece; who plays next follows from the counts; a board
 * already won or full is refused, with the reason.
 */
export function readBoard(text: string): ConnectFourState | string {
  const rows = readBoardRows(text, ROWS, COLS);
  if (typeof rows === 'string') return `board: ${rows}`;
  const board = rows.reverse();
  for (let c = 0; c < COLS; c++) {
    for (let r = 1; r < ROWS; r++) {
      if (board[r]![c] !== '' && board[r - 1]![c] === '')
        return `board: the ${board[r]![c]} in column ${c}, row ${r} floats over an empty cell; pieces drop to the bottom`;
    }
  }
  const duel = duelFromBoard(board.flat());
  if (typeof duel === 'string') return `board: ${duel}`;
  for (let r = 0; r < ROWS; r++) {
    for (let c = 0; c < COLS; c++) {
      const line = board[r]![c] ? lineThrough(board, r, c) : null;
      if (line) return `board: ${board[r]![c]} already has four in a row (${line.kind}, through row ${r}, column ${c}); the game would be over`;
    }
  }
  if (board[ROWS - 1]!.every((v) => v !== '')) return 'board: the board is full; the game would be over';
  return { duel, board };
}

/** The board in the form `readBoard` reads (top row first). */
export function writeBoard(s: ConnectFourState): string {
  return writeBoardRows(s.board.slice().reverse());
}

/** The row a piece dropped in `col` lands on, or -1 when the column is full. */
export function landingRow(board: readonly (readonly string[])[], col: number): number {
  for (let r = 0; r < ROWS; r++) if (board[r]![col] === '') return r;
  return -1;
}

/** Why dropping in `col` is illegal now, or null: a column is playable while its top cell (row 5) is empty. */
export function check(s: ConnectFourState, _slot: number, col: number): string | null {
  return s.board[ROWS - 1]![col] !== '' ? `column ${col} is full; play a column whose top cell (row 5) is empty` : null;
}

const DIRECTIONS = [
  [0, 1, 'horizontal'],
  [1, 0, 'vertical'],
  [1, 1, 'diagonal'],
  [1, -1, 'diagonal'],
] as const;

/** The cells of the longest line of 4+ through (row, col) of that cell's mark, or null. */
export function lineThrough(board: readonly (readonly string[])[], row: number, col: number): { cells: [number, number][]; kind: string } | null {
  const mark = board[row]![col];
  for (const [dr, dc, kind] of DIRECTIONS) {
    const cells: [number, number][] = [[row, col]];
    for (const sign of [1, -1]) {
      let r = row + sign * dr;
      let c = col + sign * dc;
      while (r >= 0 && r < ROWS && c >= 0 && c < COLS && board[r]![c] === mark) {
        cells.push([r, c]);
        r += sign * dr;
        c += sign * dc;
      }
    }
    if (cells.length >= 4) return { cells: cells.sort((a, b) => a[0] - b[0] || a[1] - b[1]), kind };
  }
  return null;
}

/** Plays one step: the piece drops; 4+ in a row wins; a full board after a non-winning move is a draw. */
export function apply(s: ConnectFourState, moves: Move<number>[]): ConnectFourState {
  const col = duelStep(s.duel, moves);
  if (col === null) return s;
  const row = landingRow(s.board, col);
  s.board[row]![col] = MARKS[moves[0]!.slot]!;
  const line = lineThrough(s.board, row, col);
  if (line) {
    s.duel.winner = moves[0]!.slot;
    s.duel.ending = `four in a row (${line.kind}) at ${line.cells.map(([r, c]) => `row ${r} col ${c}`).join(', ')}`;
  } else if (s.duel.moves === ROWS * COLS) {
    s.duel.ending = 'the board is full';
  }
  return s;
}
