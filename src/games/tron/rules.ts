import type { Move } from '../../core/game.js';
import { sharedPair } from '../../core/pairs.js';
import { rngCreate, rngInt, type RngState } from '../../core/rng.js';

/** A direction as on the wire. */
export type Direction = 'x+' | 'x-' | 'y+' | 'y-';

/** The four directions, in the order the original stupid bot tries them. */
export const DIRECTIONS: readonly Direction[] = ['x+', 'x-', 'y+', 'y-'];

/** The step of each direction. */
export const STEP: Record<Direction, readonly [number, number]> = { 'x+': [1, 0], 'x-': [-1, 0], 'y+': [0, 1], 'y-': [0, -1] };

/** How and when a bot died. */
export interface Death {
  lap: number;
  cause: string;
}

/**
 * Tron state. Trails are kept tail first (a move appends the new head); the wire sends them head first.
 * Dead bots keep their trail here (for viewers) but it leaves the board from the next lap on.
 */
export interface TronState {
  width: number;
  height: number;
  rng: RngState;
  initsLeft: number;
  /** laps played */
  lap: number;
  trails: [number, number][][];
  death: (Death | null)[];
}

/** Seeded starts: x in 1..W−1, y in 1..H−1, redrawn only when equal to an earlier start. */
export function setup(width: number, height: number, players: number, seed: number): TronState {
  const rng = rngCreate(seed);
  const starts: [number, number][] = [];
  while (starts.length < players) {
    const cell: [number, number] = [rngInt(rng, 1, width - 1), rngInt(rng, 1, height - 1)];
    if (!starts.some(([x, y]) => x === cell[0] && y === cell[1])) starts.push(cell);
  }
  return { width, height, rng, initsLeft: players, lap: 0, trails: starts.map((c) => [c]), death: starts.map(() => null) };
}

/** Slots still alive. */
export function living(s: TronState): number[] {
  let count = 0;
  for (let slot = 0; slot < s.death.length; slot++) if (!s.death[slot]) count++;
  const out = new Array<number>(count);
  for (let slot = 0, i = 0; slot < s.death.length; slot++) if (!s.death[slot]) out[i++] = slot;
  return out;
}

const key = (s: TronState, x: number, y: number) => y * s.width + x;

/**
 * The occupancy grid of the board as bots see it (trails of the living; dead trails are gone),
 * cached per state object and rebuilt from the trails when missing (after a clone or a fork).
 */
const grids = new WeakMap<TronState, Uint8Array>();
export function gridOf(s: TronState): Uint8Array {
  let g = grids.get(s);
  if (!g) {
    g = new Uint8Array(s.width * s.height);
    s.trails.forEach((t, slot) => {
      if (!s.death[slot]) for (const [x, y] of t) g![key(s, x, y)] = slot + 1;
    });
    grids.set(s, g);
  }
  return g;
}

/**
 * Applies one lap to the snapshot: faults, trails, head-on, the edge; then survivors grow and the dead leave.
 * (Its lists are made at their final length, and the causes only on a lap where a bot dies: grown by
 * pushes from empty, each with room for 17, they were a third of the garbage a lap made.)
 */
export function applyLap(s: TronState, moves: Move<Direction>[]): TronState {
  const grid = gridOf(s);
  const lap = s.lap + 1;
  const w = s.width;
  // Per move, in move order: the cell it enters (-1: none), and why it dies (no list, or null: it lives).
  const n = moves.length;
  const target: number[] = new Array<number>(n);
  let cause: (string | null)[] | null = null;
  for (let i = 0; i < n; i++) {
    const m = moves[i]!;
    target[i] = -1;
    if (m.fault) {
      cause = dies(cause, n, i, `${m.fault.kind}: ${m.fault.detail}`);
      continue;
    }
    const trail = s.trails[m.slot]!;
    const head = trail[trail.length - 1]!;
    const a = m.action;
    const x = head[0] + (a === 'x+' ? 1 : a === 'x-' ? -1 : 0);
    const y = head[1] + (a === 'y+' ? 1 : a === 'y-' ? -1 : 0);
    if (x < 0 || y < 0 || x >= w || y >= s.height) cause = dies(cause, n, i, `left the grid at ${x},${y} (${m.action})`);
    else if (grid[y * w + x]) {
      const owner = grid[y * w + x]! - 1;
      cause = dies(cause, n, i, owner === m.slot ? `hit its own trail at ${x},${y}` : `hit the trail of slot ${owner} at ${x},${y}`);
    } else target[i] = y * w + x;
  }
  for (let i = 0; i < n; i++) {
    const t = target[i]!;
    if (t < 0) continue;
    let others: number[] | null = null;
    for (let j = 0; j < n; j++) if (j !== i && target[j] === t) (others ??= []).push(moves[j]!.slot);
    if (others) cause = dies(cause, n, i, `head-on with slot ${others.join(', slot ')} at ${t % w},${(t - (t % w)) / w}`);
  }
  for (let i = 0; i < n; i++) {
    const t = target[i]!;
    if (t < 0 || (cause !== null && cause[i] !== null)) continue;
    s.trails[moves[i]!.slot]!.push(sharedPair(t % w, (t - (t % w)) / w));
    grid[t] = moves[i]!.slot + 1;
  }
  if (cause !== null) {
    for (let i = 0; i < n; i++) {
      if (cause[i] === null) continue;
      const slot = moves[i]!.slot;
      s.death[slot] = { lap, cause: cause[i]! };
      for (const [x, y] of s.trails[slot]!) if (grid[key(s, x, y)] === slot + 1) grid[key(s, x, y)] = 0;
    }
  }
  s.lap = lap;
  return s;
}

/**
 * Why moving `dir` from `slot`'s head kills it this lap whatever the others do (the edge or a trail on the
 * board this lap: trails of bots that die this lap still stand until it ends), or null. Head-ons depend on
 * the others' moves, so they are not certain and not named here.
 */
export function deadEnd(s: TronState, slot: number, dir: Direction): string | null {
  const trail = s.trails[slot]!;
  const head = trail[trail.length - 1]!;
  const x = head[0] + STEP[dir][0];
  const y = head[1] + STEP[dir][1];
  if (x < 0 || y < 0 || x >= s.width || y >= s.height) return `it leaves the grid at ${x},${y}`;
  const owner = gridOf(s)[key(s, x, y)]!;
  if (!owner) return null;
  return owner - 1 === slot ? `it hits its own trail at ${x},${y}` : `it hits the trail of slot ${owner - 1} at ${x},${y}`;
}

/** Notes why move `i` of `n` dies: the lap's causes, made (all null) on its first death. */
function dies(cause: (string | null)[] | null, n: number, i: number, why: string): (string | null)[] {
  const list = cause ?? new Array<string | null>(n).fill(null);
  list[i] = why;
  return list;
}
