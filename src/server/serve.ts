import { monitorEventLoopDelay } from 'node:perf_hooks';
import { pino, type Level } from 'pino';
import type { LiveEvents } from '../live/events.js';
import { LocalLiveEvents } from '../live/local.js';
import type { MatchQueue } from '../queue/port.js';
import { openStore, type Store } from '../store/index.js';
import { sandboxLimits } from '../bots/index.js';
import { buildApp, LOG_REDACTION } from './app.js';
import { Arena, type ArenaOptions } from './arena.js';
import { startGateway, type Gateway, type GatewayOptions } from './gateway.js';
import { botRoutes } from './routes/bots.js';
import { matchRoutes } from './routes/matches.js';
import { playRoutes } from './routes/play.js';
import { connectRoutes } from './routes/connect.js';
import { contestRoutes } from './routes/contests.js';
import { Streams, type StreamOptions } from './sse.js';
import { nodeName } from '../matches/node-name.js';
import { uploadsOf, type UploadSetup } from '../registry/upload/setup.js';
import { ArenaMetrics, metricsAllowed } from '../metrics/metrics.js';

/** How `botarena serve` (and tests) start a server. */
export interface ServeOptions extends Partial<Omit<ArenaOptions, 'gatewayPort' | 'queue' | 'observe' | 'uploads'>> {
  /** uploaded code (`--uploads LANGUAGES`); none: the server takes no uploads */
  uploads?: UploadSetup;
  port: number;
  host: string;
  /** a SQLite file path, or postgres://… (default: DATABASE_URL, else ./data/botarena.sqlite) */
  database?: string;
  logLevel?: Level | 'silent';
  /** where log lines go (default stdout) */
  logStream?: NodeJS.WritableStream;
  /** per-address limits a minute on registrations (and checks) and on match requests (default 20 and 60) */
  limits?: { registrations: number; matches: number };
  /**
   * the reverse proxies whose X-Forwarded-For is believed (addresses, CIDR blocks, `loopback`…, as
   * `serve --trust-proxy` checks them): every per-address cap then counts the client's address. Default none
   */
  trustProxy?: string[];
  /** caps on event streams (per client address, in all), their unread bytes, idle time, and the shared cache of finished ones (sse.ts) */
  streams?: Partial<StreamOptions>;
  /**
   * redis://… : matches go to `botarena worker`s through BullMQ, and live events through Redis pub/sub (so
   * any server streams any match); without it everything runs in this process
   */
  queueUrl?: string;
  /** with a queue: how many times a match is started before it is given up (default 3) */
  maxTries?: number;
  /** Redis key prefix of the queue and the live events (default botarena) */
  redisPrefix?: string;
  /**
   * the smart-dog TCP gateway (its games recorded and rated like any match), or false for none; default port
   * 3002 on `host` (port 0, a free one, when the HTTP port is 0: a test's or a throwaway server's). Tests may
   * give the hubs and their gathering time.
   */
  gateway?: ({ port: number; host?: string } & Pick<GatewayOptions, 'hubs' | 'gatherMs'>) | false;
  /**
   * Prometheus text at /metrics: on by default and readable by anyone who reaches the server, unless `token`
   * is given (then only with `Authorization: Bearer TOKEN`); false turns it off
   */
  metrics?: { token?: string } | false;
  /** how long each readiness check (/readyz: the store, the queue) may take before it counts as away, ms (default 2000) */
  readyTimeoutMs?: number;
}

/** A running server: its URL, its arena, its gateway's port, and how to stop it (matches get `graceMs` to end). */
export interface RunningServer {
  url: string;
  arena: Arena;
  /** the smart-dog gateway's TCP port; null when it does not run */
  gatewayPort: number | null;
  close(graceMs?: number): Promise<void>;
}

/**
 * Opens the store (migrated), starts the smart-dog gateway, registers the built-in bots, starts the ladder
 * and the HTTP API. What started is stopped again when a later step fails (a port in use).
 */
export async function startServer(o: ServeOptions): Promise<RunningServer> {
  // No token is ever logged, at any level: request URLs are redacted as they are logged (app.ts), and these
  // paths (Authorization headers, the raw bytes of a request that could not be parsed) by pino itself.
  const logger = pino({ level: o.logLevel ?? 'info', base: undefined, redact: LOG_REDACTION }, o.logStream as never);
  // The store says in this log when its disk is full, once, and when it writes again.
  const store = await openStore(o.database ?? process.env.DATABASE_URL, { log: logger });
  const node = o.node ?? nodeName('server');
  let live: LiveEvents;
  let queue: MatchQueue | null = null;
  if (o.queueUrl) {
    // Loaded only here: a server without a queue never loads BullMQ or ioredis.
    const [{ BullMatchQueue, checkQueueUrl }, { RedisLiveEvents }] = await Promise.all([import('../queue/bullmq.js'), import('../live/redis.js')]);
    checkQueueUrl(o.queueUrl);
    queue = new BullMatchQueue({ url: o.queueUrl, prefix: o.redisPrefix, maxTries: o.maxTries });
    live = new RedisLiveEvents({ url: o.queueUrl, prefix: o.redisPrefix, log: (line) => logger.warn(line) });
  } else live = new LocalLiveEvents({ log: (line) => logger.warn(line) });
  // Off unless the operator turns it on, wherever the server listens: a server on 127.0.0.1 is most often
  // one behind a reverse proxy, as reachable from the internet as any.
  const allowPrivateBots = o.allowPrivateBots ?? false;
  // The gateway listens first, so the arena can name its port; games it finishes are recorded once the
  // arena has started (after the start has marked the matches a killed run left running aborted).
  let arenaStarted!: () => void;
  const recordAfter = new Promise<void>((resolve) => (arenaStarted = resolve));
  const g = o.gateway ?? { port: o.port === 0 ? 0 : 3002 };
  let gateway: Gateway | null = null;
  let app: Awaited<ReturnType<typeof buildApp>> | null = null;
  let arena: Arena | null = null;
  const loop = new LoopDelay();
  const concurrency = o.concurrency ?? 2;
  const metrics = o.metrics === false ? null : new ArenaMetrics(concurrency);
  const streams = new Streams(o.streams);
  try {
    if (g) gateway = await startGateway(store, logger, { port: g.port, host: g.host ?? o.host, hubs: g.hubs, gatherMs: g.gatherMs, recordAfter, node });
    const uploads = o.uploads ? uploadsOf(store, o.uploads) : undefined;
    arena = new Arena(
      store,
      live,
      {
        uploads,
        onDemand: o.onDemand,
        concurrency,
        allowCommands: o.allowCommands ?? false,
        allowPrivateBots,
        botEnv: o.botEnv,
        sandbox: o.sandbox,
        adminToken: o.adminToken ?? process.env.BOTARENA_ADMIN_TOKEN,
        ladder: o.ladder ?? true,
        timeouts: o.timeouts,
        ladderConfig: o.ladderConfig,
        perBotPerHour: o.perBotPerHour,
        ladderBurst: o.ladderBurst,
        checkBots: o.checkBots,
        gatewayPort: gateway?.port ?? null,
        person: o.person,
        queue,
        node,
        reconcileMs: o.reconcileMs,
        contestEveryMs: o.contestEveryMs,
        observe: metrics ?? undefined,
        links: o.links,
      },
      logger,
    );
    if (metrics) {
      // Read when scraped: the queue's depth as the store has it (every process's), the viewers of this one.
      metrics.gauge('botarena_queue_depth', 'matches queued in the store, waiting for a slot (every process of the arena)', () =>
        store.countMatches({ status: 'queued' }),
      );
      metrics.gauge('botarena_matches_running', 'matches running as the store has them (every process of the arena)', () =>
        store.countMatches({ status: 'running' }),
      );
      metrics.gauge('botarena_live_viewers', "event streams open on this server (live matches' viewers, the feed)", () => streams.openStreams);
    }
    const limits = o.limits ?? { registrations: 20, matches: 60 };
    app = await buildApp({
      logger,
      limits,
      trustProxy: o.trustProxy,
      // With a queue, the request limits are counted in its Redis: every web node of the arena shares them.
      rateLimit: { redisUrl: o.queueUrl, prefix: o.redisPrefix },
      areas: [botRoutes(arena, limits), matchRoutes(arena, limits, streams), playRoutes(arena), connectRoutes(arena), contestRoutes(arena)],
      health: () => ({ eventLoopDelay: loop.read() }),
      // A flood of /readyz or /metrics costs the store one check at a time: the requests that come while it runs share it.
      ready: whileRunning(() => readiness(store, queue, o.readyTimeoutMs ?? 2000)),
      metrics: metrics
        ? { page: whileRunning(() => metrics.text()), allowed: (authorization) => metricsAllowed(o.metrics ? o.metrics.token : undefined, authorization) }
        : undefined,
    });
    // The arena's policy, for every worker of its queue to read (one configuration, not each process's flags).
    await store.setArenaPolicy({
      allowPrivateBots,
      allowCommands: arena.opts.allowCommands,
      sandboxedCommands: arena.opts.allowCommands && !!arena.opts.sandbox,
      sandboxLimits: arena.opts.allowCommands && arena.opts.sandbox ? sandboxLimits(arena.opts.sandbox) : undefined,
      writtenAt: new Date().toISOString(),
    });
    await arena.start();
    arenaStarted();
    const address = await app.listen({ port: o.port, host: o.host });
    logger.info(
      {
        url: address,
        database: store.describe(),
        queue: queue?.describe() ?? null,
        node,
        allowCommands: arena.opts.allowCommands,
        sandboxedCommands: arena.opts.allowCommands ? !!arena.opts.sandbox : null,
        allowPrivateBots,
        gatewayPort: gateway?.port ?? null,
        requestLimits: { ...limits, per: 'minute and client address', counted: o.queueUrl ? 'in Redis (every web node)' : 'in this process' },
        trustProxy: o.trustProxy ?? null,
        uploads: uploads ? { languages: uploads.cache.languages, cache: uploads.cache.dir } : null,
      },
      `botarena server at ${address} (API docs at ${address}/docs)`,
    );
    const running = { arena, app, gateway };
    let closing: Promise<void> | null = null;
    return {
      url: address,
      arena,
      gatewayPort: gateway?.port ?? null,
      close(graceMs = 10_000) {
        closing ??= (async () => {
          // The gateway's games under way are cancelled (finished ones are recorded first), then the arena's
          // matches get their grace; the store closes last.
          loop.stop();
          await running.gateway?.close();
          await running.arena.stop(graceMs);
          await running.app.close();
          await queue?.close();
          await live.close();
          await store.close();
        })();
        return closing;
      },
    };
  } catch (err) {
    loop.stop();
    arenaStarted();
    await gateway?.close().catch(() => {});
    await arena?.stop(0).catch(() => {});
    await app?.close().catch(() => {});
    await queue?.close().catch(() => {});
    await live?.close().catch(() => {});
    await store.close().catch(() => {});
    throw err;
  }
}

/** `f`, whose answer is shared by the calls made while it runs. */
function whileRunning<T>(f: () => Promise<T>): () => Promise<T> {
  let running: Promise<T> | null = null;
  return () => {
    if (running) return running;
    const answer = f();
    running = answer;
    const done = () => void (running === answer && (running = null));
    answer.then(done, done);
    return answer;
  };
}

/** A key no match has: the store's readiness check looks it up (one lookup by primary key). */
const PROBE_ID = 'readiness-probe';

/**
 * What keeps the server from doing its work now (/readyz), each a sentence naming it and why: its store (one
 * lookup by key) and, with a shared queue, the queue's Redis (one command), each within `ms`.
 */
async function readiness(store: Store, queue: MatchQueue | null, ms: number): Promise<string[]> {
  const check = async (what: string, probe: () => Promise<unknown>): Promise<string | null> => {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<string>((resolve) => (timer = setTimeout(() => resolve(`no answer within ${ms} ms`), ms)));
    try {
      const said = await Promise.race([probe().then(() => null), late]);
      return said && `${what}: ${said}`;
    } catch (err) {
      const e = err as { message?: string; code?: string; name?: string };
      return `${what}: ${e?.message || e?.code || e?.name || String(err)}`;
    } finally {
      clearTimeout(timer);
    }
  };
  const reasons = await Promise.all([
    check(`the store (${store.describe()})`, () => store.getMatch(PROBE_ID)),
    queue?.shared
      ? check(`the queue's Redis (${queue.describe()})`, async () => {
          if (!(await queue.ready(Math.min(ms, 250)))) throw new Error('not connected (it refuses or does not answer; the server keeps retrying)');
          await queue.alive(PROBE_ID);
        })
      : null,
  ]);
  return reasons.filter((r): r is string => r !== null);
}

/** The delays of one window, ms: the median, the 99th percentile and the longest. */
interface DelayFigures {
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
}

/**
 * The server's own event-loop delay (perf_hooks), in windows of `windowMs`: what /healthz shows an operator
 * (`eventLoopDelay`: the last whole window and the one under way). A match, a replay or anything else that held
 * the thread that answers HTTP shows here; a p99 in the tens of ms is a server that answers at once.
 */
class LoopDelay {
  private readonly h = monitorEventLoopDelay({ resolution: 10 });
  private last: DelayFigures | null = null;
  private since = Date.now();
  private readonly timer: NodeJS.Timeout;

  constructor(private readonly windowMs = 5000) {
    this.h.enable();
    this.timer = setInterval(() => {
      this.last = this.figures();
      this.h.reset();
      this.since = Date.now();
    }, windowMs);
    this.timer.unref();
  }

  read() {
    return { windowMs: this.windowMs, last: this.last, current: { ...this.figures(), sinceMs: Date.now() - this.since } };
  }

  stop(): void {
    clearInterval(this.timer);
    this.h.disable();
  }

  private figures(): DelayFigures {
    const ms = (ns: number) => Math.round(ns / 1e4) / 100;
    // An empty window (nothing measured yet) reads as 0, not as the histogram's sentinel.
    if (!this.h.count) return { p50Ms: 0, p99Ms: 0, maxMs: 0 };
    return { p50Ms: ms(this.h.percentile(50)), p99Ms: ms(this.h.percentile(99)), maxMs: ms(this.h.max) };
  }
}
