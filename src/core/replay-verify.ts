// Re-running a replay to check it: `ReplayFollower` rebuilds a match step by step from its header and steps
// (a replay's, or a live feed's) and checks its result; `verifyReplay` follows a whole replay.
import type { ConfigValues } from './config.js';
import { MatchEngine, plainMove, recordedTiming } from './engine.js';
import { ReplayMismatchError } from './errors.js';
import { describeValue } from './describe.js';
import type { AnyGame } from './definition.js';
import type { Replay, ReplayHeader, ReplayResult, TurnRecord } from './replay-format.js';
import { resultOf, stoppedResult, summarise } from './replay-result.js';

/** A value quoted in a replay error: 60 characters at most. */
const brief = (value: unknown, max = 60): string => describeValue(value, max);

/**
 * The config a replay's match was played by: its recorded config, with the value of each key the game added
 * after the replay was written (`replay.configDefaults`) where it has none.
 */
export function replayConfig(game: AnyGame, config: ConfigValues): ConfigValues {
  const legacy = game.replay?.configDefaults;
  if (!legacy) return config;
  const out: ConfigValues = { ...config };
  for (const key of Object.keys(legacy)) if (!Object.hasOwn(out, key)) out[key] = legacy[key]!;
  return out;
}

/**
 * Rebuilds a match step by step from its header and its recorded steps (a replay's, or a live feed's), checking
 * each: the same seats asked, every recorded action still legal, the same state fingerprint after it. A viewer
 * follows a live match with it; `verifyReplay` follows a whole replay. Throws ReplayMismatchError naming the
 * first step that differs.
 */
export class ReplayFollower {
  readonly engine: MatchEngine;
  private steps = 0;
  /** the strikes each seat may have (the header's time rules), when the header says (a live feed's may not) */
  private readonly strikesAllowed: number | null;

  constructor(
    readonly game: AnyGame,
    header: Pick<ReplayHeader, 'game' | 'config' | 'seed' | 'seats' | 'hashes'> & Partial<Pick<ReplayHeader, 'timeouts'>>,
  ) {
    this.strikesAllowed = header.timeouts ? (header.timeouts.strikes ?? 0) : null;
    if (header.game !== game.id) throw new ReplayMismatchError(`replay is for game "${header.game}", not "${game.id}"`, null);
    this.engine = new MatchEngine(game, {
      config: replayConfig(game, header.config),
      seed: header.seed,
      players: header.seats.length,
      hashes: header.hashes ?? 'state',
    });
  }

  /** Applies one recorded step; `of` (the step count, when known) only improves the error messages. */
  step(rec: TurnRecord, of?: number): TurnRecord {
    const engine = this.engine;
    const where = `turn ${rec.turn} (step ${++this.steps}${of ? ` of ${of}` : ''})`;
    const d = engine.decision();
    if (!d) throw new ReplayMismatchError(`${where}: the game was already over, but the replay goes on`, rec.turn);
    if (d.phase !== rec.phase || d.turn !== rec.turn || d.seats.join(',') !== rec.moves.map((m) => m.slot).join(',')) {
      throw new ReplayMismatchError(
        `${where}: the rules ask ${d.phase} turn ${d.turn} of seats [${d.seats}], the replay has ${rec.phase} turn ${rec.turn} of seats [${rec.moves.map((m) => m.slot)}]`,
        rec.turn,
      );
    }
    // A recorded action is any JSON: one of a type the rules never produce (crafted, or from another game) can
    // make them throw a TypeError; that is a replay that does not reproduce, not an error of the arena.
    const unplayable = (err: unknown, what: string): never => {
      if (!(err instanceof TypeError || err instanceof RangeError)) throw err;
      throw new ReplayMismatchError(`${where}: the rules cannot play ${what} (${err.name}: ${err.message.slice(0, 120)})`, rec.turn);
    };
    const moves = rec.moves.map((m) => {
      if (m.strike) this.checkStrike(m, d.phase, where, rec.turn);
      if (m.fault) return { ...plainMove(m), ...recordedTiming(m) };
      let judged: ReturnType<MatchEngine['judge']>;
      try {
        judged = engine.judge(m.slot, d.phase, { ok: true, action: m.action });
      } catch (err) {
        return unplayable(err, `slot ${m.slot}'s recorded action ${brief(m.action)}`);
      }
      if (judged.fault) {
        throw new ReplayMismatchError(`${where}: slot ${m.slot}'s recorded action ${brief(m.action)} is illegal: ${judged.fault.detail}`, rec.turn);
      }
      return { ...judged, ...recordedTiming(m) };
    });
    let rebuilt: TurnRecord;
    try {
      rebuilt = engine.commit(d, moves);
    } catch (err) {
      return unplayable(
        err,
        `the recorded moves (${rec.moves.map((m) => `slot ${m.slot}: ${m.action !== undefined ? brief(m.action, 40) : m.fault?.kind}`).join('; ')})`,
      );
    }
    if (rebuilt.hash !== rec.hash) {
      throw new ReplayMismatchError(`${where}: the state after this step differs (recorded ${rec.hash}, rebuilt ${rebuilt.hash})`, rec.turn);
    }
    return rebuilt;
  }

  /** A move marked a strike: a turn's timeout, of a game with a pass, within the strikes the header allows. */
  private checkStrike(m: { slot: number; action?: unknown; fault?: { kind: string } }, phase: string, where: string, turn: number): void {
    const used = this.engine.strikes[m.slot] ?? 0;
    const problem =
      phase !== 'play' || m.fault?.kind !== 'timeout'
        ? "only a turn's timeout may be forgiven"
        : m.action === undefined && !this.game.rules.pass
          ? `${this.game.id} has no pass to play instead`
          : this.strikesAllowed !== null && used + 1 > this.strikesAllowed
            ? `it would be strike ${used + 1}, and the header's time rules allow ${this.strikesAllowed}`
            : null;
    if (problem) throw new ReplayMismatchError(`${where}: slot ${m.slot}'s move is marked a strike, but ${problem}`, turn);
  }

  /**
   * Checks the game is over and its whole result is the recorded one: ranks, scores, winner, draw, reason
   * and every seat's fault. Throws naming the first field that differs. A match that was `stopped` has no
   * end: its game must not be over (a finished match forged as stopped would skip the check of its result),
   * and its result must be exactly the one a stopped match gets (`stoppedResult`: nobody's, the faults so far).
   */
  finish(result: ReplayResult, stopped?: string): void {
    const engine = this.engine;
    if (stopped !== undefined) {
      if (!engine.decision()) {
        throw new ReplayMismatchError(
          `the replay is marked stopped (${brief(stopped, 80)}), but its game is over after turn ${engine.lastTurn()}: a finished match has a result to check`,
          null,
        );
      }
      const differs = firstDifference(result, stoppedResult(engine, stopped));
      if (differs) throw new ReplayMismatchError(`${differs} (the replay is marked stopped: nobody's result)`, null);
      return;
    }
    if (engine.decision()) {
      throw new ReplayMismatchError(`the replay ends after turn ${engine.lastTurn()}, but the game is not over`, null);
    }
    const rebuilt = resultOf(engine);
    const differs = firstDifference(result, rebuilt);
    if (!differs) return;
    // A replay written by earlier rules: before faults and notes were told apart (its faults are each seat's
    // latest, of any step), or before the game changed its outcome (`legacyOutcome`).
    const legacy = [this.game.replay?.legacyOutcome?.(engine.state) ?? []].flat();
    const outcomes = [rebuilt, ...legacy.map((l) => ({ ...l, ...summarise(l), faults: rebuilt.faults, notes: rebuilt.notes }))];
    // ... or before a lost connection was kept at the turn it happened (the latest of its repeats).
    const faultLists = Object.hasOwn(result, 'notes') ? [null, crashOnlyFaults(engine)] : [null, latestFaults(engine), crashOnlyFaults(engine)];
    for (const o of outcomes) for (const faults of faultLists) if (!firstDifference(result, faults ? { ...o, notes: undefined, faults } : o)) return;
    throw new ReplayMismatchError(differs, null);
  }
}

/** The first field in which two result blocks differ, as a sentence; null when they are the same. */
function firstDifference(recorded: ReplayResult, rebuilt: ReplayResult): string | null {
  const keys = new Set([...Object.keys(rebuilt), ...Object.keys(recorded)]);
  for (const key of keys) {
    const [was, now] = [
      JSON.stringify((recorded as unknown as Record<string, unknown>)[key]),
      JSON.stringify((rebuilt as unknown as Record<string, unknown>)[key]),
    ];
    const show = (text: string | undefined) => (text === undefined ? '(none)' : text.length > 80 ? `${text.slice(0, 80)}…` : text);
    if (was !== now) return `the result differs: recorded ${key.length > 40 ? `${key.slice(0, 40)}…` : key} ${show(was)}, rebuilt ${show(now)}`;
  }
  return null;
}

/** Each seat's latest fault of any step, hellos included: what replays written before notes recorded as faults. */
function latestFaults(engine: MatchEngine): ReplayResult['faults'] {
  const faults: ReplayResult['faults'] = Array.from({ length: engine.players }, () => null);
  for (const rec of engine.records) for (const m of rec.moves) if (m.fault) faults[m.slot] = { turn: rec.turn, ...m.fault };
  return faults;
}

/**
 * Each seat's fault as replays written before a lost connection was kept where it happened recorded it: a
 * crash right after a crash continues it, any other fault replaces the one before (hellos the rules ignore
 * are notes, not faults).
 */
function crashOnlyFaults(engine: MatchEngine): ReplayResult['faults'] {
  const faults: ReplayResult['faults'] = Array.from({ length: engine.players }, () => null);
  const crashed = Array.from({ length: engine.players }, () => false);
  const helloIgnored = engine.game.rules.init?.faultsIgnored === true;
  for (const rec of engine.records) {
    if (helloIgnored && rec.phase === 'init') continue;
    for (const m of rec.moves) {
      if (m.fault && !(m.fault.kind === 'crash' && crashed[m.slot])) faults[m.slot] = { turn: rec.turn, ...m.fault };
      crashed[m.slot] = m.fault?.kind === 'crash';
    }
  }
  return faults;
}

/**
 * Re-runs a replay's rules with its recorded moves and checks every step (see `ReplayFollower`) and the
 * result. Returns the rebuilt engine; throws ReplayMismatchError naming the first turn that differs.
 * `onStep` sees each state as it is rebuilt (for playback).
 */
export function verifyReplay(game: AnyGame, replay: Replay, onStep?: (engine: MatchEngine, record: TurnRecord) => void): MatchEngine {
  const follower = new ReplayFollower(game, replay);
  for (const rec of replay.turns) {
    const rebuilt = follower.step(rec, replay.turns.length);
    onStep?.(follower.engine, rebuilt);
  }
  follower.finish(replay.result, replay.stopped);
  return follower.engine;
}
