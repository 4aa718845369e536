import { cellOf, free, penOwner, stepFrom, terrainAt, TURNS, wrap, type Direction, type SmartDogState } from './state.js';

/** Whether sheep make their normal move on wire turn `turn`. */
export const isMoveTurn = (s: SmartDogState, turn: number) => turn % (s.options.sheepStandBy + 1) === 0;

/** Whether sheep i stands on a pen (of any owner): it then never moves by itself. */
export const onPen = (s: SmartDogState, i: number) => penOwner(terrainAt(s, s.sheep[i]!.x, s.sheep[i]!.y)) > 0;

/** The sheep index at x, y, or −1. */
function sheepAt(s: SmartDogState, x: number, y: number): number {
  const o = s.occ[cellOf(s, x, y)]!;
  return o < 0 ? -o - 1 : -1;
}

/**
 * Sheep i catches fear from the first scared sheep among its 8 neighbours (columns x−1, x, x+1, and in
 * each rows y−1, y, y+1), unless i is in that sheep's fear chain. Used by phase (c) and by a push.
 * The flight direction becomes its heading at once, as in the original, where a sheep has a single
 * direction: one that caught fear in phase (c) and calmed down before it could flee (sheepScaryTurns 1)
 * shows, and next walks, the way it was scared.
 */
export function catchFear(s: SmartDogState, i: number): void {
  const me = s.sheep[i]!;
  if (me.fear > 0) return;
  for (let dx = -1; dx <= 1; dx++) {
    for (let dy = -1; dy <= 1; dy++) {
      if (dx === 0 && dy === 0) continue;
      const j = sheepAt(s, wrap(me.x + dx, s.cols), wrap(me.y + dy, s.rows));
      if (j < 0 || j === i || s.sheep[j]!.fear <= 0) continue;
      const src = s.sheep[j]!;
      // Only the first scared neighbour counts, even when i must stay calm because of the chain.
      if (src.chain.includes(i)) return;
      me.fear = s.options.sheepScaryTurns;
      me.fearDir = src.fearDir;
      if (!s.keepHeading) me.heading = src.fearDir;
      me.chain = [...src.chain, j];
      return;
    }
  }
}

/** Moves sheep i to x, y, keeping the occupancy in step. */
function place(s: SmartDogState, i: number, x: number, y: number): void {
  const sh = s.sheep[i]!;
  s.occ[cellOf(s, sh.x, sh.y)] = 0;
  sh.x = x;
  sh.y = y;
  s.occ[cellOf(s, x, y)] = -i - 1;
}

/** The bookkeeping of one sheep phase. */
interface Phase {
  moveTurn: boolean;
  moved: boolean[];
  hadTurn: boolean[];
  pushed: boolean[];
}

/** One try of sheep i in direction d; a sheep in the way is pushed once, then the step is tried again. */
function tryStep(s: SmartDogState, p: Phase, i: number, d: Direction): boolean {
  const sh = s.sheep[i]!;
  const [x, y] = stepFrom(s, sh.x, sh.y, d);
  if (free(s, x, y)) {
    place(s, i, x, y);
    return true;
  }
  const j = sheepAt(s, x, y);
  if (j < 0 || p.pushed[j]) return false;
  push(s, p, j);
  if (!free(s, x, y)) return false;
  place(s, i, x, y);
  return true;
}

/** A pushed sheep: it checks for fear, then makes its own move at once unless it moved or had its turn. */
function push(s: SmartDogState, p: Phase, j: number): void {
  p.pushed[j] = true;
  catchFear(s, j);
  if (!p.moved[j] && !p.hadTurn[j]) ownMove(s, p, j);
  p.pushed[j] = false;
}

/** Sheep i's move: a flight step when scared, else its normal move on a move turn when not on a pen. */
function ownMove(s: SmartDogState, p: Phase, i: number): void {
  const sh = s.sheep[i]!;
  if (sh.fear > 0) {
    sh.heading = sh.fearDir;
    if (tryStep(s, p, i, sh.fearDir)) p.moved[i] = true;
    return;
  }
  if (!p.moveTurn || onPen(s, i)) return;
  for (const d of [sh.heading, ...TURNS[sh.heading]]) {
    if (tryStep(s, p, i, d)) {
      sh.heading = d;
      p.moved[i] = true;
      return;
    }
  }
}

/** The sheep phase of the current turn: (a) flight of the scared, (b) everyone else, (c) fear spreads. */
export function sheepPhase(s: SmartDogState): void {
  const n = s.sheep.length;
  const p: Phase = { moveTurn: isMoveTurn(s, s.turn), moved: Array(n).fill(false), hadTurn: Array(n).fill(false), pushed: Array(n).fill(false) };
  for (let i = 0; i < n; i++) {
    // A sheep already moved by a push has made its one step of the turn.
    if (s.sheep[i]!.fear <= 0 || p.moved[i]) continue;
    p.hadTurn[i] = true;
    ownMove(s, p, i);
  }
  for (let i = 0; i < n; i++) {
    if (p.hadTurn[i] || p.moved[i]) continue;
    p.hadTurn[i] = true;
    ownMove(s, p, i);
  }
  for (let i = 0; i < n; i++) catchFear(s, i);
}

/** Before a turn: each scared sheep counts its fear down; at 0 it is calm and forgets its chain. */
export function sheepCountdown(s: SmartDogState): void {
  for (const sh of s.sheep) {
    if (sh.fear <= 0) continue;
    sh.fear--;
    if (sh.fear <= 0) {
      sh.fear = 0;
      sh.chain = [];
    }
  }
}
