import type { FastifyBaseLogger } from 'fastify';
import { newJob, randomSeed, type JobTimeouts } from '../arena/match-job.js';
import { timeRulesFor } from '../arena/time-rules.js';
import { configProblem } from '../core/config-check.js';
import { resolveConfig } from '../core/config.js';
import type { AnyGame } from '../core/game.js';
import { ApiError, badRequest, conflict, forbidden } from '../core/request-errors.js';
import type { MatchQueue } from '../queue/port.js';
import { isPersonBot, PERSON } from '../registry/builtins.js';
import { checkEndpoint, isLinkEndpoint, requireGame, type EndpointPolicy } from '../registry/endpoints.js';
import type { BotRow, MatchKind, MatchRow, MatchSeatRow, Store } from '../store/index.js';
import { guestBot, isBotUrl } from './guest.js';
import type { PersonSeats } from './persons.js';
import { AddressQuota, DEFAULT_ON_DEMAND_LIMITS, defaultOnDemandConcurrency, OnDemandGate, TryLater, type OnDemandLimits } from './quota.js';
import { ViewerTokens } from './viewers.js';

/** A match request from the API. */
export interface MatchRequest {
  game: string;
  /** bot ids or names (of this game), or built-in bot names, by seat */
  seats: string[];
  /** a rated match: the admin's request only (the ladder makes its own) */
  rated?: boolean;
  kind?: MatchKind;
  seed?: number;
  config?: Record<string, unknown>;
  /** whether it was asked with the admin token (the operator's: no quota, queue limit or work cap) */
  admin?: boolean;
  /** the client address it came from (its quota); none: not counted (a caller that is not a client) */
  address?: string;
}

/** How matches are made here. */
export interface MatchesOptions extends EndpointPolicy {
  /** deadlines of ladder and on-demand matches (default: each game's) */
  timeouts?: JobTimeouts;
  /** the port of the smart-dog gateway this server runs (null: none), named when an on-demand smart-dog match is refused */
  gatewayPort?: number | null;
  /** the server's --concurrency: the places on-demand matches take a share of (default 2) */
  concurrency?: number;
  /** whether the ladder plays (default true): it keeps a place of its own unless the operator says otherwise */
  ladder?: boolean;
  /** limits on on-demand and test matches (quota.ts; each has its default) */
  onDemand?: Partial<OnDemandLimits>;
  /** whether a bot is linked to this server now (`botarena connect`): its matches are played here, and only while it is */
  isLinked?: (botId: string) => boolean;
}

/** What a match is launched with besides its game and bots. */
export interface LaunchOptions {
  matchId?: string;
  kind: MatchKind;
  rated: boolean;
  seed?: number;
  config: Record<string, unknown>;
}

/**
 * Making matches: a request from the API checked seat by seat (registered bots, built-in bots, a bot's URL
 * or a person in a test match), then launched: its job and its row written to the store (queued), and
 * handed to the queue. A match with a person's seat goes to `here` (this process's own queue: the person's
 * desk is here); every other to `queue` (the same one, or BullMQ's workers).
 */
export class Matches {
  /** who started each test match reads its logs with these */
  readonly viewers = new ViewerTokens();
  /** the limits on on-demand and test matches, each resolved */
  readonly limits: OnDemandLimits;
  /** on-demand and test matches of each client address not over yet */
  readonly quota: AddressQuota;
  /** on-demand and test matches past their share of --concurrency wait here */
  readonly gate: OnDemandGate;
  /** requests past the queue-depth check whose match is not created yet */
  private creating = 0;
  /** the matches not over yet that seat a bot linked to this server (`connect:`): played here, whatever the queue */
  private readonly linked = new Set<string>();

  constructor(
    private readonly store: Store,
    private readonly queue: MatchQueue,
    private readonly here: MatchQueue,
    private readonly persons: PersonSeats,
    private readonly opts: MatchesOptions,
    private readonly log: FastifyBaseLogger,
  ) {
    const concurrency = opts.concurrency ?? 2;
    const o = opts.onDemand ?? {};
    this.limits = {
      perAddress: o.perAddress ?? DEFAULT_ON_DEMAND_LIMITS.perAddress,
      maxQueued: o.maxQueued ?? DEFAULT_ON_DEMAND_LIMITS.maxQueued,
      maxWork: o.maxWork ?? DEFAULT_ON_DEMAND_LIMITS.maxWork,
      concurrency: o.concurrency ?? defaultOnDemandConcurrency(concurrency, opts.ladder ?? true),
    };
    const isOver = async (matchId: string) => {
      const m = await store.getMatch(matchId);
      return !m || (m.status !== 'queued' && m.status !== 'running');
    };
    this.quota = new AddressQuota(this.limits.perAddress, isOver);
    this.gate = new OnDemandGate({
      share: this.limits.concurrency,
      concurrency,
      enqueue: (matchId) => (this.linked.has(matchId) ? this.here : this.queue).enqueue(matchId),
      isOver,
      warn: (matchId, message) => this.log.warn({ match: matchId }, message),
    });
  }

  /**
   * A match is over, whichever way (recorded, aborted, not played): its place in its address's quota and in the
   * on-demand share is free. The server calls it from the match handler's `settled` and from the feed's
   * `ended`/`stopped` (a worker's matches); an id that holds no place is ignored.
   */
  /**
   * Hands to the queue a match made elsewhere in the store (a contest's final), by the bot specs of its seats:
   * one that seats a bot linked to this server (`connect:`) is held and played here, where its link is, as a
   * launched one; any other goes to the queue. Rejects as the queue does (the match then stays queued in the store).
   */
  enqueueMade(matchId: string, bots: readonly string[]): Promise<void> {
    if (!bots.some((b) => isLinkEndpoint(b))) return this.queue.enqueue(matchId);
    this.linked.add(matchId);
    return this.here.enqueue(matchId);
  }

  ended(matchId: string): void {
    this.linked.delete(matchId);
    this.quota.ended(matchId);
    this.gate.ended(matchId);
  }

  /** Queued and running matches that leave the ladder its place (the gate's: see OnDemandGate.leavesLadder). */
  leavesLadder(): number {
    return this.gate.leavesLadder;
  }

  /**
   * Whether this server holds a match not over yet that a reconciler must leave alone: an on-demand one waiting
   * for its share (queued in the store, not in the queue), or one of a bot linked here (queued in this server's own queue).
   */
  holds(matchId: string): boolean {
    return this.gate.holds(matchId) || this.linked.has(matchId);
  }

  /**
   * Hands a match an earlier run left queued to the queue again: an on-demand or test match through the gate
   * (its share of --concurrency), any other straight to the queue.
   */
  async resume(m: Pick<MatchRow, 'id' | 'kind'>): Promise<void> {
    if (m.kind === 'challenge' || m.kind === 'test') this.gate.add(m.id);
    else await this.queue.enqueue(m.id);
  }

  /**
   * Starts an on-demand or test match between chosen bots, and people (seat "person", test matches only);
   * resolves with its row once it is queued, and each person seat's token (shown once).
   */
  async request(req: MatchRequest): Promise<{ match: MatchRow; persons: { slot: number; token: string }[]; viewerToken: string | null }> {
    const game = requireGame(req.game);
    const personSlots = req.seats.flatMap((s, slot) => (s === PERSON ? [slot] : []));
    if (personSlots.length && (req.kind !== 'test' || req.rated)) {
      throw badRequest(`seats[${personSlots[0]}]: a person plays test matches only: give "test": true (a person's matches are never rated)`);
    }
    // Ratings move by the ladder's matches, which it picks itself; a match someone chose the bots of would let anyone move anyone's rating.
    if (req.rated && !req.admin) {
      throw forbidden(
        'rated: rated matches are played by the ladder only (or asked for with the admin token); a match asked for here is never rated: leave "rated" out, or give "rated": false',
      );
    }
    // Smart-dog bots connect in to the gateway; a test match of built-in bots and people is played here.
    const builtinsOnly = req.kind === 'test' && req.seats.every((s) => s === PERSON || Object.hasOwn(game.bots, s));
    if (game.wire.lobby && !builtinsOnly) {
      const where =
        this.opts.gatewayPort != null
          ? `the gateway on port ${this.opts.gatewayPort}`
          : 'a smart-dog gateway (this server runs none: it was started with --no-gateway)';
      throw badRequest(
        `smartdog matches are not started on demand: smart-dog bots connect in over TCP to ${where} ("join NAME HUB") and play when their hub fills`,
      );
    }
    if (req.seats.length < game.players.min || req.seats.length > game.players.max) {
      throw badRequest(
        `${game.id} is played by ${game.players.min === game.players.max ? game.players.min : `${game.players.min} to ${game.players.max}`} bots; got ${req.seats.length} seats`,
      );
    }
    checkConfig(game, req.config ?? {}, req.seats.length);
    // The operator (the admin token) is trusted with the machines; anyone else asks within the limits.
    if (!req.admin) checkWork(game, req.config ?? {}, req.seats.length, this.limits.maxWork);
    const ticket = req.admin || req.address === undefined ? null : await this.quota.take(req.address);
    let creating = false;
    const matchId = crypto.randomUUID();
    try {
      if (!req.admin) {
        await this.checkQueueDepth();
        this.creating++;
        creating = true;
      }
      const bots: BotRow[] = [];
      for (const [i, s] of req.seats.entries()) bots.push(await this.seat(game, req, i, s));
      const persons = this.persons.open(matchId, personSlots);
      try {
        const match = await this.launch(game, bots, {
          matchId,
          kind: req.kind ?? 'challenge',
          rated: req.rated ?? false,
          seed: req.seed,
          config: req.config ?? {},
        });
        ticket?.bind(matchId);
        return { match, persons, viewerToken: req.kind === 'test' ? this.viewers.issue(matchId) : null };
      } catch (err) {
        this.persons.end(matchId, { reason: 'the match could not be started' });
        throw err;
      }
    } finally {
      if (creating) this.creating--;
      // Bound above once the match exists; a request refused or failed before frees its place here.
      ticket?.cancel();
    }
  }

  /**
   * On-demand and test matches queued and not yet started, in all (the store's, every server's), and the
   * requests creating one now: past `maxQueued`, a 503 saying when to try again.
   */
  private async checkQueueDepth(): Promise<void> {
    const [challenges, tests] = await Promise.all([
      this.store.countMatches({ status: 'queued', kind: 'challenge' }),
      this.store.countMatches({ status: 'queued', kind: 'test' }),
    ]);
    const queued = challenges + tests + this.creating;
    if (queued >= this.limits.maxQueued) {
      throw new TryLater(
        503,
        'queue-full',
        `the server has ${queued} on-demand and test matches queued and not yet started, the most it keeps waiting (--max-queued ${this.limits.maxQueued}); try again in 10 s, when some have started`,
        10,
      );
    }
  }

  /**
   * Whether `token` is the viewer token of test match `matchId` and reads `seat`'s log: a seat that is nobody's
   * registered bot (a bot given by its URL, a built-in bot, a person). A registered bot's log is its owner's
   * (and the admin's), whoever started the match: a test match may seat another owner's bot, not read its messages.
   */
  async viewerReads(matchId: string, seat: Pick<MatchSeatRow, 'botId'>, token: string | undefined): Promise<'yes' | 'not-viewer' | 'registered-bot'> {
    if (!this.viewers.check(matchId, token)) return 'not-viewer';
    if (!seat.botId) return 'yes';
    const bot = await this.store.getBot(seat.botId);
    return bot?.builtin ? 'yes' : 'registered-bot';
  }

  /** The bot of seat `i` of a request: a registered or built-in bot of the game, a bot's URL or a person (test matches). */
  private async seat(game: AnyGame, req: MatchRequest, i: number, s: string): Promise<BotRow> {
    if (isBotUrl(s)) {
      if (req.kind !== 'test')
        throw badRequest(`seats[${i}]: a bot given by its URL plays test matches only ("test": true); register it to play other matches`);
      await checkEndpoint(game, s, this.opts).catch((err: unknown) => {
        if (err instanceof ApiError) throw new ApiError(err.status, err.code, err.message.replace(/^endpoint:/, `seats[${i}]:`));
        throw err;
      });
      return guestBot(game.id, s);
    }
    const bot = (await this.store.getBot(s)) ?? (await this.store.getBotByName(game.id, s));
    if (!bot || bot.status === 'deleted' || bot.game !== game.id)
      throw badRequest(
        `seats[${i}]: no ${game.id} bot "${s}" (give a bot id or name of this game; the built-in bots are ${Object.keys(game.bots).join(', ')})`,
      );
    if (s === PERSON && !isPersonBot(bot))
      throw conflict(`seats[${i}]: "${PERSON}" is a registered ${game.id} bot on this server, so a person cannot take a seat in ${game.id} here`);
    if (isPersonBot(bot) && s !== PERSON) throw badRequest(`seats[${i}]: a person's seat is named "${PERSON}", not by its bot id`);
    // A paused bot is out of play until it is active again: nobody makes it play a match its owner (or its failed check) stopped.
    if (bot.status === 'paused')
      throw conflict(
        `seats[${i}]: ${bot.name} is paused${bot.statusReason ? ` (${bot.statusReason})` : ''}: a paused bot plays no match until its owner makes it active again (PATCH /api/bots/${bot.id} {"status":"active"})${isBotUrl(bot.endpoint) ? '; to try it meanwhile, seat its URL in a test match' : ''}`,
      );
    if (isLinkEndpoint(bot.endpoint) && (bot.status === 'away' || !this.opts.isLinked?.(bot.id)))
      throw conflict(
        `seats[${i}]: ${bot.name} is away: it is a bot its author links from their own machine (\`botarena connect\`), and it is not linked to this server now; it plays once it is`,
      );
    if (isLinkEndpoint(bot.endpoint)) {
      // Its author's side runs at most its capacity at once: a match past it would be refused there.
      const busy = (await this.store.activeMatchCounts()).get(bot.id) ?? 0;
      if (busy >= bot.capacity)
        throw conflict(
          `seats[${i}]: ${bot.name} plays ${busy} matches now, its capacity (${bot.capacity}) over its link from its author's machine; try again when one has ended`,
        );
    }
    if (req.rated && bot.status !== 'active')
      throw conflict(`seats[${i}]: ${bot.name} is ${bot.status}${bot.statusReason ? ` (${bot.statusReason})` : ''}: it plays rated matches once active`);
    return bot;
  }

  /** Writes a match (queued) with its job to the store and hands it to the queue; resolves with its row. */
  async launch(game: AnyGame, bots: BotRow[], o: LaunchOptions): Promise<MatchRow> {
    const seed = o.seed ?? randomSeed();
    const matchId = o.matchId ?? crypto.randomUUID();
    const job = newJob({
      matchId,
      game: game.id,
      seed,
      config: o.config,
      seats: bots.map((b) => ({ bot: b.endpoint, name: b.name })),
      timeouts: timeRulesFor(game, this.opts.timeouts ?? {}),
      transcripts: true,
    });
    const row = await this.store.createMatch({
      id: matchId,
      game: game.id,
      kind: o.kind,
      rated: o.rated,
      seed,
      config: o.config,
      job,
      seats: bots.map((b) => b.id || { botId: null, name: b.name }),
    });
    // A person's seat is a desk this process holds: that match is played here, whatever the queue (outside
    // --concurrency: it has threads of its own). So is a match of a bot linked to this server (`connect:`: its
    // link is here), within --concurrency. Another on-demand or test match takes its share of the places
    // through the gate; the ladder's (and the gateway's) go straight to the queue.
    if (bots.some((b) => isLinkEndpoint(b.endpoint))) this.linked.add(matchId);
    if (!this.persons.has(matchId) && (o.kind === 'challenge' || o.kind === 'test')) {
      this.gate.add(matchId);
      return row;
    }
    const queue = this.persons.has(matchId) || this.linked.has(matchId) ? this.here : this.queue;
    // If the queue is away (Redis), the match stays queued in the store and the reconciler enqueues it when it is back.
    await queue
      .enqueue(matchId)
      .catch((err: unknown) =>
        this.log.warn({ match: matchId, err }, `the match could not be enqueued now (${(err as Error).message}); it will be when the queue is reachable`),
      );
    return row;
  }
}

/**
 * A match request's configuration, checked as `botarena play --set` checks it, before any match is created: a bad
 * one is a 400 naming the key and what it expects (`configProblem`, which the web app's settings form runs too),
 * not a match aborted later.
 */
export function checkConfig(game: AnyGame, config: Record<string, unknown>, players: number): void {
  const problem = configProblem(game, config, players);
  if (problem) throw badRequest(problem);
}

/**
 * The work one match would ask of the machines, as its game counts it (`rules.work`: cell-answers, the answers
 * the match may ask for times the board cells each involves), within `limit` (the server's --max-match-work), or
 * a 400 naming the config, its work, the limit and the option. A game that does not count its work is not
 * capped. Run after checkConfig: the config is valid.
 */
export function checkWork(game: AnyGame, config: Record<string, unknown>, players: number, limit: number): void {
  if (!game.rules.work) return;
  let work: number;
  try {
    work = game.rules.work(resolveConfig(game.id, game.config, config) as never, players);
  } catch (err) {
    throw badRequest(`config: ${err instanceof Error ? err.message : String(err)}`);
  }
  if (!(work <= limit)) {
    const given = Object.entries(config)
      .filter(([, v]) => typeof v === 'number' || typeof v === 'boolean' || (typeof v === 'string' && v.length <= 20 && !v.includes('\n')))
      .map(([k, v]) => `${k} ${String(v)}`);
    let usual = '';
    try {
      usual = ` (${game.id}'s default config is ${fmtWork(game.rules.work(resolveConfig(game.id, game.config, {}) as never, players))})`;
    } catch {
      // the default config does not fit this many bots: nothing to compare with
    }
    throw badRequest(
      `config: this ${game.id} match is too big for this server: ${players} bots${given.length ? ` with ${given.join(', ')}` : ''} is ${fmtWork(work)} of work (cell-answers: the answers a match may ask for × the board cells each involves), over the ${fmtWork(limit)} one match may ask for here (--max-match-work ${limit}); ask for a smaller board, fewer turns or fewer bots${usual}`,
    );
  }
}

/** A work figure as people read it: 1.2e8. */
function fmtWork(n: number): string {
  return n < 1e5 ? String(n) : n.toExponential(1).replace('e+', 'e');
}
