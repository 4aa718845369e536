import { parseBotSpec, type BotEnvOptions, type TranscriptSink } from '../bots/index.js';
import { neverStarted } from '../bots/process-group.js';
import { MatchEngine, movesOf, plainMove, type RecordedMove } from '../core/engine.js';
import { ReplayMismatchError } from '../core/errors.js';
import type { AnyGame, Decision, Move, StreamAction } from '../core/game.js';
import { replayConfig, type Replay } from '../core/replay.js';
import { deadlineFor, OpenSeat, seatContext, type TimedMove } from './seat.js';
import { SeatClocks } from './time-rules.js';

/** One message where the bot answered otherwise than the recording. */
export interface RefeedDifference {
  turn: number;
  phase: string;
  recorded: string;
  now: string;
}

/** A re-feed that could not be done: the bot could not be started or reached. */
export class RefeedFailedError extends Error {
  override name = 'RefeedFailedError';
}

/** What a re-feed found: how many messages were asked again, and where the answers differ. */
export interface RefeedReport {
  asked: number;
  differences: RefeedDifference[];
}

/**
 * A move as people compare it: the action (a stream seat's lines; of a hello, what the game says matters,
 * so a new name is no difference), or the fault's kind and detail.
 */
function describe(game: AnyGame, phase: string, m: Pick<RecordedMove, 'action' | 'fault'> | Move<unknown>): string {
  const lines = (m.action as StreamAction | undefined)?.lines;
  const essence = phase === 'init' && m.action !== undefined ? game.rules.init?.essence : undefined;
  const action = Array.isArray(lines) ? lines.map(([, text]) => text).join(' | ') : JSON.stringify(essence ? essence(m.action) : m.action);
  if (!m.fault) return action;
  return `${m.fault.kind}: ${m.fault.detail}${m.action !== undefined ? ` (after ${action})` : ''}`;
}

/** One message a fed seat was asked again, with what it answers now (judged by the rules in that position). */
export interface FedAnswer {
  decision: Decision;
  /** the move the replay recorded for the seat */
  recorded: RecordedMove;
  /** the move it makes now, with how long it took (a stream seat: its lines) */
  now: TimedMove;
  /** a stream step: what the game answered each of its lines (smart-dog's `error …`), in order */
  replies?: string[];
  /** the position the seat was asked in (read only: the feed goes on from it) */
  state: unknown;
}

/**
 * Plays a replay again through one seat's bot (opened by the caller, started here): every message the seat got is
 * sent to it in the same position and its answer is read and judged, but the recorded moves are applied whatever
 * it says, and notices (lighthouses' results) and the farewell follow the recording. `onAnswer` sees each answer;
 * returning false (or a promise of it) stops the feed there. The seat is always closed: gracefully (its input closed, time to exit) when
 * the feed ran to the end or was stopped, at once when it failed. Returns whether it ran to the end.
 */
export async function feedSeat(
  game: AnyGame,
  replay: Replay,
  slot: number,
  seat: OpenSeat,
  onAnswer: (a: FedAnswer) => boolean | void | Promise<boolean | void>,
): Promise<boolean> {
  const engine = new MatchEngine(game, {
    config: replayConfig(game, replay.config),
    seed: replay.seed,
    players: replay.seats.length,
    hashes: replay.hashes ?? 'state',
  });
  const view = { matchId: replay.matchId, names: replay.seats.map((s) => s.name) };
  // The seat's clock as the match's time rules had it (its first answer's allowance, its bank).
  const clocks = new SeatClocks(replay.timeouts, replay.seats.length);
  let ended = false;
  let stopped = false;
  try {
    await seat.transport.start();
    for (const rec of replay.turns) {
      const d = engine.decision();
      if (!d || d.turn !== rec.turn || d.phase !== rec.phase) throw new ReplayMismatchError(`turn ${rec.turn}: the replay does not reproduce`, rec.turn);
      const step = deadlineFor(d, replay.timeouts);
      const deadline = clocks.deadline(slot, d, step);
      const recorded = rec.moves.find((m) => m.slot === slot);
      if (recorded) {
        let now: TimedMove;
        let replies: string[] | undefined;
        if (d.stream) {
          const msg = seat.message(engine, d, { ...view, phase: d.phase });
          const lines: string[] = [];
          const scratch = structuredClone(engine.state);
          replies = [];
          msg.converse = (line) => (lines.push(line), replies!.push(...game.rules.stream!.line(scratch, slot, line).replies), game.rules.stream!.ends(line));
          const reply = await seat.send(msg, deadline);
          if (reply.kind === 'fault') now = { slot, fault: reply.fault, ms: reply.ms };
          else
            now = {
              slot,
              action: { lines: (reply.kind === 'value' ? (reply.value as string[]) : lines).map((t, i): [number, string] => [i, t]) },
              ms: reply.ms,
            };
        } else {
          now = await seat.ask(engine, d, { ...view, phase: d.phase }, deadline);
        }
        clocks.settle(now, d, step);
        if ((await onAnswer({ decision: d, recorded, now, replies, state: engine.state })) === false) {
          stopped = true;
          break;
        }
      }
      const moves = movesOf(rec);
      const done = engine.commit(d, moves);
      if (done.hash !== rec.hash) throw new ReplayMismatchError(`turn ${rec.turn}: the state differs from the recorded one`, rec.turn);
      const mine = moves.find((m) => m.slot === slot);
      const notice = mine && d.phase === 'play' ? game.wire.ack?.(mine, engine.state) : undefined;
      if (notice !== undefined) await seat.tell(notice, d.phase, d.turn, deadline);
    }
    if (!stopped && game.wire.farewell) await seat.tell(game.wire.farewell(engine.state, slot), 'end', engine.lastTurn(), replay.timeouts.turnMs);
    ended = true;
  } finally {
    await seat.close(ended);
  }
  return !stopped;
}

/**
 * Sends the messages a replay's seat `slot` got to another bot (a new version, say), one by one, and
 * records its answers without changing the game (see `feedSeat`). Returns the turns where its answers differ.
 */
export async function refeed(
  game: AnyGame,
  replay: Replay,
  slot: number,
  bot: string,
  opts: { log?: TranscriptSink; botEnv?: BotEnvOptions } = {},
): Promise<RefeedReport> {
  const spec = parseBotSpec(bot, game);
  const config = new MatchEngine(game, {
    config: replayConfig(game, replay.config),
    seed: replay.seed,
    players: replay.seats.length,
    hashes: replay.hashes ?? 'state',
  }).config;
  const ctx = seatContext(
    game,
    {
      slot,
      players: replay.seats.length,
      config,
      seed: replay.seed,
      name: replay.seats[slot]?.name ?? `slot ${slot}`,
      log: opts.log ?? (() => {}),
    },
    { botEnv: opts.botEnv },
  );
  const seat = OpenSeat.open(game, spec, ctx);
  const report: RefeedReport = { asked: 0, differences: [] };
  let answered = false;
  await feedSeat(game, replay, slot, seat, ({ decision: d, recorded, now }) => {
    report.asked++;
    // The bot could not be reached (not started, connection refused): that is a failure, not an answer.
    if (now.fault?.kind === 'transport' && recorded.fault?.kind !== 'transport') {
      throw new RefeedFailedError(`turn ${d.turn} (${d.phase}): could not get an answer from ${bot}: ${now.fault.detail}`);
    }
    // A program that never ran before its first answer (not spawned, or exit 126/127: a mistyped interpreter)
    // could not be started: a failure too, not one "difference" per message it was then sent. Any other exit is
    // the bot's own (an exec: bot that fails the hello, as the original Go tic-tac-toe bot panics at init), and a
    // hello whose faults the rules ignore does not decide it: the next message does.
    const ignored = d.phase === 'init' && game.rules.init?.faultsIgnored === true;
    if (!answered && !ignored && now.fault?.kind === 'crash' && recorded.fault?.kind !== 'crash' && neverStarted(now.fault.detail)) {
      throw new RefeedFailedError(`turn ${d.turn} (${d.phase}): ${bot} could not be started: ${now.fault.detail}`);
    }
    if (!now.fault) answered = true;
    const [was, is] = [describe(game, d.phase, recorded), describe(game, d.phase, plainMove(now))];
    if (was !== is) report.differences.push({ turn: d.turn, phase: d.phase, recorded: was, now: is });
  });
  return report;
}
