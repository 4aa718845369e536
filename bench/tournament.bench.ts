// Many matches at once: `botarena tournament`'s layer (schedule, worker-thread pool, results file) measured on
// whole tournaments at K = 1, 2, 4 matches at once, and its cost per match against a bare runMatch loop and
// against `botarena play` run once per match from the shell.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { runMatch } from '../src/arena/run-match.js';
import { getGame } from '../src/games/index.js';
import { MatchPool } from '../src/arena/match-pool.js';
import { Tournament, type TournamentSpec } from '../src/tournament/tournament.js';

// The pool's threads run the worker as it ships (tsc's output), as the CLI's do: `npm run bench` builds nothing,
// so run `npm run build` first.
const WORKER = pathToFileURL(resolve('dist/arena/match-thread.js'));

/** Plays one tournament on a fresh pool of K threads; milliseconds from the pool's start to the last result. */
async function timeTournament(spec: TournamentSpec, k: number, out?: string): Promise<{ ms: number; matches: number }> {
  const pool = new MatchPool(k, {}, WORKER);
  try {
    const t0 = performance.now();
    const lines = await new Tournament(getGame(spec.game), spec, (job) => pool.run(job), { out }).play();
    return { ms: performance.now() - t0, matches: lines.length };
  } finally {
    await pool.close();
  }
}

const tronSpec = (games: number): TournamentSpec => ({
  game: 'tron',
  bots: [0, 1, 2, 3].map((i) => ({ name: `node${i}`, bot: 'stdio:node bench/tron-bot.mjs 30 30' })),
  format: 'round-robin',
  games,
  seed: 1,
  config: { width: 30, height: 30 },
  timeouts: {},
});

const tttSpec = (games: number, bots = ['random', 'minimax']): TournamentSpec => ({
  game: 'tictactoe',
  bots: bots.map((bot, i) => ({ name: `${bot}${i}`, bot })),
  format: 'round-robin',
  games,
  seed: 1,
  config: {},
  timeouts: {},
});

export async function benchTournaments(): Promise<(string | number)[][]> {
  const rows: (string | number)[][] = [['tournament', 'K', 'matches', 'matches/min', '× K=1']];
  for (const [label, spec] of [
    ['Tron 30×30, 4 stdio Node bots (all four in each match)', tronSpec(24)],
    ['tic-tac-toe, built-in random vs minimax', tttSpec(2000)],
  ] as const) {
    await timeTournament(label.startsWith('Tron') ? tronSpec(4) : tttSpec(100), 2); // warm-up: disk cache, JIT
    let base = 0;
    for (const k of [1, 2, 4]) {
      const { ms, matches } = await timeTournament(spec, k);
      const perMin = (60_000 * matches) / ms;
      if (k === 1) base = perMin;
      rows.push([label, k, matches, Math.round(perMin), (perMin / base).toFixed(2)]);
    }
  }
  return rows;
}

/** ms per match of a bare runMatch loop on this thread: built-in random vs random tic-tac-toe. */
async function bareLoop(matches: number): Promise<number> {
  const t0 = performance.now();
  for (let seed = 0; seed < matches; seed++) await runMatch({ game: 'tictactoe', seed, seats: [{ bot: 'random' }, { bot: 'random' }] });
  return (performance.now() - t0) / matches;
}

export async function benchTournamentOverhead(): Promise<(string | number)[][]> {
  const n = 2000;
  await bareLoop(200);
  const bare = await bareLoop(n);
  const spec = tttSpec(n, ['random', 'random']);
  const pooled = await timeTournament(spec, 1);
  const dir = mkdtempSync(join(tmpdir(), 'bench-tournament-'));
  let kept: { ms: number; matches: number };
  try {
    kept = await timeTournament(spec, 1, dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const shell = 10;
  const s0 = performance.now();
  for (let seed = 0; seed < shell; seed++)
    execFileSync(process.execPath, ['bin/botarena', 'play', 'tictactoe', 'random', 'random', '--seed', String(seed), '--json'], { stdio: 'ignore' });
  const perShell = (performance.now() - s0) / shell;
  const us = (ms: number) => (ms * 1000).toFixed(0);
  return [
    ['tic-tac-toe random vs random, one match at a time', 'matches', 'µs per match', 'overhead µs'],
    ['runMatch in a loop on one thread (the floor)', n, us(bare), '-'],
    ['tournament, pool of 1 thread', pooled.matches, us(pooled.ms / pooled.matches), us(pooled.ms / pooled.matches - bare)],
    ['tournament, pool of 1 thread, --out (gzip replay + results line)', kept.matches, us(kept.ms / kept.matches), us(kept.ms / kept.matches - bare)],
    ['`botarena play … --json` run from the shell per match', shell, us(perShell), us(perShell - bare)],
  ];
}
