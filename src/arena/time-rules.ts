// The match's time rules beyond a fixed deadline per answer (issue 38): a longer deadline for each seat's first
// answer in play, a time bank per seat that late answers draw from, and strikes (timeouts forgiven, played as
// the game's pass). The runner asks `SeatClocks` for each seat's deadline and hands it each answer.
import { UsageError } from '../core/errors.js';
import type { AnyGame, Decision } from '../core/game.js';
import type { MatchTimeouts } from '../core/replay.js';
import type { StrikeMove } from '../core/engine.js';
import { round } from './seat.js';

/** One seat's time as the rules left it at the end: its bank (when the match had one) and its strikes. */
export interface SeatClock {
  /** the bank left, in ms (absent when the match had no bank) */
  bankLeftMs?: number;
  /** the bank the match gave each seat, in ms (absent when none) */
  bankMs?: number;
  /** timeouts forgiven (strikes used) */
  strikes: number;
  /** the strikes the match allowed each seat (absent when none) */
  strikesAllowed?: number;
}

/** Refuses time rules the game cannot play: strikes in a game without a pass. */
export function checkTimeRules(game: AnyGame, timeouts: Pick<MatchTimeouts, 'strikes'>): void {
  if (timeouts.strikes && !game.rules.pass) {
    throw new UsageError(
      `${game.id} has no pass: a turn its rules do not get is lost (a timeout is a fault), so a match of it cannot forgive timeouts; leave out strikes (--strikes) for ${game.id}`,
    );
  }
}

/**
 * A server's time rules as a match of `game` takes them: strikes only in a game that has a pass (in the
 * others a timeout stays a fault), the rest as they are.
 */
export function timeRulesFor<T extends { strikes?: number }>(game: AnyGame, timeouts: T): T {
  if (timeouts.strikes === undefined || game.rules.pass) return { ...timeouts };
  const { strikes: _none, ...rest } = timeouts;
  return rest as T;
}

/**
 * Each seat's clock in a match: whether it has answered in play yet (its first answer has `firstMs`), what is
 * left of its bank, and its strikes. Hellos are outside the rules: they have the init deadline, draw nothing.
 */
export class SeatClocks {
  private readonly bank: number[];
  private readonly started: boolean[];
  private readonly used: number[];

  constructor(
    private readonly timeouts: MatchTimeouts,
    players: number,
  ) {
    this.bank = Array.from({ length: players }, () => timeouts.bankMs ?? 0);
    this.started = Array.from({ length: players }, () => false);
    this.used = Array.from({ length: players }, () => 0);
  }

  /** The deadline of the seat's own turn (before its bank): the first answer's allowance, or the step's. */
  private turnMs(slot: number, decision: Pick<Decision, 'phase'>, stepMs: number): number {
    if (decision.phase === 'init') return stepMs;
    return !this.started[slot] && this.timeouts.firstMs !== undefined ? this.timeouts.firstMs : stepMs;
  }

  /** How long the seat is waited for in this step: its turn's deadline and what is left of its bank. */
  deadline(slot: number, decision: Pick<Decision, 'phase'>, stepMs: number): number {
    const turn = this.turnMs(slot, decision, stepMs);
    return decision.phase === 'init' ? turn : turn + this.bank[slot]!;
  }

  /**
   * Takes the seat's answer to this step: an answer later than its turn's deadline draws the overrun from
   * the bank (a timeout spends it all); a timeout within the strikes is marked a strike (the engine plays
   * the game's pass for it and it is not the seat's fault).
   */
  settle<M extends StrikeMove & { ms?: number; cpuMs?: number; cpuJudged?: true }>(move: M, decision: Pick<Decision, 'phase'>, stepMs: number): M {
    const { slot } = move;
    if (decision.phase === 'init') return move;
    const turn = this.turnMs(slot, decision, stepMs);
    this.started[slot] = true;
    const timedOut = move.fault?.kind === 'timeout';
    if (timedOut) this.bank[slot] = 0;
    // The time the deadline was judged on: the CPU time when the transport judged it so (a loaded machine's
    // waits then cost the bank nothing either), else the wall time the arena waited.
    const used = move.cpuJudged && move.cpuMs !== undefined ? move.cpuMs : move.ms;
    if (!timedOut && used !== undefined && used > turn) this.bank[slot] = round(Math.max(0, this.bank[slot]! - (used - turn)));
    if (timedOut && this.used[slot]! < (this.timeouts.strikes ?? 0)) {
      this.used[slot]!++;
      return { ...move, strike: true };
    }
    return move;
  }

  /** The seat's clock now (for the result's timing). */
  of(slot: number): SeatClock {
    const clock: SeatClock = { strikes: this.used[slot]! };
    if (this.timeouts.bankMs !== undefined) Object.assign(clock, { bankMs: this.timeouts.bankMs, bankLeftMs: this.bank[slot]! });
    if (this.timeouts.strikes !== undefined) clock.strikesAllowed = this.timeouts.strikes;
    return clock;
  }
}
