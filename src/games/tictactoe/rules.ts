import type { Move } from '../../core/game.js';
import { duelFromBoard, duelStep, MARKS, newDuel, readBoardRows, writeBoardRows, type DuelState } from '../botsarena/duel.js';

/** A cell key as on the wire: "row-col", rows and columns 0..2. */
export type CellKey = `${0 | 1 | 2}-${0 | 1 | 2}`;

/** The nine keys in wire order (row by row). */
export const CELLS: readonly CellKey[] = ['0-0', '0-1', '0-2', '1-0', '1-1', '1-2', '2-0', '2-1', '2-2'];

/** Tic-tac-toe state: the duel bookkeeping and the nine cells ('' empty, 'X', 'O') in CELLS order. */
export interface TicTacToeState {
  duel: DuelState;
  board: string[];
}

/** The eight lines, as indexes into the board. */
export const LINES: readonly (readonly [number, number, number])[] = [
  [0, 1, 2],
  [3, 4, 5],
  [6, 7, 8], // rows
  [0, 3, 6],
  [1, 4, 7],
  [2, 5, 8], // columns
  [0, 4, 8],
  [2, 4, 6], // diagonals
];

/** An empty board, X to play after both inits; or the board of `--set board=…` (see `readBoard`). */
export function setup(board = ''): TicTacToeState {
  if (!board) return { duel: newDuel(), board: Array<string>(9).fill('') };
  const s = readBoard(board);
  if (typeof s === 'string') throw new Error(s);
  return s;
}

/**
 * A starting board: three rows of X, O and `.` separated by `/`, row 0 first (`X.O/.X./...`). Who plays
 * next follows from the counts; a board already won or full is refused, with the reason.
 */
export function readBoard(text: string): TicTacToeState | string {
  const rows = readBoardRows(text, 3, 3);
  if (typeof rows === 'string') return `board: ${rows}`;
  const board = rows.flat();
  const duel = duelFromBoard(board);
  if (typeof duel === 'string') return `board: ${duel}`;
  for (const mark of MARKS) {
    const line = lineOf(board, mark);
    if (line) return `board: ${mark} already has three in a row (${line.map((i) => CELLS[i]).join(', ')}); the game would be over`;
  }
  if (board.every((c) => c !== '')) return 'board: the board is full; the game would be over';
  return { duel, board };
}

/** The board in the form `readBoard` reads. */
export function writeBoard(s: TicTacToeState): string {
  return writeBoardRows([s.board.slice(0, 3), s.board.slice(3, 6), s.board.slice(6, 9)]);
}

/** Why playing `cell` is illegal now, or null. */
export function check(s: TicTacToeState, _slot: number, cell: CellKey): string | null {
  const v = s.board[CELLS.indexOf(cell)];
  return v ? `cell ${cell} is taken by ${v}; play an empty cell` : null;
}

/** The line completed by `mark`, or null. */
export function lineOf(board: readonly string[], mark: string): readonly number[] | null {
  return LINES.find((l) => l.every((i) => board[i] === mark)) ?? null;
}

/** Plays one step: a line wins (checked before the full-board test, so a line on move 9 wins). */
export function apply(s: TicTacToeState, moves: Move<CellKey>[]): TicTacToeState {
  const cell = duelStep(s.duel, moves);
  if (cell === null) return s;
  const mark = MARKS[moves[0]!.slot]!;
  s.board[CELLS.indexOf(cell)] = mark;
  const line = lineOf(s.board, mark);
  if (line) {
    s.duel.winner = moves[0]!.slot;
    s.duel.ending = `three in a row ${line.map((i) => CELLS[i]).join(', ')}`;
  } else if (s.board.every((v) => v !== '')) {
    s.duel.ending = 'the board is full';
  }
  return s;
}
