import type { Point } from './geometry.js';

/** A parsed map: `island[y][x]` is 1 for island and 0 for water, row 0 at the bottom (the wire's form). */
export interface LighthouseMap {
  width: number;
  height: number;
  island: number[][];
  /** in scan order: y ascending, then x */
  lighthouses: [number, number][];
  /** start slots in the order players get them: by character code, then x, then y */
  starts: [number, number][];
}

/**
 * Reads a map in the reference text format: equal-width rows, the last line is y = 0; `#` water, space
 * island, `!` a lighthouse, any other character a start slot. Checks that the border is water, that
 * every island cell is reachable from every other in 8 directions, and that there is a lighthouse.
 * Throws an Error whose message says what is wrong and where.
 */
export function parseMap(text: string): LighthouseMap {
  const rows = text.replace(/\r/g, '').split('\n');
  while (rows.length && rows[rows.length - 1] === '') rows.pop();
  if (rows.length < 3) throw new Error(`a map needs at least 3 lines, got ${rows.length}`);
  const width = rows[0]!.length;
  const height = rows.length;
  rows.forEach((r, i) => {
    if (r.length !== width) throw new Error(`line ${i + 1} is ${r.length} characters wide, line 1 is ${width}: every line must have the same width`);
  });
  const island = Array.from({ length: height }, () => new Array<number>(width).fill(0));
  const lighthouses: [number, number][] = [];
  const starts: { ch: string; x: number; y: number }[] = [];
  for (let line = 0; line < height; line++) {
    const y = height - 1 - line;
    for (let x = 0; x < width; x++) {
      const ch = rows[line]![x]!;
      if (ch === '#') continue;
      island[y]![x] = 1;
      if (x === 0 || y === 0 || x === width - 1 || y === height - 1) {
        throw new Error(`line ${line + 1}, column ${x + 1} (x=${x}, y=${y}) is ${JSON.stringify(ch)} on the border: the whole border must be water ('#')`);
      }
      if (ch === '!') lighthouses.push([x, y]);
      else if (ch !== ' ') starts.push({ ch, x, y });
    }
  }
  lighthouses.sort((a, b) => a[1] - b[1] || a[0] - b[0]);
  if (!lighthouses.length) throw new Error("the map has no lighthouse ('!')");
  if (!starts.length) throw new Error('the map has no start slot (a character other than "#", " " and "!")');
  starts.sort((a, b) => (a.ch < b.ch ? -1 : a.ch > b.ch ? 1 : a.x - b.x || a.y - b.y));
  checkConnected(island, width, height);
  return { width, height, island, lighthouses, starts: starts.map((s) => [s.x, s.y]) };
}

/** Throws unless every island cell can reach every other by steps in the 8 directions. */
function checkConnected(island: number[][], width: number, height: number): void {
  const cells: Point[] = [];
  for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) if (island[y]![x]) cells.push([x, y]);
  const seen = new Set<number>([cells[0]![1] * width + cells[0]![0]]);
  const queue: Point[] = [cells[0]!];
  while (queue.length) {
    const [x, y] = queue.pop()!;
    for (let dy = -1; dy <= 1; dy++) {
      for (let dx = -1; dx <= 1; dx++) {
        const [nx, ny] = [x + dx, y + dy];
        const k = ny * width + nx;
        if (island[ny]?.[nx] && !seen.has(k)) {
          seen.add(k);
          queue.push([nx, ny]);
        }
      }
    }
  }
  const cut = cells.find(([x, y]) => !seen.has(y * width + x));
  if (cut) {
    const [x, y] = cut;
    throw new Error(
      `the island is split: cell x=${x}, y=${y} (line ${height - y}, column ${x + 1}) cannot be reached from x=${cells[0]![0]}, y=${cells[0]![1]}; every island cell must connect (8 directions)`,
    );
  }
}
