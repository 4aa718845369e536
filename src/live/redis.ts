// The live events on Redis: one class whose parts (the publisher's hold while subscriptions settle, the
// subscriber's channels, the reconnect watch) share one connection state and one ordering promise. The small
// pieces around a connection (the URL for logs, deadlines, errors in words) are in redis-util.ts.
import { Redis, type RedisOptions } from 'ioredis';
import { describe, isReplyError, MAX_RETRIES, redactRedisUrl, withTimeout } from './redis-util.js';
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

export { redactRedisUrl } from './redis-util.js';

// Live events across processes, on Redis pub/sub: matches played by `botarena worker`s stream to viewers
// connected to any web server process. A match's public history (a late viewer's catch-up) is a Redis list,
// so every process sees the same one. Delivery to this process's listeners has the in-process semantics of
// LocalLiveEvents (per-listener queue, in order, one at a time, slow ones dropped, throwing ones logged).

/** Options of the live events on Redis. */
export interface RedisLiveOptions {
  /** redis://[user:password@]host:port[/db] (or rediss://) */
  url: string;
  /** prefix of its keys and channels (default 'botarena'): several arenas may share one Redis */
  prefix?: string;
  /** events queued for one local listener before it is dropped as too slow (default 10 000) */
  maxQueued?: number;
  /** where listener failures and Redis trouble are reported (default: stderr) */
  log?: (line: string) => void;
  /** how long a match's history is kept after it ends (default HISTORY_AFTER_END_MS) */
  historyAfterEndMs?: number;
  /** the most events kept in one match's history (default HISTORY_MAX; at least 1) */
  historyMax?: number;
  /** how long history() waits for Redis before it rejects (default 4 000 ms) */
  historyTimeoutMs?: number;
}

/** How long a running match's history is kept after its last event (a match that runs a day is not one). */
const RUNNING_MS = 24 * 3600 * 1000;
/** Reconnection delays: fast at first (a restart is found at once), then once a second, with no jitter. */
const retryStrategy = (times: number) => Math.min(50 * 2 ** (times - 1), 1000);
/** Connection trouble is logged at most once per this long per connection (Redis down = an error per retry). */
const ERROR_LOG_EVERY_MS = 5000;
/** The longest publishes wait for this process's own SUBSCRIBE to be confirmed (see `publish`). */
const HOLD_MS = 2000;

/**
 * One script does the history and the PUBLISH of a public event atomically, so a viewer that reads the
 * history and then gets messages misses none and sees none twice (see `newSince`): the list and the channel
 * are in the same order. A history exists from a `started` on (which replaces any older one); it is kept
 * RUNNING_MS + afterEndMs after each event while the match runs, then afterEndMs from its first end. The TTL
 * tells the two apart without another key: a running match's is above afterEndMs (its last event was less
 * than a day ago), an ended one's at most afterEndMs, so a later end or event does not extend it.
 * KEYS[1] the history list; ARGV: channel, event JSON, kind ('started' | 'end' | 'other'), cap, runningMs, afterEndMs.
 */
const PUBLISH_KEPT = `
local key, channel, json, kind = KEYS[1], ARGV[1], ARGV[2], ARGV[3]
local cap, runningMs, afterEndMs = tonumber(ARGV[4]), tonumber(ARGV[5]), tonumber(ARGV[6])
if kind == 'started' then
  redis.call('DEL', key)
  redis.call('RPUSH', key, json)
  redis.call('PEXPIRE', key, runningMs)
elseif redis.call('EXISTS', key) == 1 then
  if redis.call('LLEN', key) < cap then redis.call('RPUSH', key, json) end
  local ttl = redis.call('PTTL', key)
  if ttl < 0 or ttl > afterEndMs then
    if kind == 'end' then redis.call('PEXPIRE', key, afterEndMs) else redis.call('PEXPIRE', key, runningMs) end
  end
end
return redis.call('PUBLISH', channel, json)
`;

/** The command connection with the script defined on it (ioredis adds the method at run time). */
type WithScript = Redis & { botarenaLivePublish(key: string, ...args: (string | number)[]): Promise<number> };

/** This process's listeners of one Redis channel. */
interface Channel {
  /** its name without the prefix, as LocalLiveEvents names it in its log lines */
  name: string;
  subs: Set<Subscription>;
}

/** An event on its way to Redis. */
interface Outgoing {
  channel: string;
  json: string;
  /** for a public event about its own match: its history list and what the event does to it */
  kept: { key: string; kind: 'started' | 'end' | 'other' } | null;
}

/**
 * Live events across processes on Redis pub/sub, with the contract of LocalLiveEvents (checked by the same
 * `liveEventsContract`). One connection publishes and reads histories, another listens; a Redis channel is
 * subscribed while this process has a listener of it. Publishing never throws and never waits: while Redis
 * is away events are lost (logged once per outage) and listeners get nothing until it is back, after which
 * they resume by themselves. A Redis restart loses the histories of the matches under way (the events after
 * it are not kept either, as a history starts with its `started`), unless Redis persists its data.
 */
export class RedisLiveEvents implements LiveEvents {
  /** The same as the module's `redactRedisUrl`, for callers holding the class. */
  static readonly redactUrl = redactRedisUrl;

  private readonly prefix: string;
  private readonly maxQueued: number;
  private readonly log: (line: string) => void;
  private readonly historyAfterEndMs: number;
  private readonly historyMax: number;
  private readonly historyTimeoutMs: number;
  /** the URL as messages show it */
  private readonly where: string;
  private readonly cmd: WithScript;
  private readonly sub: Redis;
  /** by Redis channel name (with the prefix) */
  private readonly channels = new Map<string, Channel>();
  private closed = false;
  private closing: Promise<void> | null = null;

  // Publishing right after subscribing, in the same process, must reach the new listener; but the SUBSCRIBE
  // goes on the other connection, which Redis may serve after the PUBLISH. So while a SUBSCRIBE of this
  // process is unconfirmed, its publishes are held, in order, and sent once it is (at most HOLD_MS).
  private pendingSubscribes = 0;
  private held: Outgoing[] = [];
  private holdTimer: NodeJS.Timeout | null = null;
  private holdGaveUp = false;
  private heldWaiters: (() => void)[] = [];

  // A Redis outage fails every publish: one line when it starts, one when publishing works again.
  private publishFailing = false;
  private lost = 0;

  constructor(opts: RedisLiveOptions) {
    this.prefix = opts.prefix ?? 'botarena';
    this.maxQueued = opts.maxQueued ?? 10_000;
    this.log = opts.log ?? ((line) => process.stderr.write(`${line}\n`));
    this.historyAfterEndMs = opts.historyAfterEndMs ?? HISTORY_AFTER_END_MS;
    this.historyMax = opts.historyMax ?? HISTORY_MAX;
    if (!(this.historyMax >= 1)) throw new Error(`historyMax must be at least 1, got ${opts.historyMax}`);
    this.historyTimeoutMs = opts.historyTimeoutMs ?? 4000;
    this.where = redactRedisUrl(opts.url);
    const common: RedisOptions = {
      retryStrategy,
      enableOfflineQueue: true,
      // Commands queued while Redis is away fail after this many reconnection attempts instead of waiting
      // for ever: a viewer's history() gets an answer, and a publisher does not pile up an outage's events.
      maxRetriesPerRequest: MAX_RETRIES,
    };
    this.cmd = new Redis(opts.url, { ...common, connectionName: `${this.prefix}-live-publish` }) as WithScript;
    this.cmd.defineCommand('botarenaLivePublish', { numberOfKeys: 1, lua: PUBLISH_KEPT });
    this.sub = new Redis(opts.url, {
      ...common,
      connectionName: `${this.prefix}-live-listen`,
      // A process that only publishes (a worker) never opens its listening connection.
      lazyConnect: true,
      // This class resubscribes on 'ready' from its own list of channels: ioredis's list only has those it saw
      // confirmed, so a SUBSCRIBE that failed during an outage would never be made again.
      autoResubscribe: false,
    });
    this.watch(this.cmd, 'publishing');
    this.watch(this.sub, 'listening');
    this.sub.on('ready', () => {
      const wanted = [...this.channels.keys()];
      if (wanted.length && !this.closed) this.listen(wanted);
    });
    this.sub.on('message', (channel: string, message: string) => this.receive(channel, message));
  }

  publish(matchId: string, audience: Audience, event: LiveEvent): void {
    if (this.closed) return;
    let json: string;
    try {
      json = JSON.stringify(event);
    } catch (err) {
      this.log(`live events: cannot send "${event?.type}" of match ${matchId}: ${describe(err)}`);
      return;
    }
    const kept =
      audience === 'public' && event.matchId === matchId
        ? {
            key: this.historyKey(matchId),
            kind: event.type === 'started' ? ('started' as const) : event.type === 'ended' || event.type === 'stopped' ? ('end' as const) : ('other' as const),
          }
        : null;
    const out: Outgoing = { channel: `${this.prefix}:${channelOf(matchId, audience)}`, json, kept };
    if (this.held.length || (this.pendingSubscribes > 0 && !this.holdGaveUp)) {
      this.held.push(out);
      // A SUBSCRIBE that is not confirmed soon (Redis away) must not hold this process's events for long.
      this.holdTimer ??= setTimeout(() => {
        this.holdGaveUp = true;
        this.release();
      }, HOLD_MS);
      return;
    }
    this.send(out);
  }

  subscribe(matchId: string, audience: Audience, listener: LiveListener): () => void {
    if (this.closed) return () => {};
    const name = channelOf(matchId, audience);
    const channel = `${this.prefix}:${name}`;
    const sub: Subscription = { listener, queue: [], busy: false, closed: false };
    let ch = this.channels.get(channel);
    if (!ch) {
      this.channels.set(channel, (ch = { name, subs: new Set() }));
      this.listen([channel]);
    }
    ch.subs.add(sub);
    return () => this.drop(channel, sub);
  }

  async history(matchId: string): Promise<LiveEvent[] | null> {
    // As LocalLiveEvents, whose histories go with its close().
    if (this.closed) return null;
    // This process's held events come first: it reads what it has published.
    if (this.held.length) await new Promise<void>((resolve) => this.heldWaiters.push(resolve));
    let raw: string[];
    try {
      raw = await withTimeout(this.cmd.lrange(this.historyKey(matchId), 0, -1), this.historyTimeoutMs);
    } catch (err) {
      const why = isReplyError(err) ? `Redis answered with an error: ${describe(err)}` : `Redis could not be reached: ${describe(err)}`;
      throw new Error(`live events: cannot read the history of match ${matchId} from Redis at ${this.where}: ${why}`, { cause: err });
    }
    // Redis has no empty lists: an empty answer is a history that does not exist (never started, or expired).
    if (!raw.length) return null;
    return raw.map((json) => JSON.parse(json) as LiveEvent);
  }

  async close(): Promise<void> {
    this.closing ??= (async () => {
      this.closed = true;
      for (const [channel, ch] of this.channels) for (const sub of ch.subs) this.drop(channel, sub);
      this.release(); // events published before close still go out, ahead of the QUIT
      await Promise.all([shut(this.cmd), shut(this.sub)]);
    })();
    return this.closing;
  }

  private historyKey(matchId: string): string {
    return `${this.prefix}:history:${matchId}`;
  }

  private send(out: Outgoing): void {
    const sent = out.kept
      ? this.cmd.botarenaLivePublish(
          out.kept.key,
          out.channel,
          out.json,
          out.kept.kind,
          this.historyMax,
          RUNNING_MS + this.historyAfterEndMs,
          this.historyAfterEndMs,
        )
      : this.cmd.publish(out.channel, out.json);
    sent.then(
      () => {
        if (!this.publishFailing) return;
        this.publishFailing = false;
        // Not all that listeners missed: what reached Redis before their connection was back is lost as well.
        this.log(`live events: publishing to Redis at ${this.where} again; ${this.lost} event${this.lost === 1 ? '' : 's'} did not reach it`);
        this.lost = 0;
      },
      (err: unknown) => {
        this.lost++;
        if (this.publishFailing) return;
        this.publishFailing = true;
        this.log(`live events: cannot publish to Redis at ${this.where}: ${describe(err)}; events are lost until it answers again`);
      },
    );
  }

  /** Sends the held events, in order, and wakes those waiting for them. */
  private release(): void {
    if (this.holdTimer) clearTimeout(this.holdTimer);
    this.holdTimer = null;
    const batch = this.held;
    this.held = [];
    for (const out of batch) this.send(out);
    const waiters = this.heldWaiters;
    this.heldWaiters = [];
    for (const wake of waiters) wake();
  }

  private listen(channels: string[]): void {
    this.pendingSubscribes++;
    this.sub
      .subscribe(...channels)
      .catch((err: unknown) => {
        // Made again when the connection is next ready (see the constructor).
        if (!this.closed) this.log(`live events: cannot listen to ${channels.length} channel(s) on Redis at ${this.where} yet: ${describe(err)}`);
      })
      .finally(() => {
        if (--this.pendingSubscribes > 0) return;
        this.holdGaveUp = false;
        this.release();
      });
  }

  /** A message from Redis: to this process's listeners of its channel, as LocalLiveEvents delivers. */
  private receive(channel: string, message: string): void {
    // This runs inside ioredis's reply parsing, where a throw would become an uncaught exception.
    const ch = this.channels.get(channel);
    if (!ch || this.closed) return;
    let event: LiveEvent;
    try {
      event = JSON.parse(message) as LiveEvent;
    } catch (err) {
      this.log(`live events: a message on ${ch.name} is not JSON (${describe(err)}); ignored`);
      return;
    }
    for (const sub of ch.subs) {
      if (sub.queue.length >= this.maxQueued) {
        this.log(`live events: a listener of ${ch.name} fell ${this.maxQueued} events behind and was dropped`);
        this.drop(channel, sub);
        continue;
      }
      sub.queue.push(event);
      if (!sub.busy) drainSubscription(ch.name, sub, this.log);
    }
  }

  private drop(channel: string, sub: Subscription): void {
    sub.closed = true;
    sub.queue.length = 0;
    const ch = this.channels.get(channel);
    if (!ch) return;
    ch.subs.delete(sub);
    if (ch.subs.size) return;
    this.channels.delete(channel);
    // Failure is harmless: the next 'ready' resubscribes only the channels still listened to.
    if (!this.closed) this.sub.unsubscribe(channel).catch(() => {});
  }

  /**
   * Reports a connection's trouble through `log`, at most a line per ERROR_LOG_EVERY_MS (ioredis reports an
   * error per reconnection attempt), and when it is back. The 'error' listener is also what keeps ioredis
   * from printing "Unhandled error event" for each attempt.
   */
  private watch(conn: Redis, role: string): void {
    let lastAt = -Infinity;
    let unsaid = 0;
    let troubled = false;
    const say = (what: string) => {
      troubled = true;
      const now = performance.now();
      if (now - lastAt < ERROR_LOG_EVERY_MS) {
        unsaid++;
        return;
      }
      lastAt = now;
      this.log(
        `live events: the ${role} connection to Redis at ${this.where}: ${what}${unsaid ? ` (and ${unsaid} more such report${unsaid === 1 ? '' : 's'})` : ''}; retrying`,
      );
      unsaid = 0;
    };
    let wasReady = false;
    conn.on('error', (err: unknown) => say(describe(err)));
    conn.on('close', () => {
      if (wasReady && !this.closed) say('connection lost');
      wasReady = false;
    });
    conn.on('ready', () => {
      wasReady = true;
      if (!troubled) return;
      troubled = false;
      unsaid = 0;
      lastAt = -Infinity;
      this.log(`live events: the ${role} connection to Redis at ${this.where} is back`);
    });
  }
}

/** Ends a connection: QUIT when it is up (it answers what it was sent first), else cut it. */
async function shut(conn: Redis): Promise<void> {
  // A lazy connection never used ('wait') would connect to QUIT; an ended one has nothing to end.
  if (conn.status === 'ready') await withTimeout(conn.quit(), 1000).catch(() => {});
  if (conn.status !== 'end') conn.disconnect();
}
