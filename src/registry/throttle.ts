import { ApiError } from '../core/request-errors.js';

/** How failed authentications are throttled: at most `limit` failures per client address per window. */
export interface AuthThrottleOptions {
  /** failed authentications an address may make per window (default 10) */
  limit?: number;
  /** the window, ms (default 60 000) */
  windowMs?: number;
  /** addresses remembered at most (default 10 000): past it the oldest are forgotten */
  maxAddresses?: number;
  /** the clock (tests) */
  now?: () => number;
}

/** A 429 that says when to try again (the server sends its `retryAfterS` as the `Retry-After` header). */
export class TooManyAttempts extends ApiError {
  constructor(
    message: string,
    readonly retryAfterS: number,
  ) {
    super(429, 'rate-limited', message);
  }
}

interface Window {
  start: number;
  failures: number;
  /** checks under way: each may be a failure, so a burst sent at once is counted before any hash ends */
  pending: number;
}

/**
 * Failed owner-token checks per client address, in a small in-memory window: each check of a wrong token costs
 * an scrypt hash (tens of ms of CPU), so an address that has failed `limit` times (its checks under way counted
 * as failures until they end) is answered 429, saying when to retry, before any hashing. Good tokens do not
 * count. Memory is bounded: at most `maxAddresses` windows are kept.
 */
export class AuthThrottle {
  private readonly windows = new Map<string, Window>();
  private readonly limit: number;
  private readonly windowMs: number;
  private readonly maxAddresses: number;
  private readonly now: () => number;

  constructor(o: AuthThrottleOptions = {}) {
    this.limit = o.limit ?? 10;
    this.windowMs = o.windowMs ?? 60_000;
    this.maxAddresses = o.maxAddresses ?? 10_000;
    this.now = o.now ?? Date.now;
  }

  /**
   * Runs `verify` (a token check) for `address`, unless it has failed too often: then a 429 saying when to
   * retry, and no check runs. A false result counts as a failure.
   */
  async check(address: string | undefined, verify: () => Promise<boolean>): Promise<boolean> {
    if (address === undefined) return verify();
    const w = this.window(address);
    if (w.failures + w.pending >= this.limit) {
      const retryAfterS = Math.max(1, Math.ceil((w.start + this.windowMs - this.now()) / 1000));
      throw new TooManyAttempts(
        `too many failed authentications from this address (${this.limit} per ${Math.round(this.windowMs / 1000)} s): no token is checked from it for ${retryAfterS} s; try again then with the right token`,
        retryAfterS,
      );
    }
    w.pending++;
    let ok = false;
    try {
      ok = await verify();
      return ok;
    } finally {
      w.pending--;
      if (!ok) w.failures++;
    }
  }

  private window(address: string): Window {
    const t = this.now();
    let w = this.windows.get(address);
    if (w && t - w.start >= this.windowMs) {
      // A new window; failures of the old one are forgotten, checks under way still count.
      w.start = t;
      w.failures = 0;
    }
    if (!w) {
      if (this.windows.size >= this.maxAddresses) this.forget(t);
      w = { start: t, failures: 0, pending: 0 };
      this.windows.set(address, w);
    }
    return w;
  }

  /** Makes room: drops the windows that are over and idle, else the oldest one. */
  private forget(t: number): void {
    for (const [a, w] of this.windows) if (t - w.start >= this.windowMs && w.pending === 0) this.windows.delete(a);
    if (this.windows.size >= this.maxAddresses) {
      const oldest = this.windows.keys().next();
      if (!oldest.done) this.windows.delete(oldest.value);
    }
  }
}
