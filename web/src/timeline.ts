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
 * kept as they are, or (a game whose frame grows with the match, Battleship) a `frame` with the first step and
 * a `delta` with each later one, which the game's `spectator.fold` adds to the frame before it.
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
  /** a hidden match's steps as they came, index 0 being before the first: a whole frame, or a delta to fold */
  private readonly publicFrames: ({ frame: unknown } | { delta: unknown })[] = [];
  /** a hidden match's latest frame, each delta folded into it as it comes (the timeline's own copy) */
  private head: unknown = null;
  /** a hidden match's frame at some index, to scrub from: forward by folding, backward from its latest whole frame */
  private publicCursor: { index: number; frame: unknown } | null = null;
  /** the state of frame `cursorIndex`, owned by the timeline (a copy), to step forward from cheaply */
  private cursor: { index: number; state: unknown } | null = null;

  /** `startFrame`: with a public header, the frame before the first step (the `started` event's), when it came */
  constructor(
    readonly game: AnyGame,
    readonly header: ReplayHeader | PublicHeader,
    startFrame?: unknown,
  ) {
    if ('hidden' in header) {
      this.follower = null;
      this.publicFrames.push({ frame: startFrame ?? null });
      this.head = startFrame === undefined || startFrame === null ? null : structuredClone(startFrame);
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

  /**
   * Adds the next step (for a hidden match, its public frame, or the delta the game's `spectator.fold` adds to
   * the frame before it); a step that does not re-play, or a delta that does not follow, is noted, not thrown.
   */
  push(record: TurnRecord, publicFrame?: unknown, delta?: unknown): void {
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
      const fold = this.game.presentation.spectator?.fold;
      if (delta !== undefined && fold) {
        try {
          this.head = fold(this.head === null ? null : this.head, delta);
        } catch (err) {
          this.mismatch = `step ${this.records.length + 1}: ${err instanceof Error ? err.message : String(err)}`;
          return;
        }
        this.publicFrames.push({ delta });
      } else {
        this.head = publicFrame === undefined || publicFrame === null ? null : structuredClone(publicFrame);
        this.publicFrames.push({ frame: publicFrame ?? null });
      }
      this.records.push(record);
    }
    this.buildMs += performance.now() - t0;
  }

  /** The frame after `index` steps (0: before the first). */
  frame(index: number): Frame {
    const i = Math.max(0, Math.min(index, this.records.length));
    const base = { record: i > 0 ? this.records[i - 1]! : null, index: i, steps: this.records.length };
    if (!this.follower) return { ...base, publicFrame: this.publicFrameAt(i) };
    return { ...base, state: this.stateAt(i) };
  }

  /**
   * A hidden match's frame after `index` steps. The latest is kept up to date as steps come; an earlier one is
   * folded forward from the cursor when it is behind, else from the latest whole frame at or before it (the
   * first step's, for a game that sends deltas): folding a delta costs little whatever the match's length, where
   * a copy of every frame would grow with its square.
   */
  private publicFrameAt(index: number): unknown {
    if (index === this.records.length) return this.head;
    const fold = this.game.presentation.spectator?.fold;
    const at = this.publicFrames[index]!;
    if (!fold || 'frame' in at) return 'frame' in at ? at.frame : null;
    let from = this.publicCursor;
    if (!from || from.index > index) {
      let k = index;
      while (k > 0 && !('frame' in this.publicFrames[k]!)) k--;
      const whole = this.publicFrames[k] as { frame: unknown };
      from = { index: k, frame: whole.frame === null ? null : structuredClone(whole.frame) };
    }
    let frame = from.frame;
    for (let i = from.index + 1; i <= index; i++) {
      const step = this.publicFrames[i]!;
      frame = 'frame' in step ? structuredClone(step.frame) : fold(frame, step.delta);
    }
    this.publicCursor = { index, frame };
    return frame;
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
