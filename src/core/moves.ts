// The words of a step's result: what a seat did (a move: an action, or the fault that replaced it), how a
// bot's answer is read (`Parsed`), and how a match ends (`Outcome`).

/** Why a bot's answer did not count. Recorded in the result and the replay. */
export type FaultKind =
  | 'timeout' // no answer before the deadline
  | 'crash' // the bot's process exited or was killed
  | 'transport' // connection refused/reset, spawn failure, HTTP error
  | 'too-large' // the answer exceeded the size cap
  | 'not-json' // the answer was not parseable (JSON, or the dialect's text form)
  | 'bad-answer' // parseable, but a missing or wrong field
  | 'illegal-move'; // well-formed, but the rules forbid it in this position

/** Every fault kind (the replay's schema accepts these; the record's keys make the compiler check none is missing). */
export const FAULT_KINDS = Object.keys({
  timeout: 0,
  crash: 0,
  transport: 0,
  'too-large': 0,
  'not-json': 0,
  'bad-answer': 0,
  'illegal-move': 0,
} satisfies Record<FaultKind, 0>) as FaultKind[];

/** A failed answer: what kind of failure, and a sentence for people. */
export interface Fault {
  kind: FaultKind;
  detail: string;
}

/**
 * One seat's contribution to a step: the action it chose, or the fault that replaced it. In a stream
 * step a seat may have both: the lines it sent before it timed out or vanished, and that fault.
 */
export type Move<A> =
  { slot: number; action: A; fault?: undefined } | { slot: number; fault: Fault; action?: undefined } | { slot: number; action: A; fault: Fault };

/** What a seat did in a stream step: its lines, each with its place in the step's order of application. */
export interface StreamAction {
  lines: [number, string][];
}

/** The end of a match: rank per slot (1 is best; equal ranks tie), optional scores, and why. */
export interface Outcome {
  ranks: number[];
  scores: number[] | null;
  reason: string;
  /**
   * `null` when the rules name no winner although someone ranks first (smart-dog when nobody scores above
   * −10, or a stopped game); absent when the ranks say it (the only first rank wins, a shared first is a draw)
   */
  winner?: null;
  /**
   * set when the match ends as an error rather than a game (paint: a player failed the ready handshake, so no
   * turn was played): what went wrong, naming who. Nobody wins (`winner` is then null), and `play` exits 1.
   */
  error?: string;
}

/** The result of reading a bot's answer: an action, or a fault saying what was wrong with it. */
export type Parsed<A> = { ok: true; action: A } | { ok: false; kind: 'not-json' | 'bad-answer'; detail: string };

/** Ranks from scores, higher is better; equal scores share the better rank (1, 1, 3). */
export function ranksFromScores(scores: readonly number[]): number[] {
  return scores.map((s) => 1 + scores.filter((o) => o > s).length);
}
