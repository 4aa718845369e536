/**
 * Alpha-beta search for Connect Four on a flat board: cell (row, col) at row * 7 + col, row 0 at the
 * bottom; 1 = the player to move at the root, 2 = the opponent, 0 = empty.
 */
const R = 6;
const C = 7;
const ORDER = [3, 2, 4, 1, 5, 0, 6];
const WIN = 1_000_000;

/** Every window of four cells, precomputed once. */
const WINDOWS: number[][] = [];
for (let r = 0; r < R; r++) {
  for (let c = 0; c < C; c++) {
    for (const [dr, dc] of [
      [0, 1],
      [1, 0],
      [1, 1],
      [1, -1],
    ] as const) {
      const cells = [0, 1, 2, 3].map((k) => [r + k * dr, c + k * dc] as const);
      if (cells.every(([rr, cc]) => rr >= 0 && rr < R && cc >= 0 && cc < C)) WINDOWS.push(cells.map(([rr, cc]) => rr * C + cc));
    }
  }
}
const WEIGHT = [0, 1, 8, 60];

/** Whether the piece just placed at `cell` makes four for `p`. */
function wins(b: Uint8Array, cell: number, p: number): boolean {
  const r0 = Math.floor(cell / C);
  const c0 = cell % C;
  for (const [dr, dc] of [
    [0, 1],
    [1, 0],
    [1, 1],
    [1, -1],
  ] as const) {
    let n = 1;
    for (const s of [1, -1]) {
      let r = r0 + s * dr;
      let c = c0 + s * dc;
      while (r >= 0 && r < R && c >= 0 && c < C && b[r * C + c] === p) {
        n++;
        r += s * dr;
        c += s * dc;
      }
    }
    if (n >= 4) return true;
  }
  return false;
}

/** Static value for player 1: open windows weighted by how full they are, plus the centre column. */
function evaluate(b: Uint8Array): number {
  let v = 0;
  for (const w of WINDOWS) {
    let a = 0;
    let o = 0;
    for (const i of w) {
      if (b[i] === 1) a++;
      else if (b[i] === 2) o++;
    }
    if (o === 0) v += WEIGHT[a]!;
    else if (a === 0) v -= WEIGHT[o]!;
  }
  for (let r = 0; r < R; r++) v += b[r * C + 3] === 1 ? 3 : b[r * C + 3] === 2 ? -3 : 0;
  return v;
}

function negamax(b: Uint8Array, h: Uint8Array, p: number, depth: number, alpha: number, beta: number): number {
  // An immediate win ends the search (`wins` counts the empty target cell as p's).
  for (const c of ORDER) if (h[c]! < R && wins(b, h[c]! * C + c, p)) return WIN + depth;
  let any = false;
  if (depth === 0) return p === 1 ? evaluate(b) : -evaluate(b);
  let best = -Infinity;
  for (const c of ORDER) {
    if (h[c]! >= R) continue;
    any = true;
    const cell = h[c]! * C + c;
    b[cell] = p;
    h[c]!++;
    const v = -negamax(b, h, 3 - p, depth - 1, -beta, -alpha);
    h[c]!--;
    b[cell] = 0;
    if (v > best) best = v;
    if (best > alpha) alpha = best;
    if (alpha >= beta) break;
  }
  return any ? best : 0; // a full board is a draw
}

/**
 * Scores each playable column for the player to move (1) by a depth-limited alpha-beta search.
 * `board` is row-major with row 0 at the bottom. Returns [column, score] pairs.
 */
export function scoreColumns(board: Uint8Array, depth: number): [number, number][] {
  const h = new Uint8Array(C);
  for (let c = 0; c < C; c++) while (h[c]! < R && board[h[c]! * C + c] !== 0) h[c]!++;
  const out: [number, number][] = [];
  for (const c of ORDER) {
    if (h[c]! >= R) continue;
    const cell = h[c]! * C + c;
    board[cell] = 1;
    h[c]!++;
    const v = wins(board, cell, 1) ? WIN + depth + 1 : -negamax(board, h, 2, depth - 1, -Infinity, Infinity);
    h[c]!--;
    board[cell] = 0;
    out.push([c, v]);
  }
  return out;
}
