import { sandboxLimits, withLimits } from '../bots/index.js';
import { UsageError } from '../core/errors.js';
import { pino, type Level, type Logger } from 'pino';
import { RedisLiveEvents, redactRedisUrl } from '../live/redis.js';
import { ArenaMetrics, serveMetrics, type MetricsServer } from '../metrics/metrics.js';
import { DEFAULT_PREFIX, queueArena } from '../queue/bullmq.js';
import { openStore, type ArenaPolicy, type Store } from '../store/index.js';
import type { UploadCache } from '../registry/upload/cache.js';
import { uploadsOf, type UploadSetup } from '../registry/upload/setup.js';
import { MatchWorker, type WorkerOptions } from './worker.js';

/** How `botarena worker` (and tests) start a worker. */
export interface StartWorkerOptions extends Omit<WorkerOptions, 'store' | 'live' | 'log' | 'observe' | 'uploads'> {
  /** uploaded code (`--uploads LANGUAGES`): the languages this worker runs and its cache; none: it runs none */
  uploads?: UploadSetup;
  /** a SQLite file path, or postgres://… (default: DATABASE_URL, else ./data/botarena.sqlite) */
  database?: string;
  logLevel?: Level | 'silent';
  logStream?: NodeJS.WritableStream;
  /**
   * Prometheus text at http://HOST:PORT/metrics (`--metrics-port`; off without it): host default 127.0.0.1,
   * port 0 a free one; with `token`, only for `Authorization: Bearer TOKEN`
   */
  metrics?: { port: number; host?: string; token?: string };
}

/** A running worker: its name, and how to stop it (matches under way get `graceMs`, then go back to the queue). */
export interface RunningWorker {
  worker: MatchWorker;
  /** the port its /metrics listens on, or null when it serves none */
  metricsPort: number | null;
  close(graceMs?: number): Promise<void>;
}

/**
 * A worker belongs to the arena whose queue it reads: its store's arena id must be the one the queue's servers
 * marked it with in Redis. A mismatch (a worker on another database: ./data/botarena.sqlite for want of
 * DATABASE_URL) stops the start with what to do. A queue no server marked yet, or a Redis that does not answer
 * now, lets it start: then it still never completes a job whose match its store does not have (handler.ts).
 */
async function checkArena(store: Store, o: StartWorkerOptions, log: Logger): Promise<void> {
  const prefix = o.prefix ?? DEFAULT_PREFIX;
  const mine = await store.arenaId();
  const theirs = await queueArena(o.url, prefix);
  const queue = `${redactRedisUrl(o.url)}${prefix === DEFAULT_PREFIX ? '' : ` (prefix ${prefix})`}`;
  if (typeof theirs === 'string' && theirs !== mine)
    throw new UsageError(
      `this worker's store (${store.describe()}) is arena ${mine}, the queue ${queue} belongs to arena ${theirs}: give the worker the server's DATABASE_URL (or --database), and the server's --redis-prefix`,
    );
  if (theirs === null)
    log.warn(
      `the queue ${queue} is not marked with an arena yet (no server has started on it): this worker takes its jobs, and hands back any whose match is not in its store (${store.describe()})`,
    );
  else if (typeof theirs === 'object')
    log.warn(
      `the queue ${queue} could not be asked which arena it belongs to (${theirs.unreachable}): this worker hands back any job whose match is not in its store (${store.describe()})`,
    );
}

/** How often a worker reads the arena's policy again (a server restarted with other options). */
const POLICY_REFRESH_MS = 15_000;

/**
 * The arena's policy (what its bots may be and reach), as its server wrote it in the store: a worker follows it,
 * whatever its own flags, so that a bot the server accepted is not refused by the worker that plays it (a
 * loopback HTTP bot on a server with --allow-private-bots). A worker's flags say what it can do: one started
 * with --unsandboxed-commands on an arena that runs commands sandboxed does not start. Null when no server has
 * written a policy yet (then the worker's flags rule).
 */
async function followPolicy(store: Store, o: StartWorkerOptions, log: Logger): Promise<ArenaPolicy | null> {
  const policy = await store.arenaPolicy();
  if (!policy) {
    log.warn("no server has written this arena's policy to its store yet: this worker follows its own flags (--allow-private-bots) until one has");
    return null;
  }
  if (o.allowCommands && policy.sandboxedCommands && !o.sandbox)
    throw new UsageError(
      'this arena runs commands sandboxed (its server was started with --allow-commands, without --unsandboxed-commands), but this worker was started with --unsandboxed-commands: start it as the server, sandboxed',
    );
  if (!!o.allowPrivateBots !== policy.allowPrivateBots)
    log.warn(
      `this worker follows the arena's policy, not its own --allow-private-bots: bots at private addresses are ${policy.allowPrivateBots ? 'allowed' : 'refused'} (the server's ${policy.allowPrivateBots ? '--allow-private-bots' : 'default'})`,
    );
  if (policy.allowCommands && !o.allowCommands)
    log.warn(
      "this arena's bots may be commands (the server's --allow-commands), and this worker runs none (no --allow-commands): it passes matches of command bots on to workers that run them",
    );
  if (o.sandbox && policy.sandboxLimits) {
    const mine = sandboxLimits(o.sandbox);
    const theirs = sandboxLimits(withLimits(o.sandbox, policy.sandboxLimits));
    const differ = (Object.keys(mine) as (keyof typeof mine)[]).filter((k) => mine[k] !== theirs[k]);
    if (differ.length)
      log.warn(
        { worker: mine, arena: theirs },
        `this worker follows the arena's sandbox limits, not its own --sandbox-* options: ${differ.map((k) => `${k} ${theirs[k]} (its own: ${mine[k]})`).join(', ')}`,
      );
  }
  log.info(
    { policy },
    `the arena's policy (its server's, written ${policy.writtenAt}): private bot addresses ${policy.allowPrivateBots ? 'allowed' : 'refused'}, commands ${policy.allowCommands ? (policy.sandboxedCommands ? 'allowed, sandboxed' : 'allowed, unsandboxed') : 'not allowed'}`,
  );
  return policy;
}

/** Opens the store and the live events, and starts taking matches from the queue. */
export async function startWorker(o: StartWorkerOptions): Promise<RunningWorker> {
  const logger = pino({ level: o.logLevel ?? 'info', base: undefined }, o.logStream as never);
  // The store says in this log when its disk is full, once, and when it writes again.
  const store = await openStore(o.database ?? process.env.DATABASE_URL, { log: logger });
  try {
    await checkArena(store, o, logger);
  } catch (err) {
    await store.close();
    throw err;
  }
  let policy: ArenaPolicy | null;
  let uploads: UploadCache | undefined;
  try {
    policy = await followPolicy(store, o, logger);
    uploads = o.uploads ? uploadsOf(store, o.uploads).cache : undefined;
  } catch (err) {
    await store.close();
    throw err;
  }
  const refresh = setInterval(() => {
    store.arenaPolicy().then(
      (p) => (policy = p ?? policy),
      () => {}, // the store away: the policy last read holds
    );
  }, POLICY_REFRESH_MS);
  refresh.unref();
  const live = new RedisLiveEvents({ url: o.url, prefix: o.prefix, log: (line: string) => logger.warn(line) });
  const metrics = o.metrics ? new ArenaMetrics(o.concurrency ?? 1) : null;
  let served: MetricsServer | null = null;
  if (metrics && o.metrics) {
    try {
      served = await serveMetrics(metrics, { port: o.metrics.port, host: o.metrics.host ?? '127.0.0.1', token: o.metrics.token });
    } catch (err) {
      await live.close();
      await store.close();
      throw new Error(`--metrics-port ${o.metrics.port}: cannot listen on ${o.metrics.host ?? '127.0.0.1'}: ${(err as Error).message}`, { cause: err });
    }
    logger.info(
      { metrics: `http://${o.metrics.host ?? '127.0.0.1'}:${served.port}/metrics` },
      `metrics at http://${o.metrics.host ?? '127.0.0.1'}:${served.port}/metrics`,
    );
  }
  const worker = new MatchWorker({ ...o, store, live, log: logger, arenaPolicy: () => policy, observe: metrics ?? undefined, uploads });
  worker.start();
  let closing: Promise<void> | null = null;
  return {
    worker,
    metricsPort: served?.port ?? null,
    close(graceMs = 10_000) {
      closing ??= (async () => {
        clearInterval(refresh);
        await worker.stop(graceMs);
        await served?.close();
        await live.close();
        await store.close();
      })();
      return closing;
    },
  };
}
