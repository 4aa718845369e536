import type { ConfigSpec, ConfigValues } from './config.js';

/** Why a bot's answer did not count. Recorded in the result and the replay. */
export type FaultKind =
  | 'timeout' // no answer before the deadline
  | 'crash' // the bot's process exited or was killed
  | 'transport' // connection refused/reset, spawn failure, HTTP error
  | 'too-large' // the answer exceeded the size cap
  | 'not-json' // the answer was not parseable (JSON, or the dialect's text form)
  | 'bad-answer' // parseable, but a missing or wrong field
  | 'illegal-move'; // well-formed, but the rules forbid it in this position

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
  | { slot: number; action: A; fault?: undefined }
  | { slot: number; fault: Fault; action?: undefined }
  | { slot: number; action: A; fault: Fault };

/** What the rules ask next: which seats answer now (in parallel), in which phase, on which turn. */
export interface Decision {
  /** 'init' for the hello (init timeout applies); any other name is a play phase (turn timeout). */
  phase: string;
  /** the seats asked now, all at once; their answers are applied together */
  seats: number[];
  /** the game's own turn number, shown to people (init steps are turn 0) */
  turn: number;
  /**
   * a stream step (smart-dog): each seat sends lines until the game says its turn is over; every line is
   * applied at once (through `stream.line`) in arrival order, and its replies go back at once. Each seat's
   * action is then its lines, numbered in the order they were applied: a `StreamAction`.
   */
  stream?: boolean;
  /** this step's deadline when the match sets none (smart-dog's `waitForTurn`); else the game's default */
  deadlineMs?: number;
}

/** What a seat did in a stream step: its lines, each with its place in the step's order of application. */
export interface StreamAction {
  lines: [number, string][];
}

/** The end of a match: rank per slot (1 is best; equal ranks tie), optional scores, and why. */
export interface Outcome {
  ranks: number[];
  scores: number[] | null;
  reason: string;
}

/** The result of reading a bot's answer: an action, or a fault saying what was wrong with it. */
export type Parsed<A> = { ok: true; action: A } | { ok: false; kind: 'not-json' | 'bad-answer'; detail: string };

/** What a view (the message for one seat) may depend on besides the state. */
export interface ViewContext {
  phase: string;
  /** the match id sent as the wire's game id */
  matchId: string;
  /** the seats' display names, by slot */
  names: readonly string[];
}

/** Everything `setup` gets: the resolved config, how many players, and the match seed. */
export interface SetupContext<C> {
  config: C;
  players: number;
  seed: number;
}

/** A way of writing messages to bytes and reading answers back, other than the default JSON. */
export interface WireDialect<S, A> {
  /** sent as the HTTP Content-Type */
  contentType: string;
  encode(state: S, slot: number, ctx: ViewContext): string;
  decode(body: string, state: S, slot: number, phase: string): Parsed<A>;
}

/** An in-process bot: gets the same message object a remote bot would get, returns the answer object. */
export interface BuiltinBot<V> {
  act(view: V, phase: string): unknown;
}

/** A named built-in bot of a game. */
export interface BuiltinBotFactory<V, C = ConfigValues> {
  description: string;
  create(ctx: { slot: number; players: number; config: C; seed: number }): BuiltinBot<V>;
}

/** How a person at a terminal plays: what to show, and how to read a typed line into an answer. */
export interface HumanPlay<V> {
  /**
   * the init answer given for the person without asking (a name, paint's `{"ready":true}`); when absent,
   * the person is asked for it like for a move (Battleship's fleet)
   */
  hello?(view: V, name: string): unknown;
  /** the board and the question, for this view */
  prompt(view: V, phase: string): string;
  /** a typed line → the wire answer object, or an error sentence to show before asking again */
  parse(line: string, view: V, phase: string): { answer: unknown } | { error: string };
}

/**
 * A game: pure rules, its wire, its built-in bots and a text renderer. `C` config, `S` state,
 * `A` action, `V` the per-seat message object (the wire's JSON, typed).
 *
 * States are plain JSON data (no classes, no functions), so they can be hashed, saved and cloned.
 * `apply` may reuse the state it is given: a caller that keeps a state must clone it first.
 */
export interface GameDefinition<C extends ConfigValues = ConfigValues, S = unknown, A = unknown, V = unknown> {
  id: string;
  title: string;
  /** one line for `botarena games` */
  summary: string;
  players: { min: number; max: number };
  config: ConfigSpec;
  /** a sentence naming the broken rule, or null when the config (with this many players) is playable */
  validateConfig?(config: C, players: number): string | null;
  /**
   * default deadlines per answer, from the game's spec; `slowMs`: answers slower than this are noted in the
   * bot's log (lighthouses' 100 ms, whose deadline adds a grace); `exitMs`: at the end, how long a process
   * gets to exit by itself once its stdin is closed before it is signalled (default 0).
   */
  timeouts: { initMs: number; turnMs: number; slowMs?: number; exitMs?: number };
  /** a label per slot for people (X/O, colours…) */
  seatLabel?(slot: number): string;

  setup(ctx: SetupContext<C>): S;
  /** who must answer now, or null when the game is over */
  next(state: S): Decision | null;
  /** the message object sent to `slot` now (JSON-serialised for remote bots, field order kept) */
  view(state: S, slot: number, ctx: ViewContext): V;
  /**
   * optional: the JSON text of `view(state, slot, ctx)`, written by the game itself — for games whose
   * messages share a large part (Tron's board) that should be serialised once per turn, not once per bot.
   * Must produce exactly the bytes JSON.stringify(view(...)) would.
   */
  encodeJson?(state: S, slot: number, ctx: ViewContext): string;
  /**
   * optional, for line transports (stdio): why a line the bot sent while an answer is awaited is not that
   * answer (a stale nonce, as paint's `turns_left`), or null when it is. A skipped line is dropped and noted,
   * and reading goes on until the same deadline.
   */
  skipAnswer?(text: string, state: S, slot: number, phase: string): string | null;
  /**
   * optional, for line transports: every message that asks is answered by exactly one line, so a line that
   * arrives after its deadline is the missed answer and is dropped, never taken for the next one
   * (lighthouses). Without it, a line that arrives while nothing is asked is dropped.
   */
  strictPairing?: boolean;
  /**
   * optional: a message sent to the seat right after its move was applied, expecting no answer
   * (lighthouses' `{"success":…}`); undefined sends nothing. It sees the move as judged (an action, or the
   * fault that replaced it) and the state after the step.
   */
  ack?(move: Move<A>, state: S, phase: string): unknown;
  /**
   * for games with stream steps: applies one line from `slot` to `state` at once (a scratch copy during a
   * live step; the real state when `apply` replays the step) and says what to send back now and whether
   * this seat's turn is over; `ends` tells, from the text alone, whether a line ends the seat's turn
   */
  stream?: {
    line(state: S, slot: number, text: string): { replies: string[]; done: boolean };
    ends(text: string): boolean;
  };
  /**
   * optional: chosen starting positions. `write` gives the config values (key → text, as `--set` takes them)
   * that make `setup` start exactly in `state` — its turn counter included — once the new match's inits are
   * played (bots are greeted again). `botarena replay position` prints them and `replay fork` starts from them.
   */
  position?: { write(state: S): Record<string, string> };
  /** optional: the last message each seat gets when the match is over, expecting no answer (smart-dog's `finished`) */
  farewell?(state: S, slot: number): unknown;
  /** the wire dialect a bot speaks when its spec names none (default `json`) */
  defaultDialect?: string;
  /** reads an answer object (parsed JSON, or a built-in bot's return value) into an action */
  parseAnswer(answer: unknown, state: S, slot: number, phase: string): Parsed<A>;
  /** why a well-formed action is illegal here, or null when it is legal */
  check?(state: S, slot: number, action: A, phase: string): string | null;
  /** applies one step: a move (action or fault) for each seat of the current decision, in seat order */
  apply(state: S, moves: Move<A>[], phase: string): S;
  /**
   * optional: a compact value that identifies the state given the moves so far, fingerprinted after
   * every step instead of the whole state (for games with large states, e.g. Tron's trails). It must
   * change whenever a step's moves change the state.
   */
  digest?(state: S): unknown;
  /** the outcome; only called when `next` returns null */
  outcome(state: S): Outcome;
  /** the board for a terminal */
  render(state: S): string;

  /** extra wire dialects, chosen per bot (`http+form://…` selects `form`); JSON is always available */
  dialects?: Record<string, WireDialect<S, A>>;
  bots: Record<string, BuiltinBotFactory<V, C>>;
  human?: HumanPlay<V>;
}

/** A game of any type, as held by the registry and the runner. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyGame = GameDefinition<any, any, any, any>;

/**
 * Declares a game. Built-in games use this exactly as a third-party game would; it checks the
 * definition's own consistency so a mistake shows up at load time, not mid-match.
 */
export function defineGame<C extends ConfigValues, S, A, V>(def: GameDefinition<C, S, A, V>): GameDefinition<C, S, A, V> {
  if (!/^[a-z][a-z0-9-]*$/.test(def.id)) throw new Error(`game id "${def.id}" must be lower-case letters, digits and dashes`);
  if (def.players.min < 1 || def.players.max < def.players.min) {
    throw new Error(`game ${def.id}: bad player range ${def.players.min}..${def.players.max}`);
  }
  if (def.dialects && 'json' in def.dialects) throw new Error(`game ${def.id}: the json dialect is built in`);
  return def;
}

/** The default wire: the view as JSON text, answers parsed as JSON then read by `parseAnswer`. */
export function jsonDialect<S, A>(game: GameDefinition<ConfigValues, S, A, unknown>): WireDialect<S, A> {
  return {
    contentType: 'application/json',
    encode: game.encodeJson ? (state, slot, ctx) => game.encodeJson!(state, slot, ctx) : (state, slot, ctx) => JSON.stringify(game.view(state, slot, ctx)),
    decode: (body, state, slot, phase) => {
      let value: unknown;
      try {
        value = JSON.parse(body);
      } catch {
        return { ok: false, kind: 'not-json', detail: `answer is not JSON: ${preview(body)}; expected one JSON object` };
      }
      return game.parseAnswer(value, state, slot, phase);
    },
  };
}

/** The dialect named `name` for a game ('json' is always there). */
export function getDialect<S, A>(game: GameDefinition<ConfigValues, S, A, unknown>, name = 'json'): WireDialect<S, A> {
  if (name === 'json') return jsonDialect(game);
  const d = game.dialects?.[name];
  if (!d) {
    const known = ['json', ...Object.keys(game.dialects ?? {})];
    throw new Error(`game ${game.id} has no wire dialect "${name}"; it has: ${known.join(', ')}`);
  }
  return d;
}

/** A short, single-line preview of a bot's raw answer for error messages. */
export function preview(text: string, max = 80): string {
  const oneLine = JSON.stringify(text.length > max ? text.slice(0, max) : text);
  return text.length > max ? `${oneLine}… (${text.length} bytes)` : oneLine;
}

/** Ranks from scores, higher is better; equal scores share the better rank (1, 1, 3). */
export function ranksFromScores(scores: readonly number[]): number[] {
  return scores.map((s) => 1 + scores.filter((o) => o > s).length);
}
