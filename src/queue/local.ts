import type { JobState, MatchHandler, MatchQueue } from './port.js';

/** How the local queue plays. */
export interface LocalQueueOptions {
  /** plays a match taken (the application layer's: matches/handler.ts) */
  handler: MatchHandler;
  /** matches played at once (the server's --concurrency) */
  concurrency: number;
  /** the name of the process it plays in (the server's): the one node it says is alive */
  node: string;
  /** a match started this many times is given up (default 3; the handler counts the starts) */
  maxTries?: number;
  /**
   * matches handed to the handler at once, outside the `concurrency` bound: a person's (its seats are desks
   * held by this process, and it mostly waits for the person, so it must not keep a bot's match waiting)
   */
  unbounded?: (matchId: string) => boolean;
}

/** A match taken: how to cancel it, and when it is over. */
interface Taken {
  controller: AbortController;
  done: Promise<void>;
}

/**
 * The default match queue: an in-memory queue in this process that hands each match id to its handler, at
 * most `concurrency` at once (matches `unbounded` says are handed over at once, outside the bound). It knows
 * nothing of how a match is played: the handler given by the composition root plays it in a match thread
 * (arena/match-pool.ts), so the thread that answers HTTP never runs a match. What it forgets at a restart the
 * store still has (queued): the server's start enqueues it again.
 */
export class LocalMatchQueue implements MatchQueue {
  readonly shared = false;
  readonly maxTries: number;
  private readonly waiting: string[] = [];
  private readonly states = new Map<string, { state: JobState; failed?: string }>();
  private readonly taken = new Map<string, Taken>();
  /** matches taken within the bound: at most `concurrency` */
  private bounded = 0;
  private stopping = false;

  constructor(private readonly o: LocalQueueOptions) {
    if (!Number.isInteger(o.concurrency) || o.concurrency < 1)
      throw new Error(`the local queue's concurrency must be a whole number from 1, got ${o.concurrency}`);
    this.maxTries = o.maxTries ?? 3;
  }

  describe(): string {
    return `in-process, ${this.o.concurrency} at once`;
  }

  ready(): Promise<boolean> {
    return Promise.resolve(true);
  }

  enqueue(matchId: string): Promise<void> {
    const known = this.states.get(matchId)?.state;
    if (this.stopping || known === 'waiting' || known === 'active') return Promise.resolve();
    this.states.set(matchId, { state: 'waiting' });
    if (this.o.unbounded?.(matchId)) this.take(matchId, false);
    else {
      this.waiting.push(matchId);
      this.pump();
    }
    return Promise.resolve();
  }

  state(matchId: string): Promise<JobState> {
    return Promise.resolve(this.states.get(matchId)?.state ?? 'unknown');
  }

  failedReason(matchId: string): Promise<string | null> {
    return Promise.resolve(this.states.get(matchId)?.failed ?? null);
  }

  async requeue(matchId: string): Promise<void> {
    const known = this.states.get(matchId)?.state;
    if (known === 'completed' || known === 'failed') this.states.delete(matchId);
    await this.enqueue(matchId);
  }

  /** Nobody else takes from this queue: this server leads its ladder, and it is alive while it runs. */
  lead(): Promise<boolean> {
    return Promise.resolve(true);
  }

  beat(): Promise<void> {
    return Promise.resolve();
  }

  alive(node: string): Promise<boolean> {
    return Promise.resolve(node === this.o.node && !this.stopping);
  }

  /** Whether a match is being played here now (its handler has it). */
  plays(matchId: string): boolean {
    return this.taken.has(matchId);
  }

  /** Matches the handler has now, within the bound and outside it. */
  get active(): number {
    return this.taken.size;
  }

  async stop(graceMs: number): Promise<void> {
    this.stopping = true;
    // What never started stays queued in the store: the next start plays it (the server's requeue).
    for (const id of this.waiting.splice(0)) this.states.delete(id);
    const ended = Promise.all([...this.taken.values()].map((t) => t.done));
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([ended, new Promise((resolve) => (timer = setTimeout(resolve, graceMs)))]);
    clearTimeout(timer);
    for (const t of this.taken.values()) t.controller.abort();
    await ended;
  }

  /** Nothing to release: the handler's pool is the composition root's. */
  async close(): Promise<void> {
    this.stopping = true;
  }

  /** Hands the next waiting matches over while the bound allows. */
  private pump(): void {
    while (!this.stopping && this.bounded < this.o.concurrency && this.waiting.length) {
      const id = this.waiting.shift()!;
      this.bounded++;
      this.take(id, true);
    }
  }

  /** Hands one match to the handler (`bounded`: it holds one of the `concurrency` places until it is over). */
  private take(matchId: string, bounded: boolean): void {
    const controller = new AbortController();
    const entry: Taken = { controller, done: Promise.resolve() };
    this.taken.set(matchId, entry);
    this.states.set(matchId, { state: 'active' });
    entry.done = Promise.resolve()
      .then(() => this.o.handler(matchId, controller.signal))
      .then(
        () => void this.states.set(matchId, { state: 'completed' }),
        (err: unknown) => void this.states.set(matchId, { state: 'failed', failed: err instanceof Error ? err.message : String(err) }),
      )
      .finally(() => {
        this.taken.delete(matchId);
        if (bounded) {
          this.bounded--;
          this.pump();
        }
      });
  }
}
