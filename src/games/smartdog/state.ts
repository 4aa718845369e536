import type { SmartDogOptions } from './options.js';

/** A direction as on the wire; `up` is y−1 (y grows downward). */
export type Direction = 'up' | 'down' | 'left' | 'right';

/** The four directions, in the order the wire's warning lists them. */
export const DIRECTIONS: readonly Direction[] = ['up', 'down', 'left', 'right'];

/** The step of each direction. */
export const STEP: Record<Direction, readonly [number, number]> = { up: [0, -1], down: [0, 1], left: [-1, 0], right: [1, 0] };

/** Where a sheep turns when its heading is blocked: left, right, then back, relative to the heading. */
export const TURNS: Record<Direction, readonly Direction[]> = {
  down: ['right', 'left', 'up'],
  up: ['left', 'right', 'down'],
  left: ['down', 'up', 'right'],
  right: ['up', 'down', 'left'],
};

/** How a scared dog is hampered: `panic` cannot move or bark, `indignant` cannot bark. */
export type DogScare = 'panic' | 'indignant';

/** A dog: position, its per-turn flags, and its scare bookkeeping. */
export interface Dog {
  id: number;
  owner: number;
  x: number;
  y: number;
  /** moved / barked in the current turn */
  moved: boolean;
  barked: boolean;
  /** barked in the previous turn (shown as `voice:"barking"`) */
  barkedPrev: boolean;
  /** the kind of scare while `scareTurns` > 0 */
  scare: DogScare | null;
  scareTurns: number;
  /** this turn: the latest enemy bark's kind (applied at the end of the turn), and whether an ally barked nearby */
  enemyHit: DogScare | null;
  allyHit: boolean;
}

/** A sheep: position, heading, and fear (counter, flight direction, and the sheep it caught fear through). */
export interface Sheep {
  x: number;
  y: number;
  heading: Direction;
  fear: number;
  fearDir: Direction;
  /** the fear chain as sheep indices (the barking dog at its head is not kept: a sheep never matches a dog) */
  chain: number[];
}

/** A player's tile: inclusive bounds. */
export interface Territory {
  x1: number;
  y1: number;
  x2: number;
  y2: number;
}

/**
 * The whole game as plain JSON. `terrain` rows use `.` grass, `#` fence, `^` tree and `1`–`4` for a
 * player's pen (the landscape as clients get it). `occ` is the occupancy of each cell (y·cols+x):
 * 0 empty, k > 0 dog k−1, k < 0 sheep −k−1; it always agrees with the objects' positions.
 */
export interface SmartDogState {
  options: SmartDogOptions;
  players: number;
  rows: number;
  cols: number;
  terrain: string[];
  territories: Territory[];
  /** per tile: all sheep (M) and sheep on pens (I) of the map part */
  tileSheep: number;
  tilePenned: number;
  /** in creation order */
  dogs: Dog[];
  sheep: Sheep[];
  occ: number[];
  /** the turn being played (1-based, as on the wire) */
  turn: number;
  /** per player (index player−1): has sent `end` this turn; is out for good (timeout/disconnect) */
  ended: boolean[];
  out: boolean[];
  scores: number[];
  finished: boolean;
  /**
   * a sheep that catches fear keeps its heading (botarena before it followed the reference here; the config's
   * `fearHeading` false, which older replays play by); absent or false: it faces its flight, as the reference
   */
  keepHeading?: boolean;
}

/** The board cell index of x, y. */
export const cellOf = (s: SmartDogState, x: number, y: number) => y * s.cols + x;

/** Wraps a coordinate onto a ring of size n. */
export const wrap = (v: number, n: number) => ((v % n) + n) % n;

/**
 * The shorter signed delta from a to b on a ring of size n; at exactly half the ring, the way that crosses
 * the board edge (positive when b < a, since going up from a must wrap past n−1 to reach b).
 */
export function torusDelta(a: number, b: number, n: number): number {
  const d = wrap(b - a, n);
  if (d * 2 < n) return d;
  if (d * 2 > n) return d - n;
  return b < a ? d : -d;
}

/** Whether b is within radius r of a on the board's torus (dx² + dy² ≤ r²). */
export function within(s: SmartDogState, ax: number, ay: number, bx: number, by: number, r: number): boolean {
  const dx = torusDelta(ax, bx, s.cols);
  const dy = torusDelta(ay, by, s.rows);
  return dx * dx + dy * dy <= r * r;
}

/** The 4-direction step from (ax, ay) toward (bx, by): the larger |delta| axis, ties (diagonals) vertical. */
export function directionToward(s: SmartDogState, ax: number, ay: number, bx: number, by: number): Direction {
  const dx = torusDelta(ax, bx, s.cols);
  const dy = torusDelta(ay, by, s.rows);
  if (Math.abs(dx) > Math.abs(dy)) return dx > 0 ? 'right' : 'left';
  return dy > 0 ? 'down' : 'up';
}

/** The cell one step from x, y in direction d, wrapped. */
export function stepFrom(s: SmartDogState, x: number, y: number, d: Direction): [number, number] {
  return [wrap(x + STEP[d][0], s.cols), wrap(y + STEP[d][1], s.rows)];
}

/** The terrain character at x, y. */
export const terrainAt = (s: SmartDogState, x: number, y: number) => s.terrain[y]![x]!;

/** Whether dogs and sheep may stand on this terrain: grass or any pen. */
export const walkable = (ch: string) => ch !== '#' && ch !== '^';

/** The owner digit of a pen cell, or 0 when the cell is not a pen. */
export const penOwner = (ch: string) => (ch >= '1' && ch <= '4' ? Number(ch) : 0);

/** Whether a dog or sheep can step onto x, y now: walkable terrain and no object. */
export function free(s: SmartDogState, x: number, y: number): boolean {
  return walkable(terrainAt(s, x, y)) && s.occ[cellOf(s, x, y)] === 0;
}

/** The territory containing x, y belongs to `player` (1-based). */
export function inTerritory(s: SmartDogState, player: number, x: number, y: number): boolean {
  const t = s.territories[player - 1]!;
  return x >= t.x1 && x <= t.x2 && y >= t.y1 && y <= t.y2;
}

/** Whether a dog is hampered now (its counter is above 0). */
export const dogScared = (d: Dog) => d.scareTurns > 0 && d.scare !== null;
