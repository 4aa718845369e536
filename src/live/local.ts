import {
  channelOf,
  drainSubscription,
  HISTORY_AFTER_END_MS,
  HISTORY_MAX,
  type Audience,
  type LiveEvent,
  type LiveEvents,
  type LiveListener,
  type Subscription,
} from './events.js';

/** Options of the in-process live events. */
export interface LocalLiveOptions {
  /** events queued for one listener before it is dropped as too slow (default 10 000) */
  maxQueued?: number;
  /** where listener failures are reported (default: stderr) */
  log?: (line: string) => void;
  /** how long a match's history is kept after it ends (default HISTORY_AFTER_END_MS) */
  historyAfterEndMs?: number;
}

/**
 * Live events inside one process. Each listener has its own queue, delivered in order on a later tick, one
 * event at a time (an async listener's promise is awaited before its next event, never by the match). A
 * listener that throws is logged and keeps its subscription; one that falls `maxQueued` events behind is
 * dropped and logged, so a stuck viewer costs bounded memory and never slows a match.
 */
export class LocalLiveEvents implements LiveEvents {
  private readonly channels = new Map<string, Set<Subscription>>();
  private readonly maxQueued: number;
  private readonly log: (line: string) => void;
  private readonly logs = new Map<string, { events: LiveEvent[]; timer: NodeJS.Timeout | null }>();
  private readonly historyAfterEndMs: number;

  constructor(opts: LocalLiveOptions = {}) {
    this.maxQueued = opts.maxQueued ?? 10_000;
    this.log = opts.log ?? ((line) => process.stderr.write(`${line}\n`));
    this.historyAfterEndMs = opts.historyAfterEndMs ?? HISTORY_AFTER_END_MS;
  }

  publish(matchId: string, audience: Audience, event: LiveEvent): void {
    if (audience === 'public' && event.matchId === matchId) this.keep(matchId, event);
    const channel = channelOf(matchId, audience);
    const subs = this.channels.get(channel);
    if (!subs) return;
    for (const sub of subs) {
      if (sub.queue.length >= this.maxQueued) {
        this.log(`live events: a listener of ${channel} fell ${this.maxQueued} events behind and was dropped`);
        this.drop(channel, sub);
        continue;
      }
      sub.queue.push(event);
      if (!sub.busy) drainSubscription(channel, sub, this.log);
    }
  }

  subscribe(matchId: string, audience: Audience, listener: LiveListener): () => void {
    const channel = channelOf(matchId, audience);
    const sub: Subscription = { listener, queue: [], busy: false, closed: false };
    let subs = this.channels.get(channel);
    if (!subs) this.channels.set(channel, (subs = new Set()));
    subs.add(sub);
    return () => this.drop(channel, sub);
  }

  /**
   * Resolves once every event published so far has been delivered (for the one who runs the matches and
   * wants all of a match's events before closing, as the CLI's --log does).
   */
  async drained(): Promise<void> {
    const pending = () => [...this.channels.values()].some((subs) => [...subs].some((sub) => sub.busy || sub.queue.length > 0));
    while (pending()) await new Promise((resolve) => setImmediate(resolve));
  }

  async history(matchId: string): Promise<LiveEvent[] | null> {
    const log = this.logs.get(matchId);
    return log ? [...log.events] : null;
  }

  async close(): Promise<void> {
    for (const [channel, subs] of this.channels) for (const sub of subs) this.drop(channel, sub);
    for (const log of this.logs.values()) if (log.timer) clearTimeout(log.timer);
    this.logs.clear();
  }

  /** Keeps a match's public events for late viewers: from its start, until a while after its end. */
  private keep(matchId: string, event: LiveEvent): void {
    let log = this.logs.get(matchId);
    if (event.type === 'started') {
      if (log?.timer) clearTimeout(log.timer);
      this.logs.set(matchId, (log = { events: [], timer: null }));
    }
    if (!log) return;
    if (log.events.length < HISTORY_MAX) log.events.push(event);
    if ((event.type === 'ended' || event.type === 'stopped') && !log.timer) {
      const kept = log;
      log.timer = setTimeout(() => this.logs.get(matchId) === kept && this.logs.delete(matchId), this.historyAfterEndMs);
      log.timer.unref();
    }
  }

  private drop(channel: string, sub: Subscription): void {
    sub.closed = true;
    sub.queue.length = 0;
    const subs = this.channels.get(channel);
    subs?.delete(sub);
    if (subs && !subs.size) this.channels.delete(channel);
  }
}
