// What the doctor records of a bot and reports: the checklist's shape, the per-seat runs every check reads, and
// the few text helpers the checks share (doctor.ts, doctor-lines.ts, doctor-http.ts).
import type { Fault } from '../core/game.js';
import type { TranscriptEntry } from '../core/replay.js';

/** One line of the doctor's checklist. `warn` does not fail the check-up; `skip` says why it was not checked. */
export interface DoctorCheck {
  name: string;
  status: 'pass' | 'fail' | 'warn' | 'skip';
  detail: string;
  /** what to change (failures and warnings) */
  fix?: string;
}

/** What `doctor` found. `ok`: no check failed. */
export interface DoctorReport {
  game: string;
  bot: string;
  ok: boolean;
  /** the canned match fed to the bot */
  canned: { bots: string[]; seed: number; steps: number; seats: number[] };
  checks: DoctorCheck[];
  coldStartMs: number | null;
  latency: {
    answers: number;
    p50Ms: number;
    p99Ms: number;
    deadlineMs: number;
    /** a bot program's CPU time on its answers (stdio, exec), when measured */
    cpu?: { p50Ms: number; p99Ms: number };
    /** an HTTP bot's: the longest it took to connect, and the time to the first byte of its answers */
    http?: { connectMaxMs: number; firstByteP50Ms: number; firstByteP99Ms: number };
  } | null;
}

/** A message the seat was asked, as the checks group them. */
export type Kind = 'hello' | 'first turn' | 'turns' | 'late game';

export interface Asked {
  seat: number;
  kind: Kind;
  turn: number;
  phase: string;
  fault?: Fault;
  /**
   * the fault is a hello's that the rules ignore (`init.faultsIgnored`: the botsarena games but Battleship):
   * the match goes on as if it had answered, so it is a warning and the feed goes on to judge the turns
   */
  ignored?: boolean;
  /** after a timeout (stdio): what the wait for a late answer found (a run may time out twice: a hello, then a turn) */
  late?: { whileOpen: boolean; waitMs: number; answerMs?: number };
  ms: number;
  /** where its time went, when the transport told (see `AnswerTiming`) */
  cpuMs?: number;
  connectMs?: number;
  firstByteMs?: number;
  /** the message sent, as the log has it */
  sent?: string;
  /** a stream step's refused lines (`error …`) */
  refused: string[];
  /** the move, legal, loses at once in that position (the game's reason), and another would not */
  loses?: { move: string; why: string };
}

export interface Run {
  seat: number;
  asked: Asked[];
  log: TranscriptEntry[];
  /** the feed reached the end of the canned match */
  complete: boolean;
  /** the time the last answer came (the bot's input closes right after) */
  endedAt: number;
  /** after a timeout: lines that came late while its input was still open (a slow bot) */
  lateWhileOpen: boolean;
  /** after a timeout: how long it was awaited past the deadline with its input open */
  lateWaitMs: number;
  /** after a timeout answered late while its input was open: when the answer came, from the ask */
  lateAnswerMs?: number;
  /** the log's length when the bot's input was closed: lines noted after it came at its exit */
  closedAt: number;
}

/** The answer text a not-json fault quotes. */
export function quoted(detail: string): string {
  return /answer is not JSON: (.*?)(; expected|$)/s.exec(detail)?.[1] ?? '';
}

/** Text that reads as words rather than an answer: not JSON, and starting with a letter followed by a space or a colon somewhere. */
export function isProse(text: string): boolean {
  const t = text.trim().replace(/^"|"$/g, '');
  if (!t || /^[[{"\d-]/.test(t) || /^(true|false|null)$/.test(t)) return false;
  try {
    JSON.parse(t);
    return false;
  } catch {
    return /^[A-Za-z]/.test(t) && /[\s:=]/.test(t);
  }
}

export function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

export function fmt(ms: number): string {
  return ms < 1 ? `${Math.round(ms * 1000)} µs` : `${ms < 100 ? ms.toFixed(1) : Math.round(ms)} ms`;
}
