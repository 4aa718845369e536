import type { FastifyBaseLogger } from 'fastify';
import type { MatchJob } from '../arena/match-job.js';
import { MatchCancelledError } from '../arena/run-match.js';
import type { SeatConnection } from '../arena/seat.js';
import type { AddressPolicy } from '../bots/address-policy.js';
import type { Replay } from '../core/replay.js';
import type { LiveEvents } from '../live/events.js';
import { botsOfMatch, connectedSeats, playAndRecord } from '../matches/play.js';
import type { Store } from '../store/index.js';
import { MatchPool } from '../tournament/pool.js';
import type { JobState, MatchQueue } from './port.js';

/** How the local queue plays. */
export interface LocalQueueOptions {
  store: Store;
  /** the live events its matches publish to (with the feed: withFeed) */
  live: LiveEvents;
  log: FastifyBaseLogger;
  /** matches played at once in match threads (the server's --concurrency) */
  concurrency: number;
  /** the store's `worker` of the matches it plays: the server's name */
  node: string;
  addressPolicy: AddressPolicy;
  /** a match started this many times is given up (default 3) */
  maxTries?: number;
  /** the seat of a match that a player connected to this process for (a person's page), or undefined */
  connection?: (matchId: string, slot: number) => SeatConnection | undefined;
  /** told once a match it took is over here: recorded (its replay), or not played (why) */
  settled?: (matchId: string, outcome: { replay: Replay } | { reason: string }) => void;
}

/** A match taken: how to cancel it when it plays on this thread. */
interface Taken {
  controller: AbortController;
  done: Promise<void>;
}

/**
 * The default match queue: matches play in this process, at most `concurrency` at once, each in a match
 * thread of a pool (tournament/pool.ts), so the rules and the built-in bots never hold up the thread that
 * answers HTTP. The match is read, claimed and recorded here (the store is this thread's); only `runMatch`
 * runs in the thread, its live events and log lines posted back as they come.
 *
 * A match whose players connected to this process (a person's page: their seats are desks the HTTP routes
 * hold here) cannot move to a thread: it plays on this thread at once, outside the `concurrency` bound (it
 * mostly waits for the person).
 */
export class LocalMatchQueue implements MatchQueue {
  readonly shared = false;
  readonly maxTries: number;
  private readonly waiting: string[] = [];
  private readonly states = new Map<string, { state: JobState; failed?: string }>();
  private readonly taken = new Map<string, Taken>();
  /** matches in (or on their way to) a match thread: at most `concurrency` */
  private threaded = 0;
  private readonly pool: MatchPool;
  private stopping = false;

  constructor(private readonly o: LocalQueueOptions) {
    this.maxTries = o.maxTries ?? 3;
    // Threads start when a match first needs one: a server whose matches all play elsewhere starts none.
    this.pool = new MatchPool(o.concurrency, { addressPolicy: o.addressPolicy }, undefined, true);
  }

  describe(): string {
    return `in-process, ${this.o.concurrency} match thread(s)`;
  }

  ready(): Promise<boolean> {
    return Promise.resolve(true);
  }

  async enqueue(matchId: string): Promise<void> {
    const known = this.states.get(matchId)?.state;
    if (this.stopping || known === 'waiting' || known === 'active') return;
    this.states.set(matchId, { state: 'waiting' });
    // A match whose players connected here is not kept waiting for a thread: it plays on this one now.
    const m = await this.o.store.getMatch(matchId).catch(() => null);
    if (m && connectedSeats(m.job as MatchJob).length) {
      if (!this.stopping) this.take(matchId, false);
      return;
    }
    this.waiting.push(matchId);
    this.pump();
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

  /** Whether a match is being played here now (in a thread, or on this thread). */
  plays(matchId: string): boolean {
    return this.taken.has(matchId);
  }

  async stop(graceMs: number): Promise<void> {
    this.stopping = true;
    // What never started stays queued in the store: the next start plays it (Arena.start's requeue).
    for (const id of this.waiting.splice(0)) this.states.delete(id);
    const ended = Promise.all([...this.taken.values()].map((t) => t.done));
    await Promise.race([ended, new Promise((resolve) => setTimeout(resolve, graceMs).unref())]);
    for (const [id, t] of this.taken) {
      this.o.log.warn({ match: id }, 'match cancelled at shutdown');
      t.controller.abort();
    }
    await this.pool.cancel('the server stopped before the match ended');
    await ended;
  }

  async close(): Promise<void> {
    this.stopping = true;
    await this.pool.close();
  }

  /** Starts the next waiting matches while threads are free. */
  private pump(): void {
    while (!this.stopping && this.threaded < this.o.concurrency && this.waiting.length) {
      const id = this.waiting.shift()!;
      this.threaded++;
      this.take(id, true);
    }
  }

  /** Plays one match: in a match thread (`threaded`: it holds one of the `concurrency` places until it is over), or on this one. */
  private take(matchId: string, threaded: boolean): void {
    const controller = new AbortController();
    const entry: Taken = { controller, done: Promise.resolve() };
    this.taken.set(matchId, entry);
    this.states.set(matchId, { state: 'active' });
    entry.done = this.play(matchId, controller, !threaded)
      .then(
        (outcome) => {
          this.states.set(matchId, { state: 'completed' });
          this.o.settled?.(matchId, outcome);
        },
        (err: unknown) => {
          const reason = err instanceof Error ? err.message : String(err);
          this.states.set(matchId, { state: 'failed', failed: reason });
          this.o.log.error({ match: matchId, err }, 'the match could not be played or recorded');
          this.o.settled?.(matchId, { reason });
        },
      )
      .finally(() => {
        this.taken.delete(matchId);
        if (threaded) {
          this.threaded--;
          this.pump();
        }
      });
  }

  /**
   * Reads, claims, plays and records one match; resolves with its replay, or why it was not played (and
   * then it is marked aborted in the store when it should be). Rejects only when the store cannot be reached.
   */
  private async play(matchId: string, controller: AbortController, here: boolean): Promise<{ replay: Replay } | { reason: string }> {
    const { store, log } = this.o;
    const m = await store.getMatch(matchId);
    if (!m) return { reason: 'no such match in the store' };
    if (m.status !== 'queued' && m.status !== 'running') return { reason: `the match is ${m.status} already` };
    const job = m.job as MatchJob;
    const abort = async (reason: string) => {
      if (await store.abortMatch(matchId, reason)) {
        log.warn({ match: matchId }, `match aborted: ${reason}`);
        this.o.live.publish(matchId, 'public', { type: 'stopped', matchId, reason });
      }
      return { reason };
    };
    const found = await botsOfMatch(store, m);
    if ('missing' in found) return abort(found.missing);
    const tries = await store.claimMatch(matchId, this.o.node);
    if (tries === null) return { reason: 'the match ended meanwhile' };
    if (tries > this.maxTries) return abort(`it was started ${this.maxTries} times and never finished`);
    log.info({ match: matchId, game: m.game, bots: found.bots.map((b) => b.name) }, 'match started');
    const lines = (line: string) => log.warn({ match: matchId }, line);
    try {
      const { replay } = await playAndRecord(
        {
          store,
          live: this.o.live,
          log,
          addressPolicy: this.o.addressPolicy,
          signal: controller.signal,
          connections: here ? job.seats.map((_, slot) => this.o.connection?.(matchId, slot)) : undefined,
          // Only the public events come back from a thread: a server streams nothing else (as publicOnly for workers).
          // and the replay comes packed for the store: serializing and gzipping a long match's messages is the
          // thread's work, not the server's (a 6 000-lap Tron match held the server's thread for half a second).
          run: here ? undefined : (j, held) => this.pool.play(j, { live: held, log: lines, publicOnly: true, pack: true }),
        },
        job,
        found.bots,
        m.rated,
      );
      return { replay };
    } catch (err) {
      const cancelled = err instanceof MatchCancelledError;
      const reason = cancelled ? 'the server stopped before the match ended' : `the arena failed: ${err instanceof Error ? err.message : String(err)}`;
      if (!cancelled) log.error({ match: matchId, err }, 'match failed');
      // The match's own `stopped` event went out from the runner already.
      await store.abortMatch(matchId, reason);
      return { reason };
    }
  }
}
