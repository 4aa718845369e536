import { STEP, type Direction } from './state.js';

/** What a bot learns from `start` and `landscape`. */
export interface BotGame {
  you: number;
  rows: number;
  cols: number;
  players: number;
  x1: number;
  x2: number;
  y1: number;
  y2: number;
  dogVisibilityR: number;
  dogBarkingR: number;
  sheepStandBy: number;
  turnsLimit: number;
  landscape: string[];
}

/** One `obj` line, read. */
export interface SeenObject {
  id?: number;
  type?: 'Dog' | 'Sheep';
  x: number;
  y: number;
  owner?: number;
  action?: string;
  direction?: Direction;
  voice?: string;
}

/** One turn's view, read. */
export interface BotTurn {
  turn: number;
  objects: SeenObject[];
}

/** The argument of a server line as JSON (the wire drops the outer braces or brackets). */
function argOf(line: string, cmd: string, wrap: '{}' | '[]'): unknown {
  return JSON.parse(wrap[0] + line.slice(cmd.length).trim() + wrap[1]);
}

/** Reads the `start` and `landscape` lines a bot got at the start of a game. */
export function readStart(lines: readonly string[]): BotGame {
  const start = lines.find((l) => l.startsWith('start '));
  const land = lines.find((l) => l.startsWith('landscape '));
  if (!start || !land) throw new Error('a smart-dog bot needs the start and landscape lines');
  return { ...(argOf(start, 'start', '{}') as Omit<BotGame, 'landscape'>), landscape: argOf(land, 'landscape', '[]') as string[] };
}

/** Reads a turn's `state` and `obj` lines. */
export function readTurn(lines: readonly string[]): BotTurn {
  let turn = 0;
  const objects: SeenObject[] = [];
  for (const l of lines) {
    if (l.startsWith('state ')) turn = (argOf(l, 'state', '{}') as { turn: number }).turn;
    else if (l.startsWith('obj ')) objects.push(argOf(l, 'obj', '{}') as SeenObject);
  }
  return { turn, objects };
}

const DIRS: readonly Direction[] = ['up', 'down', 'left', 'right'];
const DIR_INDEX: Record<Direction, number> = { up: 0, down: 1, left: 2, right: 3 };

/** Torus helpers for bots, on a board of the given size. */
export class Torus {
  /** neighbours of each cell, 4 per cell in DIRS order (built once: bots search the board every turn) */
  private readonly next: Int32Array;
  constructor(
    readonly cols: number,
    readonly rows: number,
  ) {
    this.next = new Int32Array(cols * rows * 4);
    for (let c = 0; c < cols * rows; c++) {
      const x = c % cols;
      const y = Math.floor(c / cols);
      DIRS.forEach((d, k) => (this.next[c * 4 + k] = this.cell(x + STEP[d][0], y + STEP[d][1])));
    }
  }
  /** the cell index of x, y after wrapping */
  cell(x: number, y: number): number {
    return (((y % this.rows) + this.rows) % this.rows) * this.cols + (((x % this.cols) + this.cols) % this.cols);
  }
  /** x, y of a cell index */
  xy(c: number): [number, number] {
    return [c % this.cols, Math.floor(c / this.cols)];
  }
  /** the neighbour of cell c in direction d */
  step(c: number, d: Direction): number {
    return this.next[c * 4 + DIR_INDEX[d]]!;
  }
  /** the shorter signed delta on a ring, the half-ring tie crossing the edge (as the rules do) */
  delta(a: number, b: number, n: number): number {
    const d = (((b - a) % n) + n) % n;
    if (d * 2 < n) return d;
    if (d * 2 > n) return d - n;
    return b < a ? d : -d;
  }
  /** squared torus distance between two cells */
  dist2(a: number, b: number): number {
    const [ax, ay] = this.xy(a);
    const [bx, by] = this.xy(b);
    const dx = this.delta(ax, bx, this.cols);
    const dy = this.delta(ay, by, this.rows);
    return dx * dx + dy * dy;
  }
  /** the flight direction of a sheep at b barked at from a */
  away(a: number, b: number): Direction {
    const [ax, ay] = this.xy(a);
    const [bx, by] = this.xy(b);
    const dx = this.delta(ax, bx, this.cols);
    const dy = this.delta(ay, by, this.rows);
    if (Math.abs(dx) > Math.abs(dy)) return dx > 0 ? 'right' : 'left';
    return dy > 0 ? 'down' : 'up';
  }
  /** breadth-first step counts from `sources` over cells where `open` holds, up to `maxDepth` (−1 unreached) */
  bfs(sources: number[], open: (c: number) => boolean, maxDepth = Infinity): Int32Array {
    const dist = new Int32Array(this.cols * this.rows).fill(-1);
    const queue: number[] = [];
    for (const c of sources) {
      dist[c] = 0;
      queue.push(c);
    }
    for (let h = 0; h < queue.length; h++) {
      const c = queue[h]!;
      if (dist[c]! >= maxDepth) break;
      for (let k = 0; k < 4; k++) {
        const n = this.next[c * 4 + k]!;
        if (dist[n] !== -1 || !open(n)) continue;
        dist[n] = dist[c]! + 1;
        queue.push(n);
      }
    }
    return dist;
  }
}
