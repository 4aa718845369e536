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
  return s.death.flatMap((d, slot) => (d ? [] : [slot]));
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
  const targets = new Map<number, [number, number]>();
  const dying = new Map<number, string>();
  for (const m of moves) {
    if (m.fault) {
      dying.set(m.slot, `${m.fault.kind}: ${m.fault.detail}`);
      continue;
    }
    const [hx, hy] = s.trails[m.slot]![s.trails[m.slot]!.length - 1]!;
    const [dx, dy] = STEP[m.action];
    const x = hx + dx;
    const y = hy + dy;
    if (x < 0 || y < 0 || x >= s.width || y >= s.height) dying.set(m.slot, `left the grid at ${x},${y} (${m.action})`);
    else if (grid[key(s, x, y)]) {
      const owner = grid[key(s, x, y)]! - 1;
      dying.set(m.slot, owner === m.slot ? `hit its own trail at ${x},${y}` : `hit the trail of slot ${owner} at ${x},${y}`);
    } else targets.set(m.slot, [x, y]);
  }
  for (const [slot, [x, y]] of targets) {
    const others = [...targets].filter(([o, [ox, oy]]) => o !== slot && ox === x && oy === y).map(([o]) => o);
    if (others.length) dying.set(slot, `head-on with slot ${others.join(', slot ')} at ${x},${y}`);
  }
  for (const [slot, cell] of targets) {
    if (dying.has(slot)) continue;
    s.trails[slot]!.push(cell);
    grid[key(s, cell[0], cell[1])] = slot + 1;
  }
  for (const [slot, cause] of dying) {
    s.death[slot] = { lap, cause };
    for (const [x, y] of s.trails[slot]!) if (grid[key(s, x, y)] === slot + 1) grid[key(s, x, y)] = 0;
  }
  s.lap = lap;
  return s;
}
