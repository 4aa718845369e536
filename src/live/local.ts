import {
  channelOf,
  drainSubscription,
  HISTORY_AFTER_END_MS,
  HISTORY_MAX,
  HISTORY_MAX_BYTES,
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
  /** the most characters of JSON of one match's public events kept for late viewers (default HISTORY_MAX_BYTES) */
  historyMaxBytes?: number;
}

/**
 * One match's public events kept for late viewers. `bytes`: their JSON's length (characters). `cut`: the history grew past
 * its bounds, so its steps were dropped (`steps` of them so far); only the start and the end are kept then.
 */
interface Kept {
  events: LiveEvent[];
  bytes: number;
  cut: { steps: number } | null;
  timer: NodeJS.Timeout | null;
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
  private readonly logs = new Map<string, Kept>();
  private readonly historyAfterEndMs: number;
  private readonly historyMaxBytes: number;

  constructor(opts: LocalLiveOptions = {}) {
    this.maxQueued = opts.maxQueued ?? 10_000;
    this.log = opts.log ?? ((line) => process.stderr.write(`${line}\n`));
    this.historyAfterEndMs = opts.historyAfterEndMs ?? HISTORY_AFTER_END_MS;
    this.historyMaxBytes = opts.historyMaxBytes ?? HISTORY_MAX_BYTES;
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
    if (!log) return null;
    if (!log.cut) return [...log.events];
    const [started, ...rest] = log.events;
    const steps = log.cut.steps;
    const reason = `this match's ${steps} steps so far are more than this server keeps for viewers who join late (${this.historyMaxBytes} characters of JSON, ${HISTORY_MAX} events): they are not sent, and the steps that follow cannot be drawn without them; its replay has every step once it ends`;
    return [started!, { type: 'truncated', matchId, steps, reason }, ...rest];
  }

  async close(): Promise<void> {
    for (const [channel, subs] of this.channels) for (const sub of subs) this.drop(channel, sub);
    for (const log of this.logs.values()) if (log.timer) clearTimeout(log.timer);
    this.logs.clear();
  }

  /**
   * Keeps a match's public events for late viewers: from its start, until a while after its end, at most
   * `historyMaxBytes` of JSON and HISTORY_MAX events. Past either bound the steps kept are dropped, and the
   * steps after them are not kept: a late viewer gets the start, a `truncated` event, what comes live and the
   * end. Keeping the first steps only, or the last ones, would give it a match it cannot draw (a viewer
   * re-runs the rules from the first step, or folds each step's delta into the frame before it), where the
   * replay has all of it once the match ends; so nothing between the start and the end is kept.
   */
  private keep(matchId: string, event: LiveEvent): void {
    let log = this.logs.get(matchId);
    if (event.type === 'started') {
      if (log?.timer) clearTimeout(log.timer);
      this.logs.set(matchId, (log = { events: [], bytes: 0, cut: null, timer: null }));
    }
    if (!log) return;
    if (log.cut) {
      if (event.type === 'step') log.cut.steps++;
      else log.events.push(event);
    } else {
      const size = JSON.stringify(event).length;
      if (log.bytes + size > this.historyMaxBytes || log.events.length >= HISTORY_MAX) {
        const steps = log.events.filter((e) => e.type === 'step').length + (event.type === 'step' ? 1 : 0);
        log.events = log.events.filter((e) => e.type !== 'step');
        if (event.type !== 'step') log.events.push(event);
        log.cut = { steps };
        log.bytes = 0;
      } else {
        log.events.push(event);
        log.bytes += size;
      }
    }
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
