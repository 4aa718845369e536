import type { MatchEngine } from '../core/engine.js';
import { streamOrder, type Decision, type ViewContext } from '../core/game.js';
import { answerTiming, type OpenSeat, type TimedMove } from './seat.js';

/**
 * The most lines a seat may send in one stream step (a smart-dog player has a few dogs, each moving and
 * barking once): past it the seat gets an error, its turn ends with a `too-large` fault and it is cut off.
 */
export const MAX_STREAM_LINES = 5000;

/**
 * A stream step (smart-dog): every seat gets its view and sends lines until its turn is over. Each line is
 * applied at once to a scratch copy of the state (the engine then replays the same lines in the same
 * order) and its replies go straight back. Seats whose transport gives lines a real arrival time are applied
 * as they come; the others (stdio, built-in) one seat after the other in core's `streamOrder`, so such
 * matches are deterministic and no seat always goes first. Every view is taken before any line is applied.
 */
export async function playStreamStep(
  engine: MatchEngine,
  decision: Decision,
  seats: OpenSeat[],
  view: ViewContext,
  deadline: number | ((slot: number) => number),
  signal?: AbortSignal,
): Promise<TimedMove[]> {
  const deadlineOf = typeof deadline === 'number' ? () => deadline : deadline;
  const stream = engine.game.rules.stream;
  if (!stream) throw new Error(`game ${engine.game.id} asks a stream step but has no stream rules`);
  const scratch = structuredClone(engine.state);
  const gated = streamOrder(decision).filter((slot) => !seats[slot]!.capabilities.arrivalOrder);
  const lanes = new Map(
    decision.seats.map((slot) => [slot, { queue: [] as string[], lines: [] as [number, string][], closed: false, flooded: false, count: 0 }]),
  );
  const replies: Promise<void>[] = [];
  let order = 0;
  let cursor = 0;
  const drain = (slot: number) => {
    const lane = lanes.get(slot)!;
    for (let text = lane.queue.shift(); text !== undefined; text = lane.queue.shift()) {
      lane.lines.push([order++, text]);
      for (const reply of stream.line(scratch, slot, text).replies) replies.push(seats[slot]!.tell(reply, decision.phase, decision.turn, deadlineOf(slot)));
    }
  };
  const pump = () => {
    for (const slot of decision.seats) if (seats[slot]!.capabilities.arrivalOrder) drain(slot);
    while (cursor < gated.length) {
      drain(gated[cursor]!);
      if (!lanes.get(gated[cursor]!)!.closed) break;
      cursor++;
    }
  };
  const messages = decision.seats.map((slot) => seats[slot]!.message(engine, decision, view));
  const results = await Promise.all(
    decision.seats.map(async (slot, i) => {
      const seat = seats[slot]!;
      const lane = lanes.get(slot)!;
      const msg = messages[i]!;
      const deadlineMs = deadlineOf(slot);
      msg.converse = (line) => {
        if (lane.flooded) return true;
        if (++lane.count > MAX_STREAM_LINES) {
          lane.flooded = true;
          // Cut off now (after this line is handled), not at the end of the step: nothing more is read.
          replies.push(
            seat
              .tell(`error Too many commands: more than ${MAX_STREAM_LINES} lines in one turn; disconnected`, decision.phase, decision.turn, deadlineMs)
              .then(() => seat.close()),
          );
          return true;
        }
        lane.queue.push(line);
        pump();
        return stream.ends(line);
      };
      const reply = await seat.send(msg, deadlineMs, signal);
      let fault = reply.kind === 'fault' ? reply.fault : undefined;
      if (reply.kind === 'value') {
        if (Array.isArray(reply.value) && reply.value.every((l) => typeof l === 'string')) lane.queue.push(...(reply.value as string[]));
        else fault = { kind: 'bad-answer', detail: `a built-in bot must return its lines as an array of strings, got ${JSON.stringify(reply.value)}` };
      }
      lane.closed = true;
      pump();
      return { slot, fault, ms: reply.ms, timing: answerTiming(reply) };
    }),
  );
  pump();
  await Promise.all(replies);
  // A seat that flooded the step was cut off (its connection or process closed): it is out of the match.
  return results.map(({ slot, fault, ms, timing }) => {
    const lane = lanes.get(slot)!;
    const action = { lines: lane.lines };
    if (lane.flooded) fault = { kind: 'too-large', detail: `sent more than ${MAX_STREAM_LINES} lines in turn ${decision.turn}` };
    return fault ? { slot, action, fault, ms, ...timing } : { slot, action, ms, ...timing };
  });
}
