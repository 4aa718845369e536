import { DelayedError, WaitingError, Worker, type Job } from 'bullmq';
import type { LogFn } from 'pino';
import { redactRedisUrl } from '../live/redis.js';
import { bullConnection, DEFAULT_PREFIX, QUEUE_NAME, workersKey, type MatchJobData } from './bullmq.js';
import { NotHereError } from './port.js';

// The taking side of the BullMQ queue: what a `botarena worker` runs. It carries the match ids of the queue's
// jobs to a match handler (the application layer's, given by the worker's composition root), as the local
// queue does in the server's process.

/**
 * Plays the match of a job (see MatchHandler in port.ts). `handedBack` says how many times workers that stopped
 * handed this match back unfinished (see `BullMatchConsumer.stop`): those starts were not the match's fault,
 * and the handler allows for them in its tries.
 */
export type ConsumerHandler = (matchId: string, signal: AbortSignal, handedBack: number) => Promise<string>;

/** How a consumer takes matches. */
export interface ConsumerOptions {
  /** redis://… : the queue the server enqueues on */
  url: string;
  prefix?: string;
  /** plays each match taken; a rejection fails the job (BullMQ gives it to a worker again) */
  handler: ConsumerHandler;
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
  /** this consumer's name among the queue's workers (the worker's), for passing on matches it cannot play */
  name?: string;
  /**
   * how long a match no running worker can play waits for one (default 10 min) before `unplayable` is told:
   * the handler rejected it with NotHereError here, and every other worker alive did too
   */
  unplayableMs?: number;
  /** told of a match no worker could play within `unplayableMs`, with each worker's reason: it gives it up (aborts it in the store) */
  unplayable?: (matchId: string, reasons: string) => Promise<void>;
}

/** How often a consumer says it is alive among the queue's workers, and how long that lasts. */
const PRESENCE_MS = 5000;
const PRESENCE_TTL_MS = 15_000;
/** How long a match passed on to another worker waits before it is taken again (so that it is not this one at once). */
const PASS_DELAY_MS = 250;
/** How long a match no worker can play now waits before the workers look at it again. */
const WAIT_DELAY_MS = 5000;
/** The most workers' reasons a job carries (the live workers' only: it cannot grow past them). */
const MAX_REASONS = 64;

/** The longest match id a job may carry (the store's ids are UUIDs; anything longer is not the server's). */
const MAX_ID = 200;
/** The most hand-backs a job's count is believed up to (the count is in Redis: whoever writes there could lie). */
const MAX_HANDED_BACK = 1000;

/**
 * What a match job carries: its match id, how many times stopping workers handed it back, and, for a match that
 * workers could not play, why each could not (by worker), whether no worker alive can (`waiting`) and since when (epoch ms).
 */
type CarriedData = MatchJobData & { handedBack?: number; notHere?: Record<string, string>; notHereSince?: number; waiting?: boolean };

/** The job a consumer is given: its data, and (from BullMQ) how to put it back in the queue. */
type TakenJob = Pick<Job<MatchJobData>, 'data'> & Partial<Pick<Job<MatchJobData>, 'moveToWait' | 'moveToDelayed' | 'updateData'>>;

/**
 * A BullMQ worker on the match queue: takes jobs, hands each one's match id to the handler with a signal
 * that aborts when the consumer stops past its grace; the job of a match cancelled so is handed back to the
 * queue at once (not when its lock runs out), for another worker. Jobs without a well-formed match id are
 * dropped, saying why.
 */
export class BullMatchConsumer {
  private worker: Worker<MatchJobData> | null = null;
  /** the worker's connection: BullMQ does not close a connection it was given */
  private connection: ReturnType<typeof bullConnection> | null = null;
  private readonly playing = new Map<string, AbortController>();
  /** set once `stop` is called: no match is started after it */
  private stopping = false;
  /** matches handed back to the queue since the stop began */
  private handedBack = 0;
  /** the presence beat's timer */
  private presence: NodeJS.Timeout | null = null;

  constructor(private readonly o: ConsumerOptions) {}

  /** Starts taking matches from the queue. */
  start(): void {
    const lockMs = this.o.lockMs ?? 30_000;
    this.worker = new Worker<MatchJobData>(QUEUE_NAME, (job, token) => this.process(job, token), {
      connection: (this.connection = bullConnection(this.o.url)),
      prefix: this.o.prefix ?? DEFAULT_PREFIX,
      concurrency: this.o.concurrency ?? 1,
      lockDuration: lockMs,
      stalledInterval: lockMs,
      // The store counts the starts (tries) and the handler aborts past maxTries; BullMQ moving a stalled job
      // to failed first would only delay it until the server's reconciler enqueues it again.
      maxStalledCount: (this.o.maxTries ?? 3) + 1,
    });
    if (this.o.name) {
      const beat = () => void this.beat().catch(() => {}); // Redis away: the worker's 'error' says so
      beat();
      this.presence = setInterval(beat, PRESENCE_MS);
      this.presence.unref();
    }
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

  /**
   * Plays one job's match; returns what became of it (BullMQ keeps it as the job's return value). A match the
   * stop cancelled is handed back to the queue (with `token`, the job's lock: BullMQ's jobs only).
   */
  async process(job: TakenJob, token?: string): Promise<string> {
    const data = job.data as unknown;
    const matchId = data && typeof data === 'object' && typeof (data as MatchJobData).matchId === 'string' ? (data as MatchJobData).matchId : null;
    if (!matchId) return `a job without a match id (${JSON.stringify(data)?.slice(0, 200)}): dropped`;
    if (matchId.length > MAX_ID)
      return `a job whose match id is ${matchId.length} characters long (${JSON.stringify(matchId.slice(0, 40))}…): no such match in the store: dropped`;
    const given = (data as CarriedData).handedBack;
    const handedBack = Number.isSafeInteger(given) && given! > 0 ? Math.min(given!, MAX_HANDED_BACK) : 0;
    // Taken as the stop began (BullMQ was fetching it): it goes back unplayed, not started (no try counted).
    if (this.stopping && token && (await this.handBack(job, token, matchId, handedBack, false))) throw new WaitingError();
    const controller = new AbortController();
    this.playing.set(matchId, controller);
    try {
      return await this.o.handler(matchId, controller.signal, handedBack);
    } catch (err) {
      // Cancelled by the stop (past its grace): back to the queue now, for another worker, with its count.
      if (controller.signal.aborted && token && (await this.handBack(job, token, matchId, handedBack, true))) throw new WaitingError();
      if (err instanceof NotHereError && token) return this.passOn(job, token, matchId, err.reason);
      throw err;
    } finally {
      if (this.playing.get(matchId) === controller) this.playing.delete(matchId);
    }
  }

  /**
   * Puts a job this consumer holds back in the queue's waiting list at once (its lock released: another
   * worker takes it now, not when the lock runs out), counting the hand-back in its data when the match was
   * started here. False when that failed (Redis away, the lock lost): the job then takes the usual way back.
   */
  private async handBack(job: TakenJob, token: string, matchId: string, handedBack: number, started: boolean): Promise<boolean> {
    if (!job.moveToWait || !job.updateData) return false;
    try {
      if (started) await job.updateData({ ...job.data, handedBack: handedBack + 1 } as CarriedData);
      await job.moveToWait(token);
    } catch (err) {
      this.o.log.warn(
        { match: matchId, err: (err as Error).message },
        'the match could not be handed back to the queue now: it goes back when its lock runs out',
      );
      return false;
    }
    this.handedBack++;
    this.o.log.info(
      { match: matchId, handedBack: started ? handedBack + 1 : handedBack },
      started
        ? 'match handed back to the queue: this worker is stopping and the match outlasted its grace; another worker plays it from the start'
        : 'match handed back to the queue unplayed: this worker is stopping',
    );
    return true;
  }

  /** Says this consumer is alive among the queue's workers (a sorted set: name → until when), forgetting those whose time ran out. */
  private async beat(): Promise<void> {
    const redis = this.connection;
    if (!redis || !this.o.name) return;
    const key = workersKey(this.o.prefix ?? DEFAULT_PREFIX);
    const now = Date.now();
    await redis
      .multi()
      .zadd(key, now + PRESENCE_TTL_MS, this.o.name)
      .zremrangebyscore(key, '-inf', now)
      .exec();
  }

  /** The workers alive on this queue now, by name. */
  private async alive(): Promise<string[]> {
    return this.connection!.zrangebyscore(workersKey(this.o.prefix ?? DEFAULT_PREFIX), Date.now(), '+inf');
  }

  /**
   * A match this worker cannot play (the handler said why, before starting it: no try counted) goes on to
   * another: its job is delayed a moment, so another worker takes it, with this worker's reason in its data.
   * When every worker alive has said it cannot, it waits for one that can (a worker started with what it needs),
   * looking again every few seconds, and after `unplayableMs` it is given up with every worker's reason.
   */
  private async passOn(job: TakenJob, token: string, matchId: string, reason: string): Promise<string> {
    if (!job.moveToDelayed || !job.updateData) throw new NotHereError(reason);
    const me = this.o.name ?? 'this worker';
    const data = job.data as CarriedData;
    const now = Date.now();
    let alive: string[];
    try {
      alive = await this.alive();
    } catch {
      alive = [];
    }
    // The reasons of the workers alive only (a job cannot collect them without bound), and this one's.
    const notHere: Record<string, string> = {};
    const had = data.notHere && typeof data.notHere === 'object' ? data.notHere : {};
    for (const w of alive.slice(0, MAX_REASONS)) if (typeof had[w] === 'string' && w !== me) notHere[w] = had[w].slice(0, 500);
    notHere[me] = reason.slice(0, 500);
    const others = alive.filter((w) => w !== me && !(w in notHere));
    const waiting = others.length === 0;
    // Since when no worker alive could play it (now, when this is the first time).
    const since = waiting && data.waiting === true && Number.isSafeInteger(data.notHereSince) ? data.notHereSince! : now;
    const reasons = Object.entries(notHere)
      .map(([w, r]) => `worker ${w}: ${r}`)
      .join('; ');
    const limit = this.o.unplayableMs ?? 600_000;
    if (others.length === 0 && now - since >= limit && this.o.unplayable) {
      await this.o.unplayable(matchId, `no worker could play it for ${Math.round(limit / 1000)} s (${reasons})`);
      return `given up: no worker could play it (${reasons})`;
    }
    try {
      await job.updateData({ ...data, notHere, notHereSince: since, waiting } as CarriedData);
      // Taken again by this worker (the others are busy): it waits longer before the next look.
      await job.moveToDelayed(now + (waiting ? WAIT_DELAY_MS : me in had ? 4 * PASS_DELAY_MS : PASS_DELAY_MS), token);
    } catch (err) {
      this.o.log.warn({ match: matchId, err: (err as Error).message }, 'the match this worker cannot play could not be passed on now: it is retried');
      throw new NotHereError(reason);
    }
    if (!waiting && !(me in had)) this.o.log.info({ match: matchId, reason, others }, `match passed on to another worker: this one cannot play it (${reason})`);
    else if (waiting && data.waiting !== true)
      this.o.log.warn(
        { match: matchId, reasons },
        `no worker running can play match ${matchId} (${reasons}): it waits for one that can, ${Math.round(limit / 1000)} s at most`,
      );
    throw new DelayedError();
  }

  /**
   * Stops taking matches; those under way get `graceMs` to end, then are cancelled: they go back to the
   * queue at once for another worker (their tries allow for it), not aborted. Says in the log what it does.
   */
  async stop(graceMs = 10_000): Promise<void> {
    if (!this.worker) return;
    const t0 = performance.now();
    this.stopping = true;
    const under = this.playing.size;
    this.o.log.info(
      { matches: this.active, graceMs },
      `stopping: no new match is taken; ${under} under way get ${graceMs / 1000} s to end, the rest go back to the queue`,
    );
    if (this.presence) clearInterval(this.presence);
    this.presence = null;
    // No longer among the workers a match may be passed on to.
    if (this.o.name && this.connection)
      await Promise.race([this.connection.zrem(workersKey(this.o.prefix ?? DEFAULT_PREFIX), this.o.name).catch(() => {}), after(1000)]);
    const closing = this.worker.close();
    closing.catch(() => {});
    // The grace is for matches under way: with none, there is nothing to wait for.
    if (this.playing.size) await Promise.race([closing, after(graceMs)]);
    const cancelled = this.playing.size;
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
    this.o.log.info(
      { ended: under - cancelled, handedBack: this.handedBack, ms: Math.round(performance.now() - t0) },
      `stopped after ${((performance.now() - t0) / 1000).toFixed(1)} s: ${under - cancelled} match(es) ended within the grace, ${this.handedBack} handed back to the queue`,
    );
  }
}

/** Resolves after `ms` (a timer that keeps no process alive). */
function after(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}
