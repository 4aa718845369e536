import type { ConfigValues } from './config.js';
import { MatchEngine, plainMove, type TurnRecord } from './engine.js';
import { ReplayMismatchError } from './errors.js';
import type { AnyGame, Fault, Outcome } from './game.js';

/** The replay format tag; bump the number when the shape changes incompatibly. */
export const REPLAY_FORMAT = 'botarena-replay/1';

/** A seat as recorded: display name and the bot spec that played it. */
export interface ReplaySeat {
  slot: number;
  name: string;
  bot: string;
}

/** One raw message to or from a bot, with its time since the match started. */
export interface TranscriptEntry {
  /** 'send' arena→bot, 'recv' bot→arena, 'stderr' the bot's stderr, 'note' what the transport saw (exit, timeout…) */
  dir: 'send' | 'recv' | 'stderr' | 'note';
  /** ms since the match started */
  t: number;
  text: string;
}

/** The result block of a replay: the outcome plus each slot's latest fault. */
export interface ReplayResult extends Omit<Outcome, 'winner'> {
  winner: number | null;
  draw: boolean;
  faults: (({ turn: number } & Fault) | null)[];
}

/**
 * A match's deadlines as it ran: `turnSet` when the match chose `turnMs` itself, which then overrides a
 * step's own deadline (smart-dog's waitForTurn); absent in replays written before it was recorded.
 */
export interface MatchTimeouts {
  initMs: number;
  turnMs: number;
  turnSet?: boolean;
}

/** What is known of a match before its first step: enough, with the steps, to rebuild every frame. */
export interface ReplayHeader {
  format: typeof REPLAY_FORMAT;
  engineVersion: string;
  game: string;
  config: ConfigValues;
  seed: number;
  matchId: string;
  seats: ReplaySeat[];
  timeouts: MatchTimeouts;
  /** where this match started from, when it was forked from another replay at a turn */
  forkedFrom?: { matchId: string; seed: number; turn: number; fingerprint: string };
}

/** A complete, exact record of a match; frames are rebuilt by re-running the rules. */
export interface Replay extends ReplayHeader {
  turns: TurnRecord[];
  result: ReplayResult;
  durationMs?: number;
  /** per slot, the raw messages, when logging was on */
  transcripts?: TranscriptEntry[][];
}

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

/** Checks a parsed JSON value has the replay shape; throws a sentence naming the first wrong field. */
export function assertReplayShape(value: unknown): asserts value is Replay {
  const r = value as Partial<Replay> | null;
  const fail = (what: string): never => {
    throw new ReplayMismatchError(`not a Botarena replay: ${what}`, null);
  };
  if (!r || typeof r !== 'object') fail('expected a JSON object');
  if (r!.format !== REPLAY_FORMAT) fail(`"format" is ${JSON.stringify(r!.format)}, expected "${REPLAY_FORMAT}"`);
  if (typeof r!.game !== 'string') fail('"game" must be a string');
  if (typeof r!.seed !== 'number') fail('"seed" must be a number');
  if (!Array.isArray(r!.seats)) fail('"seats" must be an array');
  if (!Array.isArray(r!.turns)) fail('"turns" must be an array');
  if (!r!.result || !Array.isArray(r!.result.ranks)) fail('"result.ranks" must be an array');
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

  constructor(
    readonly game: AnyGame,
    header: Pick<ReplayHeader, 'game' | 'config' | 'seed' | 'seats'>,
  ) {
    if (header.game !== game.id) throw new ReplayMismatchError(`replay is for game "${header.game}", not "${game.id}"`, null);
    this.engine = new MatchEngine(game, { config: header.config, seed: header.seed, players: header.seats.length });
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
    const moves = rec.moves.map((m) => {
      if (m.fault) return { ...plainMove(m), ms: m.ms };
      const judged = engine.judge(m.slot, d.phase, { ok: true, action: m.action });
      if (judged.fault) {
        throw new ReplayMismatchError(`${where}: slot ${m.slot}'s recorded action ${JSON.stringify(m.action)} is illegal: ${judged.fault.detail}`, rec.turn);
      }
      return { ...judged, ms: m.ms };
    });
    const rebuilt = engine.commit(d, moves);
    if (rebuilt.hash !== rec.hash) {
      throw new ReplayMismatchError(`${where}: the state after this step differs (recorded ${rec.hash}, rebuilt ${rebuilt.hash})`, rec.turn);
    }
    return rebuilt;
  }

  /**
   * Checks the game is over and its whole result is the recorded one: ranks, scores, winner, draw, reason
   * and every seat's fault. Throws naming the first field that differs.
   */
  finish(result: ReplayResult): void {
    const engine = this.engine;
    if (engine.decision()) {
      throw new ReplayMismatchError(`the replay ends after turn ${engine.lastTurn()}, but the game is not over`, null);
    }
    const rebuilt = resultOf(engine);
    const keys = new Set([...Object.keys(rebuilt), ...Object.keys(result)]);
    for (const key of keys) {
      const [was, now] = [JSON.stringify((result as unknown as Record<string, unknown>)[key]), JSON.stringify((rebuilt as unknown as Record<string, unknown>)[key])];
      if (was !== now) throw new ReplayMismatchError(`the result differs: recorded ${key} ${was ?? '(none)'}, rebuilt ${now ?? '(none)'}`, null);
    }
  }
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
  follower.finish(replay.result);
  return follower.engine;
}

/** The result block of a finished match: the rules' outcome, its winner and draw, each seat's latest fault. */
export function resultOf(engine: MatchEngine): ReplayResult {
  const outcome = engine.outcome();
  return { ...outcome, ...summarise(outcome), faults: engine.faults };
}

/**
 * A finished match's replay: its header, the engine's recorded steps and result, and what the runner measured
 * (the duration; the raw messages when they were kept).
 */
export function buildReplay(header: ReplayHeader, engine: MatchEngine, extra: { durationMs?: number; transcripts?: TranscriptEntry[][] } = {}): Replay {
  const { forkedFrom, ...rest } = header;
  const replay: Replay = { ...rest, turns: engine.records, result: resultOf(engine) };
  if (extra.durationMs !== undefined) replay.durationMs = extra.durationMs;
  if (extra.transcripts) replay.transcripts = extra.transcripts;
  if (forkedFrom) replay.forkedFrom = forkedFrom;
  return replay;
}
