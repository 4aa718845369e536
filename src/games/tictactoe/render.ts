import { CELLS } from './rules.js';

/** The 3×3 board for a terminal, with row and column numbers ("row-col" as on the wire). */
export function renderBoard(cells: readonly string[]): string {
  const rows = [0, 1, 2].map((r) => `${r}   ${[0, 1, 2].map((c) => cells[r * 3 + c] || '.').join(' │ ')}`);
  return ['    0   1   2', rows.join('\n   ───┼───┼───\n')].join('\n');
}

/** The board of a play-turn message, in wire key order. */
export function cellsOfBoard(board: Record<string, string>): string[] {
  return CELLS.map((k) => board[k] ?? '');
}
