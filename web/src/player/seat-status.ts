import type { Fault } from '../../../src/core/game.js';
import type { Timeline } from '../timeline.js';

/** What the player shows of one seat at one step. */
export interface SeatStatus {
  /** the latest fault up to this step, with its turn */
  fault: (Fault & { turn: number }) | null;
  /** the answer time of its move in this step, ms (null: not asked, or not timed) */
  lastMs: number | null;
  medianMs: number | null;
  /** playing, or its place once the match is over */
  text: string;
}

/** Each seat's status after `index` steps: a scan of the steps so far (a 5 000-step match scans in well under a millisecond). */
export function seatStatus(timeline: Timeline, index: number): SeatStatus[] {
  const n = timeline.header.seats.length;
  const faults: SeatStatus['fault'][] = Array.from({ length: n }, () => null);
  const times: number[][] = Array.from({ length: n }, () => []);
  const last: (number | null)[] = Array.from({ length: n }, () => null);
  const upto = Math.min(index, timeline.records.length);
  for (let i = 0; i < upto; i++) {
    const rec = timeline.records[i]!;
    for (const m of rec.moves) {
      if (m.slot < 0 || m.slot >= n) continue;
      if (m.fault) faults[m.slot] = { ...m.fault, turn: rec.turn };
      if (typeof m.ms === 'number') times[m.slot]!.push(m.ms);
      if (i === upto - 1) last[m.slot] = typeof m.ms === 'number' ? m.ms : null;
    }
  }
  const over = timeline.result && upto === timeline.records.length;
  return times.map((t, slot) => {
    const sorted = t.slice().sort((a, b) => a - b);
    const rank = timeline.result?.ranks[slot];
    const score = timeline.result?.scores?.[slot];
    const text = over ? `${rank === 1 ? (timeline.result!.draw ? 'draw' : 'won') : `rank ${rank}`}${score != null ? `, score ${score}` : ''}` : timeline.stopped ? 'stopped' : 'playing';
    return { fault: faults[slot]!, lastMs: last[slot]!, medianMs: sorted.length ? sorted[Math.floor(sorted.length / 2)]! : null, text };
  });
}
