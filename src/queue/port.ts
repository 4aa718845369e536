// The match queue as a port: the server hands every match it creates (ladder, on-demand, test, a person's) to
// one of these by its id, and somebody plays it. The store is the truth about a match (its job, its status,
// its tries); a queue only carries match ids to a MatchHandler, which the composition root gives it (the
// application layer's: src/matches/handler.ts reads, claims, plays and records). Two implementations, one
// contract (contract.kit.ts): LocalMatchQueue (the default: bounded, in the server's process, its handler
// plays in match threads off the main thread) and BullMatchQueue (BullMQ on Redis: `botarena worker`
// processes run BullMatchConsumer with the same kind of handler, possibly on other machines).

/**
 * Plays the match a queue hands over, by its id: resolves saying what became of it (played, or why not), and
 * rejects when it could not be played now (the queue marks its job failed: BullMQ retries it, the server's
 * reconciler looks at it). `signal` aborts when the queue stops: the match is then cancelled.
 */
export type MatchHandler = (matchId: string, signal: AbortSignal) => Promise<string>;

/**
 * What a queue knows of a match's job: 'waiting' (to be played), 'active' (being played), 'completed' (played
 * or given up: the store has why), 'failed' (the player failed with it: see `failedReason`), or 'unknown' (the
 * queue never had it, or lost it: a Redis restart, a server restart). BullMQ may say 'delayed' or
 * 'prioritized' too; they are waiting.
 */
export type JobState = 'waiting' | 'active' | 'completed' | 'failed' | 'unknown' | (string & {});

/** The queue's side of the arena: what the server calls. Every method but `describe` may fail while its backend is away. */
export interface MatchQueue {
  /** whether other processes take matches from it: then what is under way is read from the store, and servers lead the ladder by turns */
  readonly shared: boolean;
  /** how many times a match is started before it is given up */
  readonly maxTries: number;
  /** where the queue is, for logs (secrets hidden) */
  describe(): string;
  /** resolves true once the queue can take matches, false after `ms` if it still cannot */
  ready(ms?: number): Promise<boolean>;
  /** hands over a match queued in the store; one that has a job already is not added twice */
  enqueue(matchId: string): Promise<void>;
  /** what the queue knows of a match's job */
  state(matchId: string): Promise<JobState>;
  /** why a failed job failed, or null */
  failedReason(matchId: string): Promise<string | null>;
  /** puts a match back: its ended job (failed, completed, or lost) is replaced by a new one */
  requeue(matchId: string): Promise<void>;
  /** whether server `node` leads the ladder for the next `ttlMs` (always, for a queue no other process shares) */
  lead(node: string, ttlMs: number): Promise<boolean>;
  /**
   * a shared queue: marks it as arena `arenaId`'s unless it is marked already, and returns the arena it belongs
   * to (workers of another arena's store refuse to take its jobs)
   */
  markArena?(arenaId: string): Promise<string>;
  /** says that server `node` is alive for the next `ttlMs` */
  beat(node: string, ttlMs: number): Promise<void>;
  /** whether server `node` said it was alive within its last beat's time */
  alive(node: string): Promise<boolean>;
  /**
   * Stops taking matches; the matches this process plays get `graceMs` to end, then are cancelled (and marked
   * aborted). Resolves once none is played here.
   */
  stop(graceMs: number): Promise<void>;
  /** releases what the queue holds (connections, threads); after `stop` */
  close(): Promise<void>;
}

/**
 * What a handler rejects with when this process cannot play a match that another could (a worker without
 * --allow-commands, without a bot's runtime or file): a shared queue gives the match to another player and
 * counts no try; a queue with no other player treats it as any failure.
 */
export class NotHereError extends Error {
  constructor(readonly reason: string) {
    super(`this process cannot play the match: ${reason}`);
    this.name = 'NotHereError';
  }
}
