// A Connect Four starter bot in TypeScript, with Botarena's SDK (`botarena/sdk`).
// It wins when it can, blocks the other bot's four when it must, else plays the non-full column nearest the centre.
// <%run-line%>
// Rules and every message: docs/games/connect4.md in the botarena package.
import { type ConnectFourAnswer, type ConnectFourMessage, type ConnectFourTurn, type InitAnswer } from 'botarena/sdk';

/** The board as the message gives it: `board[row][col]`, row 0 at the BOTTOM, 6 rows of 7 cells "", "X" or "O". */
export type Board = ConnectFourTurn['board'];

const ROWS = 6;
const COLS = 7;
/** Columns from the centre out: the centre takes part in the most lines. */
const CENTRE_FIRST = [3, 2, 4, 1, 5, 0, 6];

/**
 * <%debug-doc%>
 */
function debug(text: string): void {
  process.stderr.write(`[connect4-bot] ${text}\n`);
}

/** The row a piece dropped in `col` lands on, or -1 when the column is full (its top cell, row 5, is taken). */
export function landingRow(board: Board, col: number): number {
  for (let row = 0; row < ROWS; row++) if (board[row]?.[col] === '') return row;
  return -1;
}

/** Whether a `mark` piece at (row, col) would make four in a row (horizontal, vertical or diagonal). */
function makesFour(board: Board, row: number, col: number, mark: 'X' | 'O'): boolean {
  const at = (r: number, c: number) => (r === row && c === col ? mark : board[r]?.[c]);
  for (const [dr, dc] of [[0, 1], [1, 0], [1, 1], [1, -1]] as const) {
    let count = 1;
    for (const sign of [1, -1]) {
      for (let k = 1; k < 4 && at(row + sign * k * dr, col + sign * k * dc) === mark; k++) count++;
    }
    if (count >= 4) return true;
  }
  return false;
}

/** Chooses the move for one play-turn message: always a column whose top cell is empty. */
export function chooseMove(m: ConnectFourTurn): ConnectFourAnswer {
  const me = m.you;
  const other = me === 'X' ? 'O' : 'X';
  const open = CENTRE_FIRST.filter((c) => landingRow(m.board, c) >= 0);
  // ==== your strategy goes here ====
  // `m.board[row][col]` (row 0 at the bottom), `m.you` your mark. Return a column 0..6 that is not full:
  // a full one loses the game at once (illegal-move).
  const wins = (mark: 'X' | 'O') => open.find((c) => makesFour(m.board, landingRow(m.board, c), c, mark));
  const col = wins(me) ?? wins(other) ?? open[0];
  if (col === undefined) throw new Error('every column is full: the arena never asks on a full board');
  return { play: col };
}

/** Answers one message: the init (the answer is not used; a name is the convention), or a turn. */
export function handle(m: ConnectFourMessage): InitAnswer | ConnectFourAnswer {
  if (m.action === 'init') {
    debug(`hello: I am slot ${m['player-index']} (${m['player-index'] === 0 ? 'X' : 'O'}); ${ROWS}×${COLS} board`);
    return { name: 'ts-starter' };
  }
  return chooseMove(m);
}
