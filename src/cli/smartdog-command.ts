import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Option, type Command } from 'commander';
import { UsageError } from '../core/errors.js';
import { getGame } from '../games/index.js';
import { mapText } from '../games/smartdog/index.js';
import { defaultHubs, SmartdogHubPlan, type SmartdogHub as Hub } from '../games/smartdog/hubs.js';
import { collectKeyValue, parseNonNegativeInt, parsePositiveInt } from './options.js';

interface ServeOptions {
  port: number;
  host: string;
  maps?: string;
  option?: Record<string, string>;
  hubs?: string;
  replays?: string;
  leave: 'out' | 'abort';
  maxPerAddress: number;
  joinWithin: number;
}

/** A map named on the command line: a shipped name, or a file's text; checked now, not when a game starts. */
function readMap(name: string): string {
  const text = existsSync(name) ? readFileSync(name, 'utf8') : name;
  try {
    mapText(text);
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
  return text;
}

/** Hubs from a JSON file: an array of {name, min, max, maps?, options?}. */
function readHubs(path: string, maps: string[], options: Record<string, unknown>): Hub[] {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, 'utf8'));
  } catch (err) {
    throw new UsageError(`cannot read hubs file ${path}: ${(err as Error).message}`);
  }
  if (!Array.isArray(raw) || !raw.length) throw new UsageError(`hubs file ${path}: expected a JSON array of hubs like [{"name":"duet","min":2,"max":2}]`);
  return raw.map((h: Partial<Hub>, i) => {
    const where = `hubs file ${path}, hub ${i + 1}`;
    if (typeof h.name !== 'string' || !/^[a-z0-9-]+$/i.test(h.name)) throw new UsageError(`${where}: "name" must be a word`);
    const min = h.min ?? 1;
    const max = h.max ?? min;
    if (!Number.isInteger(min) || !Number.isInteger(max) || min < 1 || max > 4 || min > max)
      throw new UsageError(`${where}: "min" and "max" must be whole numbers with 1 ≤ min ≤ max ≤ 4`);
    return { name: h.name, min, max, maps: (h.maps ?? maps).map(readMap), options: { ...options, ...(h.options ?? {}) } };
  });
}

/** `botarena smartdog serve`: the smart-dog TCP server with its hubs; every game it plays is a replay. */
export function registerSmartdog(program: Command): void {
  const smartdog = program.command('smartdog').description('smart-dog: the TCP server bots connect to');
  smartdog
    .command('serve')
    .description('listen for smart-dog bots: they connect, "join NAME HUB", and play when their hub fills (hubs: default 2–4, solo, duet, trio, quartet)')
    .option('--port <n>', 'TCP port', parseNonNegativeInt('--port', 65535), 3002)
    .option('--host <address>', 'address to listen on (0.0.0.0: every interface)', '127.0.0.1')
    .option('--maps <names>', 'maps every hub rotates through, comma-separated: shipped names or map part files')
    .option('--option <key=value>', 'a game option for every hub (turnsLimit, waitForTurn, dogBarkingR…), repeatable', collectKeyValue('--option'))
    .option('--hubs <file>', 'the hubs as JSON: [{"name":"duet","min":2,"max":2,"maps":["meadow"],"options":{"turnsLimit":50}}]')
    .option('--replays <dir>', "write every game's replay into this folder (smartdog-N.json.gz)")
    .option('--max-per-address <n>', 'connections at once from one address; more are closed at once', parsePositiveInt('--max-per-address', 100_000), 100)
    .option('--join-within <ms>', 'a connection that has not joined a hub after this long is closed', parsePositiveInt('--join-within', 3_600_000), 60_000)
    .addOption(
      new Option(
        '--leave <rule>',
        'a player that times out or disconnects is out and the others play on, or (abort) the game stops for everyone with no winner, as the reference did',
      )
        .choices(['out', 'abort'])
        .default('out'),
    )
    .action(async (o: ServeOptions) => {
      const maps = (o.maps ?? 'training,meadow,keeper,highlands')
        .split(',')
        .map((m) => m.trim())
        .filter(Boolean)
        .map(readMap);
      const options: Record<string, unknown> = { ...(o.option ?? {}) };
      const hubs = o.hubs ? readHubs(o.hubs, maps, options) : defaultHubs(maps, options);
      if (o.replays) mkdirSync(o.replays, { recursive: true });
      const say = (line: string) => process.stderr.write(`${new Date().toISOString()} ${line}\n`);
      // The server and the replay files' code are loaded when the server starts, not with the command line.
      const [{ startHubServer }, { writeReplay }] = await Promise.all([import('../arena/hubs.js'), import('./replay-file.js')]);
      const gateway = await startHubServer({
        game: getGame('smartdog'),
        port: o.port,
        host: o.host,
        hubs,
        plan: new SmartdogHubPlan(o.leave),
        log: say,
        maxPerAddress: o.maxPerAddress,
        joinWithinMs: o.joinWithin,
        onGame: (report) => {
          if (!o.replays) return;
          const file = join(o.replays, `smartdog-${report.replay.matchId}.json.gz`);
          try {
            writeReplay(file, report.replay);
            say(`replay: ${file}`);
          } catch (err) {
            say(
              `replay of game ${report.replay.matchId} could not be written to ${file}: ${(err as Error).message}; its result: ${report.replay.result.reason}`,
            );
          }
        },
      });
      say(`smart-dog server on ${o.host}:${gateway.port}; hubs: ${hubs.map((h) => `${h.name} (${h.min === h.max ? h.min : `${h.min}–${h.max}`})`).join(', ')}`);
      await new Promise<void>((resolve) => process.once('SIGINT', resolve).once('SIGTERM', resolve));
      say('stopping: games under way are cancelled');
      await gateway.close();
    });
}
