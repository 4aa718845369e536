import { parseBotSpec, type TranscriptSink } from '../bots/index.js';
import { MatchEngine, movesOf, plainMove, type RecordedMove } from '../core/engine.js';
import { ReplayMismatchError } from '../core/errors.js';
import type { AnyGame, Move, StreamAction } from '../core/game.js';
import type { Replay } from '../core/replay.js';
import { deadlineFor, OpenSeat, seatContext } from './seat.js';

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
  const essence = phase === 'init' && m.action !== undefined ? game.init?.essence : undefined;
  const action = Array.isArray(lines) ? lines.map(([, text]) => text).join(' | ') : JSON.stringify(essence ? essence(m.action) : m.action);
  if (!m.fault) return action;
  return `${m.fault.kind}: ${m.fault.detail}${m.action !== undefined ? ` (after ${action})` : ''}`;
}

/**
 * Sends the messages a replay's seat `slot` got to another bot (a new version, say), one by one, and
 * records its answers without changing the game: the recorded moves are applied whatever it says, and
 * notices (lighthouses' results) follow the recording. Returns the turns where its answers differ.
 */
export async function refeed(game: AnyGame, replay: Replay, slot: number, bot: string, opts: { log?: TranscriptSink } = {}): Promise<RefeedReport> {
  const engine = new MatchEngine(game, { config: replay.config, seed: replay.seed, players: replay.seats.length, hashes: replay.hashes ?? 'state' });
  const spec = parseBotSpec(bot, game);
  const ctx = seatContext(game, { slot, players: replay.seats.length, config: engine.config, seed: replay.seed, name: replay.seats[slot]?.name ?? `slot ${slot}`, log: opts.log ?? (() => {}) });
  const seat = OpenSeat.open(game, spec, ctx);
  const report: RefeedReport = { asked: 0, differences: [] };
  const view = { matchId: replay.matchId, names: replay.seats.map((s) => s.name) };
  let ended = false;
  try {
    await seat.transport.start();
    for (const rec of replay.turns) {
      const d = engine.decision();
      if (!d || d.turn !== rec.turn || d.phase !== rec.phase) throw new ReplayMismatchError(`turn ${rec.turn}: the replay does not reproduce`, rec.turn);
      const deadline = deadlineFor(d, replay.timeouts);
      const recorded = rec.moves.find((m) => m.slot === slot);
      if (recorded) {
        let now: Move<unknown>;
        if (d.stream) {
          const msg = seat.message(engine, d, { ...view, phase: d.phase });
          const lines: string[] = [];
          msg.converse = (line) => (lines.push(line), game.stream!.ends(line));
          const reply = await seat.send(msg, deadline);
          if (reply.kind === 'fault') now = { slot, fault: reply.fault };
          else now = { slot, action: { lines: (reply.kind === 'value' ? (reply.value as string[]) : lines).map((t, i): [number, string] => [i, t]) } };
        } else {
          now = plainMove(await seat.ask(engine, d, { ...view, phase: d.phase }, deadline));
        }
        report.asked++;
        // The bot could not be reached (not started, connection refused): that is a failure, not an answer.
        if (now.fault?.kind === 'transport' && recorded.fault?.kind !== 'transport') {
          throw new RefeedFailedError(`turn ${d.turn} (${d.phase}): could not get an answer from ${bot}: ${now.fault.detail}`);
        }
        const [was, is] = [describe(game, d.phase, recorded), describe(game, d.phase, now)];
        if (was !== is) report.differences.push({ turn: d.turn, phase: d.phase, recorded: was, now: is });
      }
      const moves = movesOf(rec);
      const done = engine.commit(d, moves);
      if (done.hash !== rec.hash) throw new ReplayMismatchError(`turn ${rec.turn}: the state differs from the recorded one`, rec.turn);
      const mine = moves.find((m) => m.slot === slot);
      const notice = mine && d.phase === 'play' ? game.ack?.(mine, engine.state) : undefined;
      if (notice !== undefined) await seat.tell(notice, d.phase, d.turn, deadline);
    }
    if (game.farewell) await seat.tell(game.farewell(engine.state, slot), 'end', engine.lastTurn(), replay.timeouts.turnMs);
    ended = true;
  } finally {
    await seat.close(ended);
  }
  return report;
}
