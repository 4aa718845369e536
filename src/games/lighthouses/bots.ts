import type { BuiltinBot, BuiltinBotFactory } from '../../core/game.js';
import { rngCreate, rngInt, rngPick, type RngState } from '../../core/rng.js';
import { onSegment, rasterizeTriangle, segmentsCross, type Point } from './geometry.js';
import type { LighthousesInit, LighthousesMessage, LighthousesTurn, LighthouseView } from './wire.js';

const STEPS: Point[] = [
  [-1, -1],
  [-1, 0],
  [-1, 1],
  [0, -1],
  [0, 1],
  [1, -1],
  [1, 0],
  [1, 1],
];

/** What every bot remembers from the init message. */
interface Known {
  me: number;
  map: number[][];
  lighthouses: [number, number][];
}

/** A bot that keeps the init message and answers each turn from it and the turn's state. */
function remembering(
  name: string,
  play: (known: Known, turn: LighthousesTurn) => unknown,
  hello: (known: Known) => void = () => {},
): BuiltinBot<LighthousesMessage> {
  let known: Known | null = null;
  return {
    act(view, phase) {
      if (phase === 'init') {
        const init = view as LighthousesInit;
        known = { me: init.player_num, map: init.map, lighthouses: init.lighthouses };
        hello(known);
        return { name };
      }
      return play(known!, view as LighthousesTurn);
    },
  };
}

const island = (k: Known, x: number, y: number) => k.map[y]?.[x] === 1;
const same = (a: Point, b: Point) => a[0] === b[0] && a[1] === b[1];

/** Like the reference's RandBot: on its own lighthouse it may connect; on any lighthouse it may recharge/attack; else a random step. */
function randomPlay(k: Known, s: LighthousesTurn, rng: RngState): unknown {
  const [cx, cy] = s.position;
  const here = s.lighthouses.find((l) => same(l.position, s.position));
  if (here) {
    if (here.owner === k.me && rngInt(rng, 0, 99) < 60) {
      const options = s.lighthouses.filter((d) => d !== here && d.have_key && d.owner === k.me && !d.connections.some((c) => same(c, s.position)));
      if (options.length) return { command: 'connect', destination: rngPick(rng, options).position };
    }
    if (rngInt(rng, 0, 99) < 60) return { command: 'attack', energy: rngInt(rng, 0, s.energy) };
  }
  const [x, y] = rngPick(
    rng,
    STEPS.filter(([dx, dy]) => island(k, cx + dx, cy + dy)),
  );
  return { command: 'move', x, y };
}

/** Steps from every island cell to each lighthouse (8 directions), computed once per match. */
function distances(k: Known): number[][][] {
  return k.lighthouses.map(([lx, ly]) => {
    const d = k.map.map((row) => row.map(() => Infinity));
    d[ly]![lx] = 0;
    const queue: Point[] = [[lx, ly]];
    for (let i = 0; i < queue.length; i++) {
      const [x, y] = queue[i]!;
      for (const [dx, dy] of STEPS) {
        const [nx, ny] = [x + dx, y + dy];
        if (island(k, nx, ny) && d[ny]![nx] === Infinity) {
          d[ny]![nx] = d[y]![x]! + 1;
          queue.push([nx, ny]);
        }
      }
    }
    return d;
  });
}

/** The island cells a triangle would score. */
function triangleCells(k: Known, a: Point, b: Point, c: Point): number {
  return rasterizeTriangle(a, b, c).filter(([x, y]) => island(k, x, y)).length;
}

/** Whether a connection from `from` to `to` is allowed by the geometry (no lighthouse on it, no crossing). */
function clearPath(k: Known, s: LighthousesTurn, from: Point, to: Point): boolean {
  if (k.lighthouses.some((p) => !same(p, from) && !same(p, to) && onSegment(from, to, p))) return false;
  return !s.lighthouses.some((l) => l.connections.some((c) => segmentsCross(from, to, l.position, c)));
}

/**
 * The planner: captures the lighthouses it can afford, nearest first; on its own lighthouse it connects to
 * the owned lighthouse whose key it holds that closes the largest triangle, recharges a weak one, and
 * otherwise walks to the next target over the richest cells.
 */
function plannerPlay(k: Known, s: LighthousesTurn, dist: number[][][]): unknown {
  const me = k.me;
  const at = s.lighthouses.findIndex((l) => same(l.position, s.position));
  const here = at >= 0 ? s.lighthouses[at]! : null;
  // Energy is only worth what it defends: a capture or a recharge puts in a good part of it, since a
  // lighthouse loses 10 a round and its links and triangles die with it.
  if (here && here.owner !== me && s.energy > (here.owner === null || here.owner === -1 ? 0 : here.energy)) {
    const need = here.owner === null || here.owner === -1 ? 0 : here.energy;
    return { command: 'attack', energy: Math.min(s.energy, Math.max(need + 1, need + Math.floor((s.energy - need) * 0.6))) };
  }
  if (here && here.owner === me) {
    const link = bestConnection(k, s, here);
    if (link) return { command: 'connect', destination: link.position };
    if (here.energy < 150 && s.energy > 60) return { command: 'attack', energy: Math.floor(s.energy * 0.5) };
  }
  const target = chooseTarget(k, s, dist, at);
  const [cx, cy] = s.position;
  let best: Point | null = null;
  let bestScore = -Infinity;
  for (const [dx, dy] of STEPS) {
    const [nx, ny] = [cx + dx, cy + dy];
    if (!island(k, nx, ny)) continue;
    const cell = Math.abs(dx) <= 3 && Math.abs(dy) <= 3 ? Math.max(0, s.view[dy + 3]![dx + 3]!) : 0;
    const score = (target < 0 ? 0 : -1000 * dist[target]![ny]![nx]!) + cell;
    if (score > bestScore) [best, bestScore] = [[dx, dy], score];
  }
  return best ? { command: 'move', x: best[0], y: best[1] } : { command: 'pass' };
}

/** The owned lighthouse to connect to from here: the one that closes the most triangle cells, then the nearest. */
function bestConnection(k: Known, s: LighthousesTurn, here: LighthouseView): LighthouseView | null {
  let best: LighthouseView | null = null;
  let bestValue = -1;
  for (const d of s.lighthouses) {
    if (d === here || d.owner !== k.me || !d.have_key || d.connections.some((c) => same(c, here.position))) continue;
    if (!clearPath(k, s, here.position, d.position)) continue;
    const third = s.lighthouses.filter((t) => t.connections.some((c) => same(c, here.position)) && t.connections.some((c) => same(c, d.position)));
    const value = third.reduce((sum, t) => sum + triangleCells(k, here.position, d.position, t.position), 0) * 10 + 1;
    if (value > bestValue) [best, bestValue] = [d, value];
  }
  return best;
}

/** The lighthouse to walk to: capturable ones first, then own ones that need energy or whose key would make a link. */
function chooseTarget(k: Known, s: LighthousesTurn, dist: number[][][], here: number): number {
  const [cx, cy] = s.position;
  let best = -1;
  let bestValue = 0;
  s.lighthouses.forEach((l, i) => {
    if (i === here) return;
    const neutral = l.owner === null || l.owner === -1;
    let value = 0;
    if (l.owner !== k.me && (neutral ? s.energy > 0 : s.energy > l.energy + 10)) value = 10;
    else if (l.owner === k.me && l.energy < 60 && s.energy > 60) value = 8;
    else if (l.owner === k.me && !l.have_key && s.lighthouses.some((o) => o !== l && o.owner === k.me && o.have_key)) value = 6;
    const d = dist[i]![cy]![cx]!;
    if (value > 0 && value / (d + 2) > bestValue) [best, bestValue] = [i, value / (d + 2)];
  });
  return best;
}

/** The built-in lighthouses bots. */
export const bots: Record<string, BuiltinBotFactory<LighthousesMessage>> = {
  random: {
    description: "the reference's RandBot: random steps; on a lighthouse, random connects and attacks",
    create({ seed }) {
      const rng = rngCreate(seed);
      return remembering('random', (k, s) => randomPlay(k, s, rng));
    },
  },
  planner: {
    description: 'captures the nearest lighthouses it can afford, closes the largest triangles, keeps them charged',
    create() {
      let dist: number[][][] = [];
      return remembering(
        'planner',
        (k, s) => plannerPlay(k, s, dist),
        (k) => (dist = distances(k)),
      );
    },
  },
};
