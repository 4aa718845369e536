import type { BuiltinBotFactory } from '../../core/game.js';
import { rngCreate, rngPick } from '../../core/rng.js';
import { DIRECTIONS, STEP, type Direction } from './rules.js';
import type { TronMessage } from './wire.js';

interface TronConfig {
  width: number;
  height: number;
}

/** What a bot sees of the lap: the grid (1 = taken), its head, and the other living heads. */
interface Position {
  w: number;
  h: number;
  taken: Uint8Array;
  head: [number, number];
  others: [number, number][];
}

/**
 * A bot's picture of the board, kept from lap to lap: each lap only the new heads are marked and the trails
 * of the newly dead cleared (as a bot with a memory would), so reading a lap costs what changed, not the
 * whole board. A message that does not follow on the last one (a fork) is read whole. The board is shared
 * by every seat: read it, never change it.
 */
function tracker(cfg: TronConfig): (view: TronMessage & { action: 'play-turn' }) => Position {
  const { width: w, height: h } = cfg;
  const taken = new Uint8Array(w * h);
  let lengths: number[] = [];
  /** per slot, the cells it holds, tail first (the board sends heads first) */
  let cells: number[][] = [];
  const rebuild = (board: [number, number][][]) => {
    taken.fill(0);
    cells = board.map((t) => t.map(([x, y]) => y * w + x).reverse());
    for (const list of cells) for (const k of list) taken[k] = 1;
  };
  return (view) => {
    const board = view.board;
    // It follows on the last lap when every trail is empty or one cell longer, that cell put before the
    // head it had (anything else: another match, a fork, a test's board).
    const at = (c: [number, number]) => c[1] * w + c[0];
    const follows =
      lengths.length === board.length &&
      board.every(
        (t, slot) =>
          t.length === 0 ||
          (t.length === lengths[slot]! + 1 && at(t[1]!) === cells[slot]![cells[slot]!.length - 1] && at(t[t.length - 1]!) === cells[slot]![0]),
      );
    if (!follows) rebuild(board);
    else {
      board.forEach((t, slot) => {
        if (t.length === 0 && lengths[slot]! > 0) {
          for (const k of cells[slot]!) taken[k] = 0;
          cells[slot] = [];
        } else if (t.length === lengths[slot]! + 1) {
          const k = t[0]![1] * w + t[0]![0];
          taken[k] = 1;
          cells[slot]!.push(k);
        }
      });
    }
    lengths = board.map((t) => t.length);
    const me = view['player-index'];
    const others: [number, number][] = [];
    board.forEach((t, slot) => slot !== me && t.length && others.push(t[0]!));
    return { w, h, taken, head: board[me]![0]!, others };
  };
}

const free = (p: Position, x: number, y: number) => x >= 0 && y >= 0 && x < p.w && y < p.h && !p.taken[y * p.w + x];
const next = ([x, y]: [number, number], d: Direction): [number, number] => [x + STEP[d][0], y + STEP[d][1]];

/** The original stupid bot: the direction with the longest free straight line; ties go to x+, x-, y+, y-. */
const stupid: BuiltinBotFactory<TronMessage, TronConfig> = {
  description: 'the longest free straight line, ties in x+, x-, y+, y- order (the original stupid bot)',
  create({ config }) {
    const position = tracker(config);
    return {
      act(view) {
        if (view.action === 'init') return { name: 'stupid' };
        const p = position(view);
        let best: Direction = 'x+';
        let bestRun = -1;
        for (const d of DIRECTIONS) {
          const [dx, dy] = STEP[d];
          let run = 0;
          for (let x = p.head[0] + dx, y = p.head[1] + dy; free(p, x, y); x += dx, y += dy) run++;
          if (run > bestRun) [best, bestRun] = [d, run];
        }
        return { play: best };
      },
    };
  },
};

/** A random move that does not hit a trail or the edge, when there is one. */
const random: BuiltinBotFactory<TronMessage, TronConfig> = {
  description: 'a random safe move',
  create({ config, seed }) {
    const rng = rngCreate(seed);
    const position = tracker(config);
    return {
      act(view) {
        if (view.action === 'init') return { name: 'random' };
        const p = position(view);
        const safe = DIRECTIONS.filter((d) => free(p, ...next(p.head, d)));
        return { play: rngPick(rng, safe.length ? safe : DIRECTIONS) };
      },
    };
  },
};

/** Breadth-first distances from `sources` over free cells (sources at 0, -1 unreachable); returns how many cells it reached (they are queue[0..n)). */
function distances(p: Position, sources: [number, number][], out: Int32Array, queue: Int32Array): number {
  out.fill(-1);
  const { w, h, taken } = p;
  let tail = 0;
  for (const [x, y] of sources) {
    out[y * w + x] = 0;
    queue[tail++] = y * w + x;
  }
  for (let head = 0; head < tail; head++) {
    const cell = queue[head]!;
    const x = cell % w;
    const d = out[cell]! + 1;
    let n = cell + 1;
    if (x + 1 < w && taken[n] === 0 && out[n] === -1) {
      out[n] = d;
      queue[tail++] = n;
    }
    n = cell - 1;
    if (x > 0 && taken[n] === 0 && out[n] === -1) {
      out[n] = d;
      queue[tail++] = n;
    }
    n = cell + w;
    if (n < w * h && taken[n] === 0 && out[n] === -1) {
      out[n] = d;
      queue[tail++] = n;
    }
    n = cell - w;
    if (n >= 0 && taken[n] === 0 && out[n] === -1) {
      out[n] = d;
      queue[tail++] = n;
    }
  }
  return tail;
}

/** How many cells a path from `start` can visit at most in its region: colour parity bounds it. */
function fillable(p: Position, start: [number, number], dist: Int32Array, queue: Int32Array): number {
  const reached = distances(p, [start], dist, queue);
  // On a grid a step always changes the colour (x + y parity): cells at even distance share the start's.
  let same = 0;
  for (let i = 0; i < reached; i++) if ((dist[queue[i]!]! & 1) === 0) same++;
  const other = reached - same;
  return 2 * Math.min(same, other) + (same > other ? 1 : 0);
}

/**
 * Territory: while it shares room with an opponent, each safe move is scored by the cells it reaches
 * strictly first (Voronoi) minus the cells they reach first, avoiding cells next to an opponent's head
 * (a possible head-on). Once walled off, it fills its room: the move whose best continuation keeps the
 * most fillable cells (so it never cuts itself off from the larger part), hugging walls on ties.
 */
const voronoi: BuiltinBotFactory<TronMessage, TronConfig> = {
  description: 'territory (Voronoi) evaluation of each move; fills its room carefully when walled off',
  create({ config, seed }) {
    const rng = rngCreate(seed);
    const size = config.width * config.height;
    const mine = new Int32Array(size);
    const theirs = new Int32Array(size);
    const queue = new Int32Array(size);
    const position = tracker(config);
    return {
      act(view) {
        if (view.action === 'init') return { name: 'voronoi' };
        const p = position(view);
        const safe = DIRECTIONS.filter((d) => free(p, ...next(p.head, d)));
        if (!safe.length) return { play: 'x+' };
        distances(p, [p.head], mine, queue);
        const touches = ([x, y]: [number, number]) =>
          DIRECTIONS.some((d) => {
            const [nx, ny] = next([x, y], d);
            return free(p, nx, ny) && mine[ny * p.w + nx]! >= 0;
          });
        const separated = !p.others.some(touches);
        /** My cells minus theirs: cells each side reaches strictly first, with `me` and `them` already moved. */
        const territory = (me: [number, number][], them: [number, number][]): number => {
          const marks = them.map(([x, y]) => y * p.w + x).filter((i) => !p.taken[i]);
          for (const i of marks) p.taken[i] = 1;
          distances(p, me, mine, queue);
          distances(p, them, theirs, queue);
          for (const i of marks) p.taken[i] = 0;
          let own = 0;
          let lost = 0;
          for (let i = 0; i < size; i++) {
            const a = mine[i]!;
            const b = theirs[i]!;
            if (a > 0 && (b < 0 || a < b)) own++;
            else if (b > 0 && (a < 0 || b < a)) lost++;
          }
          return own - lost;
        };
        const duel = p.others.length === 1 && Math.abs(p.others[0]![0] - p.head[0]) + Math.abs(p.others[0]![1] - p.head[1]) <= 12;
        const nearHead = (c: [number, number]) => p.others.some(([x, y]) => Math.abs(x - c[0]) + Math.abs(y - c[1]) === 1);
        let best: Direction[] = [];
        let bestScore = -Infinity;
        for (const d of safe) {
          const c = next(p.head, d);
          p.taken[c[1] * p.w + c[0]] = 1;
          const exits = DIRECTIONS.map((e) => next(c, e)).filter(([x, y]) => free(p, x, y));
          let score: number;
          if (separated) {
            score = 0;
            for (const e of exits) score = Math.max(score, fillable(p, e, mine, queue));
            score = score * 8 - exits.length;
          } else if (duel) {
            // One opponent close by: assume it answers my move with its best reply (both move at once).
            score = Infinity;
            const o = p.others[0]!;
            for (const od of DIRECTIONS) {
              const oc = next(o, od);
              if (!free(p, oc[0], oc[1]) && !(oc[0] === c[0] && oc[1] === c[1])) continue;
              score = Math.min(score, oc[0] === c[0] && oc[1] === c[1] ? -5e5 : territory([c], [oc]));
            }
            if (score === Infinity) score = 1e7; // every reply of theirs crashes
            score = score * 8 - exits.length;
            if (exits.length === 0) score -= 1e6;
          } else {
            score = territory([c], p.others) * 8 - exits.length;
            if (exits.length === 0) score -= 1e6;
            if (nearHead(c)) score -= 1e5;
          }
          p.taken[c[1] * p.w + c[0]] = 0;
          if (score > bestScore) [best, bestScore] = [[d], score];
          else if (score === bestScore) best.push(d);
        }
        return { play: rngPick(rng, best) };
      },
    };
  },
};

/** The built-in Tron bots. */
export const bots = { stupid, random, voronoi };
