import { continuesGone } from '../../../src/core/engine.js';
import type { Fault } from '../../../src/core/game.js';
import type { SeatOut, WebGame } from '../games/types.js';
import type { Timeline } from '../timeline.js';

/** What the player shows of one seat at one step. */
export interface SeatStatus {
  /** the fault the result keeps up to this step, with its turn (the match's own once it is over) */
  fault: (Fault & { turn: number }) | null;
  /** the latest fault the rules ignore (a botsarena hello's), which cost nothing */
  note: (Fault & { turn: number }) | null;
  /** the answer time of its move in this step, ms (null: not asked, or not timed) */
  lastMs: number | null;
  medianMs: number | null;
  /** a bot program's CPU time on its answer in this step, and the median so far, ms (null: not measured) */
  lastCpuMs: number | null;
  medianCpuMs: number | null;
  /** an HTTP bot's answer in this step: time spent connecting (0: a kept connection) and until the first byte, ms */
  lastConnectMs: number | null;
  lastFirstByteMs: number | null;
  /** playing, stopped, or its place once the match is over */
  text: string;
  /** out of the game at this step (Tron's dead bot), when and why; null while it plays or for games without it */
  out: SeatOut | null;
  /** what it answered in this step, as recorded (null: it was not asked in this step); `strike`: a timeout the match's strikes forgave */
  move: { action: string | null; fault: Fault | null; strike?: boolean } | null;
  /** the timeouts the match's strikes forgave it up to this step (played as the game's pass, not its fault) */
  strikes: number;
  /** its score after this step, by the rules' outcome of the step's state (games that keep one as they go), else null */
  score: number | null;
}

/** The median of some times (the upper one of an even count, as the answer times'), or null for none. */
function medianOf(values: number[]): number | null {
  if (!values.length) return null;
  const sorted = values.slice().sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

/** An action in a few words: a string as it is; a command with its arguments (`attack 30`, `shoot -1,0`); else JSON. */
export function actionText(action: unknown): string | null {
  if (action === undefined || action === null) return null;
  if (typeof action !== 'object') return String(action);
  const o = action as Record<string, unknown>;
  const head = typeof o.command === 'string' ? o.command : typeof o.type === 'string' ? o.type : null;
  if (head === null) return JSON.stringify(action).slice(0, 120);
  const args = Object.entries(o)
    .filter(([k]) => k !== 'command' && k !== 'type' && k !== 'float' && k !== 'repr')
    .map(([, v]) => (Array.isArray(v) ? v.join(',') : typeof v === 'object' ? JSON.stringify(v) : String(v)));
  return [head, ...args].join(' ').slice(0, 120);
}

/**
 * Each seat's status after `index` steps: a scan of the steps so far (a 5 000-step match scans in well under a
 * millisecond). Faults are kept by the engine's rules: a hello's that the rules ignore is a note, and a fault
 * that only continues the one before it (a dead process asked again) leaves that one in place; once the match
 * is over, its result says.
 */
export function seatStatus(timeline: Timeline, index: number, web?: Pick<WebGame, 'out' | 'scoreEachStep'>): SeatStatus[] {
  const n = timeline.header.seats.length;
  const faults: SeatStatus['fault'][] = Array.from({ length: n }, () => null);
  const notes: SeatStatus['note'][] = Array.from({ length: n }, () => null);
  const lastFault: (Fault | null)[] = Array.from({ length: n }, () => null);
  const times: number[][] = Array.from({ length: n }, () => []);
  const cpu: number[][] = Array.from({ length: n }, () => []);
  const lastTiming: { cpuMs: number | null; connectMs: number | null; firstByteMs: number | null }[] = Array.from({ length: n }, () => ({
    cpuMs: null,
    connectMs: null,
    firstByteMs: null,
  }));
  const moves: SeatStatus['move'][] = Array.from({ length: n }, () => null);
  const last: (number | null)[] = Array.from({ length: n }, () => null);
  const strikes: number[] = Array.from({ length: n }, () => 0);
  const upto = Math.min(index, timeline.records.length);
  const helloIgnored = timeline.game.rules.init?.faultsIgnored === true;
  for (let i = 0; i < upto; i++) {
    const rec = timeline.records[i]!;
    const ignored = helloIgnored && rec.phase === 'init';
    for (const m of rec.moves) {
      if (m.slot < 0 || m.slot >= n) continue;
      const strike = (m as { strike?: true }).strike === true;
      if (strike) strikes[m.slot]!++;
      if (m.fault && ignored) notes[m.slot] = { ...m.fault, turn: rec.turn };
      else if (m.fault && !strike) {
        if (!continuesGone(lastFault[m.slot]!, m.fault)) faults[m.slot] = { ...m.fault, turn: rec.turn };
        lastFault[m.slot] = m.fault;
      } else lastFault[m.slot] = null;
      if (typeof m.ms === 'number') times[m.slot]!.push(m.ms);
      if (typeof m.cpuMs === 'number') cpu[m.slot]!.push(m.cpuMs);
      if (i === upto - 1) {
        last[m.slot] = typeof m.ms === 'number' ? m.ms : null;
        const num = (v: unknown) => (typeof v === 'number' ? v : null);
        lastTiming[m.slot] = { cpuMs: num(m.cpuMs), connectMs: num(m.connectMs), firstByteMs: num(m.firstByteMs) };
        moves[m.slot] = { action: actionText(m.action), fault: m.fault ?? null, ...(strike ? { strike } : {}) };
      }
    }
  }
  const end = upto === timeline.records.length;
  // A stopped match's result is nobody's (every seat first): it has no places to show.
  const over = timeline.result && end && !timeline.stopped;
  const result = timeline.result;
  // Who is out at this step, from the frame's own state (the timeline's cursor is there already: the player draws it).
  const frame = (web?.out || web?.scoreEachStep) && !timeline.hidden && !timeline.mismatch ? timeline.frame(upto) : null;
  let scores: readonly (number | null)[] | null = null;
  if (frame && web?.scoreEachStep) {
    try {
      scores = timeline.game.rules.outcome(frame.state).scores;
    } catch {
      scores = null;
    }
  }
  return times.map((t, slot) => {
    const out = frame && web?.out ? web.out(frame, slot) : null;
    const sorted = t.slice().sort((a, b) => a - b);
    const rank = result?.ranks[slot];
    const score = result?.scores?.[slot];
    // A match that ended as an error (paint's failed ready handshake) was no game: nobody won, whatever the ranks.
    const text =
      over && result!.error
        ? 'error: no game played'
        : over
          ? `${rank === 1 ? (result!.draw ? 'draw' : 'won') : `rank ${rank}`}${score != null ? `, score ${score}` : ''}`
          : timeline.stopped && end
            ? 'stopped'
            : out
              ? 'out'
              : 'playing';
    // At the end, the result's own faults and notes (a replay may come from rules that kept them otherwise).
    const fault = result && end ? (result.faults[slot] ?? null) : faults[slot]!;
    const note = result && end ? (result.notes?.[slot] ?? null) : notes[slot]!;
    return {
      fault,
      note,
      lastMs: last[slot]!,
      medianMs: sorted.length ? sorted[Math.floor(sorted.length / 2)]! : null,
      lastCpuMs: lastTiming[slot]!.cpuMs,
      medianCpuMs: medianOf(cpu[slot]!),
      lastConnectMs: lastTiming[slot]!.connectMs,
      lastFirstByteMs: lastTiming[slot]!.firstByteMs,
      text,
      out,
      move: moves[slot]!,
      strikes: strikes[slot]!,
      score: scores?.[slot] ?? null,
    };
  });
}

/**
 * Where a seat's answer time went, after its wall time: ` · CPU 12.0 (median 10.0)` for a bot program,
 * ` · connect 1.2, first byte 40.1` for an HTTP bot; '' when the transport told nothing.
 */
export function timingText(st: SeatStatus): string {
  const parts: string[] = [];
  if (st.lastCpuMs !== null || st.medianCpuMs !== null)
    parts.push(`CPU ${st.lastCpuMs === null ? '–' : st.lastCpuMs.toFixed(1)}${st.medianCpuMs === null ? '' : ` (median ${st.medianCpuMs.toFixed(1)})`}`);
  if (st.lastConnectMs !== null) parts.push(`connect ${st.lastConnectMs.toFixed(1)}`);
  if (st.lastFirstByteMs !== null) parts.push(`first byte ${st.lastFirstByteMs.toFixed(1)}`);
  return parts.length ? ` · ${parts.join(', ')}` : '';
}
