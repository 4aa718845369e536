import { randomInt } from 'node:crypto';
import { MatchEngine, type TurnRecord } from '../core/engine.js';
import { UsageError } from '../core/errors.js';
import type { AnyGame, Decision, Fault, Move, WireDialect } from '../core/game.js';
import { REPLAY_FORMAT, summarise, type Replay, type TranscriptEntry } from '../core/replay.js';
import { ENGINE_VERSION } from '../core/version.js';
import { createTransport, defaultBotName, parseBotSpec } from '../bots/index.js';
import type { BotSpec, BotTransport, OutgoingMessage, Reply, SeatContext } from '../bots/index.js';
import { getGame } from '../games/index.js';
import { dialectFor, messageFor, seatContext } from './seat.js';

/** One seat of a match: a bot spec (`stdio:python3 bot.py`, `random`, `http://…`) and an optional display name. */
export interface SeatOptions {
  bot: string;
  name?: string;
  /** opens the seat's transport when the bot is already there (a `tcp` bot that connected in) */
  open?: (ctx: SeatContext) => BotTransport;
}

/** What a match needs; everything but the game and the seats has a default. */
export interface RunMatchOptions {
  game: AnyGame | string;
  seats: SeatOptions[];
  config?: Record<string, unknown>;
  /** 32-bit match seed; random when absent (and recorded) */
  seed?: number;
  /** the wire's game id; defaults to the seed */
  matchId?: string;
  /** per-answer deadlines; default the game's */
  timeouts?: { initMs?: number; turnMs?: number };
  /** keep every raw message in the replay */
  transcripts?: boolean;
  maxAnswerBytes?: number;
  maxStderrBytes?: number;
  signal?: AbortSignal;
  onEvent?: (event: MatchEvent) => void;
}

/** What a live viewer sees. `state` is the engine's own: read it, never change it. */
export type MatchEvent =
  | { type: 'started'; game: string; seed: number; seats: { slot: number; name: string; bot: string }[] }
  | { type: 'frame'; record: TurnRecord; state: unknown }
  | { type: 'fault'; slot: number; turn: number; fault: Fault }
  | { type: 'message'; slot: number; entry: TranscriptEntry }
  | { type: 'finished'; replay: Replay };

/** Answer-time figures for one seat, in ms. */
export interface SeatTiming {
  answers: number;
  medianMs: number | null;
  worstMs: number | null;
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
}

interface Seat {
  slot: number;
  name: string;
  spec: BotSpec;
  transport: BotTransport;
  dialect: WireDialect<unknown, unknown>;
  transcript: TranscriptEntry[];
  log: (dir: TranscriptEntry['dir'], text: string) => void;
}

/**
 * Runs one match to the end: opens every seat, asks the seats the rules name (in parallel when
 * several), turns every failure into a fault the rules judge, records the replay, and always shuts
 * every bot down, whatever happens.
 */
export async function runMatch(opts: RunMatchOptions): Promise<MatchReport> {
  const game = typeof opts.game === 'string' ? getGame(opts.game) : opts.game;
  const seed = opts.seed ?? randomInt(0, 2 ** 32 - 1);
  if (!Number.isInteger(seed) || seed < 0 || seed > 0xffffffff) throw new UsageError(`seed must be an integer in 0..4294967295, got ${seed}`);
  const engine = new MatchEngine(game, { config: opts.config ?? {}, seed, players: opts.seats.length });
  const matchId = opts.matchId ?? String(seed);
  const timeouts = { initMs: opts.timeouts?.initMs ?? game.timeouts.initMs, turnMs: opts.timeouts?.turnMs ?? game.timeouts.turnMs };
  const specs = opts.seats.map((s) => parseBotSpec(s.bot, game));
  const names = seatNames(opts.seats, specs);
  const emit = opts.onEvent ?? (() => {});
  const t0 = performance.now();

  const seats: Seat[] = specs.map((spec, slot) => {
    const transcript: TranscriptEntry[] = [];
    const log = (dir: TranscriptEntry['dir'], text: string) => {
      const entry = { dir, t: round(performance.now() - t0), text };
      if (opts.transcripts) transcript.push(entry);
      emit({ type: 'message', slot, entry });
    };
    const ctx = seatContext(game, { slot, players: specs.length, config: engine.config, seed, name: names[slot]!, log }, opts);
    const dialect = dialectFor(game, spec);
    const open = opts.seats[slot]!.open;
    if (spec.transport === 'tcp' && !open) throw new UsageError(`seat ${slot} is "tcp": a bot must connect in first (use \`botarena play ${game.id} tcp …\` or the server)`);
    return { slot, name: names[slot]!, spec, transport: open ? open(ctx) : createTransport(spec, ctx), dialect, transcript, log };
  });

  const abort = new AbortController();
  const onAbort = () => abort.abort();
  opts.signal?.addEventListener('abort', onAbort, { once: true });
  try {
    await Promise.all(seats.map((s) => s.transport.start()));
    emit({ type: 'started', game: game.id, seed, seats: seats.map((s) => ({ slot: s.slot, name: s.name, bot: s.spec.raw })) });
    for (let d = engine.decision(); d; d = engine.decision()) {
      if (abort.signal.aborted) throw new MatchCancelledError(`match cancelled on turn ${d.turn}`);
      const decision = d;
      const moves = decision.stream ? await playStream(decision) : await Promise.all(decision.seats.map((slot) => askSeat(seats[slot]!, decision)));
      if (abort.signal.aborted) throw new MatchCancelledError(`match cancelled on turn ${decision.turn}`);
      for (const m of moves) if (m.fault) emit({ type: 'fault', slot: m.slot, turn: decision.turn, fault: m.fault });
      const record = engine.commit(decision, moves);
      if (game.ack) await Promise.all(moves.map((m) => ackSeat(seats[m.slot]!, m, decision)));
      emit({ type: 'frame', record, state: engine.state });
    }
    if (game.farewell) await Promise.all(seats.map((s) => tellSeat(s, game.farewell!(engine.state, s.slot), { phase: 'end', turn: engine.lastTurn(), seats: [] })));
  } finally {
    opts.signal?.removeEventListener('abort', onAbort);
    await Promise.all(seats.map((s) => s.transport.close().catch(() => {})));
  }

  const outcome = engine.outcome();
  const replay: Replay = {
    format: REPLAY_FORMAT,
    engineVersion: ENGINE_VERSION,
    game: game.id,
    config: engine.config,
    seed,
    matchId,
    seats: seats.map((s) => ({ slot: s.slot, name: s.name, bot: s.spec.raw })),
    timeouts,
    turns: engine.records,
    result: { ...outcome, ...summarise(outcome), faults: engine.faults },
    durationMs: round(performance.now() - t0),
  };
  if (opts.transcripts) replay.transcripts = seats.map((s) => s.transcript);
  emit({ type: 'finished', replay });
  return { replay, timing: seats.map((s) => timingOf(engine.records, s.slot)), state: engine.state };

  /** This step's answer deadline: the match's, else the step's own (smart-dog's waitForTurn), else the game's. */
  function deadlineOf(decision: Decision): number {
    if (decision.phase === 'init') return timeouts.initMs;
    return opts.timeouts?.turnMs ?? decision.deadlineMs ?? timeouts.turnMs;
  }

  /** Sends a seat the notice the game has for its move (lighthouses' result), expecting no answer. */
  async function ackSeat(seat: Seat, move: Move<unknown>, decision: Decision): Promise<void> {
    const notice = game.ack!(move, engine.state, decision.phase);
    if (notice !== undefined) await tellSeat(seat, notice, decision);
  }

  /** Sends a seat a message that expects no answer: a text line as it is, anything else as JSON. */
  async function tellSeat(seat: Seat, notice: unknown, decision: Decision): Promise<void> {
    const text = typeof notice === 'string' ? notice : JSON.stringify(notice);
    if (seat.transport.wants === 'value' && opts.transcripts) seat.log('send', text);
    const msg: OutgoingMessage = { phase: decision.phase, turn: decision.turn, view: notice, text, contentType: 'application/json' };
    await seat.transport.tell(msg, deadlineOf(decision));
  }

  /**
   * A stream step: every seat gets its view and sends lines until its turn is over. Each line is applied at
   * once to a scratch copy of the state (the engine then replays the same lines in the same order), and
   * its replies go straight back. Seats whose lines have a real arrival time (tcp) are applied as they
   * come; the others (stdio, built-in) are applied one seat after the other, in the seat order rotated by
   * the turn number, so such matches are deterministic and no seat always goes first.
   */
  async function playStream(decision: Decision): Promise<(Move<unknown> & { ms: number })[]> {
    const stream = game.stream!;
    const scratch = structuredClone(engine.state);
    const k = Math.max(0, decision.turn - 1) % decision.seats.length;
    const gated = [...decision.seats.slice(k), ...decision.seats.slice(0, k)].filter((slot) => !seats[slot]!.transport.arrivalOrder);
    const lanes = new Map(decision.seats.map((slot) => [slot, { queue: [] as string[], lines: [] as [number, string][], closed: false }]));
    const replies: Promise<void>[] = [];
    let order = 0;
    let cursor = 0;
    const drain = (slot: number) => {
      const lane = lanes.get(slot)!;
      for (let text = lane.queue.shift(); text !== undefined; text = lane.queue.shift()) {
        lane.lines.push([order++, text]);
        for (const reply of stream.line(scratch, slot, text).replies) replies.push(tellSeat(seats[slot]!, reply, decision));
      }
    };
    const pump = () => {
      for (const slot of decision.seats) if (seats[slot]!.transport.arrivalOrder) drain(slot);
      while (cursor < gated.length) {
        drain(gated[cursor]!);
        if (!lanes.get(gated[cursor]!)!.closed) break;
        cursor++;
      }
    };
    const deadline = deadlineOf(decision);
    const results = await Promise.all(
      decision.seats.map(async (slot) => {
        const seat = seats[slot]!;
        const lane = lanes.get(slot)!;
        const msg = messageFor(engine, slot, decision, { phase: decision.phase, matchId, names }, seat.transport.wants, seat.dialect);
        if (seat.transport.wants === 'value' && opts.transcripts) seat.log('send', JSON.stringify(msg.view));
        msg.converse = (line) => {
          lane.queue.push(line);
          pump();
          return stream.ends(line);
        };
        const reply = await withBackstop(seat.transport.ask(msg, deadline, abort.signal), deadline);
        let fault = reply.kind === 'fault' ? reply.fault : undefined;
        if (reply.kind === 'value') {
          if (opts.transcripts) seat.log('recv', JSON.stringify(reply.value) ?? 'undefined');
          if (Array.isArray(reply.value) && reply.value.every((l) => typeof l === 'string')) lane.queue.push(...(reply.value as string[]));
          else fault = { kind: 'bad-answer', detail: `a built-in bot must return its lines as an array of strings, got ${JSON.stringify(reply.value)}` };
        }
        lane.closed = true;
        pump();
        return { slot, fault, ms: round(reply.ms) };
      }),
    );
    pump();
    await Promise.all(replies);
    return results.map(({ slot, fault, ms }) => {
      const action = { lines: lanes.get(slot)!.lines };
      return fault ? { slot, action, fault, ms } : { slot, action, ms };
    });
  }

  async function askSeat(seat: Seat, decision: Decision): Promise<Move<unknown> & { ms: number }> {
    const { slot } = seat;
    const msg = messageFor(engine, slot, decision, { phase: decision.phase, matchId, names }, seat.transport.wants, seat.dialect);
    if (seat.transport.wants === 'value') {
      msg.validate = (answer) => {
        const judged = engine.judge(slot, decision.phase, game.parseAnswer(answer, engine.state, slot, decision.phase));
        return judged.fault ? judged.fault.detail : null;
      };
      // In-process seats exchange objects, not bytes: they are written out only when a transcript is wanted.
      if (opts.transcripts) seat.log('send', JSON.stringify(msg.view));
    }
    const deadline = deadlineOf(decision);
    const asked = seat.transport.ask(msg, deadline, abort.signal);
    // People have no deadline; every program does.
    const reply = seat.spec.transport === 'human' ? await asked : await withBackstop(asked, deadline);
    const ms = round(reply.ms);
    if (reply.kind === 'fault') return { slot, fault: reply.fault, ms };
    const slowMs = game.timeouts.slowMs;
    if (slowMs !== undefined && ms > slowMs && decision.phase !== 'init') {
      seat.log('note', `slow answer: ${ms.toFixed(0)} ms (the game asks for ${slowMs} ms; accepted within the ${deadline} ms deadline)`);
    }
    if (reply.kind === 'value' && opts.transcripts) seat.log('recv', JSON.stringify(reply.value) ?? 'undefined');
    const parsed =
      reply.kind === 'text'
        ? seat.dialect.decode(reply.text, engine.state, slot, decision.phase)
        : game.parseAnswer(reply.value, engine.state, slot, decision.phase);
    return { ...engine.judge(slot, decision.phase, parsed), ms };
  }
}

/**
 * Guards against a transport that breaks its promise to answer by the deadline: after the deadline and
 * a grace second, the seat gets a timeout anyway and the match goes on.
 */
async function withBackstop(pending: Promise<Reply>, deadlineMs: number): Promise<Reply> {
  let timer: NodeJS.Timeout | undefined;
  const backstop = new Promise<Reply>((resolve) => {
    timer = setTimeout(
      () => resolve({ kind: 'fault', fault: { kind: 'timeout', detail: `no answer within ${deadlineMs} ms` }, ms: deadlineMs }),
      deadlineMs + 1000,
    );
  });
  try {
    return await Promise.race([pending.catch((err: unknown) => transportBug(err)), backstop]);
  } finally {
    clearTimeout(timer);
  }
}

function transportBug(err: unknown): Reply {
  return { kind: 'fault', fault: { kind: 'transport', detail: `transport error: ${err instanceof Error ? err.message : String(err)}` }, ms: 0 };
}

/** Display names: given names win; otherwise the spec's default, made unique with the slot number. */
function seatNames(seats: SeatOptions[], specs: BotSpec[]): string[] {
  const base = specs.map((spec, i) => seats[i]!.name ?? defaultBotName(spec));
  return base.map((n, i) => (seats[i]!.name === undefined && base.filter((o) => o === n).length > 1 ? `${n}#${i}` : n));
}

function timingOf(records: TurnRecord[], slot: number): SeatTiming {
  const times = records
    .filter((r) => r.phase !== 'init')
    .flatMap((r) => r.moves.filter((m) => m.slot === slot && m.ms !== undefined).map((m) => m.ms!))
    .sort((a, b) => a - b);
  if (!times.length) return { answers: 0, medianMs: null, worstMs: null };
  const mid = times.length >> 1;
  const median = times.length % 2 ? times[mid]! : (times[mid - 1]! + times[mid]!) / 2;
  return { answers: times.length, medianMs: round(median), worstMs: times[times.length - 1]! };
}

function round(ms: number): number {
  return Math.round(ms * 1000) / 1000;
}
