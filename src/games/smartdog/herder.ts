import { readStart, readTurn, Torus, type SeenObject } from './bot-view.js';
import { DIRECTIONS, type Direction } from './state.js';

/** How long a sheep seen out of sight is still believed to stand where it was. */
const MEMORY_TURNS = 12;
/** How far (in dog steps) a dog looks for a place to bark from, what a step costs, and the least worth of a bark. */
const REACH = 14;
const TRAVEL = 0.15;
const GOOD = 0.4;
/** How long a cell stays off the list of places to bark from, once barking there only made the sheep go round. */
const BAN_TURNS = 12;

/**
 * The herder: drives stray sheep toward its pen by barking from behind them, keeps its penned sheep in
 * (it never barks where a penned sheep of its own would flee onto grass), and barks at enemy dogs that
 * come near its pen. It explores the least recently seen cells when it knows of no stray sheep.
 */
export function createHerder(startLines: readonly string[]): (viewLines: readonly string[]) => string[] {
  const g = readStart(startLines);
  const t = new Torus(g.cols, g.rows);
  const n = g.cols * g.rows;
  const land = g.landscape.join('');
  const walk = (c: number) => land[c] !== '#' && land[c] !== '^';
  const myPen = (c: number) => land[c] === String(g.you);
  const enemyPen = (c: number) => land[c]! >= '1' && land[c]! <= '4' && !myPen(c);
  const penCells = [...Array(n).keys()].filter(myPen);
  const penDist = t.bfs(penCells, walk);
  const lastSeen = new Int32Array(n).fill(-1000);
  const memory = new Map<number, number>(); // sheep cell → turn seen
  // What the dogs and sheep looked like on the last turns, and the cells barking from is banned from (until a turn).
  const seenBefore: string[] = [];
  const banned = new Map<number, number>();
  const R2 = g.dogBarkingR * g.dogBarkingR;
  const V = g.dogVisibilityR;
  const inMine = (c: number) => {
    const [x, y] = t.xy(c);
    return x >= g.x1 && x <= g.x2 && y >= g.y1 && y <= g.y2;
  };

  return (viewLines) => {
    const { turn, objects } = readTurn(viewLines);
    const at = (o: SeenObject) => t.cell(o.x, o.y);
    const mine = objects.filter((o) => o.type === 'Dog' && o.owner === g.you).sort((a, b) => a.id! - b.id!);
    for (const d of mine) {
      for (let dx = -V; dx <= V; dx++)
        for (let dy = -V; dy <= V; dy++) {
          if (dx * dx + dy * dy > V * V) continue;
          const c = t.cell(d.x + dx, d.y + dy);
          lastSeen[c] = turn;
          memory.delete(c);
        }
    }
    for (const [c, seen] of memory) if (turn - seen > MEMORY_TURNS) memory.delete(c);
    for (const o of objects) if (o.type === 'Sheep') memory.set(at(o), turn);
    const occupied = new Set(objects.filter((o) => o.type).map(at));
    // Fear spreading between sheep can make a bark swing a herd to and fro for ever (the same picture
    // every other turn): then barking from where our dogs stand is banned for a while.
    const picture = objects.map((o) => `${o.type}${at(o)}${o.action}`).join(' ');
    if (seenBefore.at(-2) === picture || seenBefore.at(-1) === picture) for (const d of mine) banned.set(at(d), turn + BAN_TURNS);
    seenBefore.push(picture);
    if (seenBefore.length > 2) seenBefore.shift();
    const ok = (c: number) => (banned.get(c) ?? 0) <= turn;
    const enemies = objects.filter((o) => o.type === 'Dog' && o.owner !== g.you && o.action === 'move').map(at);

    const sheepCells = [...memory.keys()];
    const dogsNow = new Set(objects.filter((o) => o.type === 'Dog').map(at));
    /** sheep our earlier barks this turn already scared, with the gain credited to them */
    const credited = new Map<number, number>();
    /** What one sheep's step from q to a is worth to us (negative is good), in steps toward our pen. */
    const gain = (q: number, a: number) => {
      if (myPen(q)) return myPen(a) ? 0 : 10;
      if (myPen(a)) return -5;
      let v = penDist[q]! >= 0 && penDist[a]! >= 0 ? penDist[a]! - penDist[q]! : 0;
      if (enemyPen(q) && !enemyPen(a)) v -= 2;
      return v;
    };
    /** The worth of a bark from p: each sheep in range flees one step (a later bark replaces an earlier one). */
    const value = (p: number, among: readonly number[] = sheepCells) => {
      let v = 0;
      for (const q of among) {
        if (t.dist2(p, q) > R2) continue;
        const next = t.step(q, t.away(p, q));
        let dv = 0;
        if (walk(next) && !dogsNow.has(next)) dv = memory.has(next) ? 0.5 * gain(q, next) : gain(q, next);
        v += dv - (credited.get(q) ?? 0);
      }
      return v;
    };
    const credit = (p: number) => {
      for (const q of sheepCells) {
        if (t.dist2(p, q) > R2) continue;
        const next = t.step(q, t.away(p, q));
        credited.set(q, walk(next) && !dogsNow.has(next) ? gain(q, next) : 0);
      }
    };

    const out: string[] = [];
    for (const dog of mine) {
      if (dog.action === 'panic') continue;
      let here = at(dog);
      let barked = dog.action === 'indignant';
      const bark = () => {
        out.push(`do ${dog.id} bark`);
        credit(here);
        barked = true;
      };
      const move = (d: Direction) => {
        const next = t.step(here, d);
        out.push(`do ${dog.id} move ${d}`);
        occupied.delete(here);
        dogsNow.delete(here);
        occupied.add(next);
        dogsNow.add(next);
        here = next;
      };
      // Defence: an enemy dog in range that can still bark is barked at first (it panics or turns
      // indignant), as long as the bark costs us nothing; one near our pen even at a small cost.
      const threat = enemies.filter((e) => t.dist2(here, e) <= R2);
      const nearPen = threat.some((e) => inMine(e) || (penDist[e]! >= 0 && penDist[e]! <= 6));
      if (!barked && threat.length && value(here) <= (nearPen ? 1 : 0)) bark();

      const open = (c: number) => walk(c) && !occupied.has(c);
      let dist = t.bfs([here], open, REACH);
      // Only sheep a bark from some reachable cell could hear; keeps the search cheap on large boards.
      const far = (REACH + g.dogBarkingR) ** 2;
      const near = sheepCells.filter((q) => t.dist2(here, q) <= far);
      let best = -1;
      let bestScore = Infinity;
      for (let c = 0; c < n; c++) {
        if (dist[c]! < 0 || dist[c]! > REACH || !ok(c)) continue;
        const v = value(c, near);
        if (v >= -GOOD) continue;
        // Standing where a calm enemy dog can bark at us risks a panic that freezes the dog for turns.
        const exposed = enemies.some((e) => t.dist2(c, e) <= R2) ? 1.5 : 0;
        const score = v + TRAVEL * dist[c]! + exposed;
        if (score < bestScore) [best, bestScore] = [c, score];
      }
      if (best >= 0) {
        if (!barked && ok(here) && value(here) < -GOOD && (best === here || value(here) <= value(best) + TRAVEL * dist[best]!)) bark();
        if (best !== here) {
          const d = firstStep(t, dist, here, best);
          if (d) move(d);
          if (!barked && ok(here) && value(here) < -GOOD) bark();
        }
        continue;
      }
      // Explore: the nearest cell not seen lately, in our territory first.
      dist = t.bfs([here], open);
      let target = -1;
      for (const pass of [true, false]) {
        for (let c = 0; c < n; c++) {
          if (dist[c]! <= 0 || turn - lastSeen[c]! < 10 || (pass && !inMine(c))) continue;
          if (target < 0 || dist[c]! < dist[target]!) target = c;
        }
        if (target >= 0) break;
      }
      if (target >= 0) {
        const d = firstStep(t, dist, here, target);
        if (d) move(d);
      }
    }
    out.push('end');
    return out;
  };
}

/** The first move from `from` on a shortest path to `to`, given the distances from `from`. */
function firstStep(t: Torus, dist: Int32Array, from: number, to: number): Direction | null {
  if (dist[to]! <= 0) return null;
  let c = to;
  while (dist[c]! > 1) {
    const prev = DIRECTIONS.map((d) => t.step(c, d)).find((p) => dist[p] === dist[c]! - 1);
    if (prev === undefined) return null;
    c = prev;
  }
  return DIRECTIONS.find((d) => t.step(from, d) === c) ?? null;
}
