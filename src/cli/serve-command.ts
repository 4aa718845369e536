import { isIP } from 'node:net';
import { InvalidArgumentError, Option, type Command } from 'commander';
import { UsageError } from '../core/errors.js';
import { botEnvHelp, collectBotEnv, parseNonNegativeInt, parsePositiveInt } from './options.js';
import { withCommandsSandboxOptions, type CommandsSandboxFlags } from './sandbox-flags.js';
import { uploadSetup, withUploadOptions, type UploadFlags } from './upload-flags.js';
import { timeRulesOf, withTimeRuleOptions, type TimeRuleFlags } from './time-rule-flags.js';

interface ServeCliOptions extends CommandsSandboxFlags, UploadFlags, TimeRuleFlags {
  port: number;
  host: string;
  database?: string;
  concurrency: number;
  allowCommands?: boolean;
  allowPrivateBots?: boolean;
  botEnv?: Record<string, string>;
  ladder: boolean;
  gatewayPort: number;
  gateway: boolean;
  perBotPerHour: number;
  ladderBurst: number;
  queue?: string;
  maxTries: number;
  redisPrefix: string;
  reconcileMs: number;
  maxStreamsPerAddress: number;
  maxStreams: number;
  streamBuffer: number;
  streamIdleMs: number;
  streamCacheMb: number;
  maxMatchesPerAddress: number;
  maxQueued: number;
  maxMatchWork: number;
  onDemandConcurrency?: number;
  matchRequestsPerMinute: number;
  registrationsPerMinute: number;
  trustProxy?: string[];
  metrics: boolean;
  logLevel: 'trace' | 'debug' | 'info' | 'warn' | 'error' | 'fatal' | 'silent';
}

/** `botarena serve`: the arena server (bots, ladder, matches, API). */
export function registerServe(program: Command): void {
  // The sandbox's options (--sandbox*, --unsandboxed-commands): one block, added first, read in the action.
  withTimeRuleOptions(withUploadOptions(withCommandsSandboxOptions(program.command('serve')), 'serve'))
    .description(
      'run an arena server: a bot registry with doctor checks, a rated ladder, on-demand and test matches, replays, live events, a REST API (OpenAPI at /docs) and the smart-dog TCP gateway (port 3002); SQLite under ./data by default, Postgres with DATABASE_URL',
    )
    .option('--port <n>', 'HTTP port', parseNonNegativeInt('--port', 65535), 8080)
    .option('--host <address>', 'address to listen on (0.0.0.0 for every interface)', '127.0.0.1')
    .option('--database <path|url>', 'a SQLite file, or postgres://… (default: $DATABASE_URL, else ./data/botarena.sqlite)')
    .option('--concurrency <k>', 'matches at once', parsePositiveInt('--concurrency', 256), 2)
    .option(
      '--allow-commands',
      'let bots be commands on this machine (stdio:, exec:), each run in the sandbox (bubblewrap, see --sandbox) unless --unsandboxed-commands',
    )
    .option(
      '--allow-private-bots',
      'let HTTP bots be at loopback, private or link-local addresses (off by default, wherever the server listens: a server on 127.0.0.1 behind a reverse proxy is as public as any)',
    )
    .option('--bot-env <NAME[=VALUE]>', botEnvHelp('a fresh private folder per bot process'), collectBotEnv)
    .option('--no-ladder', 'play only the matches people ask for')
    .option(
      '--gateway-port <n>',
      'TCP port of the smart-dog gateway (on --host): smart-dog bots connect, "join NAME HUB", and their games are recorded and rated',
      parseNonNegativeInt('--gateway-port', 65535),
      3002,
    )
    .option('--no-gateway', 'run no smart-dog gateway')
    .option('--per-bot-per-hour <n>', 'the most ladder matches a bot plays in an hour, spread over it', parsePositiveInt('--per-bot-per-hour', 1_000_000), 60)
    .option(
      '--ladder-burst <n>',
      "ladder matches a bot may play back to back (a newcomer's first games) before the pace applies",
      parsePositiveInt('--ladder-burst', 1_000_000),
      5,
    )
    .option(
      '--queue <redis-url>',
      'enqueue matches on Redis (BullMQ) for `botarena worker`s to play, and stream live events through it, e.g. redis://127.0.0.1:6379 (default: play them in this process)',
    )
    .option(
      '--max-tries <n>',
      'with --queue: a match started this many times without finishing (its workers died) is aborted',
      parsePositiveInt('--max-tries', 100),
      3,
    )
    .option('--redis-prefix <prefix>', 'with --queue: the Redis key prefix (several arenas may share one Redis)', 'botarena')
    .option(
      '--reconcile-ms <ms>',
      'with --queue: how often the queue is checked against the database (matches Redis lost are enqueued again)',
      parsePositiveInt('--reconcile-ms', 3_600_000),
      10_000,
    )
    .option(
      '--max-streams-per-address <n>',
      'event streams (/api/events, /api/matches/ID/events) one client address may hold open; past it: 429',
      parsePositiveInt('--max-streams-per-address', 1_000_000),
      20,
    )
    .option('--max-streams <n>', 'event streams open at once in all; past it: 503', parsePositiveInt('--max-streams', 1_000_000), 2_000)
    .option(
      '--stream-buffer <bytes>',
      "the most bytes of live events an event stream's client may fall behind before it is dropped (a client that reads is never dropped for a long history)",
      parsePositiveInt('--stream-buffer', 1024 * 1024 * 1024),
      8 * 1024 * 1024,
    )
    .option(
      '--stream-idle-ms <ms>',
      'an event stream that sends no event this long (a live match publishing nothing, or a client reading nothing of a replay) is ended',
      parsePositiveInt('--stream-idle-ms', 24 * 3_600_000),
      600_000,
    )
    .option(
      '--stream-cache-mb <n>',
      "MiB of finished matches' encoded event streams kept to share between viewers (least recently used dropped first)",
      parseNonNegativeInt('--stream-cache-mb', 1_000_000),
      64,
    )
    .option(
      '--max-matches-per-address <n>',
      'on-demand and test matches (POST /api/matches) one client address may have queued or under way at once; past it: 429 with Retry-After (the admin token is not counted)',
      parsePositiveInt('--max-matches-per-address', 1_000_000),
      4,
    )
    .option(
      '--max-queued <n>',
      'on-demand and test matches queued and not yet started, in all; past it: 503 with Retry-After (the ladder has its own places)',
      parsePositiveInt('--max-queued', 1_000_000),
      32,
    )
    .option(
      '--max-match-work <cell-answers>',
      "the biggest on-demand or test match one request may ask for, as each game counts it: the answers a match may ask for × the board cells each involves (default 2.5e8: Tron's default 100×100 grid is 1e8, 120×120 2.1e8, 1000×1000 1e12; every game's default config fits); past it: 400 (the admin token is not capped)",
      parseWork,
      250_000_000,
    )
    .option(
      '--on-demand-concurrency <k>',
      'of the --concurrency places, how many on-demand and test matches may hold at once (default: --concurrency − 1, at least 1, so the ladder keeps a place however many are asked for; all of them with --no-ladder); the others wait, queued',
      parsePositiveInt('--on-demand-concurrency', 256),
    )
    .option(
      '--match-requests-per-minute <n>',
      'match requests (POST /api/matches) one client address may send a minute; past it: 429 with Retry-After (counted in Redis with --queue, so every web node shares them)',
      parsePositiveInt('--match-requests-per-minute', 1_000_000),
      60,
    )
    .option(
      '--registrations-per-minute <n>',
      'bot registrations and checks (POST /api/bots, POST /api/bots/ID/check) one client address may send a minute; past it: 429 with Retry-After',
      parsePositiveInt('--registrations-per-minute', 1_000_000),
      20,
    )
    .option(
      '--trust-proxy <addresses>',
      "the reverse proxy's addresses (comma-separated IPs, CIDR blocks, or loopback, linklocal, uniquelocal), whose X-Forwarded-For then names the client: every per-address limit counts the client, not the proxy (default: none; the header is ignored)",
      parseTrustProxyOption,
    )
    .option(
      '--no-metrics',
      'serve no Prometheus /metrics (by default anyone who reaches the server may read it; with $BOTARENA_METRICS_TOKEN set, only with "Authorization: Bearer" that token)',
    )
    .addOption(new Option('--log-level <level>', 'log detail').choices(['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent']).default('info'))
    .action(async (o: ServeCliOptions) => {
      // --allow-commands runs commands sandboxed unless --unsandboxed-commands; a sandbox that cannot run here stops the start.
      const sandbox = (await import('./commands-sandbox.js')).commandsSandbox('serve', o, o.database ?? process.env.DATABASE_URL);
      if (o.queue) {
        const { checkQueueUrl } = await import('../queue/bullmq.js');
        try {
          checkQueueUrl(o.queue);
        } catch (err) {
          throw new UsageError((err as Error).message);
        }
      }
      const { startServer } = await import('../server/serve.js');
      const server = await startServer({
        queueUrl: o.queue,
        maxTries: o.maxTries,
        redisPrefix: o.redisPrefix,
        reconcileMs: o.reconcileMs,
        port: o.port,
        host: o.host,
        database: o.database,
        concurrency: o.concurrency,
        allowCommands: o.allowCommands ?? false,
        allowPrivateBots: o.allowPrivateBots ?? false,
        botEnv: o.botEnv,
        sandbox,
        uploads: uploadSetup(o, sandbox),
        ladder: o.ladder,
        // The time rules of ladder, on-demand and test matches (strikes: in the games that have a pass).
        timeouts: timeRulesOf(o),
        perBotPerHour: o.perBotPerHour,
        ladderBurst: o.ladderBurst,
        logLevel: o.logLevel,
        gateway: o.gateway ? { port: o.gatewayPort } : false,
        limits: { registrations: o.registrationsPerMinute, matches: o.matchRequestsPerMinute },
        trustProxy: o.trustProxy,
        metrics: o.metrics ? { token: process.env.BOTARENA_METRICS_TOKEN || undefined } : false,
        onDemand: { perAddress: o.maxMatchesPerAddress, maxQueued: o.maxQueued, maxWork: o.maxMatchWork, concurrency: o.onDemandConcurrency },
        streams: {
          perAddress: o.maxStreamsPerAddress,
          total: o.maxStreams,
          maxUnread: o.streamBuffer,
          idleMs: o.streamIdleMs,
          cacheBytes: o.streamCacheMb * 1024 * 1024,
        },
      });
      // SIGINT/SIGTERM: stop scheduling, let running matches end (10 s at most), mark the rest aborted, close.
      await new Promise<void>((resolve) => {
        const stop = (sig: NodeJS.Signals) => {
          process.off('SIGINT', stop);
          process.off('SIGTERM', stop);
          process.stderr.write(`botarena serve: ${sig}: finishing the matches under way (10 s at most), then stopping\n`);
          void server.close(10_000).then(resolve);
        };
        process.on('SIGINT', stop);
        process.on('SIGTERM', stop);
      });
    });
}

/** The named address ranges a trusted proxy may be given by (as Fastify's proxy-addr knows them). */
const RANGES = ['loopback', 'linklocal', 'uniquelocal'];

/**
 * Reads `--trust-proxy`: the reverse proxies whose `X-Forwarded-For` is believed, as a comma-separated list of
 * addresses, CIDR blocks (`10.0.0.0/8`) or the names `loopback`, `linklocal`, `uniquelocal`. Throws saying what
 * was wrong and what is expected. A hop count is refused: it would believe a forged header from any client that
 * reaches the server directly.
 */
function parseTrustProxy(value: string): string[] {
  const entries = value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const expected =
    'expected the reverse proxy\'s addresses, comma-separated: IPs, CIDR blocks or "loopback", "linklocal", "uniquelocal" (e.g. --trust-proxy 127.0.0.1 or --trust-proxy 10.0.0.0/8)';
  if (entries.length === 0) throw new Error(`--trust-proxy: nothing given; ${expected}`);
  if (entries.length > 64) throw new Error(`--trust-proxy: ${entries.length} entries, at most 64; use CIDR blocks`);
  for (const e of entries) {
    if (RANGES.includes(e)) continue;
    if (/^\d+$/.test(e))
      throw new Error(
        `--trust-proxy: "${e}" is a hop count, which this server does not take (any client reaching it directly could then choose its address); ${expected}`,
      );
    const [ip, bits, more] = e.split('/');
    const family = isIP(ip ?? '');
    if (!family || more !== undefined) throw new Error(`--trust-proxy: "${e.slice(0, 64)}" is not an IP address or CIDR block; ${expected}`);
    if (bits !== undefined && (!/^\d{1,3}$/.test(bits) || Number(bits) > (family === 4 ? 32 : 128)))
      throw new Error(`--trust-proxy: "${e}": the prefix length after / must be 0 to ${family === 4 ? 32 : 128}; ${expected}`);
  }
  return entries;
}

/** `--trust-proxy` for commander. */
function parseTrustProxyOption(value: string): string[] {
  try {
    return parseTrustProxy(value);
  } catch (err) {
    throw new InvalidArgumentError((err as Error).message);
  }
}

/** `--max-match-work`: a whole number of cell-answers, written out or as 2e8. */
function parseWork(value: string): number {
  const n = Number(value);
  if (!/^\d+(\.\d+)?(e\d+)?$/i.test(value.trim()) || !Number.isSafeInteger(n) || n < 1)
    throw new InvalidArgumentError(`--max-match-work must be a whole number of cell-answers from 1 (e.g. 250000000 or 2.5e8), got ${JSON.stringify(value)}`);
  return n;
}
