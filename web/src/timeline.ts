import { movesOf, type TurnRecord } from '../../src/core/engine.js';
import { initRules, type AnyGame } from '../../src/core/game.js';
import { ReplayFollower, type Replay, type ReplayHeader, type ReplayResult } from '../../src/core/replay.js';
import { games } from '../../src/games/index.js';
import type { PublicHeader } from '../../src/live/events.js';
import type { Frame } from './games/types.js';

/** How many steps apart the kept copies of the state are: scrubbing re-plays at most this many steps. */
const CHECKPOINT_EVERY = 32;

/**
 * A match's frames in the browser, live or replayed. From a full header it re-runs the game's rules step by step
 * with the recorded moves (the same code the server ran), checking every step's fingerprint as it goes, and
 * keeps a copy of the state every CHECKPOINT_EVERY steps: any frame is then at most that many steps away. The
 * copies are JSON text (states are plain JSON data): a 160×160 Tron state parses in 4 ms where structuredClone
 * takes 22, and the text is the smaller in memory. A live
 * match of a game with hidden information comes with a public header and a `frame` per step instead: those are
 * kept as they are.
 */
export class Timeline {
  readonly records: TurnRecord[] = [];
  /** the fingerprints the browser computed, one per step (full headers only) */
  readonly fingerprints: string[] = [];
  result: ReplayResult | null = null;
  /** why the match stopped without a result, when it did */
  stopped: string | null = null;
  /** set when a recorded step does not re-play: the frames after it cannot be trusted */
  mismatch: string | null = null;
  /** the time spent re-building steps, ms, and how many (for the figures in bench/RESULTS.md) */
  buildMs = 0;
  private readonly follower: ReplayFollower | null;
  private readonly checkpoints: string[] = [];
  private readonly publicFrames: unknown[] = [];
  /** the state of frame `cursorIndex`, owned by the timeline (a copy), to step forward from cheaply */
  private cursor: { index: number; state: unknown } | null = null;

  constructor(
    readonly game: AnyGame,
    readonly header: ReplayHeader | PublicHeader,
  ) {
    if ('hidden' in header) {
      this.follower = null;
      this.publicFrames.push(null);
    } else {
      this.follower = new ReplayFollower(game, header);
      this.checkpoints.push(JSON.stringify(this.follower.engine.state));
    }
  }

  /** true when frames carry only what spectators may see (a live match of a game with hidden information) */
  get hidden(): boolean {
    return this.follower === null;
  }

  /** How many steps are known. */
  get steps(): number {
    return this.records.length;
  }

  /** Adds the next step (its public frame too, for a hidden match); a step that does not re-play is noted, not thrown. */
  push(record: TurnRecord, publicFrame?: unknown): void {
    if (this.mismatch) return;
    const t0 = performance.now();
    if (this.follower) {
      try {
        const rebuilt = this.follower.step(record);
        this.fingerprints.push(rebuilt.hash);
      } catch (err) {
        this.mismatch = err instanceof Error ? err.message : String(err);
        return;
      }
      this.records.push(record);
      if (this.records.length % CHECKPOINT_EVERY === 0) this.checkpoints.push(JSON.stringify(this.follower.engine.state));
    } else {
      this.records.push(record);
      this.publicFrames.push(publicFrame ?? null);
    }
    this.buildMs += performance.now() - t0;
  }

  /** The frame after `index` steps (0: before the first). */
  frame(index: number): Frame {
    const i = Math.max(0, Math.min(index, this.records.length));
    const base = { record: i > 0 ? this.records[i - 1]! : null, index: i, steps: this.records.length };
    if (!this.follower) return { ...base, publicFrame: this.publicFrames[i] };
    return { ...base, state: this.stateAt(i) };
  }

  /** The state after `index` steps: from the cursor when it is just behind, else from the nearest checkpoint. */
  private stateAt(index: number): unknown {
    const t0 = performance.now();
    let from = this.cursor;
    if (!from || from.index > index || index - from.index > CHECKPOINT_EVERY) {
      const c = Math.floor(index / CHECKPOINT_EVERY);
      from = { index: c * CHECKPOINT_EVERY, state: JSON.parse(this.checkpoints[c]!) as unknown };
    }
    let state = from.state;
    for (let i = from.index; i < index; i++) state = this.apply(state, this.records[i]!);
    this.cursor = { index, state };
    this.buildMs += performance.now() - t0;
    // The renderer gets the timeline's own copy: renderers only read.
    return state;
  }

  private apply(state: unknown, record: TurnRecord): unknown {
    const moves = movesOf(record);
    return record.phase === 'init' ? initRules(this.game).apply(state, moves) : this.game.rules.apply(state, moves);
  }
}

/** A timeline from a whole replay (a finished match, or a file); throws when the replay's game is unknown. */
export function timelineOf(replay: Replay): Timeline {
  const game = games[replay.game];
  if (!game) throw new Error(`this replay is of a game this player does not know: ${replay.game}`);
  const { turns, result, transcripts: _t, ...header } = replay;
  const t = new Timeline(game, header);
  for (const rec of turns) t.push(rec);
  t.result = result;
  // A match stopped before its end (Ctrl-C) has nobody's result: it is shown as stopped, not as won.
  t.stopped = replay.stopped ?? null;
  return t;
}
