import { packReplay, type PackedReplay } from '../arena/replay-pack.js';
import type { FastifyBaseLogger } from 'fastify';
import type { MatchJob } from '../arena/match-job.js';
import { runMatch } from '../arena/run-match.js';
import type { SeatConnection } from '../arena/seat.js';
import { LINK_LOST, parseBotSpec, runsCommand, schemeOf } from '../bots/index.js';
import type { AddressPolicy } from '../bots/address-policy.js';
import type { BotEnvOptions } from '../bots/bot-env.js';
import type { SandboxOptions } from '../bots/sandbox-options.js';
import type { UploadRunOptions } from '../bots/transport.js';
import type { Replay } from '../core/replay.js';
import { resultLine } from '../core/replay.js';
import { games } from '../games/index.js';
import { pauseReason, type RecentOutcome } from '../ladder/pick.js';
import { rateFinishedMatch } from '../ladder/rating-update.js';
import type { Audience, LiveEvent, LiveEvents } from '../live/events.js';
import { StoreFullError, type BotRow, type MatchRow, type SeatResult, type Store } from '../store/index.js';
import { guestBot } from './guest.js';

// Playing one stored match and recording it: the same path whichever queue took it (the server's own match
// threads, or a `botarena worker` on BullMQ). handler.ts wraps it as the queues' handler (read, claim, play,
// record); the smart-dog gateway records its games with recordFinishedMatch.

/**
 * Records a finished match (created and started in the store already) in one transaction: its result, its
 * seats (`bots` by slot), its replay (gzipped, without the raw messages), each seat's message log (the
 * replay's transcripts, gzipped: its owner's) and, when `rated`, the rating changes computed inside the
 * transaction from the ratings kept then. `stored` is false when the match had ended already (aborted, or
 * recorded by another worker that played it too). The arena's matches, the workers' and the smart-dog
 * gateway's games (gateway.ts) are all recorded by this one function.
 */
export async function recordFinishedMatch(
  store: Store,
  job: MatchJob,
  bots: BotRow[],
  replay: Replay,
  rated: boolean,
  packed?: PackedReplay,
  attempt?: number,
): Promise<{ stored: boolean; seats: SeatResult[] }> {
  const { replayGz, logs: gzLogs } = packed ?? packReplay(replay);
  const result = resultLine(replay);
  const seats = result.players.map((p, slot) => ({
    slot,
    botId: bots[slot]!.id || null,
    name: p.name,
    rank: p.rank,
    score: p.score ?? null,
    fault: p.fault ? { kind: p.fault.kind, detail: p.fault.detail, turn: p.fault.turn } : null,
  }));
  const logs = gzLogs.map((gz, slot) => ({ slot, gz }));
  const stored = await store.finishMatch(job.matchId, {
    result,
    seats,
    replayGz,
    logs,
    attempt,
    // Only test matches have seats without a bot (a URL, a person's), and they are never rated. A match that
    // ended as an error (paint's failed ready handshake) played no game: it is recorded (its seats and faults,
    // which the pause rule reads) but changes no rating.
    rate:
      rated && !replay.result.error
        ? (kept) =>
            rateFinishedMatch(
              job.game,
              seats.map((s) => ({ botId: s.botId!, rank: s.rank })),
              kept,
            )
        : undefined,
  });
  return { stored, seats };
}

/** The specs of a job's seats that were opened from a connection (tcp, browser): players who came for that match. */
export function connectedSeats(job: MatchJob): string[] {
  const game = games[job.game];
  return game
    ? job.seats.flatMap((s) => {
        try {
          const spec = parseBotSpec(s.bot, game);
          return schemeOf(spec).fromConnection ? [spec.transport] : [];
        } catch {
          return [];
        }
      })
    : [];
}

/** The seats of a job whose bot is linked to a server from its author's machine (`connect:`), by slot. */
export function linkedSeats(job: MatchJob): number[] {
  const game = games[job.game];
  return game
    ? job.seats.flatMap((s, slot) => {
        try {
          return parseBotSpec(s.bot, game).transport === 'connect' ? [slot] : [];
        } catch {
          return [];
        }
      })
    : [];
}

/** The seats of a job that run a command on this machine (stdio:, exec:), by slot. */
export function commandSeats(job: MatchJob): number[] {
  const game = games[job.game];
  return game
    ? job.seats.flatMap((s, slot) => {
        try {
          return runsCommand(parseBotSpec(s.bot, game)) ? [slot] : [];
        } catch {
          return [];
        }
      })
    : [];
}

/**
 * The bots of a stored match by slot, for recording it: each registered bot's row, and for a seat no
 * registered bot holds (a URL's, a person's) a row without an id. Null when a seat's bot is gone (deleted).
 */
export async function botsOfMatch(store: Store, m: MatchRow): Promise<{ bots: BotRow[] } | { missing: string }> {
  const bots: BotRow[] = [];
  for (const s of m.seats) {
    if (!s.botId) {
      bots.push({ ...guestBot(m.game, (m.job as MatchJob).seats[s.slot]?.bot ?? ''), name: s.name });
      continue;
    }
    const bot = await store.getBot(s.botId);
    if (!bot || bot.status === 'deleted') return { missing: `the bot in seat ${s.slot} (${s.name}) is gone` };
    bots.push(bot);
  }
  return { bots };
}

/** What playing a stored match needs besides the match. */
export interface PlayContext {
  store: Store;
  /** the live events, with the feed (withFeed) */
  live: LiveEvents;
  log: FastifyBaseLogger;
  addressPolicy: AddressPolicy;
  /** the bot programs' environment besides the allow-list, and their HOME (see `BotEnvOptions`) */
  botEnv?: BotEnvOptions;
  /** how bot programs are confined (see `SandboxOptions`); none: unconfined */
  sandbox?: SandboxOptions;
  /** where uploaded code is and how it runs, played here (a pool has its own) */
  uploads?: UploadRunOptions;
  signal: AbortSignal;
  /** the attempt playing it (the tries its claim returned): its finish is refused once another attempt holds the match */
  attempt?: number;
  /** seats opened from a connection (a person's), by slot */
  connections?: (SeatConnection | undefined)[];
  /**
   * plays the match somewhere else and resolves with its replay (a match thread of arena/match-pool.ts: see
   * handler.ts); by default runMatch in this thread
   */
  run?: (job: MatchJob, live: LiveEvents, signal: AbortSignal) => Promise<{ replay: Replay; packed?: PackedReplay }>;
}

/**
 * The live events of one match with its public `ended` held back until `release()`: the runner announces
 * the end as soon as the last step is played, but a viewer told that a match ended (its SSE stream, the
 * global feed) must find it finished in the store. Released whether or not the recording succeeded.
 */
export function holdingEnd(live: LiveEvents, matchId: string): { live: LiveEvents; release: () => void } {
  const held: [Audience, LiveEvent][] = [];
  let released = false;
  return {
    live: {
      publish(id: string, audience: Audience, event: LiveEvent) {
        if (!released && id === matchId && event.type === 'ended') held.push([audience, event]);
        else live.publish(id, audience, event);
      },
      subscribe: (id, audience, listener) => live.subscribe(id, audience, listener),
      history: (id) => live.history(id),
      close: () => live.close(),
    },
    release() {
      released = true;
      for (const [audience, event] of held.splice(0)) live.publish(matchId, audience, event);
    },
  };
}

/**
 * Plays a match the store has as running and records it (recordFinishedMatch), then pauses its bots that
 * fault too often. A failure of the match itself is recorded as its abort reason; a cancelled match
 * (MatchCancelledError) and a failure to reach the store are thrown for the caller to decide.
 */
export async function playAndRecord(ctx: PlayContext, job: MatchJob, bots: BotRow[], rated: boolean): Promise<{ replay: Replay; stored: boolean }> {
  const hold = holdingEnd(ctx.live, job.matchId);
  let recorded: { replay: Replay; stored: boolean; seats: SeatResult[] };
  try {
    const { replay, packed } = ctx.run
      ? await ctx.run(job, hold.live, ctx.signal)
      : {
          replay: (
            await runMatch(job, {
              signal: ctx.signal,
              live: hold.live,
              connections: ctx.connections,
              log: (line) => ctx.log.warn({ match: job.matchId }, line),
              addressPolicy: ctx.addressPolicy,
              botEnv: ctx.botEnv,
              sandbox: ctx.sandbox,
              uploads: ctx.uploads,
            })
          ).replay,
          packed: undefined,
        };
    // Packed once: a finish that waits for room in the store is written again from the same bytes.
    const bytes = packed ?? packReplay(replay);
    recorded = {
      replay,
      ...(await whenThereIsRoom(ctx, job.matchId, 'result', () => recordFinishedMatch(ctx.store, job, bots, replay, rated, bytes, ctx.attempt))),
    };
  } finally {
    hold.release();
  }
  const { replay, stored, seats } = recorded;
  const holder = stored || ctx.attempt === undefined ? null : await ctx.store.getMatch(job.matchId).catch(() => null);
  if (holder && holder.tries !== ctx.attempt) {
    // Fencing: another attempt took the match over while this one played (this one was taken for dead).
    ctx.log.warn(
      { match: job.matchId, attempt: ctx.attempt, holder: holder.worker, ranks: seats.map((s) => `${s.name}:${s.rank}`) },
      `match ${job.matchId}: attempt ${ctx.attempt}'s result refused, attempt ${holder.tries} ${holder.status === 'running' ? 'holds' : holder.status === 'finished' ? 'recorded' : 'ended'} it${holder.worker ? ` (${holder.worker})` : ''}`,
    );
    return { replay, stored };
  }
  ctx.log.info(
    { match: job.matchId, ranks: seats.map((s) => `${s.name}:${s.rank}`), stored },
    stored ? 'match ended' : 'match ended, but it had been recorded or aborted already: this result is dropped',
  );
  if (stored && rated)
    await pauseFaulty(ctx.store, ctx.log, [...new Set(bots.filter((b) => !b.builtin && b.id).map((b) => b.id))]).catch((err: unknown) => {
      // The match is recorded; the pause rule looks again after the bots' next match.
      if (err instanceof StoreFullError) ctx.log.debug({ match: job.matchId }, `the pause rule was not applied: ${err.message}`);
      else throw err;
    });
  return { replay, stored };
}

/**
 * How a write that finds no room in the store (StoreFullError: its disk is full) is retried while the process
 * lives: after `firstMs`, then twice as long each time up to `maxDelayMs`, for `forMs` in all. A finished
 * match waits so, kept in memory (its packed replay) and holding its queue slot: so at most one per slot of the
 * queue (`--concurrency`, and the persons' slots) waits, and `MAX_WAITING` in all whatever the queue.
 */
export const ROOM_RETRY = { firstMs: 500, maxDelayMs: 10_000, forMs: 15 * 60_000, maxWaiting: 64 };

/** The writes waiting for room in the store now, in this process. */
let waiting = 0;

/** A match's write that found no room in the store for ROOM_RETRY.forMs (or until the match was cancelled). */
export class NoRoomError extends Error {
  constructor(
    readonly what: 'result' | 'start',
    message: string,
    readonly cancelled: boolean,
    options: { cause: StoreFullError },
  ) {
    super(message, options);
    this.name = 'NoRoomError';
  }
}

/**
 * Runs `write` (one transaction: nothing of it is kept when it fails), and while it fails for lack of room in
 * the store, runs it again with backoff (ROOM_RETRY) until it succeeds, the time is up or the match is
 * cancelled (its signal: the queue stopping past its grace); then NoRoomError. The write decides what "once"
 * means: the finish claims the match first, so a finish that lands applies its ratings once.
 */
export async function whenThereIsRoom<T>(
  ctx: Pick<PlayContext, 'log' | 'signal'>,
  matchId: string,
  what: 'result' | 'start',
  write: () => Promise<T>,
  retry = ROOM_RETRY,
): Promise<T> {
  const since = Date.now();
  let delay = retry.firstMs;
  let tries = 0;
  let counted = false;
  try {
    for (;;) {
      try {
        const out = await write();
        if (tries)
          ctx.log.info(
            { match: matchId, tries: tries + 1 },
            `the match's ${what} was written after waiting ${Math.round((Date.now() - since) / 1000)} s for room in the store`,
          );
        return out;
      } catch (err) {
        if (!(err instanceof StoreFullError)) throw err;
        tries++;
        const waited = Date.now() - since;
        const words = what === 'result' ? "the match's result (replay, seats, ratings)" : 'the match';
        if (tries === 1) {
          if (waiting >= retry.maxWaiting)
            throw new NoRoomError(what, `${words} could not be written: ${err.message} (and ${waiting} matches wait already)`, false, { cause: err });
          waiting++;
          counted = true;
          ctx.log.info(
            { match: matchId },
            `${words} cannot be written now (${err.detail}): it waits in memory and is written when the store has room (for up to ${Math.round(retry.forMs / 60_000)} min)`,
          );
        }
        if (ctx.signal.aborted) throw new NoRoomError(what, `${words} could not be written before the arena stopped: ${err.message}`, true, { cause: err });
        if (waited >= retry.forMs)
          throw new NoRoomError(what, `${words} could not be written for ${Math.round(waited / 60_000)} min: ${err.message}`, false, { cause: err });
        await pause(Math.min(delay, retry.forMs - waited), ctx.signal);
        delay = Math.min(delay * 2, retry.maxDelayMs);
      }
    }
  } finally {
    if (counted) waiting--;
  }
}

/** Resolves after `ms`, or as soon as `signal` aborts. */
function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}

/** The outcomes the pause rule reads: those of matches the bot played, not those a linked bot's link was lost in. */
export function playedOutcomes<T extends RecentOutcome>(recent: T[]): T[] {
  return recent.filter((r) => !(r.fault?.kind === 'transport' && r.fault.detail.startsWith(LINK_LOST)));
}

/**
 * Pauses bots whose recent ladder matches fault too often, with the reason their owner reads. A match a linked
 * bot's link was lost in does not count: the bot is away for that (its owner's `botarena connect` stopped or
 * its network dropped), not paused.
 */
async function pauseFaulty(store: Store, log: FastifyBaseLogger, botIds: string[]): Promise<void> {
  for (const id of botIds) {
    const reason = pauseReason(playedOutcomes(await store.recentOutcomes(id, 30)));
    if (reason) {
      await store.updateBot(id, { status: 'paused', statusReason: reason });
      log.warn({ bot: id }, reason);
    }
  }
}
