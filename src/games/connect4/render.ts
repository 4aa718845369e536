import { COLS } from './rules.js';

/** The board for a terminal: row 5 at the top, column numbers underneath. */
export function renderBoard(board: readonly (readonly string[])[]): string {
  const rows = [...board].reverse().map((row) => `│ ${row.map((v) => v || '.').join(' ')} │`);
  return [...rows, `└${'─'.repeat(COLS * 2 + 1)}┘`, `  ${Array.from({ length: COLS }, (_, c) => c).join(' ')}`].join('\n');
}
