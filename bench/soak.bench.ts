// The soak: many matches mixing the hostile-bot zoo (test/fixtures/zoo/hostile.mjs) with built-in bots, in
// every game a stdio bot can play, several at once. It counts what must stay at zero (hung matches, leaked
// processes, arena crashes) and samples the arena's memory, which must stay flat.
import { readdirSync, readFileSync } from 'node:fs';
import { runMatch } from '../src/arena/run-match.js';
import { ZOO_GAMES, ZOO_MODES, zooBot } from '../test/zoo.kit.js';

const GAMES = ZOO_GAMES;
const MODES = [...Object.keys(ZOO_MODES), 'builtin'];
const DEADLINE_MS = 300;
/** A match is hung when it is not over 10× after the longest honest one of these would be (about 3 s). */
const HUNG_MS = 30_000;

function livePids(marker: string): number {
  let n = 0;
  for (const e of readdirSync('/proc')) {
    if (!/^\d+$/.test(e) || Number(e) === process.pid) continue;
    try {
      if (readFileSync(`/proc/${e}/cmdline`, 'utf8').includes(marker) && !/\) Z /.test(readFileSync(`/proc/${e}/stat`, 'utf8'))) n++;
    } catch {
      // gone meanwhile
    }
  }
  return n;
}

export async function benchSoak(total = Number(process.env.SOAK_MATCHES ?? 1000), concurrency = 8): Promise<(string | number)[][]> {
  const marker = `soak-${process.pid}`;
  let next = 0;
  let done = 0;
  let hung = 0;
  let crashes = 0;
  const rss: [number, number][] = [[0, process.memoryUsage().rss]];
  const t0 = performance.now();
  const one = async (i: number) => {
    const { game, opponent, config } = GAMES[i % GAMES.length]!;
    const mode = MODES[Math.floor(i / GAMES.length) % MODES.length]!;
    const bot = mode === 'builtin' ? opponent : zooBot(mode, marker);
    let timer: NodeJS.Timeout | undefined;
    const watchdog = new Promise<'hung'>((resolve) => (timer = setTimeout(() => resolve('hung'), HUNG_MS)));
    const match = runMatch({ game, seed: i, config, timeouts: { initMs: DEADLINE_MS, turnMs: DEADLINE_MS }, seats: [{ bot }, { bot: opponent }] }).then(
      () => 'ok' as const,
      () => 'crash' as const,
    );
    const how = await Promise.race([match, watchdog]);
    clearTimeout(timer);
    if (how === 'hung') hung++;
    if (how === 'crash') crashes++;
    if (++done % 100 === 0) rss.push([done, process.memoryUsage().rss]);
  };
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < total) await one(next++);
    }),
  );
  await new Promise((r) => setTimeout(r, 500));
  if (rss[rss.length - 1]![0] !== total) rss.push([total, process.memoryUsage().rss]);
  const leaked = livePids(marker);
  const seconds = (performance.now() - t0) / 1000;
  const mb = (b: number) => Math.round(b / 2 ** 20);
  return [
    ['measure', 'value'],
    ['matches', total],
    ['hostile share', `${Math.round((100 * (MODES.length - 1)) / MODES.length)} %`],
    ['hung (not over in 30 s)', hung],
    ['processes left', leaked],
    ['arena errors (runMatch rejected)', crashes],
    ['matches/min', Math.round((60 * total) / seconds)],
    ...rss.filter(([n]) => n === 0 || n === total || n % 200 === 0).map(([n, b]): (string | number)[] => [`arena RSS after ${n} matches (MB)`, mb(b)]),
  ];
}
