import { onSegment, rasterizeTriangle, segmentsCross, type Point } from './geometry.js';
import type { LighthouseMap } from './map.js';
import { pyRepr } from './pyrepr.js';

/** A lighthouse: its cell, owner (null when neutral) and energy. */
export interface Lighthouse {
  x: number;
  y: number;
  owner: number | null;
  energy: number;
}

/** A player: where it stands, its energy and score, the keys it holds (lighthouse indices) and its name. */
export interface Player {
  x: number;
  y: number;
  energy: number;
  score: number;
  keys: number[];
  name: string;
}

/** A triangle of three mutually connected lighthouses (indices, ascending), its owner and island cells. */
export interface Triangle {
  v: [number, number, number];
  owner: number;
  cells: number;
}

/** The whole game: plain JSON. `round` is the round being played; `current` the player to act in it. */
export interface LighthousesState {
  width: number;
  height: number;
  island: number[][];
  /** cell energy, `energy[y][x]` */
  energy: number[][];
  lighthouses: Lighthouse[];
  /** lighthouse index pairs, lower index first, in the order they were made */
  connections: [number, number][];
  triangles: Triangle[];
  players: Player[];
  round: number;
  rounds: number;
  current: number;
  inited: boolean;
  /** send a neutral owner as null (the reference engine) instead of -1 (the seed) */
  neutralNull: boolean;
}

/**
 * A command as read from a bot, its fields kept as sent so the checks can judge them in the reference's
 * order. What only the answer's text tells (see pyrepr.ts) comes beside them: `float` when `energy` was
 * written as a float (`5.0`, `5e0`), and `repr`, the reference's quote of an unknown command's value.
 */
export type Command =
  | { command: 'pass' }
  | { command: 'move'; x?: unknown; y?: unknown }
  | { command: 'attack'; energy?: unknown; float?: true }
  | { command: 'connect'; destination?: unknown }
  | { command: 'other'; name: unknown; repr?: string };

/** The greatest energy a cell holds. */
export const CELL_CAP = 100;

/** The map with nothing on it yet: no players, every lighthouse neutral, no energy, round 1 not begun. */
export function blankState(map: LighthouseMap, rounds: number, neutralNull = false): LighthousesState {
  return {
    width: map.width,
    height: map.height,
    island: map.island.map((r) => r.slice()),
    energy: map.island.map((r) => r.map(() => 0)),
    lighthouses: map.lighthouses.map(([x, y]) => ({ x, y, owner: null, energy: 0 })),
    connections: [],
    triangles: [],
    players: [],
    round: 1,
    rounds,
    current: 0,
    inited: false,
    neutralNull,
  };
}

/** The first state: players on their start slots, everything neutral, and round 1 begun. */
export function setupState(map: LighthouseMap, players: number, rounds: number, neutralNull = false): LighthousesState {
  const s = blankState(map, rounds, neutralNull);
  s.players = map.starts.slice(0, players).map(([x, y], i) => ({ x, y, energy: 0, score: 0, keys: [], name: `Player ${i}` }));
  startRound(s);
  return s;
}

/** The lighthouse index at (x, y), or -1. */
export function lighthouseAt(s: LighthousesState, x: number, y: number): number {
  return s.lighthouses.findIndex((l) => l.x === x && l.y === y);
}

/** Whether (x, y) is an island cell (false off the map). */
export function isIsland(s: LighthousesState, x: number, y: number): boolean {
  return s.island[y]?.[x] === 1;
}

/**
 * The island cells the lighthouses' energy reaches and how much each gets a round (from each lighthouse: 5 at
 * the lighthouse, 4 at distance 1, … 1 at distance 4), as flat [y, x, delta] triples, one per cell with the
 * deltas of every lighthouse that reaches it summed: the island and the lighthouses never move, so this is
 * worked out once per match (kept with its list of lighthouses, which a copy of the state does not share).
 * Summing is exact: the reference adds lighthouse by lighthouse, capping each time, and with deltas that are
 * never negative min(cap, min(cap, e + a) + b) = min(cap, e + a + b). One cell a round instead of one per
 * lighthouse reaching it: on `continent` 508 cells instead of 1 103 every round, which counts most in a fresh
 * process, where this loop runs unoptimised for much of a match.
 */
const growthCache = new WeakMap<Lighthouse[], Int32Array>();
function growthOf(s: LighthousesState): Int32Array {
  const cached = growthCache.get(s.lighthouses);
  if (cached) return cached;
  const at = new Map<number, number>(); // cell (y × width + x) → its index in `out`
  const out: number[] = [];
  for (const l of s.lighthouses) {
    for (let dy = -4; dy <= 4; dy++) {
      for (let dx = -4; dx <= 4; dx++) {
        const x = l.x + dx;
        const y = l.y + dy;
        const delta = Math.floor(5 - Math.sqrt(dx * dx + dy * dy));
        if (delta <= 0 || !isIsland(s, x, y)) continue;
        const i = at.get(y * s.width + x);
        if (i === undefined) {
          at.set(y * s.width + x, out.length);
          out.push(y, x, delta);
        } else out[i + 2]! += delta;
      }
    }
  }
  const cells = Int32Array.from(out);
  growthCache.set(s.lighthouses, cells);
  return cells;
}

/** Round start: energy growth, keys, collection, decay — in that order. */
export function startRound(s: LighthousesState): void {
  const cells = growthOf(s);
  for (let i = 0; i < cells.length; i += 3) {
    const row = s.energy[cells[i]!]!;
    const x = cells[i + 1]!;
    row[x] = Math.min(CELL_CAP, row[x]! + cells[i + 2]!);
  }
  for (const p of s.players) {
    const l = lighthouseAt(s, p.x, p.y);
    if (l >= 0 && !p.keys.includes(l)) p.keys = [...p.keys, l].sort((a, b) => a - b);
  }
  // Players on one cell share its energy equally (rounded down); the cell is emptied.
  const shares = s.players.map((p) => Math.floor(s.energy[p.y]![p.x]! / s.players.filter((q) => q.x === p.x && q.y === p.y).length));
  s.players.forEach((p, i) => (p.energy += shares[i]!));
  for (const p of s.players) s.energy[p.y]![p.x] = 0;
  s.lighthouses.forEach((l, i) => {
    l.energy -= 10;
    if (l.energy <= 0) neutralise(s, i);
  });
}

/** Makes a lighthouse neutral with no energy, deleting its connections and triangles. */
function neutralise(s: LighthousesState, i: number): void {
  const l = s.lighthouses[i]!;
  l.owner = null;
  l.energy = 0;
  // (A neutral lighthouse is neutralised again every round: its lists are copied only when they lose something.)
  if (s.connections.some(([a, b]) => a === i || b === i)) s.connections = s.connections.filter(([a, b]) => a !== i && b !== i);
  if (s.triangles.some((t) => t.v.includes(i))) s.triangles = s.triangles.filter((t) => !t.v.includes(i));
}

const isInt = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v);

/** An integer as the reference reads one: Python's bool is an int, so `true` is 1 and `false` 0; null when it is none. */
const pyInt = (v: unknown): number | null => (typeof v === 'boolean' ? Number(v) : isInt(v) ? v : null);

/** Why a command fails, with the reference engine's message, or null when it succeeds. Checks in the reference's order. */
export function commandError(s: LighthousesState, slot: number, c: Command): string | null {
  const p = s.players[slot]!;
  const here = lighthouseAt(s, p.x, p.y);
  switch (c.command) {
    case 'pass':
      return null;
    case 'move': {
      if (c.x === undefined || c.y === undefined) return 'Move command requires x, y';
      const [dx, dy] = [pyInt(c.x), pyInt(c.y)];
      if (dx === null || dy === null || Math.abs(dx) > 1 || Math.abs(dy) > 1) return 'Delta must be 1 cell away';
      if (!isIsland(s, p.x + dx, p.y + dy)) return 'Target pos is not in island';
      return null;
    }
    case 'attack': {
      const energy = c.float ? null : pyInt(c.energy);
      if (energy === null) return 'Attack command requires integer energy';
      if (here < 0) return 'Player must be located at target lighthouse';
      if (energy < 0) return 'Strength must be positive';
      return null;
    }
    case 'connect':
      return connectError(s, slot, here, c.destination);
    case 'other':
      return `Invalid command ${c.repr ?? pyRepr(c.name)}`;
  }
}

function connectError(s: LighthousesState, slot: number, origin: number, dest: unknown): string | null {
  if (dest === undefined) return 'Connect command requires destination';
  const nested = Array.isArray(dest) && dest.some((v) => typeof v === 'object' && v !== null);
  if (dest === null || typeof dest === 'number' || typeof dest === 'boolean' || nested) return 'Destination must be a coordinate pair';
  if (origin < 0) return 'Player must be located at the origin lighthouse';
  const [x, y] = Array.isArray(dest) && dest.length === 2 ? [pyInt(dest[0]), pyInt(dest[1])] : [null, null];
  const to = x !== null && y !== null ? lighthouseAt(s, x, y) : -1;
  if (to < 0) return 'Destination must be an existing lighthouse';
  if (s.lighthouses[origin]!.owner !== slot || s.lighthouses[to]!.owner !== slot) return 'Both lighthouses must be player-owned';
  if (!s.players[slot]!.keys.includes(to)) return 'Player does not have the destination key';
  if (to === origin) return 'Cannot connect lighthouse to itself';
  const [a, b] = origin < to ? [origin, to] : [to, origin];
  if (s.connections.some(([x, y]) => x === a && y === b)) return 'Connection already exists';
  const pa = pos(s, origin);
  const pb = pos(s, to);
  if (s.lighthouses.some((_, i) => i !== origin && i !== to && onSegment(pa, pb, pos(s, i)))) return 'Connection cannot intersect a lighthouse';
  if (s.connections.some(([x, y]) => segmentsCross(pa, pb, pos(s, x), pos(s, y)))) return 'Connection cannot intersect another connection';
  return null;
}

/** The cell of lighthouse i. */
export function pos(s: LighthousesState, i: number): Point {
  const l = s.lighthouses[i]!;
  return [l.x, l.y];
}

/** Applies a command that `commandError` accepted; a failed command is never applied (it is a pass). */
export function applyCommand(s: LighthousesState, slot: number, c: Command): void {
  const p = s.players[slot]!;
  if (c.command === 'move') {
    p.x += pyInt(c.x)!;
    p.y += pyInt(c.y)!;
  } else if (c.command === 'attack') {
    attack(s, slot, lighthouseAt(s, p.x, p.y), Math.min(pyInt(c.energy)!, p.energy));
  } else if (c.command === 'connect') {
    const [dx, dy] = c.destination as [unknown, unknown];
    connect(s, slot, lighthouseAt(s, p.x, p.y), lighthouseAt(s, pyInt(dx)!, pyInt(dy)!));
  }
}

function attack(s: LighthousesState, slot: number, i: number, n: number): void {
  const l = s.lighthouses[i]!;
  s.players[slot]!.energy -= n;
  if (l.owner !== null && l.owner !== slot) {
    const d = Math.min(l.energy, n);
    l.energy -= d;
    if (l.energy === 0) neutralise(s, i);
    n -= d;
    if (n === 0) return;
  }
  if (n > 0) {
    l.owner = slot;
    l.energy += n;
  }
}

function connect(s: LighthousesState, slot: number, o: number, d: number): void {
  const p = s.players[slot]!;
  p.keys = p.keys.filter((k) => k !== d);
  addConnection(s, slot, o, d);
}

/** Adds the connection origin `o` → destination `d` for `owner`, first adding the triangles it closes (found from `o`'s connections, in order). */
export function addConnection(s: LighthousesState, owner: number, o: number, d: number): void {
  const has = (a: number, b: number) => s.connections.some(([x, y]) => (x === a && y === b) || (x === b && y === a));
  for (const [a, b] of s.connections) {
    const t = a === o ? b : b === o ? a : -1;
    if (t < 0 || !has(t, d)) continue;
    const cells = rasterizeTriangle(pos(s, o), pos(s, d), pos(s, t)).filter(([x, y]) => isIsland(s, x, y)).length;
    s.triangles.push({ v: [o, d, t].sort((m, n) => m - n) as [number, number, number], owner, cells });
  }
  s.connections.push(o < d ? [o, d] : [d, o]);
}

/** Round end: each player scores its lighthouses, connections and triangles; then the next round begins (if any). */
export function endRound(s: LighthousesState): void {
  s.players.forEach((p, slot) => {
    const owned = s.lighthouses.filter((l) => l.owner === slot).length;
    const links = s.connections.filter(([a]) => s.lighthouses[a]!.owner === slot).length;
    const area = s.triangles.filter((t) => t.owner === slot).reduce((sum, t) => sum + t.cells, 0);
    p.score += 2 * owned + 2 * links + area;
  });
  s.round++;
  s.current = 0;
  if (s.round <= s.rounds) startRound(s);
}
