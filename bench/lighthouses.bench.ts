import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { runMatch } from '../src/arena/run-match.js';
import { MatchEngine } from '../src/core/engine.js';
import { LocalLiveEvents } from '../src/live/local.js';
import { playBuiltins } from '../src/core/self-play.js';
import { getGame } from '../src/games/index.js';
import { MAPS } from '../src/games/lighthouses/maps.js';

/** Lighthouses rounds per second on the largest shipped map: 4 `random` bots in-process, then 4 stdio bots. */
export async function benchLighthouses(budgetMs = 3000): Promise<(string | number)[][]> {
  const game = getGame('lighthouses');
  const config = { map: 'continent', rounds: 200 };
  const rows: (string | number)[][] = [['Lighthouses, 4 bots, continent (41×25, 28 lighthouses)', 'games', 'rounds', 'rounds/s', 'µs/round']];
  // A warm-up, then the best of three windows (the machine is shared).
  let games = 0;
  let t0 = performance.now();
  while (performance.now() - t0 < budgetMs / 6) playBuiltins(game, ['random', 'random', 'random', 'random'], games++, { config });
  let perSec = 0;
  let played = 0;
  for (let w = 0; w < 3; w++) {
    const before = games;
    t0 = performance.now();
    while (performance.now() - t0 < budgetMs / 3) playBuiltins(game, ['random', 'random', 'random', 'random'], games++, { config });
    perSec = Math.max(perSec, ((games - before) * 200) / ((performance.now() - t0) / 1000));
    played += games - before;
  }
  rows.push(['engine only (builtin random ×4), best of three 1 s windows', played, played * 200, Math.round(perSec), (1e6 / perSec).toFixed(1)]);
  // The original engine alone, beside ours, when a copy of it is given (see bench/RESULTS.md); otherwise the
  // figure the issue measured for it on this machine kind: 920–1 090 rounds/s.
  const original = process.env.BOTARENA_LIGHTHOUSES_ORIGINAL;
  // The original reads its map from a file: the continent, in the text format both share.
  const mapDir = original ? mkdtempSync(join(tmpdir(), 'botarena-lighthouses-')) : null;
  const mapFile = mapDir ? join(mapDir, 'continent.txt') : '';
  if (mapDir) writeFileSync(mapFile, MAPS['continent']!.text + '\n');
  /** One match of the original on that map (milliseconds), or null when no copy of it is given. */
  const originalMatch = original ? (rounds: number, players: string[]) => timeOriginal(original, mapFile, rounds, players) : null;
  try {
    if (originalMatch) {
      // The same 200-round games, 5 seeds, the fastest game counted (ours: the fastest window).
      const engineRounds = 200;
      const slow = Math.min(...[0, 1, 2, 3, 4].map((seed) => originalMatch(engineRounds, ['--random', '4', String(seed)]))) / 1000;
      rows.push([
        `the original engine alone: its BotPlayer with 4 in-process players that play as its RandBot (best of 5 games): this engine is ${((perSec * slow) / engineRounds).toFixed(1)}× it (target ≥ 30×)`,
        5,
        5 * engineRounds,
        Math.round(engineRounds / slow),
        ((slow * 1e6) / engineRounds).toFixed(1),
      ]);
      coldRows(rows, (perSec * slow) / engineRounds, originalMatch);
    } else
      rows.push([
        `reference: the Python original, 920–1 090 rounds/s; this engine is ${(perSec / 1090).toFixed(1)}–${(perSec / 920).toFixed(1)}× it (target ≥ 30×)`,
        '-',
        '-',
        '920–1090',
        '-',
      ]);
    await stdioRows(rows, game, config, budgetMs, originalMatch);
  } finally {
    if (mapDir) rmSync(mapDir, { recursive: true, force: true });
  }
  return rows;
}

/** The rows with bots over stdio: 4 Node bots; 4 Python pass bots against the original engine and the floor. */
async function stdioRows(
  rows: (string | number)[][],
  game: ReturnType<typeof getGame>,
  config: Record<string, unknown>,
  budgetMs: number,
  originalMatch: ((rounds: number, players: string[]) => number) | null,
): Promise<void> {
  // Starting four Node processes costs about half a second a match: timed apart from the rounds.
  let games = 0;
  let playMs = 0;
  const t0 = performance.now();
  while (performance.now() - t0 < budgetMs) {
    let first = 0;
    let last = 0;
    // The play time runs from the end of the hellos to the last step, as the full live feed sees them.
    const live = new LocalLiveEvents();
    const matchId = `bench-${games}`;
    live.subscribe(matchId, 'full', (e) => {
      if (e.type !== 'step') return;
      if (e.record.phase === 'init') first = performance.now();
      last = performance.now();
    });
    await runMatch(
      { game: game.id, matchId, config, seed: games++, seats: Array.from({ length: 4 }, () => ({ bot: 'stdio:node bench/lighthouses-bot.mjs' })) },
      { game, live },
    );
    await new Promise((r) => setImmediate(r));
    await live.close();
    playMs += last - first;
  }
  const sec = playMs / 1000;
  const startMs = (performance.now() - t0 - playMs) / games;
  rows.push([
    `runner + 4 stdio bots (node, random steps; + ${startMs.toFixed(0)} ms start/stop a match)`,
    games,
    games * 200,
    Math.round((games * 200) / sec),
    ((sec * 1e6) / (games * 200)).toFixed(1),
  ]);

  // The comparison: 4 Python bots that pass (each reads every message as JSON), 2 000 rounds, one
  // match timed whole, start and stop included; the original engine with the same bots, in turn with ours,
  // when a copy of it is given (see bench/RESULTS.md).
  const passRounds = 2000;
  const times: number[] = [];
  const originalTimes: number[] = [];
  const floorTimes: number[] = [];
  const bot = 'python3 bench/lighthouses-pass.py';
  // The runner, the original and the floor in turn, three times: a slow spell of the machine hits all three.
  for (let i = 0; i < 3; i++) {
    const t1 = performance.now();
    await runMatch(
      { game: game.id, config: { ...config, rounds: passRounds }, seed: i, seats: Array.from({ length: 4 }, () => ({ bot: `stdio:${bot}` })) },
      { game },
    );
    times.push(performance.now() - t1);
    if (originalMatch) originalTimes.push(originalMatch(passRounds, [bot, bot, bot, bot]));
    floorTimes.push(await bareExchange(game, passRounds));
  }
  const best = Math.min(...times) / 1000;
  rows.push([
    `runner + 4 Python pass bots over stdio, ${passRounds} rounds, whole match (best of 3)`,
    3,
    3 * passRounds,
    Math.round(passRounds / best),
    ((best * 1e6) / passRounds).toFixed(1),
  ]);
  if (originalMatch) {
    const slow = Math.min(...originalTimes) / 1000;
    rows.push([
      `the original engine (its game.py's loop, no view), the same 4 bots, whole match (best of 3): the runner is ${(slow / best).toFixed(1)}× it (target ≥ 5×)`,
      3,
      3 * passRounds,
      Math.round(passRounds / slow),
      ((slow * 1e6) / passRounds).toFixed(1),
    ]);
  } else
    rows.push([
      '(the original engine not measured: set BOTARENA_LIGHTHOUSES_ORIGINAL to a copy of marcan/lighthouses_aicontest; see bench/RESULTS.md)',
      '',
      '',
      '',
      '',
    ]);
  const floor = Math.min(...floorTimes) / 1000;
  const pace = times.map((t, i) => floorTimes[i]! / t).sort((x, y) => x - y);
  rows.push([
    `floor: a bare Node loop, the same 4 Python bots, messages of the same size prebuilt (best of 3): the runner goes at ${(floor / best).toFixed(2)}× its pace, best against best (each pair in turn: ${pace.map((r) => r.toFixed(2)).join(', ')}; target ≥ 0.85×)`,
    3,
    3 * passRounds,
    Math.round(passRounds / floor),
    ((floor * 1e6) / passRounds).toFixed(1),
  ]);
}

/**
 * A match in a fresh process, where V8 has compiled and optimised nothing yet: `botarena play` as it ships
 * (dist/, run `npm run build` first), one 200-round game of 4 built-in `random` on continent, against the
 * original's one game in a fresh Python process (its own timing, from the game's set-up), 5 seeds in turn;
 * then a whole match from the shell with 4 Python pass bots, each process timed whole, 3 in turn.
 */
function coldRows(rows: (string | number)[][], warm: number, originalMatch: (rounds: number, players: string[]) => number): void {
  const ours: number[] = [];
  const theirs: number[] = [];
  const oursWall: number[] = [];
  for (let seed = 0; seed < 5; seed++) {
    const t0 = performance.now();
    const out = execFileSync(
      process.execPath,
      ['bin/botarena', 'play', 'lighthouses', 'random', 'random', 'random', 'random', '--set', 'map=continent', '--seed', String(seed), '--json'],
      { encoding: 'utf8' },
    );
    oursWall.push(performance.now() - t0);
    ours.push((JSON.parse(out) as { durationMs: number }).durationMs);
    theirs.push(originalMatch(200, ['--random', '4', String(seed)]));
  }
  const cold = theirs.map((t, i) => t / ours[i]!).sort((a, b) => a - b);
  rows.push([
    `cold: one 200-round match in a fresh \`botarena play\` (4 built-in random; the match's own time, median of 5; the process: ${spread(oursWall)} ms): ${median(cold).toFixed(1)}× (${cold[0]!.toFixed(1)}–${cold[cold.length - 1]!.toFixed(1)}×) the original's one game in a fresh process (${spread(theirs)} ms); warm ${warm.toFixed(1)}× (target cold ≥ half the warm ratio)`,
    5,
    1000,
    Math.round(200_000 / median(ours)),
    ((median(ours) * 1000) / 200).toFixed(1),
  ]);
  const bot = 'python3 bench/lighthouses-pass.py';
  const shell: number[] = [];
  const original: number[] = [];
  for (let seed = 0; seed < 3; seed++) {
    let t0 = performance.now();
    execFileSync(
      process.execPath,
      ['bin/botarena', 'play', 'lighthouses', ...Array.from({ length: 4 }, () => `stdio:${bot}`), '--set', 'map=continent', '--seed', String(seed), '--json'],
      { encoding: 'utf8' },
    );
    shell.push(performance.now() - t0);
    t0 = performance.now();
    originalMatch(200, [bot, bot, bot, bot]);
    original.push(performance.now() - t0);
  }
  const ratio = original.map((t, i) => t / shell[i]!).sort((a, b) => a - b);
  rows.push([
    `from the shell: a whole 200-round match with 4 Python pass bots, each process timed whole (3 in turn): botarena play ${spread(shell)} ms, the original ${spread(original)} ms: ${median(ratio).toFixed(2)}× (${ratio[0]!.toFixed(2)}–${ratio[ratio.length - 1]!.toFixed(2)}×) the original's pace`,
    3,
    600,
    Math.round(200_000 / median(shell)),
    ((median(shell) * 1000) / 200).toFixed(1),
  ]);
}

/** The median of a few numbers. */
function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** Median and range of a few times, in ms. */
function spread(ms: number[]): string {
  return `${median(ms).toFixed(0)} (${Math.min(...ms).toFixed(0)}–${Math.max(...ms).toFixed(0)})`;
}

/**
 * One match of the original engine (bench/lighthouses-original.py runs its game.py's loop) on `map` (a
 * file), with 4 bot command lines or `--random 4 SEED` (4 in-process random players): milliseconds from its
 * game's set-up to its bots' close, as it times itself.
 */
function timeOriginal(original: string, map: string, rounds: number, players: string[]): number {
  const out = execFileSync('python3', ['bench/lighthouses-original.py', original, map, String(rounds), ...players], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'ignore'],
    maxBuffer: 1 << 26,
  });
  const last = JSON.parse(out.trimEnd().split('\n').pop()!) as { seconds: number; scores: number[] };
  if (last.scores.length !== 4) throw new Error(`the original engine played ${last.scores.length} bots, not 4`);
  return last.seconds * 1000;
}

/**
 * The floor under a match with stdio bots: a loop that starts the 4 pass bots and exchanges, command by
 * command, a prebuilt message as long as a real turn's, the answer and a result, with no rules, timers or
 * logs. Milliseconds for the whole match, start and stop included.
 */
async function bareExchange(game: ReturnType<typeof getGame>, rounds: number): Promise<number> {
  const e = new MatchEngine(game, { config: { map: 'continent', rounds }, seed: 0, players: 4 });
  const hello = Array.from({ length: 4 }, (_, slot) => JSON.stringify(e.view(slot, { phase: 'init', turn: 0 } as never)) + '\n');
  const turn = JSON.stringify(e.view(0, { phase: 'play', turn: 1 } as never)) + '\n';
  const result = '{"success": true}\n';
  const t0 = performance.now();
  const bots = Array.from({ length: 4 }, () => {
    const child = spawn('python3', ['bench/lighthouses-pass.py'], { stdio: ['pipe', 'pipe', 'ignore'] });
    const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
    return { child, next: async () => (await lines.next()).value as string };
  });
  await Promise.all(bots.map(async (b, slot) => (b.child.stdin.write(hello[slot]!), b.next())));
  for (let r = 0; r < rounds; r++) {
    for (const b of bots) {
      b.child.stdin.write(turn);
      await b.next();
      b.child.stdin.write(result);
    }
  }
  await Promise.all(bots.map((b) => new Promise((done) => (b.child.once('exit', done), b.child.stdin.end()))));
  return performance.now() - t0;
}

/** Planner against random, 2-player games over 100 seeds on each shipped map (seats alternate). */
export function benchLighthousesStrength(games = 100): (string | number)[][] {
  const game = getGame('lighthouses');
  const rows: (string | number)[][] = [['lighthouses planner vs random, 200 rounds', 'games', 'wins', 'draws', 'losses', 'win %', 'median margin', 'ms/game']];
  for (const map of ['islet', 'bay', 'cross', 'continent']) {
    let [w, d, l] = [0, 0, 0];
    const margins: number[] = [];
    const t0 = performance.now();
    for (let seed = 0; seed < games; seed++) {
      const me = seed % 2;
      const o = playBuiltins(game, me === 0 ? ['planner', 'random'] : ['random', 'planner'], seed, { config: { map } }).outcome();
      if (o.ranks[me] === 1 && o.ranks[1 - me] === 2) w++;
      else if (o.ranks[me] === 1) d++;
      else l++;
      margins.push(o.scores![me]! - o.scores![1 - me]!);
    }
    margins.sort((a, b) => a - b);
    rows.push([map, games, w, d, l, ((100 * w) / games).toFixed(1), margins[games >> 1]!, ((performance.now() - t0) / games).toFixed(2)]);
  }
  return rows;
}
