import { ApiError } from '../core/request-errors.js';

// What anyone may ask of the arena's machines: on-demand and test matches (POST /api/matches) are played by the
// same match threads as the ladder's, so the server bounds them: per client address (AddressQuota), queued in
// all (Matches.request counts them in the store), by the work of one match (checkWork in launch.ts), and by
// their share of --concurrency (OnDemandGate), so that a flood of them never starves the ladder.

/** The server's limits on on-demand and test matches (`botarena serve` options). */
export interface OnDemandLimits {
  /** matches of one client address queued or under way at once (default 4; `--max-matches-per-address`) */
  perAddress: number;
  /** on-demand and test matches queued and not yet started, in all (default 32; `--max-queued`) */
  maxQueued: number;
  /** the most work one match may ask for, in cell-answers (default 2.5e8; `--max-match-work`) */
  maxWork: number;
  /**
   * on-demand and test matches handed to the queue at once (default: --concurrency − 1, at least 1, or all of
   * --concurrency when the ladder does not play; `--on-demand-concurrency`); the rest wait in the store, queued, in order
   */
  concurrency: number;
}

export const DEFAULT_ON_DEMAND_LIMITS = { perAddress: 4, maxQueued: 32, maxWork: 250_000_000 } as const;

/**
 * The default share of --concurrency that on-demand and test matches may hold: all but one place (the ladder's),
 * at least one; every place when the ladder does not play.
 */
export const defaultOnDemandConcurrency = (concurrency: number, ladder: boolean) => (ladder ? Math.max(1, concurrency - 1) : concurrency);

/** A refusal that says when to try again (the server sends `retryAfterS` as the `Retry-After` header). */
export class TryLater extends ApiError {
  constructor(
    status: 429 | 503,
    code: string,
    message: string,
    readonly retryAfterS: number,
  ) {
    super(status, code, message);
  }
}

/** A place taken for one request: `bind` once its match exists (held until the match is over), else `cancel`. */
export interface QuotaTicket {
  bind(matchId: string): void;
  cancel(): void;
}

/**
 * Matches of each client address that are not over yet (queued or running), at most `limit` at once. A match
 * counts from its request until it is over: `ended` says so (the match handler's `settled`, or the global feed's
 * `ended`/`stopped` of a match a worker played), and when an address is at its limit its matches are read again
 * from the store (`isOver`, the truth) before it is refused, so a match whose end was not heard of (an abort at
 * a restart, a lost event) frees its place all the same. Kept in memory: a restart forgets every place (the
 * matches an earlier run left queued play, counted against nobody). Requests under way count too, so a burst
 * sent at once cannot pass the limit between the check and the match's creation.
 */
export class AddressQuota {
  /** per address: ids of its matches not known to be over */
  private readonly held = new Map<string, Set<string>>();
  /** per address: requests past the check whose match is not created yet */
  private readonly pending = new Map<string, number>();
  /** match id → the address it counts against */
  private readonly owner = new Map<string, string>();

  constructor(
    readonly limit: number,
    private readonly isOver: (matchId: string) => Promise<boolean>,
  ) {
    if (!Number.isInteger(limit) || limit < 1) throw new Error(`the per-address match limit must be a whole number from 1, got ${limit}`);
  }

  /** Matches of `address` not known to be over, requests under way included. */
  count(address: string): number {
    return (this.held.get(address)?.size ?? 0) + (this.pending.get(address) ?? 0);
  }

  /** Addresses holding places now (what the quota keeps in memory). */
  get addresses(): number {
    return new Set([...this.held.keys(), ...this.pending.keys()]).size;
  }

  /** Takes a place for a request of `address`, or refuses with a 429 that says how many are under way and what to do. */
  async take(address: string): Promise<QuotaTicket> {
    if (this.count(address) >= this.limit) {
      // At the limit: what the store says is over frees its place first.
      for (const id of [...(this.held.get(address) ?? [])]) if (await this.isOver(id)) this.ended(id);
    }
    const n = this.count(address);
    if (n >= this.limit) {
      const ids = [...(this.held.get(address) ?? [])].slice(0, 3);
      throw new TryLater(
        429,
        'too-many-matches',
        `this address has ${n} matches queued or under way, the most one client address may have at once on this server (--max-matches-per-address ${this.limit}); wait for one to end (GET /api/matches/${ids[0] ?? 'ID'} says its status, /api/matches/ID/events follows it) and ask again`,
        5,
      );
    }
    this.pending.set(address, (this.pending.get(address) ?? 0) + 1);
    let done = false;
    const unpend = () => {
      if (done) return false;
      done = true;
      const p = (this.pending.get(address) ?? 1) - 1;
      if (p > 0) this.pending.set(address, p);
      else this.pending.delete(address);
      return true;
    };
    return {
      bind: (matchId) => {
        if (!unpend()) return;
        let set = this.held.get(address);
        if (!set) this.held.set(address, (set = new Set()));
        set.add(matchId);
        this.owner.set(matchId, address);
      },
      cancel: () => void unpend(),
    };
  }

  /** Match `matchId` is over (any way: finished, aborted, not played): its place is free. Unknown ids are ignored. */
  ended(matchId: string): void {
    const address = this.owner.get(matchId);
    if (address === undefined) return;
    this.owner.delete(matchId);
    const set = this.held.get(address);
    set?.delete(matchId);
    if (set && !set.size) this.held.delete(address);
  }
}

/** What the gate works with. */
export interface GateOptions {
  /** on-demand and test matches handed to the queue at once */
  share: number;
  /** the server's --concurrency (the places of the ladder and on-demand matches together) */
  concurrency: number;
  /** hands a match to the queue port */
  enqueue: (matchId: string) => Promise<void>;
  /** whether the store says a match is over (the truth, for ends not heard of) */
  isOver: (matchId: string) => Promise<boolean>;
  /** a line for the log when a match could not be handed over */
  warn: (matchId: string, message: string) => void;
  /** how often the matches handed over are read again from the store while others wait (default 5 s) */
  sweepMs?: number;
}

/**
 * The share of --concurrency that on-demand and test matches may hold: at most `share` of them are in the queue
 * (waiting there or played) at once; the others wait here, in order, queued in the store, and go to the queue as
 * those end. The ladder fills the places up to --concurrency counting only what is in the queue (`leavesLadder`
 * says how many queued matches it does not count), so with the default share (--concurrency − 1) the ladder
 * always has a place of its own however many on-demand matches are asked for, and takes every place they leave
 * free. With --concurrency 1 (or a share of all places) the ladder's next match waits in the queue's order
 * behind the one on-demand match being played, and they take turns.
 */
export class OnDemandGate {
  private readonly waiting: string[] = [];
  private readonly handed = new Set<string>();
  private timer: NodeJS.Timeout | null = null;
  private stopped = false;

  constructor(private readonly o: GateOptions) {
    if (!Number.isInteger(o.share) || o.share < 1) throw new Error(`the on-demand concurrency must be a whole number from 1, got ${o.share}`);
  }

  /** Matches waiting here for the queue. */
  get waitingCount(): number {
    return this.waiting.length;
  }

  /** On-demand matches in the queue now (handed over, not over). */
  get inQueue(): number {
    return this.handed.size;
  }

  /** Whether `matchId` waits here (queued in the store, not handed to the queue yet: a reconciler leaves it alone). */
  holds(matchId: string): boolean {
    return this.waiting.includes(matchId);
  }

  /**
   * Queued and running matches the ladder does not count as taking a place: those waiting here, and those in
   * the queue past --concurrency − 1 (so that the ladder always sees a place, and its match waits its turn).
   */
  get leavesLadder(): number {
    return this.waiting.length + Math.max(0, this.handed.size - (this.o.concurrency - 1));
  }

  /** A new (or recovered) on-demand match: to the queue now if the share allows, else it waits here. */
  add(matchId: string): void {
    if (this.handed.has(matchId) || this.waiting.includes(matchId)) return;
    this.waiting.push(matchId);
    this.pump();
  }

  /** Match `matchId` is over (or was never played): its place in the share is free. */
  ended(matchId: string): void {
    const i = this.waiting.indexOf(matchId);
    if (i >= 0) this.waiting.splice(i, 1);
    if (this.handed.delete(matchId) || i >= 0) this.pump();
  }

  /** Hands nothing more over (the server stops); what waits stays queued in the store for the next start. */
  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  private pump(): void {
    while (!this.stopped && this.handed.size < this.o.share && this.waiting.length) {
      const id = this.waiting.shift()!;
      this.handed.add(id);
      // If the queue is away (Redis), the match stays queued in the store and the reconciler enqueues it when it is back.
      this.o
        .enqueue(id)
        .catch((err: unknown) => this.o.warn(id, `the match could not be enqueued now (${(err as Error).message}); it will be when the queue is reachable`));
    }
    if (this.waiting.length && !this.timer && !this.stopped) {
      // Matches wait: an end not heard of (a worker's event lost while Redis was away) must not keep them waiting.
      this.timer = setTimeout(() => {
        this.timer = null;
        void this.sweep();
      }, this.o.sweepMs ?? 5000);
      this.timer.unref();
    }
  }

  /** Reads the matches handed over again from the store: those over free their places. */
  private async sweep(): Promise<void> {
    for (const id of [...this.handed]) {
      const over = await this.o.isOver(id).catch(() => false);
      if (over) this.handed.delete(id);
    }
    this.pump();
  }
}
