// The result block of a replay (a finished match's, a stopped one's) and a replay's one-line result.
import type { MatchEngine } from './engine.js';
import type { Outcome } from './moves.js';
import type { Replay, ReplayResult } from './replay-format.js';

/**
 * The winner (the only slot ranked 1) or null, and whether it is a draw: a first place shared by several
 * slots (Tron's last two dying in the same lap, after others died earlier, is a draw between them). When the
 * rules say nobody wins, there is neither a winner nor a draw.
 */
export function summarise(outcome: Outcome): { winner: number | null; draw: boolean } {
  if (outcome.winner === null) return { winner: null, draw: false };
  const firsts = outcome.ranks.flatMap((r, slot) => (r === 1 ? [slot] : []));
  return { winner: firsts.length === 1 ? firsts[0]! : null, draw: firsts.length > 1 };
}

/** The result block of a finished match: the rules' outcome, its winner and draw, each seat's latest fault (and note, when one has any). */
export function resultOf(engine: MatchEngine): ReplayResult {
  const outcome = engine.outcome();
  const result: ReplayResult = { ...outcome, ...summarise(outcome), faults: engine.faults };
  if (engine.notes.some((n) => n !== null)) result.notes = engine.notes;
  return result;
}

/** The result of a match stopped before its end: nobody's (every seat first, no winner, no draw), the faults so far. */
export function stoppedResult(engine: MatchEngine, reason: string): ReplayResult {
  return { ranks: engine.faults.map(() => 1), scores: null, reason: `stopped before the end: ${reason}`, winner: null, draw: false, faults: engine.faults };
}

/** A match's result as one JSON line (`play --json`, a tournament's results file): who sat where, ranks, scores, faults. */
export interface ResultLine {
  game: string;
  seed: number;
  turns: number;
  winner: number | null;
  draw: boolean;
  /** why the match ended as it did, in words (absent in lines written before it was kept) */
  reason?: string;
  /** what went wrong when the match ended as an error (paint's failed hello, naming the players), else null */
  error?: string | null;
  players: {
    slot: number;
    name: string;
    bot: string;
    rank: number;
    score: number | null;
    fault: { turn: number; kind: string; detail: string } | null;
    /** a failure the rules ignore (a botsarena hello's), which cost nothing (absent in lines written before notes) */
    note?: { turn: number; kind: string; detail: string } | null;
    /** the seat's timeouts forgiven as strikes, when the match allowed strikes (absent otherwise) */
    strikes?: number;
  }[];
  durationMs: number | null;
}

/** The result line of a replay. */
export function resultLine(replay: Replay): ResultLine {
  const r = replay.result;
  const strikes = replay.timeouts.strikes === undefined ? null : replay.seats.map(() => 0);
  if (strikes) for (const t of replay.turns) for (const m of t.moves) if (m.strike) strikes[m.slot]!++;
  return {
    game: replay.game,
    seed: replay.seed,
    turns: replay.turns.length ? replay.turns[replay.turns.length - 1]!.turn : 0,
    winner: r.winner,
    draw: r.draw,
    reason: r.reason,
    error: r.error ?? null,
    players: replay.seats.map((s, i) => ({
      slot: i,
      name: s.name,
      bot: s.bot,
      rank: r.ranks[i]!,
      score: r.scores ? r.scores[i]! : null,
      fault: r.faults[i] ? { turn: r.faults[i]!.turn, kind: r.faults[i]!.kind, detail: r.faults[i]!.detail } : null,
      note: r.notes?.[i] ? { turn: r.notes[i]!.turn, kind: r.notes[i]!.kind, detail: r.notes[i]!.detail } : null,
      ...(strikes ? { strikes: strikes[i]! } : {}),
    })),
    durationMs: replay.durationMs ?? null,
  };
}
