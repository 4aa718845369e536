import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { Worker, type Job } from 'bullmq';
import type { FastifyBaseLogger } from 'fastify';
import type { MatchJob } from '../arena/match-job.js';
import { MatchCancelledError } from '../arena/run-match.js';
import type { LiveEvents } from '../live/events.js';
import type { Store } from '../store/index.js';
import { botsOfMatch, commandSeats, connectedSeats, playAndRecord, publicOnly, withFeed } from '../matches/play.js';
import { redactRedisUrl } from '../live/redis.js';
import { bullConnection, DEFAULT_PREFIX, QUEUE_NAME, type MatchJobData } from './bullmq.js';

/** How a worker runs. */
export interface WorkerOptions {
  /** redis://… : the queue the server enqueues on */
  url: string;
  prefix?: string;
  store: Store;
  /** the live events (RedisLiveEvents on the same Redis, so every server streams this worker's matches) */
  live: LiveEvents;
  log: FastifyBaseLogger;
  /** matches played at once (default 1) */
  concurrency?: number;
  /** this worker's name, recorded with each match it plays (default: host name, pid and a random tag) */
  name?: string;
  /**
   * how long a match stays this worker's without it saying it is alive (default 30 s): a worker killed
   * mid-match loses it that long after, and another worker plays it again from the start
   */
  lockMs?: number;
  /** a match started this many times (by workers that died or stopped) is aborted instead (default 3) */
  maxTries?: number;
  /** whether bots may be commands on this machine (stdio:, exec:), as the server's --allow-commands */
  allowCommands?: boolean;
  /** whether HTTP bots may be at private addresses, as the server's --allow-private-bots */
  allowPrivateBots?: boolean;
}

/** Why a match is not played by a worker, or null when it may be. */
function refusal(job: MatchJob, allowCommands: boolean): string | null {
  if (connectedSeats(job).length) return 'its players connect to a server (a person, smart-dog TCP bots), and a worker cannot seat them';
  const cmds = commandSeats(job);
  if (cmds.length && !allowCommands) return `seat ${cmds[0]} is a command (stdio:/exec:) and this worker runs no commands: start the workers with --allow-commands, as the server`;
  return null;
}

/**
 * A match worker (`botarena worker`): takes match ids from the BullMQ queue, plays each from the job the
 * store keeps (same seed, same seats) and records it through the same path as the server
 * (playAndRecord: result, replay, logs and ratings in one transaction, at most once per match). The store
 * decides who may play: a match that ended is skipped; one that another worker left running (it died) is
 * played again from the start, up to `maxTries` starts, then aborted with the reason.
 */
export class MatchWorker {
  readonly name: string;
  private worker: Worker<MatchJobData> | null = null;
  /** the worker's connection: BullMQ does not close a connection it was given */
  private connection: ReturnType<typeof bullConnection> | null = null;
  private readonly playing = new Map<string, AbortController>();
  private readonly live: LiveEvents;

  constructor(private readonly o: WorkerOptions) {
    this.name = o.name ?? `worker@${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;
    this.live = withFeed(publicOnly(o.live));
  }

  /** Starts taking matches from the queue. */
  start(): void {
    const lockMs = this.o.lockMs ?? 30_000;
    this.worker = new Worker<MatchJobData>(QUEUE_NAME, (job) => this.process(job), {
      connection: (this.connection = bullConnection(this.o.url)),
      prefix: this.o.prefix ?? DEFAULT_PREFIX,
      concurrency: this.o.concurrency ?? 1,
      lockDuration: lockMs,
      stalledInterval: lockMs,
      // The store counts the starts (tries) and aborts past maxTries; BullMQ moving a stalled job to
      // failed first would only delay it until the server's reconciler enqueues it again.
      maxStalledCount: (this.o.maxTries ?? 3) + 1,
    });
    let lastError = 0;
    this.worker.on('error', (err) => {
      // Redis away: ioredis reconnects by itself; say so once every few seconds, not per retry.
      if (Date.now() - lastError < 5000) return;
      lastError = Date.now();
      this.o.log.warn({ err: err.message }, `the queue's Redis (${redactRedisUrl(this.o.url)}) cannot be reached; retrying`);
    });
    this.o.log.info({ worker: this.name, queue: redactRedisUrl(this.o.url), concurrency: this.o.concurrency ?? 1, database: this.o.store.describe() }, `botarena worker ${this.name} takes matches from ${redactRedisUrl(this.o.url)}`);
  }

  /** Matches being played now, by id. */
  get active(): string[] {
    return [...this.playing.keys()];
  }

  /**
   * Stops taking matches; those under way get `graceMs` to end, then are cancelled: they go back to the
   * queue for another worker (their job fails and is retried), not aborted.
   */
  async stop(graceMs = 10_000): Promise<void> {
    if (!this.worker) return;
    const closing = this.worker.close();
    const timer = new Promise((resolve) => setTimeout(resolve, graceMs).unref());
    await Promise.race([closing, timer]);
    for (const c of this.playing.values()) c.abort();
    // Closing tells Redis the worker is gone; with Redis away that never ends: give up after a while (the
    // matches it held go back to the queue when their locks run out).
    const gaveUp = await Promise.race([closing.then(() => false), new Promise<boolean>((resolve) => setTimeout(() => resolve(true), 5000).unref())]);
    if (gaveUp) {
      this.o.log.warn(`the queue's Redis (${redactRedisUrl(this.o.url)}) did not answer: stopping without telling it`);
      await this.worker.disconnect().catch(() => {});
    }
    this.worker = null;
    const connection = this.connection;
    this.connection = null;
    if (connection) {
      // QUIT waits for Redis; with Redis away, cut the connection instead.
      await Promise.race([connection.quit().catch(() => {}), new Promise((resolve) => setTimeout(resolve, 1000).unref())]);
      connection.disconnect();
    }
  }

  /** Plays one match job; returns what became of it (BullMQ keeps it as the job's return value). */
  async process(job: Job<MatchJobData>): Promise<string> {
    const { store, log } = this.o;
    const matchId = typeof job.data?.matchId === 'string' ? job.data.matchId : null;
    if (!matchId) return `a job without a match id (${JSON.stringify(job.data)?.slice(0, 200)}): dropped`;
    const m = await store.getMatch(matchId);
    if (!m) return 'no such match in the store: dropped';
    if (m.status !== 'queued' && m.status !== 'running') return `the match is ${m.status} already`;
    const matchJob = m.job as MatchJob;
    const abort = async (reason: string) => {
      if (await store.abortMatch(matchId, reason)) {
        log.warn({ match: matchId, worker: this.name }, `match aborted: ${reason}`);
        this.live.publish(matchId, 'public', { type: 'stopped', matchId, reason });
      }
      return `aborted: ${reason}`;
    };
    const refused = refusal(matchJob, this.o.allowCommands ?? false);
    if (refused) return abort(refused);
    const found = await botsOfMatch(store, m);
    if ('missing' in found) return abort(found.missing);
    const tries = await store.claimMatch(matchId, this.name);
    if (tries === null) return 'the match ended meanwhile';
    const maxTries = this.o.maxTries ?? 3;
    if (tries > maxTries) return abort(`it was started ${maxTries} times and no worker finished it (each stopped or died mid-match)`);
    log.info({ match: matchId, game: m.game, worker: this.name, try: tries, bots: m.seats.map((s) => s.name) }, tries > 1 ? `match started again (try ${tries}): the worker before stopped mid-match` : 'match started');
    const controller = new AbortController();
    this.playing.set(matchId, controller);
    try {
      const { stored } = await playAndRecord({ store, live: this.live, log, addressPolicy: this.o.allowPrivateBots ? 'any' : 'public-only', signal: controller.signal }, matchJob, found.bots, m.rated);
      return stored ? 'finished' : 'finished, but it had been recorded already';
    } catch (err) {
      // Cancelled at shutdown: the job fails and BullMQ hands it to another worker (the store counts the try).
      if (err instanceof MatchCancelledError) throw new Error(`worker ${this.name} stopped before the match ended`, { cause: err });
      return abort(`the arena failed: ${err instanceof Error ? err.message : String(err)}`);
    } finally {
      this.playing.delete(matchId);
    }
  }
}
