// Paint's rules alone, against a hand-written loop of the same rules: recorded games of built-in `random`
// bots are replayed through the engine (no views, no bots), and through a loop on typed arrays that plays
// the same actions from the same boards; both must end every game with the same colours and avatars.
import { MatchEngine, type TurnRecord } from '../src/core/engine.js';
import { playBuiltins } from '../src/core/self-play.js';
import { getGame } from '../src/games/index.js';
import type { PaintState } from '../src/games/paint/rules.js';
import { bestMs, timePair } from './stats.js';

/** The loop's own reading of the grid: an unpainted square, an obstacle (the values the rules use too). */
const BLANK = -1;
const WALL = -2;
/** What a slot does this turn in the loop. */
const IDLE = 0;
const WALK = 1;
const SHOOT = 2;

/** A recorded action as the loop reads it. */
interface Act {
  type: string;
  direction: [number, number];
}

/** The loop's board before the first turn: colours by square, each avatar's square (row × width + column). */
interface Start {
  colors: Int16Array;
  at: Int32Array;
}

/**
 * The same rules as a plain loop on typed arrays. Each turn: walks (a target off the board or on an
 * obstacle stays put; walkers aiming at a shared square go back, again until no square is shared), every
 * avatar paints its square, then every shot's range is read from the trail behind its shooter, and the
 * projectiles fly in lock step, painting as they go. Squares are marked with the turn's (or the step's)
 * number instead of being put in sets, so nothing is cleared between turns.
 */
function handLoop(width: number, height: number, start: Start, turns: TurnRecord[]): Start {
  const n = start.at.length;
  const size = width * height;
  const colors = start.colors.slice();
  const at = start.at.slice();
  // Per slot: this turn's action, where its walk leads, and whether it still walks.
  const kind = new Uint8Array(n);
  const di = new Int8Array(n);
  const dj = new Int8Array(n);
  const target = new Int32Array(n);
  const moving = new Uint8Array(n);
  // Per projectile (at most one per slot): its shooter, square, step and the squares it may still paint.
  const shooter = new Int32Array(n);
  const pi = new Int32Array(n);
  const pj = new Int32Array(n);
  const pdi = new Int32Array(n);
  const pdj = new Int32Array(n);
  const left = new Int32Array(n);
  // Per square: how many avatars or projectiles are on it (valid when `countMark` is the current count),
  // whether an avatar stands on it or a shot painted it this turn (when the mark is the turn's number).
  const count = new Int32Array(size);
  const countMark = new Int32Array(size);
  const avatarMark = new Int32Array(size);
  const shotMark = new Int32Array(size);
  let counting = 0;
  let turn = 0;
  for (const rec of turns) {
    turn++;
    kind.fill(IDLE);
    for (const m of rec.moves) {
      if (m.fault) continue;
      const a = m.action as Act;
      kind[m.slot] = a.type === 'walk' ? WALK : SHOOT;
      di[m.slot] = a.direction[0];
      dj[m.slot] = a.direction[1];
    }

    // Walks: first every target, then cancellations until every avatar is alone on its square.
    for (let s = 0; s < n; s++) {
      target[s] = at[s]!;
      moving[s] = 0;
      if (kind[s] !== WALK) continue;
      const i = ((at[s]! / width) | 0) + di[s]!;
      const j = (at[s]! % width) + dj[s]!;
      if (i < 0 || j < 0 || i >= height || j >= width || colors[i * width + j] === WALL) continue;
      target[s] = i * width + j;
      moving[s] = 1;
    }
    for (let cancelled = true; cancelled;) {
      counting++;
      for (let s = 0; s < n; s++) {
        const k = target[s]!;
        if (countMark[k] !== counting) {
          countMark[k] = counting;
          count[k] = 0;
        }
        count[k]!++;
      }
      cancelled = false;
      // The counts stay as they were for the whole pass: a walker sent back here is only counted next pass.
      for (let s = 0; s < n; s++) {
        if (moving[s] && count[target[s]!]! > 1) {
          moving[s] = 0;
          target[s] = at[s]!;
          cancelled = true;
        }
      }
    }
    for (let s = 0; s < n; s++) {
      const k = target[s]!;
      at[s] = k;
      colors[k] = s;
      avatarMark[k] = turn;
    }

    // Shots: every range on the field after the walks, before any projectile flies.
    let live = 0;
    for (let s = 0; s < n; s++) {
      if (kind[s] !== SHOOT) continue;
      const i0 = (at[s]! / width) | 0;
      const j0 = at[s]! % width;
      let trail = 0;
      for (let i = i0, j = j0; i >= 0 && j >= 0 && i < height && j < width && colors[i * width + j] === s; i -= di[s]!, j -= dj[s]!) trail++;
      shooter[live] = s;
      pi[live] = i0;
      pj[live] = j0;
      pdi[live] = di[s]!;
      pdj[live] = dj[s]!;
      left[live] = Math.max(1, trail - 1);
      live++;
    }
    while (live > 0) {
      // One step of every projectile, counting how many reach each square.
      counting++;
      for (let q = 0; q < live; q++) {
        const i = (pi[q] = pi[q]! + pdi[q]!);
        const j = (pj[q] = pj[q]! + pdj[q]!);
        left[q]!--;
        if (i < 0 || j < 0 || i >= height || j >= width) continue;
        const k = i * width + j;
        if (countMark[k] !== counting) {
          countMark[k] = counting;
          count[k] = 0;
        }
        count[k]!++;
      }
      // A projectile alone on a free square paints it; it flies on while it has range. Painting at once is
      // the same as painting after the step's removals: a survivor is alone on its square, so what it
      // paints is no other projectile's square this step.
      let kept = 0;
      for (let q = 0; q < live; q++) {
        const i = pi[q]!;
        const j = pj[q]!;
        if (i < 0 || j < 0 || i >= height || j >= width) continue;
        const k = i * width + j;
        if (colors[k] === WALL || shotMark[k] === turn || count[k] !== 1 || avatarMark[k] === turn) continue;
        colors[k] = shooter[q]!;
        shotMark[k] = turn;
        if (left[q]! <= 0) continue;
        shooter[kept] = shooter[q]!;
        pi[kept] = i;
        pj[kept] = j;
        pdi[kept] = pdi[q]!;
        pdj[kept] = pdj[q]!;
        left[kept] = left[q]!;
        kept++;
      }
      live = kept;
    }
  }
  return { colors, at };
}

/** The loop's starting board from a match's state before any step. */
function startOf(s: PaintState): Start {
  const colors = Int16Array.from(s.colors);
  for (const c of colors) if (c !== BLANK && c !== WALL && (c < 0 || c >= s.positions.length)) throw new Error(`unexpected colour ${c} on a fresh board`);
  return { colors, at: Int32Array.from(s.positions, ([i, j]) => i * s.width + j) };
}

/** Whether the loop's board is the engine's final one: every colour, every avatar. */
function sameBoard(s: PaintState, b: Start): boolean {
  if (s.colors.length !== b.colors.length || s.positions.length !== b.at.length) return false;
  for (let k = 0; k < b.colors.length; k++) if (s.colors[k] !== b.colors[k]) return false;
  return s.positions.every(([i, j], slot) => i * s.width + j === b.at[slot]);
}

export function benchPaintRules(): (string | number)[][] {
  const paint = getGame('paint');
  const setups = [
    { label: '10×10, 2 random', bots: 2, games: 800, config: { width: 10, height: 10, turns: 100 } },
    { label: '60×60, 4 random', bots: 4, games: 64, config: { width: 60, height: 60, turns: 400 } },
    { label: '60×60 with 300 obstacles, 4 random', bots: 4, games: 64, config: { width: 60, height: 60, turns: 400, obstacles: 300 } },
    // Crowded: walkers often aim at one square (and are sent back in chains), shots meet and hit avatars.
    { label: '8×8 with 6 obstacles, 10 random', bots: 10, games: 300, config: { width: 8, height: 8, turns: 64, obstacles: 6 } },
  ];
  const rows: (string | number)[][] = [['Paint rules alone, recorded games of built-in random bots', 'games', 'turns', 'µs/turn', 'ratio']];
  for (const { label, bots, games, config } of setups) {
    const names = Array.from({ length: bots }, () => 'random');
    const recorded = Array.from({ length: games }, (_, seed) => {
      const e = playBuiltins(paint, names, seed, { config });
      const first = new MatchEngine(paint, { config, seed, players: bots });
      const s = first.state as PaintState;
      return {
        seed,
        records: e.records,
        plays: e.records.filter((t) => t.phase === 'play'),
        width: s.width,
        height: s.height,
        start: startOf(s),
        end: e.state as PaintState,
      };
    });
    const turns = recorded.reduce((n, r) => n + r.plays.length, 0);
    // Both sides are timed whole, one game after another, so that every garbage collection falls inside a
    // timed run; the loop's boards are checked afterwards. The engine's run makes each game's MatchEngine
    // as it goes (one alive at a time, as an arena has), and what making them costs, timed alone the same
    // way, is taken off: the loop starts from the boards as set up, never generating one. (The engines used
    // to be made all before a run: hundreds alive together, whose marking by the old generation cost up to
    // twice a turn, which no arena playing its matches pays.)
    const newEngine = (r: (typeof recorded)[number]) => new MatchEngine(paint, { config, seed: r.seed, players: bots });
    const setUpMs = bestMs(7, () => {
      for (const r of recorded) newEngine(r);
    });
    let ends: Start[] = [];
    const [wholeMs, loopMs] = timePair(
      () => {
        for (const r of recorded) {
          const e = newEngine(r);
          for (const rec of r.records) e.commit(e.decision()!, rec.moves);
        }
      },
      () => {
        ends = recorded.map((r) => handLoop(r.width, r.height, r.start, r.plays));
      },
    );
    const engineMs = wholeMs - setUpMs;
    const same = recorded.filter((r, k) => sameBoard(r.end, ends[k]!)).length;
    if (same !== games) throw new Error(`the hand-written loop ended ${games - same} of ${games} games (${label}) otherwise than the rules`);
    const us = (ms: number) => ((ms * 1000) / turns).toFixed(2);
    rows.push([
      `engine: MatchEngine.commit with the recorded moves (set-up taken off), ${label}`,
      games,
      turns,
      us(engineMs),
      (engineMs / loopMs).toFixed(1) + '×',
    ]);
    rows.push(['floor: a hand-written loop on typed arrays (same boards, checked)', games, turns, us(loopMs), '1.0×']);
    rows.push([`(a match's set-up, MatchEngine made: ${((setUpMs * 1000) / games).toFixed(1)} µs a match)`, '', '', '', '']);
  }
  return rows;
}
