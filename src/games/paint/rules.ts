import type { Move } from '../../core/game.js';
import { sharedPair } from '../../core/pairs.js';

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
  [-1, -1],
  [-1, 0],
  [-1, 1],
  [0, -1],
  [0, 1],
  [1, -1],
  [1, 0],
  [1, 1],
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
  /**
   * set by a turn resolved with `noting`: every square it painted, as (square, slot) pairs, in painting
   * order, in the list's first `paintedCount` numbers (the same list from turn to turn, rewritten in place
   * and never shortened: setting an array's length calls into V8's runtime, 2 % of a small board's turn)
   */
  painted?: number[] | null;
  paintedCount?: number;
}

/**
 * Paint state. `colors` holds slot numbers so a turn never compares strings; the wire turns them back
 * into player ids. `history[t][slot]` is the action counted for that slot on turn t+1 (null: none).
 */
export interface PaintState extends Field {
  colors: number[];
  painted: number[] | null;
  paintedCount: number;
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
 * With `noting`, `f.painted` then starts with the squares the turn painted (`f.paintedCount` numbers).
 */
export function resolveTurn(f: Field, actions: readonly (PaintAction | null)[], noting = false): void {
  // The list is rewritten in place: a new one each turn, grown by pushes from empty, was a fifth of a
  // turn's garbage.
  const notes = noting ? (f.painted ??= []) : null;
  const noted = shoot(f, actions, notes, walk(f, actions, notes));
  if (notes) f.paintedCount = noted;
}

/**
 * Scratch for a turn, reused from turn to turn (a turn reads only what it wrote): per square, a count and
 * a stamp; per avatar, its square, target and whether it moves; per shot, where it is, its step and range, the square it reached and whether it lives.
 */
const scratch = {
  count: new Int32Array(0),
  stamp: new Int32Array(0),
  mark: 0,
  from: new Int32Array(0),
  target: new Int32Array(0),
  moving: new Uint8Array(0),
  keep: new Uint8Array(0),
  where: new Int32Array(0),
  shots: new Int32Array(0),
};

function squares(w: number, h: number): void {
  if (scratch.count.length < w * h) {
    scratch.count = new Int32Array(w * h);
    scratch.stamp = new Int32Array(w * h);
    scratch.mark = 0;
  }
}

function avatars(n: number): void {
  if (scratch.from.length < n) {
    scratch.from = new Int32Array(n);
    scratch.target = new Int32Array(n);
    scratch.moving = new Uint8Array(n);
    scratch.keep = new Uint8Array(n);
    scratch.where = new Int32Array(n);
    scratch.shots = new Int32Array(6 * n);
  }
}

/** A fresh stamp: squares stamped with it are this step's (no clearing between steps). */
function nextMark(): number {
  if (++scratch.mark === 0x7fffffff) {
    scratch.stamp.fill(0);
    scratch.mark = 1;
  }
  return scratch.mark;
}

/**
 * Walks: targets off the board (or on an obstacle) stay put; moves into shared squares are undone until none is
 * shared. Notes the squares it paints in `notes` when given, from its start; returns how many numbers it wrote.
 */
function walk(f: Field, actions: readonly (PaintAction | null)[], notes: number[] | null): number {
  const { width: w, height: h, colors, positions } = f;
  const n = positions.length;
  squares(w, h);
  avatars(n);
  const { count, from, target, moving } = scratch;
  let noted = 0;
  for (let s = 0; s < n; s++) {
    const [i0, j0] = positions[s]!;
    from[s] = target[s] = i0 * w + j0;
    moving[s] = 0;
    const a = actions[s];
    if (a?.type !== 'walk') continue;
    const i = i0 + a.direction[0];
    const j = j0 + a.direction[1];
    if (i < 0 || j < 0 || i >= h || j >= w || colors[i * w + j] === OBSTACLE) continue;
    target[s] = i * w + j;
    moving[s] = 1;
  }
  // Every walker aiming at a shared square goes back; the others stay, so the loop ends.
  for (let cancelled = true; cancelled;) {
    cancelled = false;
    for (let s = 0; s < n; s++) {
      const at = moving[s] ? target[s]! : from[s]!;
      count[at] = count[at]! + 1;
    }
    for (let s = 0; s < n; s++) {
      if (moving[s] && count[target[s]!]! > 1) {
        moving[s] = 0;
        cancelled = true;
      }
    }
    for (let s = 0; s < n; s++) count[target[s]!] = count[from[s]!] = 0;
  }
  for (let s = 0; s < n; s++) {
    const at = moving[s] ? target[s]! : from[s]!;
    if (moving[s]) positions[s] = sharedPair((at - (at % w)) / w, at % w);
    colors[at] = s;
    if (notes) {
      notes[noted++] = at;
      notes[noted++] = s;
    }
  }
  return noted;
}

// A shot in `scratch.shots`: six numbers.
const SLOT = 0;
const I = 1;
const J = 2;
const DI = 3;
const DJ = 4;
const RANGE = 5;

/**
 * Shots on the post-walk field: every range from the trail behind the shooter, then the projectiles. Notes the
 * squares they paint in `notes` when given, from number `noted` on; returns how many numbers it holds then.
 */
function shoot(f: Field, actions: readonly (PaintAction | null)[], notes: number[] | null, noted: number): number {
  const { width: w, height: h, colors, positions } = f;
  const n = positions.length;
  avatars(n);
  const shots = scratch.shots;
  let live = 0;
  for (let s = 0; s < n; s++) {
    const a = actions[s];
    if (a?.type !== 'shoot') continue;
    const [di, dj] = a.direction;
    const k = 6 * live++;
    shots[k + SLOT] = s;
    shots[k + I] = positions[s]![0];
    shots[k + J] = positions[s]![1];
    shots[k + DI] = di;
    shots[k + DJ] = dj;
    shots[k + RANGE] = shotRange(f, s, di, dj);
  }
  if (!live) return noted;
  squares(w, h);
  const { count, stamp, keep, where } = scratch;
  // Squares stamped `avatar` hold an avatar; `painted`, a square a shot painted this turn.
  const avatar = nextMark();
  for (let s = 0; s < n; s++) stamp[positions[s]![0] * w + positions[s]![1]] = avatar;
  const painted = nextMark();
  while (live) {
    // Each shot moves one square: `where` it is now (-1: off the board).
    for (let x = 0; x < live; x++) {
      const k = 6 * x;
      const i = (shots[k + I] = shots[k + I]! + shots[k + DI]!);
      const j = (shots[k + J] = shots[k + J]! + shots[k + DJ]!);
      shots[k + RANGE] = shots[k + RANGE]! - 1;
      const sq = i >= 0 && j >= 0 && i < h && j < w ? i * w + j : -1;
      where[x] = sq;
      if (sq >= 0) count[sq] = count[sq]! + 1;
    }
    // Which shots survive this step, decided before any paints: two shots meeting in a square both die unpainted.
    for (let x = 0; x < live; x++) {
      const sq = where[x]!;
      keep[x] = sq >= 0 && colors[sq] !== OBSTACLE && count[sq] === 1 && stamp[sq] !== painted && stamp[sq] !== avatar ? 1 : 0;
    }
    for (let x = 0; x < live; x++) if (where[x]! >= 0) count[where[x]!] = 0;
    let kept = 0;
    for (let x = 0; x < live; x++) {
      if (!keep[x]) continue;
      const k = 6 * x;
      const sq = where[x]!;
      colors[sq] = shots[k + SLOT]!;
      stamp[sq] = painted;
      if (notes) {
        notes[noted++] = sq;
        notes[noted++] = shots[k + SLOT]!;
      }
      // A shot with range left flies on: moved down over the ones that stop.
      if (shots[k + RANGE]! > 0) shots.copyWithin(6 * kept++, k, k + 6);
    }
    live = kept;
  }
  return noted;
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
  // What this turn paints is noted: the turn's step fingerprint covers these squares, not the board.
  resolveTurn(s, actions, true);
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
