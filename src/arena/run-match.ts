import { MatchEngine, type TurnRecord } from '../core/engine.js';
import type { AnyGame, Decision, Move } from '../core/game.js';
import { buildReplay, REPLAY_FORMAT, stoppedReplay, type MatchTimeouts, type Replay, type ReplayHeader, type TranscriptEntry } from '../core/replay.js';
import { UsageError } from '../core/errors.js';
import { ENGINE_VERSION } from '../core/version.js';
import { checkSandbox, defaultBotName, parseBotSpec, type BotSpec } from '../bots/index.js';
import { getGame } from '../games/index.js';
import type { LiveEvents } from '../live/events.js';
import { MatchFeed } from './match-feed.js';
import { newJob, type JobRequest, type JobSeat, type MatchJob } from './match-job.js';
import { deadlineFor, OpenSeat, round, seatContext, type SeatConnection, type SeatLimits } from './seat.js';
import { playStreamStep } from './stream-step.js';
import { checkTimeRules, SeatClocks, type SeatClock } from './time-rules.js';

/** How a match is run, beside its job: what does not travel in one. */
export interface RunOptions extends SeatLimits {
  /** the game's definition when the job's game is not in the registry (a test game, a third-party game) */
  game?: AnyGame;
  /** by slot: the bots that connected in (tcp), which their seats are opened from */
  connections?: (SeatConnection | undefined)[];
  /** cancels the match: every bot is shut down and runMatch rejects with MatchCancelledError */
  signal?: AbortSignal;
  /** where the match's live events are published (see MatchFeed for the audiences) */
  live?: LiveEvents;
  /** where a live-events failure is reported */
  log?: (line: string) => void;
  /** what is kept of each bot's log (messages, stderr, notes), in bytes; the rest is counted and dropped */
  maxTranscriptBytes?: number;
}

/** What is kept of one bot's log by default: enough for any honest match, bounded for a flooding bot. */
export const DEFAULT_MAX_TRANSCRIPT_BYTES = 4 * 1024 * 1024;

/** Answer-time figures for one seat, in ms: of its answers, and how many of its turns faulted instead. */
export interface SeatTiming {
  answers: number;
  /** turns (hellos not counted) where the seat's move was a fault: a timeout, a crash, a bad answer… (strikes not counted) */
  faults: number;
  medianMs: number | null;
  worstMs: number | null;
  /** the seat's time bank and strikes, when the match's time rules had either (see `SeatClock`) */
  clock?: SeatClock;
  /** the CPU time its processes spent on its answers (stdio and exec bots), ms; null when none was measured */
  medianCpuMs: number | null;
  worstCpuMs: number | null;
}

/** A finished match: its replay (with the result), per-seat timing, and the final state (for rendering). */
export interface MatchReport {
  replay: Replay;
  timing: SeatTiming[];
  state: unknown;
}

/** Raised when the match was cancelled through its signal; every bot has been shut down by then. */
export class MatchCancelledError extends Error {
  override name = 'MatchCancelledError';
  /** what was played before the stop, when the match had started (runMatch's): a replay marked `stopped` */
  replay?: Replay;
}

/**
 * Runs one match to the end: opens every seat, asks the seats the rules name (in parallel when several),
 * turns every failure into a fault the rules judge, publishes the live events, records the replay, and
 * always shuts every bot down, whatever happens. The job is plain JSON (`MatchJob`; a `JobRequest` gets its
 * defaults from `newJob`: a random seed, recorded); bots that connected in come beside it in `connections`.
 */
export async function runMatch(request: MatchJob | JobRequest, opts: RunOptions = {}): Promise<MatchReport> {
  const job = newJob(request);
  if (opts.game && opts.game.id !== job.game) throw new UsageError(`the job is for game "${job.game}" but the definition given is "${opts.game.id}"`);
  const game = opts.game ?? getGame(job.game);
  const { seed, matchId } = job;
  const engine = new MatchEngine(game, { config: job.config, seed, players: job.seats.length });
  const timeouts: MatchTimeouts = { initMs: job.timeouts.initMs ?? game.timeouts.initMs, turnMs: job.timeouts.turnMs ?? game.timeouts.turnMs };
  if (job.timeouts.turnMs !== undefined) timeouts.turnSet = true;
  // The time rules are recorded only when the match has them: a match without them has the header it always had.
  for (const key of ['firstMs', 'bankMs', 'strikes'] as const) if (job.timeouts[key] !== undefined) timeouts[key] = job.timeouts[key];
  checkTimeRules(game, timeouts);
  const specs = job.seats.map((s) => parseBotSpec(s.bot, game));
  if (opts.sandbox) checkSandbox(opts.sandbox);
  const names = seatNames(job.seats, specs);
  const header: ReplayHeader = {
    format: REPLAY_FORMAT,
    engineVersion: ENGINE_VERSION,
    game: game.id,
    config: engine.config,
    seed,
    matchId,
    seats: specs.map((spec, slot) => ({ slot, name: names[slot]!, bot: spec.raw })),
    timeouts,
  };
  if (job.forkedFrom) header.forkedFrom = job.forkedFrom;
  if (engine.hashes === 'chain') header.hashes = 'chain';
  const feed = new MatchFeed(opts.live, game, header, opts.log);
  const transcripts: TranscriptEntry[][] = specs.map(() => []);
  const view = { matchId, names };
  const t0 = performance.now();
  const clocks = new SeatClocks(timeouts, specs.length);

  const seats: OpenSeat[] = [];
  // The step being played, for the log: the index its record gets. Set as each step begins, so what is said after
  // its commit (lighthouses' result of a command, the farewell) is still that step's.
  let step = 0;
  const cap = opts.maxTranscriptBytes ?? DEFAULT_MAX_TRANSCRIPT_BYTES;
  const kept = specs.map(() => ({ bytes: 0, droppedEntries: 0, droppedBytes: 0, unwritten: 0 }));
  try {
    specs.forEach((spec, slot) => {
      // With neither transcripts nor live events nothing reads a seat's log: no entry is made for each message.
      const log =
        !job.transcripts && !opts.live
          ? () => {}
          : (dir: TranscriptEntry['dir'], text: string) => {
              const k = kept[slot]!;
              // Past the cap an entry is only counted, by its length: Buffer.byteLength would flatten a long text
              // made of pieces (Tron's board each lap, for each seat) only to count it.
              const size = k.droppedEntries ? text.length : Buffer.byteLength(text);
              if (k.droppedEntries || k.bytes + size > cap) {
                if (k.droppedEntries++ === 0) {
                  const note = {
                    dir: 'note' as const,
                    t: round(performance.now() - t0),
                    text: `this bot's log is over ${cap} bytes: the rest is counted, not kept`,
                    step,
                  };
                  if (job.transcripts) transcripts[slot]!.push(note);
                  feed.message(slot, note);
                }
                k.droppedBytes += size;
                return;
              }
              k.bytes += size;
              // The step being played (the index its record will have), so a player shows a step's messages beside it.
              const entry = { dir, t: round(performance.now() - t0), text, step };
              if (job.transcripts) transcripts[slot]!.push(entry);
              feed.message(slot, entry);
            };
      const ctx = seatContext(game, { slot, players: specs.length, config: engine.config, seed, name: names[slot]!, log }, opts);
      // An in-process bot's messages are written out for its log only while the log has room: past its cap they
      // are counted, not made (a Battleship message holds every shot so far: making it each step was quadratic).
      const k = kept[slot]!;
      const echo = job.transcripts ? () => !k.droppedEntries || (k.unwritten++, false) : false;
      seats.push(OpenSeat.open(game, spec, ctx, { connection: opts.connections?.[slot], echo }));
    });
  } catch (err) {
    await Promise.all(seats.map((s) => s.close()));
    throw err;
  }

  const abort = new AbortController();
  const onAbort = () => abort.abort();
  let ended = false;
  opts.signal?.addEventListener('abort', onAbort, { once: true });
  try {
    await Promise.all(seats.map((s) => s.transport.start()));
    feed.started(engine.state);
    for (let d = engine.decision(); d; d = engine.decision()) {
      step = engine.records.length;
      if (abort.signal.aborted) throw new MatchCancelledError(`match cancelled on turn ${d.turn}`);
      const decision = d;
      const deadline = deadlineFor(decision, timeouts);
      const ctx = { ...view, phase: decision.phase };
      // Each seat is waited for as its clock says (its first answer's allowance, its bank); its answer then
      // settles the clock (the bank drawn from, a timeout within the strikes marked a strike).
      const within = (slot: number) => clocks.deadline(slot, decision, deadline);
      const answered = decision.stream
        ? await playStreamStep(engine, decision, seats, ctx, within, abort.signal)
        : await Promise.all(decision.seats.map((slot) => seats[slot]!.ask(engine, decision, ctx, within(slot), abort.signal)));
      const moves = answered.map((m) => clocks.settle(m, decision, deadline));
      if (abort.signal.aborted) throw new MatchCancelledError(`match cancelled on turn ${decision.turn}`);
      const record = engine.commit(decision, moves);
      if (game.wire.ack && decision.phase === 'play') await Promise.all(moves.map((m) => ackSeat(m, decision, deadline)));
      feed.step(record, engine.state);
    }
    if (game.wire.farewell) {
      await Promise.all(seats.map((s) => s.tell(game.wire.farewell!(engine.state, s.slot), 'end', engine.lastTurn(), timeouts.turnMs)));
    }
    ended = true;
  } catch (err) {
    feed.stopped(err instanceof Error ? err.message : String(err));
    // A stopped match keeps the steps it played, for `play --replay` to write.
    if (err instanceof MatchCancelledError)
      err.replay = stoppedReplay(header, engine, err.message, {
        durationMs: round(performance.now() - t0),
        transcripts: job.transcripts ? transcripts : undefined,
      });
    throw err;
  } finally {
    opts.signal?.removeEventListener('abort', onAbort);
    // A match that ended: each bot reads its last message, sees its input close, and may exit by itself.
    await Promise.all(seats.map((s) => s.close(ended)));
  }

  kept.forEach((k, slot) => {
    if (k.droppedEntries && job.transcripts)
      transcripts[slot]!.push({
        dir: 'note',
        t: round(performance.now() - t0),
        text: `${k.droppedEntries} log entries (${k.droppedBytes} bytes) over the ${cap}-byte cap were dropped`,
      });
    if (k.unwritten && job.transcripts)
      transcripts[slot]!.push({
        dir: 'note',
        t: round(performance.now() - t0),
        text: `and ${k.unwritten} messages to or from this in-process bot were not written out`,
      });
  });
  const replay = buildReplay(header, engine, { durationMs: round(performance.now() - t0), transcripts: job.transcripts ? transcripts : undefined });
  feed.ended(replay.result, replay.durationMs!);
  const ruled = timeouts.bankMs !== undefined || timeouts.strikes !== undefined;
  const timing = seats.map((s) => {
    const t = timingOf(engine.records, s.slot);
    if (ruled) t.clock = clocks.of(s.slot);
    return t;
  });
  return { replay, timing, state: engine.state };

  /** Sends a seat the notice the game has for its move (lighthouses' result), expecting no answer. */
  async function ackSeat(move: Move<unknown>, decision: Decision, deadline: number): Promise<void> {
    const notice = game.wire.ack!(move, engine.state);
    if (notice !== undefined) await seats[move.slot]!.tell(notice, decision.phase, decision.turn, deadline);
  }
}

/** Display names: given names win; otherwise the spec's default, made unique with the slot number. */
export function seatNames(seats: JobSeat[], specs: BotSpec[]): string[] {
  const base = specs.map((spec, i) => seats[i]!.name ?? defaultBotName(spec));
  return base.map((n, i) => (seats[i]!.name === undefined && base.filter((o) => o === n).length > 1 ? `${n}#${i}` : n));
}

/** A seat's answers in turns and their times (a fault is no answer: it is counted apart, its time left out). */
function timingOf(records: TurnRecord[], slot: number): SeatTiming {
  const times: number[] = [];
  const cpu: number[] = [];
  let faults = 0;
  for (const r of records) {
    if (r.phase === 'init') continue;
    for (const m of r.moves) {
      if (m.slot !== slot || m.strike) continue;
      if (m.fault) faults++;
      else if (m.ms !== undefined) times.push(m.ms);
      if (!m.fault && m.cpuMs !== undefined) cpu.push(m.cpuMs);
    }
  }
  const cpuTiming = { medianCpuMs: median(cpu), worstCpuMs: largest(cpu) };
  if (!times.length) return { answers: 0, faults, medianMs: null, worstMs: null, ...cpuTiming };
  return { answers: times.length, faults, medianMs: median(times), worstMs: largest(times), ...cpuTiming };
}

/** The largest of some times (a loop: a long match has more answers than a call takes arguments); null for none. */
function largest(values: number[]): number | null {
  let out: number | null = null;
  for (const v of values) if (out === null || v > out) out = v;
  return out;
}

/** The median of some times, to the microsecond; null for none. */
function median(values: number[]): number | null {
  if (!values.length) return null;
  const sorted = values.slice().sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return round(sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2);
}
