// The server's application code in one class (740 lines, untouched by issue 32): registering bots, creating
// matches, persons' seats, the ladder, the reconciler. Issue 33 moves it out of server/ into an application
// layer (src/matches/, src/ladder/, src/live/); its first part is on the branch i33-queue, not yet landed.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { hostname } from 'node:os';
import type { FastifyBaseLogger } from 'fastify';
import { doctor, type DoctorReport } from '../arena/doctor.js';
import { newJob, randomSeed, type MatchJob } from '../arena/match-job.js';
import { BrowserTransport, parseBotSpec, PersonDesk, runsCommand, type PersonLimits, type SeatContext } from '../bots/index.js';
import { urlRefusal } from '../bots/address-policy.js';
import type { AnyGame } from '../core/game.js';
import type { Replay } from '../core/replay.js';
import type { SeatConnection } from '../arena/seat.js';
import { resultLine } from '../core/replay.js';
import { games, getGame } from '../games/index.js';
import { ladderMatchSeed, ladderRng, pickMatch, type LadderBot } from '../ladder/pick.js';
import { newSince, type LiveEvent, type LiveEvents } from '../live/events.js';
import { LocalMatchQueue } from '../queue/local.js';
import type { MatchQueue } from '../queue/port.js';
import type { BotRow, MatchKind, MatchRow, Store } from '../store/index.js';
import { ApiError, badRequest, conflict, forbidden, notFound, unauthorized } from './errors.js';
import { guestBot, isBotUrl, ViewerTokens } from './guest-seats.js';
import { botsOfMatch, connectedSeats, FEED, withFeed } from '../matches/play.js';
import { hashToken, isAdminToken, newToken, verifyToken } from './tokens.js';

export { FEED, recordFinishedMatch } from '../matches/play.js';

/** How the server runs: what it lets bots be, how many matches at once, who the admin is. */
export interface ArenaOptions {
  /** matches played at once, ladder, on-demand and test alike (default 2); a person's match is not counted */
  concurrency: number;
  /** whether bots may be commands (stdio:, exec:) on this machine: only when the operator says so */
  allowCommands: boolean;
  /** whether HTTP bots may be at loopback, private or link-local addresses */
  allowPrivateBots: boolean;
  /** the admin token (BOTARENA_ADMIN_TOKEN): may do everything an owner may, to every bot */
  adminToken?: string;
  /** whether the ladder plays by itself (default true) */
  ladder: boolean;
  /** deadlines of ladder and on-demand matches (default: each game's) */
  timeouts?: { initMs?: number; turnMs?: number };
  /** per-game config of ladder matches (e.g. a smaller Tron board) */
  ladderConfig?: Record<string, Record<string, unknown>>;
  /** the most ladder matches per bot per hour (default 60); they are spread over the hour (see `ladderBurst`) */
  perBotPerHour?: number;
  /**
   * how many ladder matches a bot may play back to back before the pace applies (default 5): a newcomer gets
   * its first games at once, then one every 3600 / perBotPerHour seconds on average
   */
  ladderBurst?: number;
  /** whether doctor checks run before a bot plays (default true; tests of other parts may turn it off) */
  checkBots?: boolean;
  /** the port of the smart-dog gateway this server runs (null: none), named when an on-demand smart-dog match is refused */
  gatewayPort?: number | null;
  /** a person's limits in the browser: away (no page open) while asked, and per move (default 30 s, 10 min) */
  person?: PersonLimits;
  /**
   * the match queue every match goes through; default a LocalMatchQueue (this process's match threads).
   * With a shared one (botarena serve --queue: BullMQ) `botarena worker`s play them, except the matches whose
   * players connect to this server (a person's), which this server's local queue plays
   */
  queue?: MatchQueue | null;
  /** this server process's name in the store's `worker` column and in Redis (default: host name and pid) */
  node?: string;
  /** how often the queue's jobs are checked against the store (default 10 s) */
  reconcileMs?: number;
}

/** What a person registers. */
export interface NewBot {
  game: string;
  name: string;
  endpoint: string;
  description?: string;
  owner?: string;
  capacity?: number;
}

/** A match request from the API. */
export interface MatchRequest {
  game: string;
  /** bot ids or names (of this game), or built-in bot names, by seat */
  seats: string[];
  rated?: boolean;
  kind?: MatchKind;
  seed?: number;
  config?: Record<string, unknown>;
}

/** The seat name that puts a person (from the browser) at the table in a test match. */
export const PERSON = 'person';
/** The endpoint of each game's person row: the spec of a browser seat. */
const PERSON_ENDPOINT = 'browser';

/** Whether a bot row is a game's person row (built in, endpoint `browser`): never on the ladder, never rated. */
export function isPersonBot(b: Pick<BotRow, 'builtin' | 'endpoint'>): boolean {
  return b.builtin && b.endpoint === PERSON_ENDPOINT;
}

/** A person seat of a running match: its desk, and the hash of its token (the token itself is shown once). */
interface PersonSeat {
  desk: PersonDesk;
  tokenHash: Buffer;
}

const tokenDigest = (token: string) => createHash('sha256').update(token).digest();

const LADDER_GAMES_SKIP = new Set(['smartdog']); // its bots connect in over TCP: rated through the gateway's hubs

/** How long a server's "alive" mark lasts in Redis; it renews it three times as often. */
const NODE_TTL_MS = 30_000;

/**
 * The arena a server runs: the store, the live events, the matches under way and the ladder. Every match,
 * ladder or on-demand, goes the same way: a row in the store (queued), started (running), played by
 * `runMatch` with its live events published and a catch-up log kept for late viewers, then finished in one
 * store transaction with its result, replay, logs and rating changes (rated from the ratings kept before it).
 */
export class Arena {
  /** by match id, then slot: the person seats of matches queued or running here */
  private readonly persons = new Map<string, Map<number, PersonSeat>>();
  /** who started each test match reads its logs with these (guest-seats.ts) */
  readonly viewers = new ViewerTokens();
  private readonly rngs = new Map<string, ReturnType<typeof ladderRng>>();
  private ladderTimer: NodeJS.Timeout | null = null;
  private stopping = false;
  /** doctor checks under way (stop() waits for them within its grace) */
  private readonly checks = new Set<Promise<unknown>>();
  /** the live events with the global feed: what the matches played here publish to */
  private readonly publish: LiveEvents;
  /** where every match goes */
  private readonly queue: MatchQueue;
  /** the matches played in this process: the queue itself, or (with a shared queue) the persons' matches */
  private readonly here: LocalMatchQueue;
  /** this server process's name (the store's `worker` of the matches it plays itself) */
  readonly node: string;
  private reconcileTimer: NodeJS.Timeout | null = null;
  private beatTimer: NodeJS.Timeout | null = null;
  private unfeed: (() => void) | null = null;

  constructor(
    readonly store: Store,
    readonly live: LiveEvents,
    readonly opts: ArenaOptions,
    private readonly log: FastifyBaseLogger,
  ) {
    this.publish = withFeed(live);
    this.node = opts.node ?? `server@${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;
    this.here = new LocalMatchQueue({
      store,
      live: this.publish,
      log,
      concurrency: opts.concurrency,
      node: this.node,
      addressPolicy: opts.allowPrivateBots ? 'any' : 'public-only',
      connection: (matchId, slot) => this.personConnection(matchId, slot),
      settled: (matchId, outcome) => this.matchSettled(matchId, outcome),
    });
    this.queue = opts.queue ?? this.here;
  }

  /**
   * Registers the built-in bots and starts the ladder. With its own queue, it first aborts what an earlier run
   * left running and plays again what it left queued; with a shared queue the workers may be playing those, so
   * the reconciler (`reconcile`) looks after them instead.
   */
  async start(): Promise<void> {
    if (this.queue.shared) {
      if (!(await this.queue.ready())) this.log.warn(`the queue's Redis (${this.queue.describe()}) is not reachable yet; matches wait in the database until it is`);
      // A match ending on a worker wakes the ladder (there is no match ending in this process to do it).
      this.unfeed = this.live.subscribe(FEED, 'public', (e) => {
        if ((e.type === 'ended' || e.type === 'stopped') && this.opts.ladder && !this.stopping) this.scheduleLadder(0);
      });
      await this.beat();
      await this.reconcile().catch((err: unknown) => this.log.error({ err }, 'the queue could not be checked against the store'));
      this.scheduleReconcile();
    } else {
      const aborted = await this.store.abortRunning('the server stopped while the match was running');
      if (aborted.length) this.log.warn({ matches: aborted }, `${aborted.length} match(es) left running by the last run were marked aborted`);
      await this.requeue();
    }
    // Each game that a person can play has a person row: the bot id a person's seat is recorded under.
    const { conflicts } = await this.store.ensureBuiltinBots(
      Object.values(games).flatMap((g) => [
        ...Object.keys(g.bots).map((name) => ({ game: g.id, name, endpoint: name, description: `built-in: ${g.bots[name]!.description}` })),
        ...(g.presentation.human || g.rules.stream ? [{ game: g.id, name: PERSON, endpoint: PERSON_ENDPOINT, description: 'a person playing from the web page (test matches only; never on the ladder, never rated)' }] : []),
      ]),
    );
    for (const c of conflicts) this.log.warn(c);
    if (this.opts.ladder) this.scheduleLadder(0);
  }

  /**
   * Plays the matches an earlier run queued but never started (it was killed between the two), from their
   * stored jobs: the same seed and seats. A match whose bot is gone since is marked aborted instead.
   */
  private async requeue(): Promise<void> {
    let cursor: string | null = null;
    const queued: MatchRow[] = [];
    do {
      const page = await this.store.listMatches({ status: 'queued', limit: 100, cursor });
      queued.push(...page.items);
      cursor = page.next;
    } while (cursor);
    for (const m of queued.reverse()) {
      const found = await botsOfMatch(this.store, m);
      if ('missing' in found) {
        await this.store.abortMatch(m.id, found.missing);
        continue;
      }
      const gone = connectedSeats(m.job as MatchJob);
      if (gone.length) {
        // Its players came for it (smart-dog bots over TCP, people at a page) and are gone: it cannot be played again.
        const who = gone.includes('browser') ? 'a person played in it from a web page, and the page is gone' : 'its bots connected in over TCP for it';
        await this.store.abortMatch(m.id, `${who}: it cannot be started again`);
        continue;
      }
      this.log.info({ match: m.id, game: m.game }, 'match queued by the last run started again');
      await this.queue.enqueue(m.id);
    }
  }

  // ——— with a shared queue ———

  /** Marks this server alive in the queue (its own matches are not someone else's to abort). */
  private async beat(): Promise<void> {
    await this.queue.beat(this.node, NODE_TTL_MS).catch((err: unknown) => this.log.warn({ err }, `cannot reach the queue (${this.queue.describe()}): ${(err as Error).message}`));
    if (!this.stopping) {
      this.beatTimer = setTimeout(() => void this.beat(), NODE_TTL_MS / 3);
      this.beatTimer.unref();
    }
  }

  private scheduleReconcile(): void {
    if (this.stopping) return;
    this.reconcileTimer = setTimeout(() => {
      void this.reconcile()
        .catch((err: unknown) => this.log.warn({ err }, `the queue could not be checked against the store: ${(err as Error).message}`))
        .finally(() => this.scheduleReconcile());
    }, this.opts.reconcileMs ?? 10_000);
    this.reconcileTimer.unref();
  }

  /**
   * Makes the queue agree with the store, so that no match is lost: each match queued or running in the
   * store whose job is gone (Redis lost it), failed (a worker could not finish it) or ended without a result
   * is enqueued again, or aborted once it was started `maxTries` times. A match played in a server's own
   * process (a person's, a gateway game) is aborted when that server is gone. Matches this server plays are
   * left alone.
   */
  async reconcile(): Promise<{ requeued: string[]; aborted: string[] }> {
    const queue = this.queue;
    const out = { requeued: [] as string[], aborted: [] as string[] };
    if (!queue.shared) return out;
    for (const status of ['running', 'queued'] as const) {
      let cursor: string | null = null;
      do {
        const page = await this.store.listMatches({ status, limit: 100, cursor });
        cursor = page.next;
        for (const m of page.items) {
          if (this.here.plays(m.id)) continue;
          const abort = async (reason: string) => {
            if (await this.store.abortMatch(m.id, reason)) {
              out.aborted.push(m.id);
              this.log.warn({ match: m.id }, `match aborted: ${reason}`);
              this.publish.publish(m.id, 'public', { type: 'stopped', matchId: m.id, reason });
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
          const now = await this.store.getMatch(m.id);
          if (!now || (now.status !== 'queued' && now.status !== 'running')) continue;
          if (now.tries >= queue.maxTries) {
            const why = state === 'failed' ? await queue.failedReason(m.id) : null;
            await abort(`it was started ${now.tries} times and no worker finished it${why ? ` (last: ${why})` : ''}`);
            continue;
          }
          await queue.requeue(m.id);
          out.requeued.push(m.id);
          this.log.warn({ match: m.id, job: state, tries: now.tries }, state === 'unknown' ? 'match enqueued again: the queue had no job for it (Redis lost it, or the server stopped before enqueuing it)' : `match enqueued again: its job ${state} without a result`);
        }
      } while (cursor);
    }
    return out;
  }

  /** Stops the ladder, lets running matches end within `graceMs`, then cancels the rest (marked aborted). */
  async stop(graceMs = 10_000): Promise<void> {
    this.stopping = true;
    if (this.ladderTimer) clearTimeout(this.ladderTimer);
    if (this.reconcileTimer) clearTimeout(this.reconcileTimer);
    if (this.beatTimer) clearTimeout(this.beatTimer);
    this.unfeed?.();
    const t0 = Date.now();
    const grace = new Promise((r) => setTimeout(r, graceMs).unref());
    // A ladder fill under way ends after the match it is creating (it looks at `stopping` before each): wait
    // for it, so that match is enqueued before the queue and the store close under it.
    await Promise.race([(async () => {
      await this.fillRun;
      await Promise.allSettled([...this.checks]);
    })(), grace]);
    // The matches played here get what is left of the grace, then are cancelled (marked aborted).
    const left = Math.max(0, graceMs - (Date.now() - t0));
    await Promise.all([this.here.stop(left), this.queue === this.here ? null : this.queue.stop(left)]);
    await this.here.close();
  }

  // ——— bots ———

  /** Registers a bot: checked (doctor) before it plays; returns its row and the owner token, shown once. */
  async registerBot(input: NewBot): Promise<{ bot: BotRow; token: string }> {
    const game = this.game(input.game);
    await this.checkEndpoint(game, input.endpoint);
    const token = newToken();
    const bot = await this.store.createBot({
      game: game.id,
      name: input.name,
      endpoint: input.endpoint,
      description: input.description ?? '',
      ownerContact: input.owner ?? '',
      tokenHash: await hashToken(token),
      status: this.opts.checkBots === false ? 'active' : 'checking',
      capacity: input.capacity ?? 2,
    });
    this.log.info({ bot: bot.id, game: bot.game, name: bot.name }, 'bot registered');
    if (this.opts.checkBots !== false) this.checkLater(bot.id);
    return { bot, token };
  }

  /** Runs the check in the background; a failure of the arena itself (the store closing under it) is logged. */
  private checkLater(botId: string): void {
    const p = this.check(botId)
      .catch((err: unknown) => this.log.error({ bot: botId, err }, 'the bot check could not finish'))
      .finally(() => this.checks.delete(p));
    this.checks.add(p);
  }

  /** Runs the doctor check on a bot; it is activated when every check passes, and the report is kept. */
  async check(botId: string): Promise<DoctorReport | null> {
    const bot = await this.store.getBot(botId);
    if (!bot) return null;
    let report: DoctorReport;
    try {
      report = await doctor(this.game(bot.game), bot.endpoint, { log: () => {}, addressPolicy: this.opts.allowPrivateBots ? 'any' : 'public-only' });
    } catch (err) {
      await this.store.updateBot(botId, { status: 'paused', statusReason: `the check could not run: ${err instanceof Error ? err.message : String(err)}` });
      return null;
    }
    const failed = report.checks.filter((c) => c.status === 'fail');
    const reason = failed.length ? `the doctor check failed: ${failed.map((c) => `${c.name}: ${c.detail}`).join('; ')}` : null;
    const current = await this.store.getBot(botId);
    if (!current || current.status === 'deleted') return report;
    await this.store.updateBot(botId, { status: reason ? 'paused' : current.status === 'checking' ? 'active' : current.status, statusReason: reason, doctorReport: JSON.stringify(report) });
    this.log.info({ bot: botId, ok: !reason }, reason ? `bot check failed: ${reason.slice(0, 300)}` : 'bot check passed');
    return report;
  }

  /** Checks the caller may act on a bot: its owner token or the admin token. */
  async authorise(botId: string, bearer: string | undefined): Promise<BotRow> {
    const bot = await this.store.getBot(botId);
    if (!bot || bot.status === 'deleted') throw notFound(`no bot ${botId}`);
    if (!bearer) throw unauthorized('this needs the bot\'s owner token: send "Authorization: Bearer TOKEN" (the token shown when the bot was registered)');
    if (isAdminToken(bearer, this.opts.adminToken)) return bot;
    if (bot.builtin) throw forbidden('built-in bots are changed by the admin only');
    if (!(await verifyToken(bearer, bot.tokenHash))) throw forbidden(`the token is not the owner token of bot ${botId}`);
    return bot;
  }

  /** Whether a bearer token is the admin's. */
  isAdmin(bearer: string | undefined): boolean {
    return !!bearer && isAdminToken(bearer, this.opts.adminToken);
  }

  /** Edits a bot; a new endpoint is checked again before the bot plays rated matches. */
  async updateBot(bot: BotRow, patch: { endpoint?: string; description?: string; owner?: string; capacity?: number; status?: 'active' | 'paused' }): Promise<BotRow> {
    const game = this.game(bot.game);
    const changes: Parameters<Store['updateBot']>[1] = {};
    if (patch.description !== undefined) changes.description = patch.description;
    if (patch.owner !== undefined) changes.ownerContact = patch.owner;
    if (patch.capacity !== undefined) changes.capacity = patch.capacity;
    let recheck = false;
    if (patch.endpoint !== undefined && patch.endpoint !== bot.endpoint) {
      await this.checkEndpoint(game, patch.endpoint);
      changes.endpoint = patch.endpoint;
      recheck = this.opts.checkBots !== false;
      if (recheck) Object.assign(changes, { status: 'checking', statusReason: null });
    }
    if (patch.status === 'paused') Object.assign(changes, { status: 'paused', statusReason: 'paused by its owner' });
    if (patch.status === 'active' && !recheck) {
      if (this.opts.checkBots === false) Object.assign(changes, { status: 'active', statusReason: null });
      else {
        // Re-activating goes through the check again: the reason it was paused may be fixed or not.
        Object.assign(changes, { status: 'checking', statusReason: null });
        recheck = true;
      }
    }
    const updated = await this.store.updateBot(bot.id, changes);
    if (recheck) this.checkLater(bot.id);
    return updated;
  }

  // ——— matches ———

  /**
   * Starts an on-demand or test match between chosen bots, and people (seat "person", test matches only);
   * resolves with its row once it is queued, and each person seat's token (shown once).
   */
  async requestMatch(req: MatchRequest): Promise<{ match: MatchRow; persons: { slot: number; token: string }[]; viewerToken: string | null }> {
    const game = this.game(req.game);
    const personSlots = req.seats.flatMap((s, slot) => (s === PERSON ? [slot] : []));
    if (personSlots.length && (req.kind !== 'test' || req.rated)) {
      throw badRequest(`seats[${personSlots[0]}]: a person plays test matches only: give "test": true (a person's matches are never rated)`);
    }
    // Smart-dog bots connect in to the gateway; a test match of built-in bots and people is played here.
    const builtinsOnly = req.kind === 'test' && req.seats.every((s) => s === PERSON || Object.hasOwn(game.bots, s));
    if (game.wire.lobby && !builtinsOnly) {
      const where = this.opts.gatewayPort != null ? `the gateway on port ${this.opts.gatewayPort}` : 'a smart-dog gateway (this server runs none: it was started with --no-gateway)';
      throw badRequest(`smartdog matches are not started on demand: smart-dog bots connect in over TCP to ${where} ("join NAME HUB") and play when their hub fills`);
    }
    if (req.seats.length < game.players.min || req.seats.length > game.players.max) {
      throw badRequest(`${game.id} is played by ${game.players.min === game.players.max ? game.players.min : `${game.players.min} to ${game.players.max}`} bots; got ${req.seats.length} seats`);
    }
    const bots: BotRow[] = [];
    for (const [i, s] of req.seats.entries()) {
      if (isBotUrl(s)) {
        if (req.kind !== 'test') throw badRequest(`seats[${i}]: a bot given by its URL plays test matches only ("test": true); register it to play other matches`);
        await this.checkEndpoint(game, s).catch((err: unknown) => {
          if (err instanceof ApiError) throw new ApiError(err.status, err.code, err.message.replace(/^endpoint:/, `seats[${i}]:`));
          throw err;
        });
        bots.push(guestBot(game.id, s));
        continue;
      }
      const bot = (await this.store.getBot(s)) ?? (await this.store.getBotByName(game.id, s));
      if (!bot || bot.status === 'deleted' || bot.game !== game.id) throw badRequest(`seats[${i}]: no ${game.id} bot "${s}" (give a bot id or name of this game; the built-in bots are ${Object.keys(game.bots).join(', ')})`);
      if (s === PERSON && !isPersonBot(bot)) throw conflict(`seats[${i}]: "${PERSON}" is a registered ${game.id} bot on this server, so a person cannot take a seat in ${game.id} here`);
      if (isPersonBot(bot) && s !== PERSON) throw badRequest(`seats[${i}]: a person's seat is named "${PERSON}", not by its bot id`);
      if (req.rated && bot.status !== 'active') throw conflict(`seats[${i}]: ${bot.name} is ${bot.status}${bot.statusReason ? ` (${bot.statusReason})` : ''}: it plays rated matches once active`);
      bots.push(bot);
    }
    const matchId = crypto.randomUUID();
    const persons = personSlots.map((slot) => ({ slot, token: `person_${randomBytes(32).toString('base64url')}` }));
    this.persons.set(matchId, new Map(persons.map(({ slot, token }) => [slot, { desk: new PersonDesk({ matchId, slot }, false), tokenHash: tokenDigest(token) }])));
    try {
      const match = await this.launch(game, bots, { matchId, kind: req.kind ?? 'challenge', rated: req.rated ?? false, seed: req.seed, config: req.config ?? {} });
      return { match, persons, viewerToken: req.kind === 'test' ? this.viewers.issue(matchId) : null };
    } catch (err) {
      this.persons.delete(matchId);
      throw err;
    }
  }

  /**
   * The desk of a person seat of a match being played here, for the caller holding its token: 404 when there is
   * none (or the match is over), 401 without a token, 403 with another one.
   */
  personDesk(matchId: string, slot: number, token: string | undefined): PersonDesk {
    const seat = this.persons.get(matchId)?.get(slot);
    if (!seat) throw notFound(`match ${matchId} has no person in seat ${slot} being played now (it may be over: see /api/matches/${matchId})`);
    if (!token) throw unauthorized('this needs the seat\'s person token (from the match\'s "persons"): "Authorization: Bearer TOKEN" or ?token=TOKEN');
    const given = tokenDigest(token);
    if (!timingSafeEqual(given, seat.tokenHash)) throw forbidden(`the token is not the person token of seat ${slot} of match ${matchId}`);
    return seat.desk;
  }

  /**
   * Follows the global feed: `send` gets the `started` event of each match running now (wherever it runs),
   * then every match's start and end as they come, none twice. Returns how to stop.
   */
  async followFeed(send: (e: LiveEvent) => void): Promise<() => void> {
    const early: LiveEvent[] = [];
    let deliver: ((e: LiveEvent) => void) | null = null;
    const stop = this.live.subscribe(FEED, 'public', (e) => (deliver ? deliver(e) : void early.push(e)));
    try {
      const running = await this.store.listMatches({ status: 'running', limit: 100 });
      const starts = (await Promise.all(running.items.map((m) => this.live.history(m.id)))).flatMap((h) => (h?.[0]?.type === 'started' ? [h[0]] : []));
      const seen = new Set(starts.map((e) => e.matchId));
      for (const e of starts) send(e);
      for (const e of early) if (!(e.type === 'started' && seen.has(e.matchId))) send(e);
      deliver = send;
      return stop;
    } catch (err) {
      stop();
      throw err;
    }
  }

  /**
   * Follows one match from its start: `send` gets its public events so far, then each as it comes, none
   * twice and none missed. Null when nothing of it is kept (it has not started, or ended a while ago).
   */
  async followMatch(matchId: string, send: (e: LiveEvent) => void): Promise<{ history: LiveEvent[]; stop: () => void; deliver: () => void } | null> {
    const early: LiveEvent[] = [];
    let live: ((e: LiveEvent) => void) | null = null;
    const stop = this.live.subscribe(matchId, 'public', (e) => (live ? live(e) : void early.push(e)));
    let history: LiveEvent[] | null;
    try {
      history = await this.live.history(matchId);
    } catch (err) {
      stop();
      throw err;
    }
    if (!history) {
      stop();
      return null;
    }
    const sent = [...history, ...newSince(history, early)];
    early.length = 0;
    return {
      history: sent,
      stop,
      // Called once the history was sent: what came since, then everything straight to `send`.
      deliver: () => {
        for (const e of newSince(sent, early)) send(e);
        live = send;
      },
    };
  }

  private async launch(game: AnyGame, bots: BotRow[], o: { matchId?: string; kind: MatchKind; rated: boolean; seed?: number; config: Record<string, unknown> }): Promise<MatchRow> {
    const seed = o.seed ?? randomSeed();
    const matchId = o.matchId ?? crypto.randomUUID();
    const job = newJob({
      matchId,
      game: game.id,
      seed,
      config: o.config,
      seats: bots.map((b) => ({ bot: b.endpoint, name: b.name })),
      timeouts: { ...this.opts.timeouts },
      transcripts: true,
    });
    const row = await this.store.createMatch({ id: matchId, game: game.id, kind: o.kind, rated: o.rated, seed, config: o.config, job, seats: bots.map((b) => b.id || { botId: null, name: b.name }) });
    // A person's seat is a desk this server holds: that match is played here, whatever the queue.
    const queue = this.persons.get(matchId)?.size ? this.here : this.queue;
    // If the queue is away (Redis), the match stays queued in the store and the reconciler enqueues it when it is back.
    await queue.enqueue(matchId).catch((err: unknown) => this.log.warn({ match: matchId, err }, `the match could not be enqueued now (${(err as Error).message}); it will be when the queue is reachable`));
    return row;
  }

  /** A match played here is over (recorded, or not played): its people are told, and the ladder looks again. */
  private matchSettled(matchId: string, outcome: { replay: Replay } | { reason: string }): void {
    if ('replay' in outcome) this.endPersons(matchId, { reason: 'the match is over', result: resultLine(outcome.replay) });
    else this.endPersons(matchId, { reason: `the match was stopped: ${outcome.reason}` });
    if (this.opts.ladder && !this.stopping) this.scheduleLadder(0);
  }

  /** The seat of a person of this match, opened from its desk (undefined for a bot's seat). */
  private personConnection(matchId: string, slot: number): SeatConnection | undefined {
    const seat = this.persons.get(matchId)?.get(slot);
    if (!seat) return undefined;
    const limits = this.opts.person;
    // The runner hands an in-process seat its whole SeatContext (the game, the config) beside the byte limits.
    return { open: (ctx) => new BrowserTransport(ctx as SeatContext, seat.desk, limits) };
  }

  /** Tells the people of a match it is over (once), and forgets their seats. */
  private endPersons(matchId: string, info: { reason: string; result?: unknown }): void {
    for (const seat of this.persons.get(matchId)?.values() ?? []) seat.desk.end(info);
    this.persons.delete(matchId);
  }

  // ——— the ladder ———

  /**
   * Fills the ladder in `delayMs` (sooner if asked sooner). One fill at a time: two at once could both see a
   * bot free and give it more matches than its capacity. A call during a fill makes it look again when done.
   */
  private scheduleLadder(delayMs: number): void {
    if (this.stopping) return;
    if (this.filling) {
      this.refill = true;
      return;
    }
    const due = Date.now() + delayMs;
    if (this.ladderTimer) {
      if (due >= this.ladderDue) return;
      clearTimeout(this.ladderTimer);
    }
    this.ladderDue = due;
    this.ladderTimer = setTimeout(() => {
      this.ladderTimer = null;
      this.ladderDue = Infinity;
      this.filling = true;
      let next: number | null = null;
      this.fillRun = this.fillLadder()
        .then(
          (delay) => void (next = delay),
          (err: unknown) => {
            this.log.error({ err }, 'the ladder failed to start a match; trying again in 5 s');
            next = 5000;
          },
        )
        .finally(() => {
          this.filling = false;
          const again = this.refill;
          this.refill = false;
          this.fillRun = null;
          if (again) this.scheduleLadder(0);
          else if (next !== null) this.scheduleLadder(next);
        });
    }, delayMs);
    this.ladderTimer.unref();
  }

  private ladderDue = Infinity;
  private filling = false;
  /** the fill under way: stop() waits for it, so a match it created is enqueued (or started) before the store closes */
  private fillRun: Promise<void> | null = null;
  private refill = false;

  /**
   * Starts ladder matches until `concurrency` run, or no game has bots free to play. Returns when to look
   * again (null: when a match ends).
   */
  private async fillLadder(): Promise<number | null> {
    // With a shared queue, several servers may run: one leads the ladder at a time (another takes over if it dies).
    if (!(await this.queue.lead(this.node, 15_000))) return 5000;
    const gameIds = Object.keys(games).filter((g) => !LADDER_GAMES_SKIP.has(g));
    let idleGames = 0;
    let turn = 0;
    while (!this.stopping && (await this.busy()) < this.opts.concurrency && idleGames < gameIds.length) {
      // Games in turn, starting from the one after the last served, so a game with few bots is not starved.
      const game = getGame(gameIds[(this.nextGame + turn++) % gameIds.length]!);
      const seats = await this.ladderSeats(game);
      if (!seats) {
        idleGames++;
        continue;
      }
      idleGames = 0;
      this.nextGame = (gameIds.indexOf(game.id) + 1) % gameIds.length;
      const rng = this.rng(game.id);
      await this.launch(game, seats, { kind: 'ladder', rated: true, seed: ladderMatchSeed(rng), config: this.opts.ladderConfig?.[game.id] ?? {} });
    }
    // With a shared queue, matches ending on workers wake the ladder through the feed; it also looks every
    // second (a worker's end event lost while Redis was away, a lead to renew).
    if (this.queue.shared) return 1000;
    return (await this.busy()) < this.opts.concurrency ? 2000 : null;
  }

  private nextGame = 0;

  /**
   * Matches that use the machines: those queued or running (every worker's, with a shared queue), less the
   * persons' (a match with a person mostly waits for them, so it leaves the ladder its place).
   */
  private async busy(): Promise<number> {
    const [queued, running] = await Promise.all([this.store.countMatches({ status: 'queued' }), this.store.countMatches({ status: 'running' })]);
    return queued + running - this.persons.size;
  }

  private rng(game: string) {
    let r = this.rngs.get(game);
    if (!r) this.rngs.set(game, (r = ladderRng(randomSeed())));
    return r;
  }

  /** The bots of the next ladder match of a game, or null when too few may play. */
  private async ladderSeats(game: AnyGame): Promise<BotRow[] | null> {
    const active = await this.store.listBots({ game: game.id, status: 'active' });
    // Built-in bots play only when a registered bot needs opponents, so a ladder of built-ins alone never spins.
    if (!active.some((b) => !b.builtin)) return null;
    const ratings = new Map((await this.store.ratingsFor(game.id, 'elo')).map((r) => [r.botId, r.rating]));
    // The pace: at most `limit` an hour, and at most `burst` in any window of `burst` matches' worth of it,
    // so a bot's games are spread over the hour instead of played flat out and then none for the rest of it.
    const limit = this.opts.perBotPerHour ?? 60;
    const burst = Math.max(1, Math.min(this.opts.ladderBurst ?? 5, limit));
    const now = Date.now();
    const recent = await this.store.recentMatchCounts(game.id, now - 3_600_000);
    const lately = burst < limit ? await this.store.recentMatchCounts(game.id, now - (3_600_000 * burst) / limit) : recent;
    // A bot's matches queued or under way count against its capacity (every worker's, with a shared queue).
    const busy = await this.store.activeMatchCounts();
    const ladderBots: LadderBot[] = active
      .filter((b) => !isPersonBot(b))
      .filter((b) => b.builtin || ((recent.get(b.id) ?? 0) < limit && (lately.get(b.id) ?? 0) < burst))
      .map((b) => ({ id: b.id, rating: ratings.get(b.id) ?? 1500, recent: (recent.get(b.id) ?? 0) + (b.builtin ? 1e6 : 0), running: busy.get(b.id) ?? 0, capacity: b.builtin ? 1000 : b.capacity }));
    const picked = pickMatch(ladderBots, game.players, this.rng(game.id));
    // A match of built-in bots alone teaches the ladder nothing: wait until a registered bot is free.
    if (!picked || picked.every((id) => active.find((b) => b.id === id)!.builtin)) return null;
    const byId = new Map(active.map((b) => [b.id, b]));
    return picked.map((id) => byId.get(id)!);
  }

  // ——— checks ———

  private game(id: string): AnyGame {
    const g = games[id];
    if (!g) throw badRequest(`no game "${id}"; the games are ${Object.keys(games).join(', ')}`);
    return g;
  }

  /** Whether an endpoint may be registered here: a bot spec of this game, commands only when allowed. */
  private async checkEndpoint(game: AnyGame, endpoint: string): Promise<void> {
    let spec;
    try {
      spec = parseBotSpec(endpoint, game);
    } catch (err) {
      throw badRequest(`endpoint: ${err instanceof Error ? err.message : String(err)}`);
    }
    const kind = spec.transport;
    if (runsCommand(spec) && !this.opts.allowCommands) throw forbidden('endpoint: this server runs no commands for bots (stdio:, exec:); give an http(s):// URL, or ask the operator to start the server with --allow-commands');
    if (kind === 'builtin') throw badRequest(`endpoint: "${endpoint}" is a built-in bot, registered already; give your bot's http(s):// URL`);
    if (kind === 'tcp') throw badRequest('endpoint: tcp bots connect in: join the smart-dog gateway instead of registering a URL');
    if (kind === 'human' || kind === 'browser') throw badRequest(`endpoint: people play from the web page (seat "${PERSON}" of a test match), not through a registered bot`);
    if (kind === 'http' && !this.opts.allowPrivateBots) {
      let problem: string | null;
      try {
        problem = await urlRefusal(spec.url);
      } catch (err) {
        const code = (err as NodeJS.ErrnoException).code;
        throw badRequest(`endpoint: the name ${new URL(spec.url).hostname} cannot be resolved (${code ?? (err as Error).message}); give a URL whose host name resolves, or an IP address`);
      }
      if (problem) throw forbidden(`endpoint: ${problem}; this server only calls public addresses`);
    }
  }
}
