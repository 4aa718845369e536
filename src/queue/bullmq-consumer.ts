import { Worker, type Job } from 'bullmq';
import type { LogFn } from 'pino';
import { redactRedisUrl } from '../live/redis.js';
import { bullConnection, DEFAULT_PREFIX, QUEUE_NAME, type MatchJobData } from './bullmq.js';
import type { MatchHandler } from './port.js';

// The taking side of the BullMQ queue: what a `botarena worker` runs. It carries the match ids of the queue's
// jobs to a MatchHandler (the application layer's, given by the worker's composition root), as the local
// queue does in the server's process.

/** How a consumer takes matches. */
export interface ConsumerOptions {
  /** redis://… : the queue the server enqueues on */
  url: string;
  prefix?: string;
  /** plays each match taken; a rejection fails the job (BullMQ gives it to a worker again) */
  handler: MatchHandler;
  log: { info: LogFn; warn: LogFn };
  /** matches played at once (default 1) */
  concurrency?: number;
  /**
   * how long a match stays this consumer's without it saying it is alive (default 30 s): a worker killed
   * mid-match loses it that long after, and another worker plays it again from the start
   */
  lockMs?: number;
  /** a match started this many times is aborted by the handler (default 3): BullMQ must not give up first */
  maxTries?: number;
}

/** The longest match id a job may carry (the store's ids are UUIDs; anything longer is not the server's). */
const MAX_ID = 200;

/**
 * A BullMQ worker on the match queue: takes jobs, hands each one's match id to the handler with a signal
 * that aborts when the consumer stops past its grace (the handler then rejects and the job goes back to the
 * queue). Jobs without a well-formed match id are dropped, saying why.
 */
export class BullMatchConsumer {
  private worker: Worker<MatchJobData> | null = null;
  /** the worker's connection: BullMQ does not close a connection it was given */
  private connection: ReturnType<typeof bullConnection> | null = null;
  private readonly playing = new Map<string, AbortController>();

  constructor(private readonly o: ConsumerOptions) {}

  /** Starts taking matches from the queue. */
  start(): void {
    const lockMs = this.o.lockMs ?? 30_000;
    this.worker = new Worker<MatchJobData>(QUEUE_NAME, (job) => this.process(job), {
      connection: (this.connection = bullConnection(this.o.url)),
      prefix: this.o.prefix ?? DEFAULT_PREFIX,
      concurrency: this.o.concurrency ?? 1,
      lockDuration: lockMs,
      stalledInterval: lockMs,
      // The store counts the starts (tries) and the handler aborts past maxTries; BullMQ moving a stalled job
      // to failed first would only delay it until the server's reconciler enqueues it again.
      maxStalledCount: (this.o.maxTries ?? 3) + 1,
    });
    let lastError = 0;
    this.worker.on('error', (err) => {
      // Redis away: ioredis reconnects by itself; say so once every few seconds, not per retry.
      if (Date.now() - lastError < 5000) return;
      lastError = Date.now();
      this.o.log.warn({ err: err.message }, `the queue's Redis (${redactRedisUrl(this.o.url)}) cannot be reached; retrying`);
    });
  }

  /** Matches being played now, by id. */
  get active(): string[] {
    return [...this.playing.keys()];
  }

  /** Plays one job's match; returns what became of it (BullMQ keeps it as the job's return value). */
  async process(job: Pick<Job<MatchJobData>, 'data'>): Promise<string> {
    const data = job.data as unknown;
    const matchId = data && typeof data === 'object' && typeof (data as MatchJobData).matchId === 'string' ? (data as MatchJobData).matchId : null;
    if (!matchId) return `a job without a match id (${JSON.stringify(data)?.slice(0, 200)}): dropped`;
    if (matchId.length > MAX_ID)
      return `a job whose match id is ${matchId.length} characters long (${JSON.stringify(matchId.slice(0, 40))}…): no such match in the store: dropped`;
    const controller = new AbortController();
    this.playing.set(matchId, controller);
    try {
      return await this.o.handler(matchId, controller.signal);
    } finally {
      if (this.playing.get(matchId) === controller) this.playing.delete(matchId);
    }
  }

  /**
   * Stops taking matches; those under way get `graceMs` to end, then are cancelled: they go back to the
   * queue for another worker (their job fails and is retried), not aborted.
   */
  async stop(graceMs = 10_000): Promise<void> {
    if (!this.worker) return;
    const closing = this.worker.close();
    closing.catch(() => {});
    // The grace is for matches under way: with none, there is nothing to wait for.
    if (this.playing.size) await Promise.race([closing, after(graceMs)]);
    for (const c of this.playing.values()) c.abort();
    // Closing tells Redis the worker is gone; with Redis away that never ends: give up after a while (the
    // matches it held go back to the queue when their locks run out).
    const gaveUp = await Promise.race([
      closing.then(
        () => false,
        () => false,
      ),
      after(5000).then(() => true),
    ]);
    if (gaveUp) {
      this.o.log.warn(`the queue's Redis (${redactRedisUrl(this.o.url)}) did not answer: stopping without telling it`);
      // BullMQ's disconnect waits for a connection that never came up: cut it short too.
      await Promise.race([this.worker.disconnect().catch(() => {}), after(1000)]);
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
}

/** Resolves after `ms` (a timer that keeps no process alive). */
function after(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}
