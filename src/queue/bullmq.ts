import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { redactRedisUrl } from '../live/redis.js';
import type { JobState, MatchQueue } from './port.js';

// The match queue on BullMQ (Redis): the server enqueues a match by its id, `botarena worker`s play it. The
// store is the truth about a match (its job, its status, its tries); the queue only says who should play
// what next, so a job carries nothing but the match id, and the job id IS the match id: adding a match twice
// adds one job.

/** The BullMQ queue's name (its keys are `PREFIX:matches:…`). */
export const QUEUE_NAME = 'matches';
/** The default key prefix of the queue and of the arena's own keys in Redis. */
export const DEFAULT_PREFIX = 'botarena';

/** The key that says which arena a queue belongs to (the store's arena id): `PREFIX:arena`. */
export function arenaKey(prefix: string): string {
  return `${prefix}:arena`;
}

/**
 * Which arena the queue at `url` (key prefix `prefix`) belongs to, as its servers marked it: the arena id, null
 * when no server marked it yet (or Redis lost the mark: a server marks it again within its heartbeat), or
 * `{ unreachable }` when Redis did not answer within `ms`.
 */
export async function queueArena(url: string, prefix: string, ms = 3000): Promise<string | null | { unreachable: string }> {
  const redis = new Redis(url, { lazyConnect: true, enableOfflineQueue: false, maxRetriesPerRequest: 0, connectTimeout: ms, retryStrategy: () => null });
  redis.on('error', () => {});
  let timer: NodeJS.Timeout | undefined;
  try {
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
    });
    return await Promise.race([redis.connect().then(() => redis.get(arenaKey(prefix))), timeout]);
  } catch (err) {
    return { unreachable: err instanceof Error ? err.message : String(err) };
  } finally {
    clearTimeout(timer);
    redis.disconnect();
  }
}

/** The sorted set of the workers alive on a queue (name → until when, epoch ms): `PREFIX:workers`. */
export function workersKey(prefix: string): string {
  return `${prefix}:workers`;
}

/** What a match job carries. */
export interface MatchJobData {
  matchId: string;
}

/** Where the queue is, and how its jobs are retried. */
export interface QueueOptions {
  /** redis://[user:password@]host:port[/db] */
  url: string;
  /** key prefix (default DEFAULT_PREFIX): several arenas may share one Redis with different prefixes */
  prefix?: string;
  /**
   * how many times a match is started before it is given up (default 3): a worker that fails with it is
   * retried by BullMQ after `retryDelayMs`, a killed worker's match goes back to the queue when its lock
   * runs out (the workers' `--lock-ms`), and the store counts every start (the worker aborts a match started
   * more often than this)
   */
  maxTries?: number;
  retryDelayMs?: number;
}

/** Checks a --queue value: a redis:// or rediss:// URL; returns it, or throws saying what was expected. */
export function checkQueueUrl(url: string): string {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new Error(`--queue: "${url}" is not a URL; expected redis://HOST:PORT (e.g. redis://127.0.0.1:6379)`);
  }
  if (u.protocol !== 'redis:' && u.protocol !== 'rediss:') throw new Error(`--queue: expected a redis:// or rediss:// URL, got ${u.protocol}//…`);
  return url;
}

/** ioredis options for a connection BullMQ may block on (its workers' and queues' requirement). */
export function bullConnection(url: string): Redis {
  const redis = new Redis(url, { maxRetriesPerRequest: null, lazyConnect: false });
  // BullMQ reports connection trouble through its own 'error' events (the worker's, the queue's); without a
  // listener here ioredis would print every failed reconnect to stderr.
  redis.on('error', () => {});
  return redis;
}

/**
 * The server's side of the queue: enqueue a match, ask about a job, and the keys the arena keeps beside the
 * queue (which server leads the ladder; which server processes are alive, for the matches they play in
 * their own process: a person's, the smart-dog gateway's).
 */
export class BullMatchQueue implements MatchQueue {
  /** `botarena worker` processes take its matches, and several servers may enqueue on it */
  readonly shared = true;
  readonly prefix: string;
  readonly maxTries: number;
  private readonly queue: Queue<MatchJobData>;
  private readonly redis: Redis;

  constructor(readonly opts: QueueOptions) {
    this.prefix = opts.prefix ?? DEFAULT_PREFIX;
    this.maxTries = opts.maxTries ?? 3;
    // Fail fast while Redis is away (no offline queue): a match asked for then stays queued in the store and
    // the reconciler enqueues it once Redis is back, instead of the request hanging until then.
    this.redis = new Redis(opts.url, { maxRetriesPerRequest: 1, enableOfflineQueue: false });
    // Errors while Redis is away are retried by ioredis; each command that fails is reported by its caller.
    this.redis.on('error', () => {});
    this.queue = new Queue<MatchJobData>(QUEUE_NAME, {
      connection: this.redis,
      prefix: this.prefix,
      defaultJobOptions: {
        attempts: this.maxTries,
        backoff: { type: 'fixed', delay: opts.retryDelayMs ?? 1000 },
        // The store keeps the results: finished jobs are only kept a while, to see what the workers did.
        removeOnComplete: { age: 3600, count: 10_000 },
        removeOnFail: { age: 24 * 3600, count: 10_000 },
      },
    });
    this.queue.on('error', () => {});
  }

  /** Resolves once the connection to Redis is up, or after `ms` (then the calls that need it fail and are retried). */
  async ready(ms = 5000): Promise<boolean> {
    if (this.redis.status === 'ready') return true;
    return new Promise((resolve) => {
      const timer = setTimeout(() => (this.redis.off('ready', up), resolve(false)), ms);
      timer.unref();
      const up = () => (clearTimeout(timer), resolve(true));
      this.redis.once('ready', up);
    });
  }

  /** Where the queue is, password hidden. */
  describe(): string {
    return redactRedisUrl(this.opts.url);
  }

  /** Hands a match (queued in the store) to the workers; adding one that has a job already does nothing. */
  async enqueue(matchId: string): Promise<void> {
    await this.queue.add('match', { matchId }, { jobId: matchId });
  }

  /** A match's job state: waiting, active, delayed, completed, failed… or 'unknown' when Redis has no job for it. */
  async state(matchId: string): Promise<JobState> {
    return this.queue.getJobState(matchId);
  }

  /** Why a failed job failed (BullMQ's reason), or null. */
  async failedReason(matchId: string): Promise<string | null> {
    return (await this.queue.getJob(matchId))?.failedReason ?? null;
  }

  /** Puts a match's job back in the queue: its ended job (failed, completed, or lost with Redis) is replaced. */
  async requeue(matchId: string): Promise<void> {
    const state = await this.state(matchId);
    if (state === 'failed' || state === 'completed') await this.queue.remove(matchId);
    await this.enqueue(matchId);
  }

  /** Jobs by state (waiting, active, delayed, completed, failed…). */
  async counts(): Promise<Record<string, number>> {
    return this.queue.getJobCounts('waiting', 'active', 'delayed', 'completed', 'failed', 'prioritized');
  }

  /**
   * Whether `node` leads the ladder for the next `ttlMs`: it takes the lead when nobody holds it, keeps it
   * while it renews in time, and another server takes over within `ttlMs` of its death.
   */
  async lead(node: string, ttlMs: number): Promise<boolean> {
    const key = `${this.prefix}:ladder-leader`;
    const got = await this.redis.set(key, node, 'PX', ttlMs, 'NX');
    if (got === 'OK') return true;
    // Renew only our own lead, atomically.
    const renewed = await this.redis.eval(
      "if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) else return 0 end",
      1,
      key,
      node,
      String(ttlMs),
    );
    return renewed === 1;
  }

  /**
   * Marks the queue as arena `arenaId`'s (unless it is marked already: one arena per queue) and returns the
   * arena it belongs to. Workers compare it with their store's arena id before they take any job.
   */
  async markArena(arenaId: string): Promise<string> {
    const key = arenaKey(this.prefix);
    await this.redis.set(key, arenaId, 'NX');
    return (await this.redis.get(key)) ?? arenaId;
  }

  /** Says that the server process `node` is alive for the next `ttlMs`. */
  async beat(node: string, ttlMs: number): Promise<void> {
    await this.redis.set(`${this.prefix}:node:${node}`, String(Date.now()), 'PX', ttlMs);
  }

  /** Whether the server process `node` said it was alive within its last beat's time. */
  async alive(node: string): Promise<boolean> {
    return (await this.redis.exists(`${this.prefix}:node:${node}`)) === 1;
  }

  /** The server plays none of this queue's matches: nothing to wait for (the workers have their own grace). */
  async stop(): Promise<void> {}

  async close(): Promise<void> {
    await this.queue.close().catch(() => {});
    await this.redis.quit().catch(() => this.redis.disconnect());
  }
}
