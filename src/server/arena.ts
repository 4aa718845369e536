import type { FastifyBaseLogger } from 'fastify';
import { MatchPool } from '../arena/match-pool.js';
import type { JobTimeouts } from '../arena/match-job.js';
import type { PersonLimits, SandboxOptions } from '../bots/index.js';
import { resultLine } from '../core/replay.js';
import { ContestRunner } from '../contests/runner.js';
import { Contests, isContestMatchId } from '../contests/service.js';
import { LadderScheduler } from '../ladder/scheduler.js';
import type { LiveEvent, LiveEvents } from '../live/events.js';
import { FEED, withFeed } from '../live/feed.js';
import { followFeed, followMatch, type FollowedMatch } from '../live/follow.js';
import { matchHandler, type MatchObserver, type Settled } from '../matches/handler.js';
import { EndsInStore } from '../matches/ended.js';
import { Matches } from '../matches/launch.js';
import type { OnDemandLimits } from '../matches/quota.js';
import { PersonSeats } from '../matches/persons.js';
import { BotLinks, type LinkLimits } from '../matches/links.js';
import { isLinkEndpoint } from '../registry/endpoints.js';
import { AWAY_REASON } from '../registry/registry.js';
import type { BotRow } from '../store/index.js';
import { QueueUpkeep, recoverOwnQueue } from '../matches/reconcile.js';
import type { ViewerTokens } from '../matches/viewers.js';
import { LocalMatchQueue } from '../queue/local.js';
import type { MatchQueue } from '../queue/port.js';
import { ensureBuiltins } from '../registry/builtins.js';
import { BotRegistry, type RegistryUploads } from '../registry/registry.js';
import type { Store } from '../store/index.js';
import { nodeName } from '../matches/node-name.js';

// The server's composition root: the application services (src/registry/, src/matches/, src/ladder/,
// src/live/) wired to the store, the live events and the queue, for the routes to call. The logic is in them.

/** Persons' matches played at once in their own match threads; more wait for a thread. */
const PERSON_THREADS = 8;

/** How the server runs: what it lets bots be, how many matches at once, who the admin is. */
export interface ArenaOptions {
  /** matches played at once, ladder, on-demand and test alike (default 2); a person's match is not counted */
  concurrency: number;
  /** whether bots may be commands (stdio:, exec:) on this machine: only when the operator says so */
  allowCommands: boolean;
  /** whether HTTP bots may be at loopback, private or link-local addresses */
  allowPrivateBots: boolean;
  /**
   * variables the operator passes to the bot programs' environment (`--bot-env`): they get only these and an
   * allow-list (PATH, LANG, LC_*, TZ, TMPDIR), never the server's environment, and a private HOME each
   */
  botEnv?: Record<string, string>;
  /**
   * how bot programs (stdio:, exec:, with allowCommands) are confined (`--sandbox*`; on by default with
   * --allow-commands unless --unsandboxed-commands): the doctor's checks, the ladder's and on-demand matches alike
   */
  sandbox?: SandboxOptions;
  /** the admin token (BOTARENA_ADMIN_TOKEN): may do everything an owner may, to every bot */
  adminToken?: string;
  /** whether the ladder plays by itself (default true) */
  ladder: boolean;
  /** limits on on-demand and test matches: per client address, queued in all, one match's work, their share of `concurrency` */
  onDemand?: Partial<OnDemandLimits>;
  /** deadlines of ladder and on-demand matches (default: each game's) */
  timeouts?: JobTimeouts;
  /** per-game config of ladder matches (e.g. a smaller Tron board) */
  ladderConfig?: Record<string, Record<string, unknown>>;
  /** the most ladder matches per bot per hour (default 60); they are spread over the hour (see `ladderBurst`) */
  perBotPerHour?: number;
  /** ladder matches a bot may play back to back before the pace applies (default 5) */
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
  /** told of the matches played in this process (the server's metrics) */
  observe?: MatchObserver;
  /** uploaded code (`--uploads`): its cache here (its languages) and the caps on an upload; none: no uploads */
  uploads?: RegistryUploads;
  /** the bounds of the links of bots connected from their authors' machines (`botarena connect`; matches/links.ts) */
  links?: Partial<LinkLimits>;
  /** how often the contests' runner looks at the contests when no match end wakes it, ms (default 1000) */
  contestEveryMs?: number;
}

/**
 * The arena a server runs, composed: the bot registry (`bots`), making matches (`matches`), the person
 * seats (`persons`), following live matches (`follow`), the ladder, and the queues. Every match goes through
 * a queue: this process's own (a bounded LocalMatchQueue whose handler plays in a pool of match threads), or
 * a shared one (BullMQ's workers) with this process's own for the persons' matches. `start` recovers what an
 * earlier run left, `stop` lets matches end within a grace.
 */
export class Arena {
  /** this server process's name (the store's `worker` of the matches it plays itself) */
  readonly node: string;
  readonly bots: BotRegistry;
  readonly matches: Matches;
  readonly persons: PersonSeats;
  /** the bots linked to this server from their authors' machines (`botarena connect`) */
  readonly links: BotLinks;
  /** the bots' status changes as their links come and go, one after the other */
  private linkStatus: Promise<void> = Promise.resolve();
  /** following the live matches from their start, as the SSE routes do */
  readonly follow: {
    feed: (send: (e: LiveEvent) => void) => Promise<() => void>;
    match: (matchId: string, send: (e: LiveEvent) => void, opts?: { waitForStart?: boolean }) => Promise<FollowedMatch | null>;
  };
  private readonly ladder: LadderScheduler | null;
  /** contests: entries, the freeze, the final's matches, results and archives (src/contests/) */
  readonly contests: Contests;
  private readonly contestRunner: ContestRunner;
  /** the live events with the global feed: what the matches played here publish to */
  private readonly publish: LiveEvents;
  /** where every match goes */
  private readonly queue: MatchQueue;
  /** the matches played in this process: the queue itself, or (with a shared queue) the persons' matches */
  private readonly here: LocalMatchQueue;
  /** the match threads the matches played here run in */
  private readonly pool: MatchPool;
  /** the match threads of the persons' matches */
  private readonly personPool: MatchPool;
  private upkeep: QueueUpkeep | null = null;
  private unfeed: (() => void) | null = null;
  private stopping = false;

  constructor(
    readonly store: Store,
    readonly live: LiveEvents,
    readonly opts: ArenaOptions,
    private readonly log: FastifyBaseLogger,
  ) {
    this.publish = withFeed(live);
    this.node = opts.node ?? nodeName('server');
    const addressPolicy = opts.allowPrivateBots ? 'any' : 'public-only';
    // Bot programs are other people's: a HOME of their own each, not the server's.
    const botEnv = { pass: opts.botEnv, home: 'private' } as const;
    this.persons = new PersonSeats();
    this.links = new BotLinks(
      opts.links,
      (bot, connected, why) => this.linkChanged(bot, connected, why),
      async (botId) => {
        const b = await store.getBot(botId);
        if (!b || b.status === 'deleted') return 'the bot was deleted';
        return isLinkEndpoint(b.endpoint) ? null : `the bot's endpoint is ${JSON.stringify(b.endpoint.split(' ')[0])} now, not "connect:"`;
      },
    );
    // Threads start when a match first needs one: a server whose matches all play on workers starts none.
    // Uploaded code runs from this process's cache, always in the sandbox (upload-transport.ts).
    const uploads = opts.uploads?.cache.runOptions();
    this.pool = new MatchPool(opts.concurrency, { addressPolicy, botEnv, sandbox: opts.sandbox, uploads }, undefined, true);
    // A person's match is outside --concurrency (it mostly waits for the person): it gets threads of its own.
    this.personPool = new MatchPool(PERSON_THREADS, { addressPolicy, botEnv, sandbox: opts.sandbox, uploads }, undefined, true);
    const handler = matchHandler({
      store,
      live: this.publish,
      log,
      node: this.node,
      addressPolicy,
      botEnv: opts.botEnv,
      sandbox: opts.sandbox,
      uploads: opts.uploads?.cache,
      maxTries: 3,
      cancelled: 'abort',
      pool: this.pool,
      persons: { port: (matchId, slot) => this.persons.port(matchId, slot), limits: opts.person, pool: this.personPool },
      links: { open: (matchId, slot, bot, seat) => this.links.open(matchId, slot, bot, seat) },
      settled: (matchId, outcome) => this.settled(matchId, outcome),
      observe: opts.observe,
    });
    this.here = new LocalMatchQueue({ handler, concurrency: opts.concurrency, node: this.node, unbounded: (matchId) => this.persons.has(matchId) });
    this.queue = opts.queue ?? this.here;
    const policy = { allowCommands: opts.allowCommands, allowPrivateBots: opts.allowPrivateBots };
    const isLinked = (botId: string) => this.links.connected(botId);
    this.bots = new BotRegistry(
      store,
      { ...policy, isLinked, adminToken: opts.adminToken, checkBots: opts.checkBots, botEnv: opts.botEnv, sandbox: opts.sandbox, uploads: opts.uploads },
      log,
    );
    this.matches = new Matches(
      store,
      this.queue,
      this.here,
      this.persons,
      {
        ...policy,
        isLinked,
        timeouts: opts.timeouts,
        gatewayPort: opts.gatewayPort,
        concurrency: opts.concurrency,
        ladder: opts.ladder,
        onDemand: opts.onDemand,
      },
      log,
    );
    this.ladder = opts.ladder
      ? new LadderScheduler(
          {
            store,
            queue: this.queue,
            node: this.node,
            log,
            launch: (game, bots, o) => this.matches.launch(game, bots, o),
            leavesPlace: () => this.persons.size + this.matches.leavesLadder(),
            // A bot linked from its author's machine plays while it is linked to this server (its link is here).
            available: (b) => !isLinkEndpoint(b.endpoint) || this.links.connected(b.id),
          },
          opts,
        )
      : null;
    // A contest's final goes straight to the queue (like the ladder's matches), and takes places from the ladder;
    // a match seating a bot linked to this server (`connect:`) to this server's own queue (Matches.enqueueMade).
    this.contests = new Contests({
      store,
      log,
      enqueue: (matchId, bots) => this.matches.enqueueMade(matchId, bots),
      // A URL entrant's version at the freeze: the doctor's report of it then.
      doctor: (bot) => this.bots.check(bot.id),
    });
    this.contestRunner = new ContestRunner(this.contests, { everyMs: opts.contestEveryMs, log });
    const running = async () => (await store.listMatches({ status: 'running', limit: 100 })).items.map((m) => m.id);
    // A viewer whose live events lost the match's end (a Redis restart) learns it from the store.
    const ends = new EndsInStore(store);
    this.follow = {
      feed: (send) => followFeed(live, running, send),
      match: (matchId, send, opts) => followMatch(live, matchId, send, { ...opts, overInStore: () => ends.of(matchId) }),
    };
  }

  /** Who started each test match reads its logs with these. */
  get viewers(): ViewerTokens {
    return this.matches.viewers;
  }

  /**
   * Registers the built-in bots and starts the ladder. With its own queue, it first aborts what an earlier run
   * left running and plays again what it left queued; with a shared queue the workers may be playing those, so
   * the reconciler looks after them instead.
   */
  async start(): Promise<void> {
    if (this.queue.shared) {
      if (!(await this.queue.ready()))
        this.log.warn(`the queue's Redis (${this.queue.describe()}) is not reachable yet; matches wait in the database until it is`);
      // A match ending on a worker frees its on-demand places and wakes the ladder (there is no match ending in this process to do it).
      this.unfeed = this.live.subscribe(FEED, 'public', (e) => {
        if (e.type === 'ended' || e.type === 'stopped') {
          this.matches.ended(e.matchId);
          this.ladder?.wake();
          if (isContestMatchId(e.matchId)) this.contestRunner.wake();
        }
      });
      this.upkeep = new QueueUpkeep(
        { store: this.store, queue: this.queue, here: this.here, held: (matchId) => this.matches.holds(matchId), live: this.publish, log: this.log },
        this.node,
        this.opts.reconcileMs,
      );
      await this.upkeep.start();
    } else {
      await recoverOwnQueue(this.store, this.queue, this.log, (m) => this.matches.resume(m));
      // Alone on its store, this server held every link there was: none is there now.
      for (const status of ['active', 'checking'] as const)
        for (const b of await this.store.listBots({ status, limit: 100_000 }))
          if (isLinkEndpoint(b.endpoint)) await this.store.updateBot(b.id, { status: 'away', statusReason: AWAY_REASON });
    }
    await ensureBuiltins(this.store, this.log);
    // Uploaded versions whose check a stop cut off are checked again (in the background).
    await this.bots.resumeChecks();
    if (!this.stopping) this.ladder?.start();
    if (!this.stopping) this.contestRunner.start();
  }

  /** Stops the ladder, lets running matches end within `graceMs`, then cancels the rest (marked aborted). */
  async stop(graceMs = 10_000): Promise<void> {
    this.stopping = true;
    this.upkeep?.stop();
    this.unfeed?.();
    this.matches.gate.stop();
    const t0 = Date.now();
    let timer: NodeJS.Timeout | undefined;
    const grace = new Promise((resolve) => (timer = setTimeout(resolve, graceMs)));
    // A ladder fill under way ends after the match it is creating: wait for it, so that match is enqueued (or
    // started) before the queue and the store close under it; the bot checks under way too.
    await Promise.race([Promise.all([this.ladder?.stop(), this.contestRunner.stop(), this.bots.settle()]), grace]);
    clearTimeout(timer);
    // The matches played here get what is left of the grace, then are cancelled (marked aborted).
    const left = Math.max(0, graceMs - (Date.now() - t0));
    await Promise.all([this.here.stop(left), this.queue === this.here ? null : this.queue.stop(left)]);
    await this.here.close();
    this.links.closeAll();
    await this.linkStatus;
    await Promise.all([this.pool.close(), this.personPool.close()]);
  }

  /**
   * A bot's link came or went: a `connect:` bot is active while linked, away otherwise (a paused one stays paused:
   * its owner or the fault rule paused it). One change after the other, each reading the bot again.
   */
  private linkChanged(bot: Pick<BotRow, 'id' | 'name'>, connected: boolean, why: string): void {
    this.log.info({ bot: bot.id }, connected ? `bot ${bot.name} linked` : `bot ${bot.name}'s link ended: ${why}`);
    this.linkStatus = this.linkStatus
      .then(async () => {
        const now = await this.store.getBot(bot.id);
        if (!now || now.status === 'deleted' || !isLinkEndpoint(now.endpoint)) return;
        const linked = this.links.connected(bot.id);
        if (linked && (now.status === 'away' || now.status === 'checking')) {
          await this.store.updateBot(bot.id, { status: 'active', statusReason: null });
          if (!this.stopping) this.ladder?.wake();
        } else if (!linked && (now.status === 'active' || now.status === 'checking'))
          await this.store.updateBot(bot.id, { status: 'away', statusReason: `${AWAY_REASON}; its last link ended: ${why}` });
      })
      .catch((err: unknown) => this.log.warn({ bot: bot.id, err }, `the status of bot ${bot.name} could not be written: ${(err as Error).message}`));
  }

  /** A match played here is over (recorded, or not played): its people are told, and the ladder looks again. */
  private settled(matchId: string, outcome: Settled): void {
    this.matches.ended(matchId);
    if ('replay' in outcome) {
      const result = resultLine(outcome.replay);
      this.persons.end(matchId, { reason: 'the match is over', result });
      this.links.end(matchId, { reason: 'the match is over', result });
    } else {
      this.persons.end(matchId, { reason: `the match was stopped: ${outcome.reason}` });
      this.links.end(matchId, { reason: `the match was stopped: ${outcome.reason}` });
    }
    if (!this.stopping) this.ladder?.wake();
    // Only a match of a final moves a final on (the runner's own clock does the rest).
    if (!this.stopping && isContestMatchId(matchId)) this.contestRunner.wake();
  }
}
