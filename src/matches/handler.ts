import type { FastifyBaseLogger } from 'fastify';
import type { MatchJob } from '../arena/match-job.js';
import type { MatchPool } from '../arena/match-pool.js';
import { MatchCancelledError } from '../arena/run-match.js';
import type { MessagePort } from 'node:worker_threads';
import type { PersonLimits } from '../bots/browser-transport.js';
import type { AddressPolicy } from '../bots/address-policy.js';
import type { SandboxOptions } from '../bots/sandbox-options.js';
import type { Replay } from '../core/replay.js';
import type { LiveEvents } from '../live/events.js';
import { games } from '../games/index.js';
import { NotHereError, type MatchHandler } from '../queue/port.js';
import { StoreFullError, type BotRow, type Claim, type LiveAttempt, type Store } from '../store/index.js';
import type { UploadCache } from '../registry/upload/cache.js';
import { botsOfMatch, connectedSeats, linkedSeats, NoRoomError, playAndRecord, whenThereIsRoom } from './play.js';

/** What a match that was taken became: recorded (its replay), or not played (why). */
export type Settled = { replay: Replay } | { reason: string };

/** How the matches a queue hands over are played, in the process that takes them. */
export interface HandlerOptions {
  store: Store;
  /** the live events its matches publish to (with the feed: live/feed.ts) */
  live: LiveEvents;
  log: FastifyBaseLogger;
  /** this process's name: the store's `worker` of the matches it plays */
  node: string;
  addressPolicy: AddressPolicy;
  /**
   * variables the operator passes to the bot programs' environment (`--bot-env`), played here (without a pool;
   * a pool has its own); their HOME is private: these are other people's programs
   */
  botEnv?: Record<string, string>;
  /** how bot programs are confined, played here (a pool has its own): see `SandboxOptions` */
  sandbox?: SandboxOptions;
  /** a match started more often than this is aborted instead (the store counts the starts) */
  maxTries: number;
  /**
   * a match cancelled (the queue stopped past its grace): 'abort' marks it aborted (the server's own queue:
   * nobody else would play it), 'retry' rejects, so its job goes back to the queue for another worker
   */
  cancelled: 'abort' | 'retry';
  /** the match threads that play a match off this thread; without, matches play on this thread (a worker's) */
  pool?: MatchPool;
  /**
   * the cache of uploaded code here: a match's upload seats are placed in it (fetched from the store when
   * missing) after the claim and held until the match is over; none: upload seats fault ("runs no uploaded code")
   */
  uploads?: Pick<UploadCache, 'holdJob' | 'runOptions'>;
  /** why no process of this kind plays a match (a worker: players who connect to a server), or null: it is aborted */
  refuse?: (job: MatchJob) => string | null;
  /**
   * why this process cannot play a match that another could (a worker without a runtime a bot needs), or null:
   * the handler rejects with NotHereError before starting it, and the queue passes it on
   */
  notHere?: (job: MatchJob) => string | null;
  /**
   * the person seats of the matches played here: each one's channel to its desk (matches/persons.ts), the
   * person's limits, and the threads a person's match plays in (default `pool`: a person's match holds its
   * thread for as long as the person thinks, so the server gives them threads of their own)
   */
  persons?: { port: (matchId: string, slot: number) => MessagePort | undefined; limits?: PersonLimits; pool?: MatchPool };
  /**
   * the bots linked to this server from their authors' machines (`botarena connect`, matches/links.ts): a seat's
   * channel to its bot's link, or why it cannot be opened (the bot is not linked, or at its capacity): then the
   * match is aborted with that reason
   */
  links?: {
    open: (
      matchId: string,
      slot: number,
      bot: BotRow,
      seat: { game: string; players: number; config: Record<string, unknown>; dialect: string },
    ) => MessagePort | string;
  };
  /**
   * how long an attempt's heartbeat in the store keeps the match its own (default ALIVE_MS; a worker: its lock
   * time): it is renewed three times as often while the match plays, and while it lives nobody starts the
   * match again (not a reconciler that found its job gone, nor a worker given a second job for it)
   */
  aliveMs?: number;
  /** told once a match it took is over: recorded, or not played */
  settled?: (matchId: string, outcome: Settled) => void;
  /** told of the matches started, recorded and aborted here (the process's metrics: src/metrics/) */
  observe?: MatchObserver;
}

/** What the metrics of the process hear of its matches (by game: the label of every match figure). */
export interface MatchObserver {
  /** a match starts here; `waitedMs` since it was queued, on its first start only (null on a later try) */
  started(game: string, waitedMs: number | null): void;
  /** a match started here no longer holds its slot (over, handed back, failed) */
  left(): void;
  /** a match played here was recorded (its replay: duration, faults) */
  finished(game: string, replay: Replay): void;
  /** a match was marked aborted here */
  aborted(game: string): void;
}

/**
 * The queues' handler: reads a match from the store, claims it (a start counted in its `tries`), plays it
 * from its stored job (same seed, same seats) and records it (playAndRecord: result, replay, logs and ratings
 * in one transaction, at most once per match). The store decides who may play: a match that ended is skipped;
 * one somebody left running (a worker that died) is played again from the start, up to `maxTries` starts,
 * then aborted with the reason. With a pool, every match plays in a match thread, a person's too: its seats
 * talk to their desks (which the HTTP routes hold here) over a MessagePort; without one, on this thread.
 */
export function matchHandler(o: HandlerOptions): MatchHandler {
  // A store that is away (Postgres stopped) fails every match the queue hands over, and the queue retries
  // them: the first failure is logged as an error, the next ones at debug until a match gets through again.
  let failing = 0;
  const storeAnswers = () => {
    if (!failing) return;
    o.log.info(`matches are played and recorded again (${failing} could not be, meanwhile)`);
    failing = 0;
  };
  return async (matchId, signal) => {
    try {
      const [said, outcome] = await handle(o, matchId, signal);
      storeAnswers();
      o.settled?.(matchId, outcome);
      return said;
    } catch (err) {
      if (err instanceof StoreFullError) {
        // The store said that its disk is full, once; the match stays as the store has it (see handle).
        o.log.warn({ match: matchId }, `the match could not be played or recorded: ${err.message}`);
        o.settled?.(matchId, { reason: err.message });
      } else if (err instanceof UnknownMatchError) {
        storeAnswers(); // the store answered: it has no such match
        o.log.error({ match: matchId, worker: o.node }, err.message);
        o.settled?.(matchId, { reason: err.message });
      } else if (err instanceof NotHereError) {
        storeAnswers(); // the store answered: the match is there, for another process
        o.settled?.(matchId, { reason: err.message });
      } else if (!(err instanceof HandOver)) {
        if (failing++ === 0)
          o.log.error(
            { match: matchId, err },
            'the match could not be played or recorded (the next failures are logged at debug level until one is recorded again)',
          );
        else o.log.debug({ match: matchId, err }, 'the match could not be played or recorded');
        o.settled?.(matchId, { reason: err instanceof Error ? err.message : String(err) });
      }
      throw err;
    }
  };
}

/** How long an attempt's heartbeat keeps a match its own by default (renewed every third of it). */
export const ALIVE_MS = 30_000;

/** A job whose match this process's store does not have: it is failed back to the queue, never completed. */
export class UnknownMatchError extends Error {
  constructor(matchId: string, store: string) {
    super(
      `match ${matchId} is not in this process's store (${store}): the job is handed back, not completed; a worker must use the server's database (its DATABASE_URL or --database)`,
    );
    this.name = 'UnknownMatchError';
  }
}

/** A cancelled match handed back to the queue (cancelled: 'retry'). */
class HandOver extends Error {}

async function handle(o: HandlerOptions, matchId: string, signal: AbortSignal): Promise<[string, Settled]> {
  const { store, log } = o;
  const m = await store.getMatch(matchId);
  // Never completed: a job this store does not know is another arena's (a worker on the wrong database), or
  // came before its match was committed. Failed, it goes back to the queue and the server's reconciler sees it.
  if (!m) throw new UnknownMatchError(matchId, store.describe());
  if (m.status !== 'queued' && m.status !== 'running') return [`the match is ${m.status} already`, { reason: `the match is ${m.status} already` }];
  const job = m.job as MatchJob;
  const aliveMs = o.aliveMs ?? ALIVE_MS;
  const held = (h: LiveAttempt): [string, Settled] => {
    const reason = `attempt ${h.attempt} (${h.worker ?? 'unnamed'}) is playing it and alive: not started again`;
    log.warn({ match: matchId, worker: o.node, holder: h.worker, attempt: h.attempt }, `match ${matchId}: ${reason}`);
    return [reason, { reason }];
  };
  // A second job for a match a live attempt plays (its job was lost and enqueued again) leaves it alone.
  if (m.status === 'running') {
    const live = await store.liveAttempt(matchId);
    if (live) return held(live);
  }
  // The attempt this process holds once it claimed the match; before, an abort only ends the attempt it read.
  let attempt = m.tries;
  const abort = async (reason: string): Promise<[string, Settled]> => {
    if (await store.abortMatch(matchId, reason, attempt)) {
      o.observe?.aborted(m.game);
      log.warn({ match: matchId, worker: o.node }, `match aborted: ${reason}`);
      o.live.publish(matchId, 'public', { type: 'stopped', matchId, reason });
    }
    return [`aborted: ${reason}`, { reason }];
  };
  // A write that found no room in the store for too long (or until the arena stopped): the match is aborted
  // with the reason if the store takes that much; if not, it stays as the store has it, and what happens to
  // a match a stopped process left does (the server's next start aborts a running one and plays a queued one
  // again; with a shared queue, the reconciler enqueues it again).
  const unwritten = async (err: NoRoomError): Promise<[string, Settled]> => {
    try {
      return await abort(err.message);
    } catch (again) {
      if (!(again instanceof StoreFullError)) throw again;
      log.warn(
        { match: matchId },
        `${err.message}; it could not be marked aborted either: it stays ${err.what === 'start' ? m.status : 'running'} in the store until the arena starts again or a reconciler finds it`,
      );
      return [`not recorded: ${err.message}`, { reason: err.message }];
    }
  };
  const refused = o.refuse?.(job);
  if (refused) return abort(refused);
  const elsewhere = o.notHere?.(job);
  if (elsewhere) throw new NotHereError(elsewhere);
  const found = await botsOfMatch(store, m);
  if ('missing' in found) return abort(found.missing);
  let tries: Claim;
  try {
    // A start that finds the store's disk full waits for room like a finish (play.ts: ROOM_RETRY).
    tries = await whenThereIsRoom({ log, signal }, matchId, 'start', () => store.claimMatch(matchId, o.node, aliveMs));
  } catch (err) {
    if (!(err instanceof NoRoomError)) throw err;
    if (err.cancelled && o.cancelled === 'retry') throw new HandOver(`worker ${o.node} stopped before the match could start`, { cause: err });
    return unwritten(err);
  }
  if (tries === null) return ['the match ended meanwhile', { reason: 'the match ended meanwhile' }];
  if (typeof tries === 'object') return held(tries.held);
  attempt = tries;
  if (tries > o.maxTries)
    return abort(
      o.cancelled === 'retry'
        ? `it was started ${o.maxTries} times and no worker finished it (each stopped or died mid-match)`
        : `it was started ${o.maxTries} times and never finished`,
    );
  // Uploaded code is placed here now (its bytes fetched from the store when this process lacks them) and held
  // until the match is over; code that cannot be placed (missing, its hash wrong) ends the match, saying why.
  let release: (() => void) | undefined;
  if (o.uploads) {
    try {
      release = await o.uploads.holdJob(job);
    } catch (err) {
      return abort(`a seat's uploaded code could not be placed on ${o.node}: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
  log.info(
    { match: matchId, game: m.game, worker: o.node, try: tries, bots: found.bots.map((b) => b.name) },
    tries > 1 ? `match started again (try ${tries}): it was stopped mid-match before` : 'match started',
  );
  const pool = o.pool;
  const personPorts =
    pool && connectedSeats(job).length
      ? job.seats.flatMap((_, slot) => {
          const port = o.persons?.port(matchId, slot);
          return port ? [{ slot, port }] : [];
        })
      : undefined;
  const threads = personPorts?.length ? (o.persons?.pool ?? pool) : pool;
  // A linked bot's seat (`connect:`): its channel to the bot's link here; a bot that is not linked now (or at its capacity) aborts the match.
  let linkPorts: { slot: number; port: MessagePort }[] | undefined;
  for (const slot of pool ? linkedSeats(job) : []) {
    const opened =
      o.links?.open(matchId, slot, found.bots[slot]!, {
        game: job.game,
        players: job.seats.length,
        config: job.config,
        dialect: /^connect\+([a-z0-9-]+):/i.exec(job.seats[slot]!.bot.trim())?.[1]?.toLowerCase() ?? games[job.game]?.wire.defaultDialect ?? 'json',
      }) ?? 'linked bots play on the server they are linked to';
    if (typeof opened === 'string') {
      for (const l of linkPorts ?? []) l.port.close();
      return abort(opened);
    }
    (linkPorts ??= []).push({ slot, port: opened });
  }
  const lines = (line: string) => log.warn({ match: matchId }, line);
  // The attempt's heartbeat: renewed while it plays; refused once another attempt holds the match (this one
  // was taken for dead: a frozen process, a cut network), and then this attempt stops, its result unwanted.
  const own = new AbortController();
  const cancel = () => own.abort(signal.reason);
  if (signal.aborted) cancel();
  else signal.addEventListener('abort', cancel, { once: true });
  let superseded: string | null = null;
  const heartbeat = setInterval(
    () => {
      store.beatMatch(matchId, tries, aliveMs).then(
        async (mine) => {
          if (mine || superseded) return;
          const now = await store.getMatch(matchId);
          if (!now || now.tries === tries) return;
          superseded = `attempt ${now.tries} (${now.worker ?? 'unnamed'}) ${now.status === 'running' ? 'holds' : now.status === 'finished' ? 'recorded' : 'ended'} it`;
          log.warn(
            { match: matchId, worker: o.node, attempt: tries },
            `match ${matchId}: attempt ${tries}'s heartbeat refused, ${superseded}: this attempt stops`,
          );
          own.abort(new Error(superseded));
        },
        (err: unknown) => log.debug({ match: matchId, err }, "the match's heartbeat could not be written"),
      );
    },
    Math.max(50, Math.floor(aliveMs / 3)),
  );
  heartbeat.unref();
  o.observe?.started(m.game, tries === 1 ? Date.now() - Date.parse(m.createdAt) : null);
  try {
    const { replay, stored } = await playAndRecord(
      {
        store,
        live: o.live,
        log,
        addressPolicy: o.addressPolicy,
        botEnv: { pass: o.botEnv, home: 'private' },
        sandbox: o.sandbox,
        uploads: o.uploads?.runOptions(),
        signal: own.signal,
        attempt: tries,
        // Only the public events come back from a thread: a server streams nothing else. And the replay comes
        // packed for the store: serializing and gzipping a long match's messages is the thread's work, not the
        // server's (a 6 000-lap Tron match held the server's thread for half a second).
        run: threads
          ? (j, held, s) =>
              threads.play(j, {
                live: held,
                log: lines,
                publicOnly: true,
                pack: true,
                signal: s,
                persons: personPorts,
                personLimits: o.persons?.limits,
                links: linkPorts,
              })
          : undefined,
      },
      job,
      found.bots,
      m.rated,
    );
    if (stored) o.observe?.finished(m.game, replay);
    return [stored ? 'finished' : 'finished, but it had been recorded already', { replay }];
  } catch (err) {
    if (superseded !== null) return [`stopped: ${superseded}`, { reason: `attempt ${tries} stopped: ${superseded}` }];
    if (err instanceof NoRoomError) {
      // Played, but its finish never found room: another worker plays it again, or it is aborted.
      if (err.cancelled && o.cancelled === 'retry') throw new HandOver(`worker ${o.node} stopped before the match's result could be written`, { cause: err });
      return unwritten(err);
    }
    if (err instanceof MatchCancelledError) {
      // Handed back: the job fails and the queue gives it to another worker (the store counted the try).
      if (o.cancelled === 'retry') throw new HandOver(`worker ${o.node} stopped before the match ended`, { cause: err });
      log.warn({ match: matchId }, 'match cancelled at shutdown');
      const reason = 'the server stopped before the match ended';
      // The match's own `stopped` event went out from the runner already.
      if (await store.abortMatch(matchId, reason, tries)) o.observe?.aborted(m.game);
      return [`aborted: ${reason}`, { reason }];
    }
    // Marked aborted first: when the store is away that throws, and the caller says so once (matchHandler).
    const said = await abort(`the arena failed: ${err instanceof Error ? err.message : String(err)}`);
    log.error({ match: matchId, err }, 'match failed');
    return said;
  } finally {
    release?.();
    clearInterval(heartbeat);
    signal.removeEventListener('abort', cancel);
    o.observe?.left();
  }
}
