import type { Move } from '../../core/game.js';
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
  const out: number[] = [];
  for (let slot = 0; slot < s.death.length; slot++) if (!s.death[slot]) out.push(slot);
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

/** Applies one lap to the snapshot: faults, trails, head-on, the edge; then survivors grow and the dead leave. */
export function applyLap(s: TronState, moves: Move<Direction>[]): TronState {
  const grid = gridOf(s);
  const lap = s.lap + 1;
  const w = s.width;
  // Per move, in move order: the cell it enters (-1: none), and why it dies (null: it lives).
  const n = moves.length;
  const target: number[] = [];
  const cause: (string | null)[] = [];
  for (let i = 0; i < n; i++) {
    const m = moves[i]!;
    target.push(-1);
    cause.push(null);
    if (m.fault) {
      cause[i] = `${m.fault.kind}: ${m.fault.detail}`;
      continue;
    }
    const trail = s.trails[m.slot]!;
    const head = trail[trail.length - 1]!;
    const a = m.action;
    const x = head[0] + (a === 'x+' ? 1 : a === 'x-' ? -1 : 0);
    const y = head[1] + (a === 'y+' ? 1 : a === 'y-' ? -1 : 0);
    if (x < 0 || y < 0 || x >= w || y >= s.height) cause[i] = `left the grid at ${x},${y} (${m.action})`;
    else if (grid[y * w + x]) {
      const owner = grid[y * w + x]! - 1;
      cause[i] = owner === m.slot ? `hit its own trail at ${x},${y}` : `hit the trail of slot ${owner} at ${x},${y}`;
    } else target[i] = y * w + x;
  }
  for (let i = 0; i < n; i++) {
    const t = target[i]!;
    if (t < 0) continue;
    let others: number[] | null = null;
    for (let j = 0; j < n; j++) if (j !== i && target[j] === t) (others ??= []).push(moves[j]!.slot);
    if (others) cause[i] = `head-on with slot ${others.join(', slot ')} at ${t % w},${(t - (t % w)) / w}`;
  }
  for (let i = 0; i < n; i++) {
    const t = target[i]!;
    if (t < 0 || cause[i] !== null) continue;
    s.trails[moves[i]!.slot]!.push([t % w, (t - (t % w)) / w]);
    grid[t] = moves[i]!.slot + 1;
  }
  for (let i = 0; i < n; i++) {
    if (cause[i] === null) continue;
    const slot = moves[i]!.slot;
    s.death[slot] = { lap, cause: cause[i]! };
    for (const [x, y] of s.trails[slot]!) if (grid[key(s, x, y)] === slot + 1) grid[key(s, x, y)] = 0;
  }
  s.lap = lap;
  return s;
}

