import type { Dog, Sheep, Territory } from './state.js';

/** A parsed map part: its options line (raw), its rows, and its size. */
export interface MapPart {
  options: Record<string, unknown>;
  rows: string[];
  width: number;
  height: number;
}

const CELLS = '.#^-@*o';

/**
 * Parses a map part: an optional first line of JSON options, then rows of `.` `#` `^` `-` `@` `*` `o`.
 * Rows are trimmed and blank lines dropped. Errors name the line (1-based, as in the text) and column. A part
 * with no sheep is played (people drill dog moves and barks on one); every score is then 0.
 */
export function parseMapPart(text: string, name = 'map'): MapPart {
  const lines = text.split(/\r?\n/);
  let options: Record<string, unknown> = {};
  const rows: string[] = [];
  const lineNo: number[] = [];
  let first = true;
  lines.forEach((raw, i) => {
    const line = raw.trim();
    if (line === '') return;
    if (first && line.startsWith('{')) {
      first = false;
      let parsed: unknown;
      try {
        parsed = JSON.parse(line);
      } catch (e) {
        throw new Error(`${name} line ${i + 1}: the options line is not valid JSON (${(e as Error).message})`);
      }
      if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error(`${name} line ${i + 1}: the options line must be a JSON object`);
      options = parsed as Record<string, unknown>;
      return;
    }
    first = false;
    for (let c = 0; c < line.length; c++) {
      if (!CELLS.includes(line[c]!)) {
        throw new Error(`${name} line ${i + 1}, column ${c + 1}: unknown character ${JSON.stringify(line[c])}; expected one of ${CELLS.split('').join(' ')}`);
      }
    }
    rows.push(line);
    lineNo.push(i + 1);
  });
  if (rows.length === 0) throw new Error(`${name}: no rows; a map part needs at least one row of cells`);
  const width = rows[0]!.length;
  rows.forEach((r, k) => {
    if (r.length !== width)
      throw new Error(`${name} line ${lineNo[k]}: row has ${r.length} cells, but the first row (line ${lineNo[0]}) has ${width}; rows must all be as wide`);
  });
  const count = (chars: string) => rows.reduce((n, r) => n + [...r].filter((ch) => chars.includes(ch)).length, 0);
  if (count('@') === 0) throw new Error(`${name}: no dog; put at least one @ (a dog on grass) in the part`);
  return { options, rows, width, height: rows.length };
}

/** Tile layouts per player count: 0 is an all-grass tile, p a copy of the part owned by player p. */
export const LAYOUTS: Record<number, number[][]> = {
  1: [[1]],
  2: [[1, 2]],
  3: [
    [1, 0, 0],
    [0, 2, 0],
    [0, 0, 3],
  ],
  4: [
    [1, 0, 3, 0],
    [0, 2, 0, 4],
  ],
};

/** The tiled board: terrain with pens as owner digits, territories, and objects in creation order. */
export interface Board {
  rows: number;
  cols: number;
  terrain: string[];
  territories: Territory[];
  dogs: Dog[];
  sheep: Sheep[];
  tileSheep: number;
  tilePenned: number;
}

/**
 * Tiles a part for `players` players. Creation order: tiles in the layout's reading order, and inside a
 * tile the part's cells row by row; dog ids count up from `firstDogId` in that order.
 */
export function tileBoard(part: MapPart, players: number, firstDogId = 1): Board {
  const layout = LAYOUTS[players];
  if (!layout) throw new Error(`smart-dog is played by 1 to 4 players, not ${players}`);
  const { width: w, height: h } = part;
  const rows = layout.length * h;
  const cols = layout[0]!.length * w;
  const grid: string[][] = Array.from({ length: rows }, () => Array<string>(cols).fill('.'));
  const territories: Territory[] = [];
  const dogs: Dog[] = [];
  const sheep: Sheep[] = [];
  layout.forEach((tileRow, ty) =>
    tileRow.forEach((owner, tx) => {
      if (owner === 0) return;
      const ox = tx * w;
      const oy = ty * h;
      territories[owner - 1] = { x1: ox, y1: oy, x2: ox + w - 1, y2: oy + h - 1 };
      part.rows.forEach((row, y) =>
        [...row].forEach((ch, x) => {
          const X = ox + x;
          const Y = oy + y;
          grid[Y]![X] = ch === '-' || ch === 'o' ? String(owner) : ch === '#' || ch === '^' ? ch : '.';
          if (ch === '@') dogs.push(newDog(firstDogId + dogs.length, owner, X, Y));
          if (ch === '*' || ch === 'o') sheep.push({ x: X, y: Y, heading: 'down', fear: 0, fearDir: 'down', chain: [] });
        }),
      );
    }),
  );
  const count = (chars: string) => part.rows.reduce((n, r) => n + [...r].filter((ch) => chars.includes(ch)).length, 0);
  return { rows, cols, terrain: grid.map((r) => r.join('')), territories, dogs, sheep, tileSheep: count('*o'), tilePenned: count('o') };
}

function newDog(id: number, owner: number, x: number, y: number): Dog {
  return { id, owner, x, y, moved: false, barked: false, barkedPrev: false, scare: null, scareTurns: 0, enemyHit: null, allyHit: false };
}
