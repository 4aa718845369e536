import { resolveConfig, type ConfigValues } from './config.js';
import { UsageError } from './errors.js';
import {
  decodeInit,
  initRules,
  type AnyGame,
  type AskPhase,
  type Decision,
  type Fault,
  type Move,
  type Outcome,
  type Parsed,
  type ViewContext,
  type WireDialect,
} from './game.js';
import { chainFingerprint, fingerprint, hex } from './hash.js';
import type { RecordedMove, TurnRecord } from './replay-format.js';

export type { RecordedMove, TurnRecord } from './replay-format.js';

/** The number a chain of step fingerprints starts from (FNV's offset basis). */
const START = 0x811c9dc5;

/**
 * A move as the rules take it, from anything that carries one (a recorded move, a move with its timing):
 * the action, or the fault, or both (a stream seat's lines and the fault that ended them); nothing else.
 */
export function plainMove(m: { slot: number; action?: unknown; fault?: Fault; strike?: true }): StrikeMove {
  if (!m.fault) return { slot: m.slot, action: m.action };
  const move: StrikeMove = m.action !== undefined ? { slot: m.slot, action: m.action, fault: m.fault } : { slot: m.slot, fault: m.fault };
  if (m.strike) move.strike = true;
  return move;
}

/**
 * A move as the engine takes it: a move, or a timeout the match's strikes forgave (`strike`), which the rules
 * play as the game's pass (a stream seat's strike keeps its lines) and which is not the seat's fault.
 */
export type StrikeMove = Move<unknown> & { strike?: true };
/** How long a move's answer took (ms) and where the time went, as recorded beside it (see `RecordedMove`). */
export interface MoveTiming {
  ms?: number;
  cpuMs?: number;
  connectMs?: number;
  firstByteMs?: number;
}

/** A move's timing as recorded: its wall time, and the others it has. */
export function recordedTiming(m: MoveTiming): MoveTiming {
  const t: MoveTiming = { ms: m.ms };
  if (m.cpuMs !== undefined) t.cpuMs = m.cpuMs;
  if (m.connectMs !== undefined) t.connectMs = m.connectMs;
  if (m.firstByteMs !== undefined) t.firstByteMs = m.firstByteMs;
  return t;
}

/** A recorded step's moves as the engine takes them (timings dropped; a stream seat keeps its lines and its fault). */
export function movesOf(rec: TurnRecord): StrikeMove[] {
  return rec.moves.map(plainMove);
}

/** What fixes a match before any bot speaks. */
export interface MatchSetup {
  config: Record<string, unknown>;
  seed: number;
  players: number;
  /**
   * how step fingerprints are made: `state`, of the whole state after each step (replays written before
   * `hashes` was recorded); `chain`, of what each step changed, chained on the fingerprint before (the
   * default for games with `changes` or `mixChanges`: it costs what a step changes, not what the state
   * holds)
   */
  hashes?: HashScheme;
}

/** How a match's step fingerprints are made (see `MatchSetup.hashes`). */
export type HashScheme = 'state' | 'chain';

/**
 * The pure state machine of one match: no I/O, no clock. The runner drives it with real bots,
 * `replay verify` drives it with recorded moves, and both get the same states.
 */
export class MatchEngine {
  readonly config: ConfigValues;
  readonly seed: number;
  readonly players: number;
  state: unknown;
  /**
   * Made by `Array.of`, not as a literal `[]`: V8 notes where a literal's objects are made and, when most of
   * them are still alive at young-generation collections (a match's records are), makes that literal's next
   * objects in the old generation. An old list, even of a finished match, is then taken as alive by every
   * young collection until the next full one, and with it the young store its records sit in: every
   * record of every match was copied and moved to the old generation (a third of a 10×10 paint turn in GC).
   */
  readonly records: TurnRecord[] = Array.of<TurnRecord>();
  /**
   * the latest fault of each slot, with its turn (the one that cost the game, when one did); a crash or a
   * lost connection is kept where it happened: the same faults of the steps right after it (a bot that is
   * gone, asked again) are its consequences and do not replace it (`continuesGone`)
   */
  readonly faults: (({ turn: number } & Fault) | null)[];
  /** by slot: its last move's fault, null when it answered (the next fault may continue it: `continuesGone`) */
  private readonly lastFault: (Fault | null)[];
  /** the latest fault of each slot that the rules ignore (a botsarena hello's: see `InitRules.faultsIgnored`) */
  readonly notes: (({ turn: number } & Fault) | null)[];
  /** by slot: the timeouts forgiven by the match's strikes so far (moves marked `strike`) */
  readonly strikes: number[];

  /** what the game says about the config: settings that are overridden or may not do what was meant */
  readonly warnings: string[];
  /** how this match's step fingerprints are made */
  readonly hashes: HashScheme;
  /** the last fingerprint, which the next step's is chained on (`chain` scheme) */
  private chain = 0;

  constructor(
    readonly game: AnyGame,
    setup: MatchSetup,
  ) {
    const { players } = setup;
    if (!Number.isInteger(players) || players < game.players.min || players > game.players.max) {
      const want = game.players.min === game.players.max ? `${game.players.min}` : `${game.players.min} to ${game.players.max}`;
      throw new UsageError(`${game.id} is played by ${want} bots, got ${players}`);
    }
    this.config = resolveConfig(game.id, game.config, setup.config);
    const problem = game.rules.validateConfig?.(this.config, players);
    if (problem) throw new UsageError(`bad config for ${game.id}: ${problem}`);
    this.warnings = game.rules.configWarnings?.(this.config, players) ?? [];
    this.seed = setup.seed >>> 0;
    this.players = players;
    this.faults = Array.from({ length: players }, () => null);
    this.notes = Array.from({ length: players }, () => null);
    this.lastFault = Array.from({ length: players }, () => null);
    this.strikes = Array.from({ length: players }, () => 0);
    this.state = game.rules.setup({ config: this.config, players, seed: this.seed });
    const chains = game.replay?.mixChanges !== undefined || game.replay?.changes !== undefined;
    this.hashes = setup.hashes ?? (chains ? 'chain' : 'state');
    if (this.hashes === 'chain') {
      if (!chains) throw new UsageError(`${game.id} fingerprints whole states only; this replay asks for "chain"`);
      // The chain starts from the set-up state's changes (what the config and seed fix besides is not in them).
      this.chain = chainStep(game, START, this.state, []);
    }
  }

  /** Who must answer now, or null when the match is over. */
  decision(): Decision | null {
    return this.game.rules.next(this.state);
  }

  /** The message object for `slot` in the current position. */
  view(slot: number, ctx: ViewContext): unknown {
    return this.game.wire.view(this.state, slot, ctx);
  }

  /**
   * Checks a read answer (or its fault) against the rules of the phase: the move it makes. A fault's detail
   * is cut to MAX_FAULT_DETAIL characters, so no answer, however large, is quoted whole.
   */
  judge(slot: number, phase: AskPhase, parsed: Parsed<unknown>): Move<unknown> {
    if (!parsed.ok) return { slot, fault: { kind: parsed.kind, detail: shortDetail(parsed.detail) } };
    const illegal = guarded(
      () =>
        (phase === 'init' ? initRules(this.game).check?.(this.state, slot, parsed.action) : this.game.rules.check?.(this.state, slot, parsed.action)) ?? null,
    );
    if (typeof illegal === 'object' && illegal !== null) return { slot, fault: { kind: 'bad-answer', detail: shortDetail(illegal.detail) } };
    if (illegal !== null) return { slot, fault: { kind: 'illegal-move', detail: shortDetail(illegal) } };
    return { slot, action: parsed.action };
  }

  /** Reads an answer object (parsed JSON, a built-in bot's value) in the phase's rules. */
  parse(slot: number, phase: AskPhase, answer: unknown): Parsed<unknown> {
    const read = guarded(() =>
      phase === 'init' ? initRules(this.game).parse(answer, this.state, slot) : this.game.rules.parseAnswer(answer, this.state, slot),
    );
    return 'detail' in read && !('ok' in read) ? { ok: false, kind: 'bad-answer', detail: read.detail } : read;
  }

  /** Reads an answer's bytes in a wire dialect, in the phase's rules. */
  decode(slot: number, phase: AskPhase, dialect: WireDialect<unknown, unknown, unknown>, text: string): Parsed<unknown> {
    const read = guarded(() => (phase === 'init' ? decodeInit(this.game, dialect, text, this.state, slot) : dialect.decode(text, this.state, slot)));
    return 'detail' in read && !('ok' in read) ? { ok: false, kind: 'bad-answer', detail: read.detail } : read;
  }

  /** Reads an answer object and judges it: the move it makes. */
  read(slot: number, phase: AskPhase, answer: unknown): Move<unknown> {
    return this.judge(slot, phase, this.parse(slot, phase, answer));
  }

  /** Applies one step (a move per seat of `decision`, in seat order) and records it. */
  commit(decision: Decision, moves: (StrikeMove & MoveTiming)[]): TurnRecord {
    const { seats } = decision;
    // Moves usually come in seat order already; otherwise each seat's is looked up.
    let inOrder = moves.length === seats.length;
    for (let i = 0; inOrder && i < seats.length; i++) inOrder = moves[i]!.slot === seats[i];
    const ordered = inOrder
      ? moves
      : seats.map((slot) => {
          const m = moves.find((x) => x.slot === slot);
          if (!m) throw new Error(`internal: no move for slot ${slot} on turn ${decision.turn}`);
          return m;
        });
    // Moves that are already plain (an action and nothing else: what the rules and replays produce) are
    // kept, and so is their list when all are: a copy is made from the first move that is not.
    let plain: Move<unknown>[] = ordered;
    let copied = false;
    let recorded: RecordedMove[] | null = null; // the plain moves themselves unless one carries a time
    const ignored = decision.phase === 'init' && initRules(this.game).faultsIgnored === true;
    for (let i = 0; i < ordered.length; i++) {
      const m = ordered[i]!;
      if (m.strike) this.forgive(decision, m);
      else if (m.fault) this.keepFault(m.slot, decision.turn, m.fault, ignored);
      else if (this.lastFault[m.slot]) this.lastFault[m.slot] = null;
      const keep = m.fault === undefined && m.ms === undefined;
      if (!keep && !copied) {
        plain = ordered.slice(0, i);
        copied = true;
      }
      const p = keep ? m : plainMove(m);
      // A strike is recorded as it was (the timeout, marked) and played as the game's pass.
      const played = m.strike ? this.passOf(m) : p;
      if (copied) plain[i] = played;
      if (m.ms !== undefined || m.strike) (recorded ??= plain.slice(0, i) as RecordedMove[])[i] = m.ms !== undefined ? { ...p, ...recordedTiming(m) } : p;
      else if (recorded) recorded[i] = p;
    }
    this.state = decision.phase === 'init' ? initRules(this.game).apply(this.state, plain) : this.game.rules.apply(this.state, plain);
    const record = new StepRecord(
      decision.turn,
      decision.phase,
      recorded ?? plain,
      this.hashes === 'chain' ? hex((this.chain = chainStep(this.game, this.chain, this.state, plain))) : this.stateFingerprint(),
    );
    this.records.push(record);
    return record;
  }

  /** Counts a forgiven timeout (a strike): only a timeout of a turn, of a game that has a pass, may be one. */
  private forgive(decision: Decision, m: StrikeMove): void {
    if (decision.phase !== 'play' || m.fault?.kind !== 'timeout') {
      throw new UsageError(`slot ${m.slot}'s move on turn ${decision.turn} is marked a strike, but only a turn's timeout may be forgiven`);
    }
    if (!this.game.rules.pass && m.action === undefined) {
      throw new UsageError(`slot ${m.slot}'s move on turn ${decision.turn} is marked a strike, but ${this.game.id} has no pass to play instead`);
    }
    this.strikes[m.slot]!++;
    if (this.lastFault[m.slot]) this.lastFault[m.slot] = null;
  }

  /** What a strike plays: the lines a stream seat sent before its deadline, else the game's pass. */
  private passOf(m: StrikeMove): Move<unknown> {
    if (m.action !== undefined) return { slot: m.slot, action: m.action };
    return { slot: m.slot, action: this.game.rules.pass!(this.state, m.slot) };
  }

  /**
   * Keeps a move's fault in the result: as a note when the rules ignore it (`ignored`); else as the seat's
   * fault, unless it continues the fault before it (a bot that is gone, asked again: `continuesGone`), which the first one says.
   */
  private keepFault(slot: number, turn: number, fault: Fault, ignored: boolean): void {
    if (ignored) {
      this.notes[slot] = { turn, ...fault };
      return;
    }
    const again = continuesGone(this.lastFault[slot]!, fault);
    this.lastFault[slot] = fault;
    if (!again) this.faults[slot] = { turn, ...fault };
  }

  /** The fingerprint of the whole state now (the game's digest of it). */
  stateFingerprint(): string {
    return fingerprint(this.game.replay?.digest ? this.game.replay.digest(this.state) : this.state);
  }

  /** The outcome; only meaningful once `decision()` is null. */
  outcome(): Outcome {
    return this.game.rules.outcome(this.state);
  }

  /** The last turn number played (the game's own numbering). */
  lastTurn(): number {
    return this.records.length ? this.records[this.records.length - 1]!.turn : 0;
  }
}

/**
 * Whether a seat's fault only continues the fault of its move before (`previous`, null when it answered):
 * the bot is gone and was asked again, and the first one says when it went. A crash right after a crash is
 * the dead process asked again; a transport fault right after the same one (its detail too) is a closed
 * connection or a server that went away, asked again ("the bot disconnected", "connection refused at …").
 * The result keeps the first (the engine's `faults`; the web player's seat status follows the same rule).
 */
export function continuesGone(previous: Fault | null, fault: Fault): boolean {
  if (previous === null || previous.kind !== fault.kind) return false;
  return fault.kind === 'crash' || (fault.kind === 'transport' && previous.detail === fault.detail);
}

/**
 * The chain value `previous` with what a step of `game` changed, now in `state`, mixed in (a signed 32-bit
 * integer): the game's `mixChanges`, or its `changes` chained.
 */
export function chainStep(game: AnyGame, previous: number, state: unknown, moves: Move<unknown>[]): number {
  const hooks = game.replay!;
  return hooks.mixChanges ? hooks.mixChanges(previous | 0, state, moves) | 0 : chainFingerprint(previous, hooks.changes!(state, moves));
}

/**
 * A step's record, made by `new` rather than as an object literal: the same plain object (its prototype is
 * Object's, its keys in the same order), but V8 tracks an object literal's place in the code and, seeing
 * that records outlive the young generation, makes them straight in the old one, a slower allocation that
 * was a quarter of a Tron lap's time (0.1–0.4 µs a step, swinging from one process to the next).
 */
const StepRecord = function (this: TurnRecord, turn: number, phase: AskPhase, moves: RecordedMove[], hash: string) {
  this.turn = turn;
  this.phase = phase;
  this.moves = moves;
  this.hash = hash;
} as unknown as new (turn: number, phase: AskPhase, moves: RecordedMove[], hash: string) => TurnRecord;
StepRecord.prototype = Object.prototype;

/** The longest fault detail kept: a quoted answer is cut, never copied whole into results and replays. */
export const MAX_FAULT_DETAIL = 500;

function shortDetail(detail: string): string {
  return detail.length > MAX_FAULT_DETAIL ? `${detail.slice(0, MAX_FAULT_DETAIL)}… (${detail.length} characters)` : detail;
}

/**
 * Runs rules code on a bot's answer; should it throw (a game's bug, or an answer it did not expect), the
 * answer gets a fault instead of the arena crashing: `{ detail }` says what was thrown.
 */
function guarded<T>(read: () => T): T | { detail: string } {
  try {
    return read();
  } catch (err) {
    return { detail: `the answer could not be read (${err instanceof Error ? err.message.slice(0, 200) : 'error'}); a well-formed answer is expected` };
  }
}
