// Tron's rules alone, against a hand-written loop of the same rules: recorded games (4 `stupid` bots on
// 100×100) are replayed through the engine (no views, no bots), and through a loop on a typed grid that
// plays the same moves; both must end every game on the same lap with the same deaths.
import { MatchEngine, type TurnRecord } from '../src/core/engine.js';
import { playBuiltins } from '../src/core/self-play.js';
import { getGame } from '../src/games/index.js';
import type { TronState } from '../src/games/tron/rules.js';
import { timePair } from './stats.js';

const STEP: Record<string, [number, number]> = { 'x+': [1, 0], 'x-': [-1, 0], 'y+': [0, 1], 'y-': [0, -1] };

/** The loops' board at lap 0: owners by cell, heads, death laps, and each slot's cells. */
function startGrid(width: number, height: number, starts: [number, number][]) {
  const n = starts.length;
  const grid = new Int16Array(width * height);
  const hx = new Int32Array(n);
  const hy = new Int32Array(n);
  const dead = new Int32Array(n);
  const cells: number[][] = starts.map(() => []);
  starts.forEach(([x, y], s) => {
    hx[s] = x;
    hy[s] = y;
    grid[y * width + x] = s + 1;
    cells[s]!.push(y * width + x);
  });
  return { grid, hx, hy, dead, cells };
}

/** The same rules as a plain loop: a grid of owners, heads, deaths by lap. Returns each slot's death lap (0: alive). */
function handLoop(width: number, height: number, starts: [number, number][], laps: TurnRecord[]): Int32Array {
  const n = starts.length;
  const { grid, hx, hy, dead, cells } = startGrid(width, height, starts);
  const tx = new Int32Array(n);
  const ty = new Int32Array(n);
  const dies = new Uint8Array(n);
  let lap = 0;
  for (const rec of laps) {
    lap = rec.turn;
    dies.fill(0);
    for (const m of rec.moves) {
      const s = m.slot;
      if (m.fault) {
        dies[s] = 1;
        tx[s] = -1;
        continue;
      }
      const [dx, dy] = STEP[m.action as string]!;
      const x = hx[s]! + dx;
      const y = hy[s]! + dy;
      tx[s] = x;
      ty[s] = y;
      if (x < 0 || y < 0 || x >= width || y >= height || grid[y * width + x]) {
        dies[s] = 1;
        tx[s] = -1;
      }
    }
    for (const a of rec.moves) {
      if (tx[a.slot]! < 0) continue;
      for (const b of rec.moves) if (b.slot !== a.slot && tx[b.slot] === tx[a.slot] && ty[b.slot] === ty[a.slot]) dies[a.slot] = 1;
    }
    for (const m of rec.moves) {
      const s = m.slot;
      if (dies[s]) continue;
      hx[s] = tx[s]!;
      hy[s] = ty[s]!;
      const k = ty[s]! * width + tx[s]!;
      grid[k] = s + 1;
      cells[s]!.push(k);
    }
    for (const m of rec.moves) {
      if (!dies[m.slot]) continue;
      dead[m.slot] = lap;
      for (const k of cells[m.slot]!) if (grid[k] === m.slot + 1) grid[k] = 0;
    }
  }
  return dead;
}

/** Whole games of 4 stupid bots as a bare loop: each lap every living bot takes its longest free straight line. */
function bareStupid(width: number, height: number, starts: [number, number][]): Int32Array {
  const n = starts.length;
  const { grid, hx, hy, dead, cells } = startGrid(width, height, starts);
  const dirs = [STEP['x+']!, STEP['x-']!, STEP['y+']!, STEP['y-']!];
  const tx = new Int32Array(n);
  const ty = new Int32Array(n);
  const dies = new Uint8Array(n);
  let alive = n;
  for (let lap = 1; alive >= 2; lap++) {
    dies.fill(0);
    for (let s = 0; s < n; s++) {
      if (dead[s]) continue;
      let best = 0;
      let bestRun = -1;
      for (let d = 0; d < 4; d++) {
        const [dx, dy] = dirs[d]!;
        let run = 0;
        for (let x = hx[s]! + dx, y = hy[s]! + dy; x >= 0 && y >= 0 && x < width && y < height && !grid[y * width + x]; x += dx, y += dy) run++;
        if (run > bestRun) [best, bestRun] = [d, run];
      }
      const x = hx[s]! + dirs[best]![0];
      const y = hy[s]! + dirs[best]![1];
      tx[s] = x;
      ty[s] = y;
      if (x < 0 || y < 0 || x >= width || y >= height || grid[y * width + x]) dies[s] = 1;
    }
    for (let a = 0; a < n; a++) {
      if (dead[a] || dies[a]) continue;
      for (let b = 0; b < n; b++) if (b !== a && !dead[b] && tx[b] === tx[a] && ty[b] === ty[a]) dies[a] = 1;
    }
    for (let s = 0; s < n; s++) {
      if (dead[s] || dies[s]) continue;
      hx[s] = tx[s]!;
      hy[s] = ty[s]!;
      grid[ty[s]! * width + tx[s]!] = s + 1;
      cells[s]!.push(ty[s]! * width + tx[s]!);
    }
    for (let s = 0; s < n; s++) {
      if (!dies[s]) continue;
      dead[s] = lap;
      alive--;
      for (const k of cells[s]!) if (grid[k] === s + 1) grid[k] = 0;
    }
  }
  return dead;
}

export function benchTronRules(games = 60): (string | number)[][] {
  const tron = getGame('tron');
  const recorded = Array.from({ length: games }, (_, seed) => {
    const e = playBuiltins(tron, ['stupid', 'stupid', 'stupid', 'stupid'], seed);
    const first = new MatchEngine(tron, { config: {}, seed, players: 4 });
    const starts = (first.state as TronState).trails.map((t) => t[0]!);
    return { seed, records: e.records, starts, deaths: (e.state as TronState).death.map((d) => d?.lap ?? 0) };
  });
  const laps = recorded.reduce((n, r) => n + r.records.filter((t) => t.phase === 'play').length, 0);

  let same = 0;
  const [engineMs, loopMs] = timePair(
    () => {
      for (const r of recorded) {
        const e = new MatchEngine(tron, { config: {}, seed: r.seed, players: 4 });
        for (const rec of r.records) e.commit(e.decision()!, rec.moves);
      }
    },
    () => {
      same = 0;
      for (const r of recorded) {
        const dead = handLoop(
          100,
          100,
          r.starts,
          r.records.filter((t) => t.phase === 'play'),
        );
        if (r.deaths.every((d, s) => d === dead[s])) same++;
      }
    },
  );
  if (same !== games) throw new Error(`the hand-written loop ended ${games - same} of ${games} games otherwise than the rules`);
  let bareSame = 0;
  const [withBotsMs, bareMs] = timePair(
    () => {
      for (const r of recorded) playBuiltins(tron, ['stupid', 'stupid', 'stupid', 'stupid'], r.seed);
    },
    () => {
      bareSame = 0;
      for (const r of recorded) {
        const dead = bareStupid(100, 100, r.starts);
        if (r.deaths.every((d, s) => d === dead[s])) bareSame++;
      }
    },
    3,
  );
  if (bareSame !== games) throw new Error(`the bare loop ended ${games - bareSame} of ${games} games otherwise than the engine with its bots`);
  const us = (ms: number) => ((ms * 1000) / laps).toFixed(2);
  return [
    ['Tron rules alone, 4 stupid bots, 100×100, recorded games', 'games', 'laps', 'µs/lap', 'ratio'],
    ['engine: MatchEngine.commit with the recorded moves', games, laps, us(engineMs), (engineMs / loopMs).toFixed(1) + '×'],
    ['floor: a hand-written loop on a typed grid (same deaths, checked)', games, laps, us(loopMs), '1.0×'],
    ['engine + 4 built-in stupid bots (views, bots, records)', games, laps, us(withBotsMs), (withBotsMs / bareMs).toFixed(1) + '×'],
    ['floor: the same games as one bare loop, bots included (checked)', games, laps, us(bareMs), '1.0×'],
  ];
}
