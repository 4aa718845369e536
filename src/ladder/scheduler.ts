import type { FastifyBaseLogger } from 'fastify';
import { randomSeed } from '../arena/match-job.js';
import type { AnyGame } from '../core/game.js';
import { games, getGame } from '../games/index.js';
import type { MatchQueue } from '../queue/port.js';
import { isPersonBot } from '../registry/builtins.js';
import { StoreFullError, type BotRow, type MatchKind, type MatchRow, type Store } from '../store/index.js';
import { ladderMatchSeed, ladderRng, pickMatch, type LadderBot } from './pick.js';

/** How the ladder plays. */
export interface LadderOptions {
  /** matches that use the machines at once (the server's --concurrency): the ladder fills up to it */
  concurrency: number;
  /** per-game config of ladder matches (e.g. a smaller Tron board) */
  ladderConfig?: Record<string, Record<string, unknown>>;
  /** the most ladder matches per bot per hour (default 60); they are spread over the hour (see `ladderBurst`) */
  perBotPerHour?: number;
  /**
   * how many ladder matches a bot may play back to back before the pace applies (default 5): a newcomer gets
   * its first games at once, then one every 3600 / perBotPerHour seconds on average
   */
  ladderBurst?: number;
}

/** What the scheduler works with: the store, the queue (to lead the ladder by turns), and how to launch a match. */
export interface LadderContext {
  store: Store;
  queue: MatchQueue;
  /** this server's name (the ladder's leader, with a shared queue) */
  node: string;
  log: FastifyBaseLogger;
  /** writes a match and hands it to the queue (matches/launch.ts) */
  launch: (game: AnyGame, bots: BotRow[], o: { kind: MatchKind; rated: boolean; seed: number; config: Record<string, unknown> }) => Promise<MatchRow>;
  /**
   * how many matches queued or under way leave the ladder their place: a person's (it mostly waits for the
   * person), and on-demand ones waiting for their share of the places (matches/quota.ts, OnDemandGate)
   */
  leavesPlace: () => number;
  /** whether a bot may be picked now besides its status (a bot linked from its author's machine: only while linked to this server) */
  available?: (bot: BotRow) => boolean;
}

/**
 * The ladder's scheduler: starts rated matches between active bots (pick.ts chooses who) while fewer than
 * `concurrency` matches use the machines, game by game in turn, each bot within its capacity and its pace.
 * It looks again when a match ends (`wake`), or after the delay a fill asks for. With a shared queue one
 * server leads the ladder at a time.
 */
export class LadderScheduler {
  private readonly rngs = new Map<string, ReturnType<typeof ladderRng>>();
  private timer: NodeJS.Timeout | null = null;
  private due = Infinity;
  private filling = false;
  /** the fill under way: stop() waits for it, so a match it created is enqueued before the store closes */
  private fillRun: Promise<void> | null = null;
  private refill = false;
  private nextGame = 0;
  private stopping = false;
  /** the message of the failure the ladder is waiting out (logged once, with its stack; its repeats at debug) */
  private failing: string | null = null;

  constructor(
    private readonly c: LadderContext,
    private readonly opts: LadderOptions,
  ) {}

  /** Fills the ladder now (and from then on as matches end). */
  start(): void {
    this.schedule(0);
  }

  /** A match ended somewhere: a place may be free. */
  wake(): void {
    if (!this.stopping) this.schedule(0);
  }

  /** Stops filling; resolves once a fill under way has enqueued the match it was creating. */
  async stop(): Promise<void> {
    this.stopping = true;
    if (this.timer) clearTimeout(this.timer);
    await this.fillRun;
  }

  /**
   * Fills the ladder in `delayMs` (sooner if asked sooner). One fill at a time: two at once could both see a
   * bot free and give it more matches than its capacity. A call during a fill makes it look again when done.
   */
  private schedule(delayMs: number): void {
    if (this.stopping) return;
    if (this.filling) {
      this.refill = true;
      return;
    }
    const due = Date.now() + delayMs;
    if (this.timer) {
      if (due >= this.due) return;
      clearTimeout(this.timer);
    }
    this.due = due;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.due = Infinity;
      this.filling = true;
      let next: number | null = null;
      this.fillRun = this.fill()
        .then(
          (delay) => {
            if (this.failing !== null) this.c.log.info(`the ladder runs again (it had failed: ${this.failing})`);
            this.failing = null;
            next = delay;
          },
          (err: unknown) => {
            // The same failure every 5 s (the queue's Redis away) is one line, not a stack trace each time.
            const message = err instanceof Error ? err.message : String(err);
            // A full disk is said by the store itself, once (store/guard.ts): the ladder only waits it out.
            if (message === this.failing) this.c.log.debug({ err }, 'the ladder still fails to start a match; trying again in 5 s');
            else if (err instanceof StoreFullError) this.c.log.debug(`the ladder waits for room in the store to start matches: ${message}`);
            else this.c.log.error({ err }, 'the ladder failed to start a match; trying again in 5 s (the same failure again is logged at debug)');
            this.failing = message;
            next = 5000;
          },
        )
        .finally(() => {
          this.filling = false;
          const again = this.refill;
          this.refill = false;
          this.fillRun = null;
          if (again) this.schedule(0);
          else if (next !== null) this.schedule(next);
        });
    }, delayMs);
    this.timer.unref();
  }

  /** Starts ladder matches until `concurrency` run, or no game has bots free to play. Returns when to look again (null: when a match ends). */
  private async fill(): Promise<number | null> {
    const { queue } = this.c;
    // With a shared queue, several servers may run: one leads the ladder at a time (another takes over if it dies).
    if (!(await queue.lead(this.c.node, 15_000))) return 5000;
    // A game whose bots connect in to a lobby (smart-dog's hubs) is rated through the gateway, not picked here.
    const gameIds = Object.keys(games).filter((g) => !getGame(g).wire.lobby);
    let idleGames = 0;
    let turn = 0;
    // Counted once, then again after each match launched: passing over games without free bots launches nothing
    // and cannot raise it (a match ending meanwhile wakes another fill), so it is not counted again for them.
    let busy = await this.busy();
    while (!this.stopping && busy < this.opts.concurrency && idleGames < gameIds.length) {
      // Games in turn, starting from the one after the last served, so a game with few bots is not starved.
      const game = getGame(gameIds[(this.nextGame + turn++) % gameIds.length]!);
      const seats = await this.seats(game);
      if (!seats) {
        idleGames++;
        continue;
      }
      idleGames = 0;
      this.nextGame = (gameIds.indexOf(game.id) + 1) % gameIds.length;
      await this.c.launch(game, seats, {
        kind: 'ladder',
        rated: true,
        seed: ladderMatchSeed(this.rng(game.id)),
        config: this.opts.ladderConfig?.[game.id] ?? {},
      });
      busy = await this.busy();
    }
    // With a shared queue, matches ending on workers wake the ladder through the feed; it also looks every
    // second (a worker's end event lost while Redis was away, a lead to renew).
    if (queue.shared) return 1000;
    return (await this.busy()) < this.opts.concurrency ? 2000 : null;
  }

  /**
   * Matches that use the machines: those queued or running (every worker's, with a shared queue), less those
   * that leave the ladder its place (a person's mostly waits for them; an on-demand one waits for its share).
   */
  private async busy(): Promise<number> {
    const [queued, running] = await Promise.all([this.c.store.countMatches({ status: 'queued' }), this.c.store.countMatches({ status: 'running' })]);
    return queued + running - this.c.leavesPlace();
  }

  private rng(game: string) {
    let r = this.rngs.get(game);
    if (!r) this.rngs.set(game, (r = ladderRng(randomSeed())));
    return r;
  }

  /** The bots of the next ladder match of a game, or null when too few may play. */
  private async seats(game: AnyGame): Promise<BotRow[] | null> {
    const { store } = this.c;
    const active = await store.listBots({ game: game.id, status: 'active' });
    // Built-in bots play only when a registered bot needs opponents, so a ladder of built-ins alone never spins.
    if (!active.some((b) => !b.builtin)) return null;
    const ratings = new Map((await store.ratingsFor(game.id, 'elo')).map((r) => [r.botId, r.rating]));
    // The pace: at most `limit` an hour, and at most `burst` in any window of `burst` matches' worth of it,
    // so a bot's games are spread over the hour instead of played flat out and then none for the rest of it.
    const limit = this.opts.perBotPerHour ?? 60;
    const burst = Math.max(1, Math.min(this.opts.ladderBurst ?? 5, limit));
    const now = Date.now();
    const recent = await store.recentMatchCounts(game.id, now - 3_600_000);
    const lately = burst < limit ? await store.recentMatchCounts(game.id, now - (3_600_000 * burst) / limit) : recent;
    // A bot's matches queued or under way count against its capacity (every worker's, with a shared queue).
    const busy = await store.activeMatchCounts();
    const ladderBots: LadderBot[] = active
      .filter((b) => !isPersonBot(b) && (this.c.available?.(b) ?? true))
      .filter((b) => b.builtin || ((recent.get(b.id) ?? 0) < limit && (lately.get(b.id) ?? 0) < burst))
      .map((b) => ({
        id: b.id,
        rating: ratings.get(b.id) ?? 1500,
        recent: (recent.get(b.id) ?? 0) + (b.builtin ? 1e6 : 0),
        running: busy.get(b.id) ?? 0,
        capacity: b.builtin ? 1000 : b.capacity,
      }));
    const picked = pickMatch(ladderBots, game.players, this.rng(game.id));
    // A match of built-in bots alone teaches the ladder nothing: wait until a registered bot is free.
    if (!picked || picked.every((id) => active.find((b) => b.id === id)!.builtin)) return null;
    const byId = new Map(active.map((b) => [b.id, b]));
    return picked.map((id) => byId.get(id)!);
  }
}
