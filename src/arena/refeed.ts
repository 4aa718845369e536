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

/** What a re-feed found: how many messages were asked again, and where the answers differ. */
export interface RefeedReport {
  asked: number;
  differences: RefeedDifference[];
}

/** A move as people compare it: the action (a stream seat's lines), or the fault's kind and detail. */
function describe(m: Pick<RecordedMove, 'action' | 'fault'> | Move<unknown>): string {
  const lines = (m.action as StreamAction | undefined)?.lines;
  const action = Array.isArray(lines) ? lines.map(([, text]) => text).join(' | ') : JSON.stringify(m.action);
  if (!m.fault) return action;
  return `${m.fault.kind}: ${m.fault.detail}${m.action !== undefined ? ` (after ${action})` : ''}`;
}

/**
 * Sends the messages a replay's seat `slot` got to another bot (a new version, say), one by one, and
 * records its answers without changing the game: the recorded moves are applied whatever it says, and
 * notices (lighthouses' results) follow the recording. Returns the turns where its answers differ.
 */
export async function refeed(game: AnyGame, replay: Replay, slot: number, bot: string, opts: { log?: TranscriptSink } = {}): Promise<RefeedReport> {
  const engine = new MatchEngine(game, { config: replay.config, seed: replay.seed, players: replay.seats.length });
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
        if (describe(now) !== describe(recorded)) report.differences.push({ turn: d.turn, phase: d.phase, recorded: describe(recorded), now: describe(now) });
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
