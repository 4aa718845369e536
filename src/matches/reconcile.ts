import type { FastifyBaseLogger } from 'fastify';
import type { MatchJob } from '../arena/match-job.js';
import { UsageError } from '../core/errors.js';
import type { LiveEvents } from '../live/events.js';
import type { LocalMatchQueue } from '../queue/local.js';
import type { MatchQueue } from '../queue/port.js';
import { StoreFullError, type MatchRow, type Store } from '../store/index.js';
import { botsOfMatch, connectedSeats } from './play.js';

// Keeping the queue and the store in agreement, so that no match is lost: at a start with the server's own
// queue (what an earlier run left), and, with a shared queue, all along (what Redis or a dead worker lost).

/** How long a server's "alive" mark lasts in the queue; it renews it three times as often. */
export const NODE_TTL_MS = 30_000;

/**
 * At the start of a server that plays its own matches: aborts what an earlier run left running (nobody plays
 * it now), and plays again what it left queued (it was killed between the two), from the stored jobs: the
 * same seed and seats. A match whose bot is gone since, or whose players came for it (a person's page,
 * smart-dog TCP bots) and are gone, is marked aborted instead.
 */
export async function recoverOwnQueue(
  store: Store,
  queue: MatchQueue,
  log: FastifyBaseLogger,
  enqueue: (m: MatchRow) => Promise<void> = (m) => queue.enqueue(m.id),
): Promise<void> {
  const aborted = await store.abortRunning('the server stopped while the match was running');
  if (aborted.length) log.warn({ matches: aborted }, `${aborted.length} match(es) left running by the last run were marked aborted`);
  let cursor: string | null = null;
  const queued: MatchRow[] = [];
  do {
    const page = await store.listMatches({ status: 'queued', limit: 100, cursor });
    queued.push(...page.items);
    cursor = page.next;
  } while (cursor);
  for (const m of queued.reverse()) {
    const found = await botsOfMatch(store, m);
    if ('missing' in found) {
      await store.abortMatch(m.id, found.missing);
      continue;
    }
    const gone = connectedSeats(m.job as MatchJob);
    if (gone.length) {
      // Its players came for it (smart-dog bots over TCP, people at a page) and are gone: it cannot be played again.
      const who = gone.includes('browser')
        ? 'a person played in it from a web page, and the page is gone'
        : gone.includes('connect')
          ? "a bot in it was linked to the server from its author's machine (`botarena connect`), and the link is gone"
          : 'its bots connected in over TCP for it';
      await store.abortMatch(m.id, `${who}: it cannot be started again`);
      continue;
    }
    log.info({ match: m.id, game: m.game }, 'match queued by the last run started again');
    await enqueue(m);
  }
}

/** What a shared queue's reconciler works with. */
export interface ReconcileContext {
  store: Store;
  /** the shared queue */
  queue: MatchQueue;
  /** this server's own queue: the matches it plays itself are left alone */
  here: LocalMatchQueue;
  /** whether this server holds a queued match back on purpose (an on-demand one waiting for its share: matches/quota.ts) */
  held?: (matchId: string) => boolean;
  /** the live events with the feed: an aborted match's `stopped` goes out on it */
  live: LiveEvents;
  log: FastifyBaseLogger;
}

/**
 * Makes a shared queue agree with the store: each match queued or running in the store whose job is gone
 * (Redis lost it), failed (a worker could not finish it) or ended without a result is enqueued again, or
 * aborted once it was started `maxTries` times. A match played in a server's own process (a person's) is
 * aborted when that server is gone. Matches this server plays are left alone.
 */
export async function reconcile(c: ReconcileContext): Promise<{ requeued: string[]; aborted: string[] }> {
  const { store, queue, log } = c;
  const out = { requeued: [] as string[], aborted: [] as string[] };
  if (!queue.shared) return out;
  for (const status of ['running', 'queued'] as const) {
    let cursor: string | null = null;
    do {
      const page = await store.listMatches({ status, limit: 100, cursor });
      cursor = page.next;
      for (const m of page.items) {
        if (c.here.plays(m.id) || c.held?.(m.id)) continue;
        const abort = async (reason: string) => {
          if (await store.abortMatch(m.id, reason)) {
            out.aborted.push(m.id);
            log.warn({ match: m.id }, `match aborted: ${reason}`);
            c.live.publish(m.id, 'public', { type: 'stopped', matchId: m.id, reason });
          }
        };
        if (connectedSeats(m.job as MatchJob).length) {
          // Played in a server's process: its players came to that server. Gone with it, if it is gone.
          if (m.status === 'running' && m.worker && (await queue.alive(m.worker))) continue;
          if (m.status === 'queued' && Date.now() - Date.parse(m.createdAt) < NODE_TTL_MS) continue;
          await abort(`the server that played it (${m.worker ?? 'not started'}) stopped; its players were connected to it`);
          continue;
        }
        const state = await queue.state(m.id);
        if (state !== 'unknown' && state !== 'failed' && state !== 'completed') continue;
        // Read again: a worker may have finished it between the two reads.
        const now = await store.getMatch(m.id);
        if (!now || (now.status !== 'queued' && now.status !== 'running')) continue;
        // Fencing: a worker still plays it (its attempt's heartbeat lives) though Redis lost or ended its job
        // (Redis came back empty): enqueuing it again would start a second attempt beside it.
        if (now.status === 'running' && (await store.liveAttempt(m.id))) continue;
        if (now.tries >= queue.maxTries) {
          const why = state === 'failed' ? await queue.failedReason(m.id) : null;
          await abort(`it was started ${now.tries} times and no worker finished it${why ? ` (last: ${why})` : ''}`);
          continue;
        }
        await queue.requeue(m.id);
        out.requeued.push(m.id);
        log.warn(
          { match: m.id, job: state, tries: now.tries },
          state === 'unknown'
            ? 'match enqueued again: the queue had no job for it (Redis lost it, or the server stopped before enqueuing it)'
            : `match enqueued again: its job ${state} without a result`,
        );
      }
    } while (cursor);
  }
  return out;
}

/**
 * A server's upkeep of a shared queue: it says it is alive every NODE_TTL_MS / 3 (its own matches are not
 * someone else's to abort), and reconciles the queue with the store every `everyMs`.
 */
export class QueueUpkeep {
  private beatTimer: NodeJS.Timeout | null = null;
  private reconcileTimer: NodeJS.Timeout | null = null;
  private stopping = false;

  constructor(
    private readonly c: ReconcileContext,
    private readonly node: string,
    private readonly everyMs = 10_000,
  ) {}

  /** the heartbeat's failure being waited out, said once */
  private beatFailing: string | null = null;

  /** the arena this server's store is, read at start */
  private arena: string | null = null;
  /** a mismatch already said (a queue marked by another arena) */
  private foreign: string | null = null;

  /**
   * Beats once and reconciles once, then keeps doing both until `stop`. Throws when the queue belongs to
   * another arena (its mark in Redis is not this store's arena id).
   */
  async start(): Promise<void> {
    const { store, queue } = this.c;
    this.arena = await store.arenaId();
    const holder = await queue.markArena?.(this.arena).catch(() => null); // Redis away: the heartbeat marks it later
    if (holder && holder !== this.arena) throw new UsageError(this.mismatch(holder));
    await this.beat();
    await reconcile(this.c).catch((err: unknown) => this.c.log.error({ err }, 'the queue could not be checked against the store'));
    this.scheduleReconcile();
  }

  stop(): void {
    this.stopping = true;
    if (this.beatTimer) clearTimeout(this.beatTimer);
    if (this.reconcileTimer) clearTimeout(this.reconcileTimer);
  }

  private mismatch(holder: string): string {
    return `this server's store (${this.c.store.describe()}) is arena ${this.arena}, and the queue ${this.c.queue.describe()} belongs to arena ${holder}: one queue serves one arena (give each arena its own --redis-prefix, or start the server on that arena's database)`;
  }

  private async beat(): Promise<void> {
    const { queue, log } = this.c;
    await queue
      .beat(this.node, NODE_TTL_MS)
      .then(async () => {
        // Marked again after Redis lost it (a restart without its data), for the workers that start then.
        const holder = this.arena && (await queue.markArena?.(this.arena));
        if (holder && holder !== this.arena && holder !== this.foreign) {
          this.foreign = holder;
          log.error(this.mismatch(holder));
        }
      })
      .then(
        () => {
          if (this.beatFailing !== null) log.info(`the queue (${queue.describe()}) is reachable again`);
          this.beatFailing = null;
        },
        (err: unknown) => {
          // Said once (then at debug while it lasts), not a stack trace every beat while Redis is away.
          const message = err instanceof Error ? err.message : String(err);
          if (message === this.beatFailing) log.debug({ err }, `still cannot reach the queue (${queue.describe()})`);
          else log.warn(`cannot reach the queue (${queue.describe()}): ${message}; retrying quietly (at debug) until it answers`);
          this.beatFailing = message;
        },
      );
    if (!this.stopping) {
      this.beatTimer = setTimeout(() => void this.beat(), NODE_TTL_MS / 3);
      this.beatTimer.unref();
    }
  }

  private scheduleReconcile(): void {
    if (this.stopping) return;
    this.reconcileTimer = setTimeout(() => {
      void reconcile(this.c)
        .catch((err: unknown) =>
          // A full disk is said by the store itself, once (store/guard.ts); the next check tries again.
          err instanceof StoreFullError
            ? this.c.log.debug(`the queue could not be checked against the store: ${err.message}`)
            : this.c.log.warn({ err }, `the queue could not be checked against the store: ${(err as Error).message}`),
        )
        .finally(() => this.scheduleReconcile());
    }, this.everyMs);
    this.reconcileTimer.unref();
  }
}
