import type { ConfigValues } from '../../../src/core/config.js';
import type { TurnRecord } from '../../../src/core/engine.js';
import type { AskPhase } from '../../../src/core/game.js';
import type { ReplaySeat } from '../../../src/core/replay.js';

/**
 * One picture of a match, as the player shell hands it to a game's renderer. Exactly one of `state` and
 * `publicFrame` is set: `state` is the game's whole state after the step (rebuilt in the browser by the same
 * rules the server ran); `publicFrame` is what a spectator of a game with hidden information gets while the
 * match is on (the game's `spectator.frame(state)`), with no config and no seed.
 */
export interface Frame {
  state?: unknown;
  publicFrame?: unknown;
  /**
   * with a public frame at the newest step of a match a person plays here: what that person's seat was last told
   * (its own view, as the play stream's `ask` gave it), for the renderer to draw what the seat sees (smart-dog's
   * dogs and sheep) over what spectators see
   */
  seat?: { slot: number; view: unknown };
  /** the step that led here (its moves, actions and faults); null for the position before the first step */
  record: TurnRecord | null;
  /** the step's number in the match (0 before the first step) and how many steps there are so far */
  index: number;
  steps: number;
}

/** What a renderer is told once, when it is mounted: who plays and how the match was set up. */
export interface MatchSetupInfo {
  game: string;
  seats: ReplaySeat[];
  /** the resolved config (empty for a live hidden-information match, where it is not public) */
  config: ConfigValues;
}

/**
 * Draws one game's frames on a canvas. The shell owns the canvas element and its place in the page; the
 * renderer sizes its drawing buffer to the canvas's CSS size × devicePixelRatio on each draw (the page may
 * resize it), draws nothing outside it, and keeps no timers of its own.
 */
export interface Renderer {
  mount(canvas: HTMLCanvasElement, setup: MatchSetupInfo): void;
  /** draws this frame; `highlight` are cells (x, y in the game's own coordinates) a person may pick now */
  draw(frame: Frame, highlight?: readonly Cell[]): void;
  /** the board cell under a point of the canvas (CSS pixels from its top-left), or null; for clicks in human play */
  cellAt?(x: number, y: number): Cell | null;
  unmount(): void;
}

/** A board cell in the game's own coordinates (as its wire and its terminal play name them). */
export type Cell = readonly [x: number, y: number];

/** A move a person can make now: a label for a button, the line the game's terminal play reads, and its cell. */
export interface Choice {
  label: string;
  /** exactly what a person would type at `botarena play GAME human` (the server reads it with the game's parser) */
  line: string;
  /** the board cell that picks this move with a click, when it has one */
  cell?: Cell;
  /** the keyboard key that picks it (`ArrowUp`…, as KeyboardEvent.key), when it has one */
  key?: string;
}

/** What a person's seat knows beside the message it was sent: its slot, the match's config and the answers given so far. */
export interface SeatInfo {
  /** the person's seat (some games' messages do not say which player you are) */
  slot: number;
  config: Readonly<Record<string, unknown>>;
  answered: readonly unknown[];
}

/**
 * Human play in the browser for one game: from the message the person's seat was sent (the wire's message
 * object, exactly what a bot gets), the moves to offer. A game whose answers are richer than a list (commands
 * with arguments, a fleet) also takes typed lines: `text` says what to type.
 */
export interface PlayInput {
  choices(view: unknown, phase: AskPhase, seat: SeatInfo): Choice[];
  /** when set, the page also shows a text box; the placeholder shows the syntax with an example */
  text?: (view: unknown, phase: AskPhase) => { placeholder: string } | null;
}

/** A game in the browser: its renderer and its human play. */
export interface WebGame {
  id: string;
  createRenderer(): Renderer;
  play: PlayInput;
  /**
   * optional: whether a seat is out of the game in this frame (Tron's dead bots), with when (`lap 36`, in the
   * game's words) and why (`hit its own trail at 43,30`), as the rules recorded it; null while it plays
   */
  out?(frame: Frame, slot: number): SeatOut | null;
  /** true: the rules' outcome of any state is the score so far (Tron's laps, lighthouses' points, paint's squares), shown at each step */
  scoreEachStep?: true;
  /** true: a turn's answer is a command that succeeds or fails (lighthouses, paint): the step panel says which */
  commands?: true;
}

/** A seat out of the game: when, in the game's words, and why, as the rules recorded it. */
export interface SeatOut {
  at: string;
  cause: string;
}
