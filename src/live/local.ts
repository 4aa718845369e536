import { channelOf, type Audience, type LiveEvent, type LiveEvents, type LiveListener } from './events.js';

/** Options of the in-process live events. */
export interface LocalLiveOptions {
  /** events queued for one listener before it is dropped as too slow (default 10 000) */
  maxQueued?: number;
  /** where listener failures are reported (default: stderr) */
  log?: (line: string) => void;
}

interface Subscription {
  listener: LiveListener;
  queue: LiveEvent[];
  busy: boolean;
  closed: boolean;
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

  constructor(opts: LocalLiveOptions = {}) {
    this.maxQueued = opts.maxQueued ?? 10_000;
    this.log = opts.log ?? ((line) => process.stderr.write(`${line}\n`));
  }

  publish(matchId: string, audience: Audience, event: LiveEvent): void {
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
      if (!sub.busy) this.drain(channel, sub);
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

  async close(): Promise<void> {
    for (const [channel, subs] of this.channels) for (const sub of subs) this.drop(channel, sub);
  }

  private drop(channel: string, sub: Subscription): void {
    sub.closed = true;
    sub.queue.length = 0;
    const subs = this.channels.get(channel);
    subs?.delete(sub);
    if (subs && !subs.size) this.channels.delete(channel);
  }

  /** Delivers a subscription's queue on later ticks, one event at a time. */
  private drain(channel: string, sub: Subscription): void {
    sub.busy = true;
    setImmediate(async () => {
      while (sub.queue.length && !sub.closed) {
        const event = sub.queue.shift()!;
        try {
          await sub.listener(event);
        } catch (err) {
          this.log(`live events: a listener of ${channel} threw on "${event.type}": ${err instanceof Error ? err.message : String(err)}`);
        }
      }
      sub.busy = false;
    });
  }
}
