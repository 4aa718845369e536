import type { TurnRecord } from '../core/engine.js';
import type { ReplayHeader, ReplayResult, ReplaySeat, TranscriptEntry } from '../core/replay.js';

/**
 * Who a live event is for. `public`: spectators (never anything a player's view hides while the match is on);
 * `full`: the arena itself and its organisers (every step as recorded, enough to rebuild every frame);
 * `{seat}`: the owner of one seat's bot (that bot's raw messages, stderr and notes).
 */
export type Audience = 'public' | 'full' | { seat: number };

/** What spectators of a game with hidden information get instead of the header: no config, no seed. */
export interface PublicHeader {
  game: string;
  matchId: string;
  seats: ReplaySeat[];
  timeouts: ReplayHeader['timeouts'];
  /** true: steps carry redacted actions and a `frame` to draw; the config and the seed come with the replay */
  hidden: true;
}

/** A step as spectators of a game with hidden information see it: actions as the game shows them, no fingerprint. */
export type PublicRecord = Omit<TurnRecord, 'hash'>;

/**
 * One thing that happened in a match, as plain JSON (so it can cross processes). A viewer rebuilds every
 * frame from `started` and the `step`s by re-running the rules (or draws `frame` when the header is hidden,
 * folding each later step's `delta` into it with the game's `spectator.fold` when the game sends deltas).
 * `truncated` says the viewer's steps have a hole: in a late viewer's catch-up (`history`), right after
 * `started`, the match's events so far were more than the history keeps; in a live stream, steps were missed (the
 * live events lost their link for a while: a Redis outage). The viewer cannot draw the match from its events
 * and should wait for its replay, which comes once it ends. `restarted` says the match starts again from its
 * first step (the process that played it stopped; another attempt plays it): what was shown is not the match,
 * and a `started` follows. Both are a viewer's (`followMatch`), never a match's own events.
 */
export type LiveEvent =
  | {
      type: 'started';
      matchId: string;
      header: ReplayHeader | PublicHeader;
      /** with a public header: the frame to draw before the first step (lighthouses' island, smart-dog's land) */
      frame?: unknown;
    }
  | { type: 'step'; matchId: string; index: number; record: TurnRecord | PublicRecord; frame?: unknown; delta?: unknown }
  | { type: 'message'; matchId: string; slot: number; entry: TranscriptEntry }
  | {
      type: 'ended';
      matchId: string;
      /** why it ended, the rules' words (= result.reason; as `stopped` and the match API's `reason` say it) */
      reason?: string;
      result: ReplayResult;
      durationMs: number;
      /** the match's steps in all: a viewer that lost some just before the end is told (follow.ts) */
      steps?: number;
    }
  | { type: 'stopped'; matchId: string; reason: string }
  | { type: 'truncated'; matchId: string; steps: number; reason: string }
  | { type: 'restarted'; matchId: string; reason: string };

/** A subscriber; it may return a promise, which is not waited for by the match. */
export type LiveListener = (event: LiveEvent) => void | Promise<void>;

/**
 * The live-events port: matches publish, viewers subscribe per match and audience. The in-process default is
 * `LocalLiveEvents`; an implementation across processes (Redis pub/sub) keeps the same contract, which
 * `contract.ts` checks. Publishing never throws and never waits for a listener.
 */
export interface LiveEvents {
  publish(matchId: string, audience: Audience, event: LiveEvent): void;
  /** listens to one match's events for one audience, in order; returns the function that stops listening */
  subscribe(matchId: string, audience: Audience, listener: LiveListener): () => void;
  /**
   * The public events of a match published so far, oldest first, from its `started` on (a late viewer's
   * catch-up); kept while it runs and a while after it ends (`ended`/`stopped`), then null, as for a match
   * that never started here. Only events about the channel's own match are kept (not a feed's).
   */
  history(matchId: string): Promise<LiveEvent[] | null>;
  /** stops delivering and drops every subscription */
  close(): Promise<void>;
}

/** A channel's name: `match:ID:public`, `match:ID:full`, `match:ID:seat:N` (the shape a Redis channel takes). */
export function channelOf(matchId: string, audience: Audience): string {
  return `match:${matchId}:${typeof audience === 'string' ? audience : `seat:${audience.seat}`}`;
}

/** The most public events kept for one match's catch-up (a 5 000-lap Tron match has 5 002). */
export const HISTORY_MAX = 200_000;
/**
 * The most bytes (their JSON's) of public events kept for one match's catch-up in a server's own memory
 * (`LocalLiveEvents`): a 100×100 Battleship match (32 609 steps) keeps about 5 MiB, a 600×600 Tron match of
 * six bots (46 612 steps) about 10 MiB. Past it the steps are dropped and a late viewer is told (`truncated`).
 */
export const HISTORY_MAX_BYTES = 16 * 1024 * 1024;
/** How long a match's catch-up is kept after it ends (its result reaches the store within it). */
export const HISTORY_AFTER_END_MS = 120_000;

/**
 * Of the events a viewer received while it fetched a match's history, those the history does not hold
 * already (a step after its last, a start or an end it lacks), in order: history then these, no gap, no repeat.
 */
export function newSince(history: readonly LiveEvent[], received: readonly LiveEvent[]): LiveEvent[] {
  let lastStep = -1;
  let started = false;
  let over = false;
  for (const e of history) {
    if (e.type === 'step') lastStep = Math.max(lastStep, e.index);
    else if (e.type === 'started') started = true;
    else if (e.type === 'ended' || e.type === 'stopped') over = true;
  }
  return received.filter((e) => {
    if (e.type === 'started') return !started;
    if (e.type === 'step') return e.index > lastStep;
    if (e.type === 'ended' || e.type === 'stopped') return !over;
    return true;
  });
}

/** One listener of a channel in this process: its own queue of events not yet delivered. */
export interface Subscription {
  listener: LiveListener;
  queue: LiveEvent[];
  busy: boolean;
  closed: boolean;
}

/**
 * Delivers a subscription's queue on later ticks, one event at a time: an async listener's promise is awaited
 * before its next event (never by the publisher); one that throws is logged and keeps listening.
 */
export function drainSubscription(channel: string, sub: Subscription, log: (line: string) => void): void {
  sub.busy = true;
  setImmediate(async () => {
    while (sub.queue.length && !sub.closed) {
      const event = sub.queue.shift()!;
      try {
        await sub.listener(event);
      } catch (err) {
        log(`live events: a listener of ${channel} threw on "${event.type}": ${err instanceof Error ? err.message : String(err)}`);
      }
    }
    sub.busy = false;
  });
}
