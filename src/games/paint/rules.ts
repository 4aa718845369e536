import type { Move } from '../../core/game.js';

/** A square [row, column], or a direction [drow, dcol]. */
export type Vec = [number, number];

/** One player's action for a turn, directions already read as integers and checked. */
export interface PaintAction {
  type: 'walk' | 'shoot';
  direction: Vec;
}

/** The colour of an unpainted square in `colors`. */
export const EMPTY = -1;
/** An obstacle square in `colors`: never painted, never entered (the obstacles variant). */
export const OBSTACLE = -2;

/** The 8 valid directions, in the reference engine's order. */
export const DIRECTIONS: readonly Vec[] = [
  [-1, -1], [-1, 0], [-1, 1],
  [0, -1], [0, 1],
  [1, -1], [1, 0], [1, 1],
];

/**
 * What one turn changes: the grid (row-major, a slot number, EMPTY or OBSTACLE) and the avatars.
 * Built-in bots simulate turns on their own copies of this, with typed arrays.
 */
export interface Field {
  width: number;
  height: number;
  colors: number[] | Int16Array;
  /** slot → [row, column] */
  positions: Vec[];
  /** when present, every square a turn paints is noted here as (square, slot) pairs, in painting order */
  painted?: number[];
}

/**
 * Paint state. `colors` holds slot numbers so a turn never compares strings; the wire turns them back
 * into player ids. `history[t][slot]` is the action counted for that slot on turn t+1 (null: none).
 */
export interface PaintState extends Field {
  colors: number[];
  /** slot → player id, in the board's order (the order of `player_positions` on the wire) */
  ids: string[];
  /** obstacle squares as listed on the wire (also marked OBSTACLE in `colors`); [] when the board has none */
  obstacles: Vec[];
  turns: number;
  turnsLeft: number;
  history: (PaintAction | null)[][];
  /** false until the ready handshake was answered */
  started: boolean;
  /** the players that failed the ready handshake (the match then ends before any turn), with why */
  unresponsive: { slot: number; detail: string }[];
}

/**
 * Plays one turn on `f` in place, exactly as the reference engine: walks with repeated cancellation,
 * every avatar paints its square, then all shots (ranges first) as projectiles advanced in lock step.
 */
export function resolveTurn(f: Field, actions: readonly (PaintAction | null)[]): void {
  walk(f, actions);
  shoot(f, actions);
}

/** Walks: targets off the board (or on an obstacle) stay put; moves into shared squares are undone until none is shared. */
function walk(f: Field, actions: readonly (PaintAction | null)[]): void {
  const { width: w, height: h, colors, positions } = f;
  const n = positions.length;
  const from = positions.map(([i, j]) => i * w + j);
  const target = from.slice();
  const moving: boolean[] = [];
  for (let s = 0; s < n; s++) {
    const a = actions[s];
    moving.push(false);
    if (a?.type !== 'walk') continue;
    const i = positions[s]![0] + a.direction[0];
    const j = positions[s]![1] + a.direction[1];
    if (i < 0 || j < 0 || i >= h || j >= w || colors[i * w + j] === OBSTACLE) continue;
    target[s] = i * w + j;
    moving[s] = true;
  }
  const count = new Map<number, number>();
  while (true) {
    count.clear();
    for (let s = 0; s < n; s++) {
      const at = moving[s] ? target[s]! : from[s]!;
      count.set(at, (count.get(at) ?? 0) + 1);
    }
    let cancelled = false;
    // Every walker aiming at a shared square goes back; the others stay, so the loop ends.
    for (let s = 0; s < n; s++) {
      if (moving[s] && count.get(target[s]!)! > 1) {
        moving[s] = false;
        cancelled = true;
      }
    }
    if (!cancelled) break;
  }
  for (let s = 0; s < n; s++) {
    const at = moving[s] ? target[s]! : from[s]!;
    positions[s] = [Math.floor(at / w), at % w];
    colors[at] = s;
    f.painted?.push(at, s);
  }
}

/** Shots on the post-walk field: every range from the trail behind the shooter, then the projectiles. */
function shoot(f: Field, actions: readonly (PaintAction | null)[]): void {
  const { width: w, height: h, colors, positions } = f;
  const shots: { s: number; i: number; j: number; di: number; dj: number; range: number }[] = [];
  for (let s = 0; s < positions.length; s++) {
    const a = actions[s];
    if (a?.type !== 'shoot') continue;
    const [i, j] = positions[s]!;
    const [di, dj] = a.direction;
    shots.push({ s, i, j, di, dj, range: shotRange(f, s, di, dj) });
  }
  if (!shots.length) return;
  const avatars = new Set(positions.map(([i, j]) => i * w + j));
  const painted = new Set<number>();
  const here = new Map<number, number>();
  let active = shots;
  while (active.length) {
    here.clear();
    for (const shot of active) {
      shot.i += shot.di;
      shot.j += shot.dj;
      shot.range--;
      const inside = shot.i >= 0 && shot.j >= 0 && shot.i < h && shot.j < w;
      if (inside) here.set(shot.i * w + shot.j, (here.get(shot.i * w + shot.j) ?? 0) + 1);
    }
    const survivors = active.filter((shot) => {
      if (shot.i < 0 || shot.j < 0 || shot.i >= h || shot.j >= w) return false;
      const k = shot.i * w + shot.j;
      return colors[k] !== OBSTACLE && !painted.has(k) && here.get(k) === 1 && !avatars.has(k);
    });
    // Paint only after every removal is decided: two shots meeting in a square both die unpainted.
    for (const shot of survivors) {
      const k = shot.i * w + shot.j;
      colors[k] = shot.s;
      painted.add(k);
      f.painted?.push(k, shot.s);
    }
    active = survivors.filter((shot) => shot.range > 0);
  }
}

/** A shot's range: max(1, n − 1), n = own-coloured squares from the shooter's square backwards (opposite the shot). */
export function shotRange(f: Field, slot: number, di: number, dj: number): number {
  const { width: w, height: h, colors } = f;
  let [i, j] = f.positions[slot]!;
  let n = 0;
  while (i >= 0 && j >= 0 && i < h && j < w && colors[i * w + j] === slot) {
    n++;
    i -= di;
    j -= dj;
  }
  return Math.max(1, n - 1);
}

/** Applies one turn of moves (faults are no action) and does the bookkeeping: history and turns_left. */
export function applyTurn(s: PaintState, moves: Move<PaintAction>[]): PaintState {
  const actions: (PaintAction | null)[] = s.ids.map(() => null);
  for (const m of moves) if (!m.fault) actions[m.slot] = m.action;
  s.painted = []; // what this turn paints: the turn's step fingerprint covers these squares, not the board
  resolveTurn(s, actions);
  s.history.push(actions);
  s.turnsLeft--;
  return s;
}

/** Squares of each slot's colour. */
export function scores(s: Field & { ids: string[] }): number[] {
  const out = s.ids.map(() => 0);
  for (const c of s.colors) if (c >= 0) out[c]!++;
  return out;
}
