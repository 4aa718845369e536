import { resolveConfig, type ConfigValues } from './config.js';
import { UsageError } from './errors.js';
import type { AnyGame, Decision, Fault, Move, Outcome, Parsed, ViewContext } from './game.js';
import { fingerprint } from './hash.js';

/** One recorded move: an action or a fault, and how long the answer took (ms, absent for replays rebuilt in memory). */
export interface RecordedMove {
  slot: number;
  action?: unknown;
  fault?: Fault;
  ms?: number;
}

/** One recorded step of a match: the decision it answered, the moves, and the fingerprint of the state after it. */
export interface TurnRecord {
  turn: number;
  phase: string;
  moves: RecordedMove[];
  hash: string;
}

/** A recorded step's moves as the engine takes them (timings dropped; a stream seat keeps its lines and its fault). */
export function movesOf(rec: TurnRecord): Move<unknown>[] {
  return rec.moves.map((m) => (m.fault ? (m.action !== undefined ? { slot: m.slot, action: m.action, fault: m.fault } : { slot: m.slot, fault: m.fault }) : { slot: m.slot, action: m.action }));
}

/** What fixes a match before any bot speaks. */
export interface MatchSetup {
  config: Record<string, unknown>;
  seed: number;
  players: number;
}

/**
 * The pure state machine of one match: no I/O, no clock. The runner drives it with real bots,
 * `replay verify` drives it with recorded moves, and both get the same states.
 */
export class MatchEngine {
  readonly config: ConfigValues;
  readonly seed: number;
  readonly players: number;
  state: unknown;
  readonly records: TurnRecord[] = [];
  /** the latest fault of each slot, with its turn (the one that cost the game, when one did) */
  readonly faults: (({ turn: number } & Fault) | null)[];

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
    const problem = game.validateConfig?.(this.config, players);
    if (problem) throw new UsageError(`bad config for ${game.id}: ${problem}`);
    this.seed = setup.seed >>> 0;
    this.players = players;
    this.faults = Array.from({ length: players }, () => null);
    this.state = game.setup({ config: this.config, players, seed: this.seed });
  }

  /** Who must answer now, or null when the match is over. */
  decision(): Decision | null {
    return this.game.next(this.state);
  }

  /** The message object for `slot` in the current position. */
  view(slot: number, ctx: ViewContext): unknown {
    return this.game.view(this.state, slot, ctx);
  }

  /** Reads an answer object (or a dialect's parse result) and checks it against the rules. */
  judge(slot: number, phase: string, parsed: Parsed<unknown>): Move<unknown> {
    if (!parsed.ok) return { slot, fault: { kind: parsed.kind, detail: parsed.detail } };
    const illegal = this.game.check?.(this.state, slot, parsed.action, phase) ?? null;
    if (illegal !== null) return { slot, fault: { kind: 'illegal-move', detail: illegal } };
    return { slot, action: parsed.action };
  }

  /** Applies one step (a move per seat of `decision`, in seat order) and records it. */
  commit(decision: Decision, moves: (Move<unknown> & { ms?: number })[]): TurnRecord {
    const ordered = decision.seats.map((slot) => {
      const m = moves.find((x) => x.slot === slot);
      if (!m) throw new Error(`internal: no move for slot ${slot} on turn ${decision.turn}`);
      return m;
    });
    for (const m of ordered) {
      if (m.fault) this.faults[m.slot] = { turn: decision.turn, ...m.fault };
    }
    // A stream step's seat may carry both the lines it sent and the fault that ended it.
    const plain = ordered.map(({ slot, action, fault }) => (fault ? (action !== undefined ? { slot, action, fault } : { slot, fault }) : { slot, action }) as Move<unknown>);
    this.state = this.game.apply(this.state, plain, decision.phase);
    const record: TurnRecord = {
      turn: decision.turn,
      phase: decision.phase,
      moves: ordered.map((m) => {
        const r: RecordedMove = m.fault ? { slot: m.slot, fault: m.fault } : { slot: m.slot, action: m.action };
        if (m.fault && m.action !== undefined) r.action = m.action;
        if (m.ms !== undefined) r.ms = m.ms;
        return r;
      }),
      hash: fingerprint(this.game.digest ? this.game.digest(this.state) : this.state),
    };
    this.records.push(record);
    return record;
  }

  /** The outcome; only meaningful once `decision()` is null. */
  outcome(): Outcome {
    return this.game.outcome(this.state);
  }

  /** The last turn number played (the game's own numbering). */
  lastTurn(): number {
    return this.records.length ? this.records[this.records.length - 1]!.turn : 0;
  }
}
