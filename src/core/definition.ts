// A game's definition: what a match of it is (id, players, config, default deadlines) and its built-in bots
// at the top, as every reader needs them (the deadlines and bots are chosen per match like the config, so
// they are neither rules nor wire), then its members in named groups, each one concern and one reader: the
// rules are what the engine runs, the wire what the transports and the runner speak, presentation is for
// people, replay for fingerprints and old replays, tooling for `botarena doctor` and `replay position`.
// `defineGame` is the one way to make one.
import type { ConfigSpec, ConfigValues } from './config.js';
import type { AskPhase, Decision, SetupContext, ViewContext } from './decision.js';
import type { BuiltinBotFactory, HumanPlay, InitRules, LobbyRules, SpectatorRules } from './game-parts.js';
import type { Move, Outcome, Parsed } from './moves.js';

/**
 * The rules: pure functions of the state, what the engine runs (and the browser, and `replay verify`). `S`
 * state, `A` a turn's action, `I` a hello answer's action. `apply` may reuse the state it is given: a caller
 * that keeps a state must clone it first.
 */
export interface GameRules<C extends ConfigValues, S, A, I> {
  /** a sentence naming the broken rule, or null when the config (with this many players) is playable */
  validateConfig?(config: C, players: number): string | null;
  /** sentences about a playable config that may not do what was meant (a setting another one overrides) */
  configWarnings?(config: C, players: number): string[];
  /**
   * optional: the most work one match of this (valid) config may make, in cell-answers: the answers it may
   * ask for in all (seats × turns, bounded by the rules) times the board cells each one involves (what the
   * messages carry and a built-in bot searches). A server refuses an on-demand match above its
   * `--max-match-work`; a game without it is not capped. Pure, and cheap: it runs on the server's thread.
   */
  work?(config: C, players: number): number;
  setup(ctx: SetupContext<C>): S;
  /** who must answer now, or null when the game is over */
  next(state: S): Decision | null;
  /** the hello step's rules, for games whose `next` asks an `init` step */
  init?: InitRules<S, I>;
  /** reads a turn answer object (parsed JSON, or a built-in bot's return value) into an action */
  parseAnswer(answer: unknown, state: S, slot: number): Parsed<A>;
  /** why a well-formed turn action is illegal here, or null when it is legal */
  check?(state: S, slot: number, action: A): string | null;
  /** applies one turn step: a move (action or fault) for each seat of the current decision, in seat order */
  apply(state: S, moves: Move<A>[]): S;
  /**
   * optional: the action a seat plays when its timeout is forgiven (a strike of the match's time rules): the
   * game's own pass ("do nothing this turn"). A stream step's strike keeps the lines the seat sent instead.
   * Null when the game's `apply` reads a null action as no action at all (paint). A game without it has no
   * pass (a missed turn loses it): a match of it cannot have strikes.
   */
  pass?(state: S, slot: number): A | null;
  /**
   * for games with stream steps: applies one line from `slot` to `state` at once (a scratch copy during a
   * live step; the real state when `apply` replays the step) and says what to send back now and whether
   * the seat's turn is over; `ends` tells, from the text alone, whether a line ends the seat's turn
   */
  stream?: {
    line(state: S, slot: number, text: string): { replies: string[]; done: boolean };
    ends(text: string): boolean;
  };
  /** the outcome; only called when `next` returns null */
  outcome(state: S): Outcome;
}

/** A way of writing messages to bytes and reading answers back, other than the default JSON. */
export interface WireDialect<S, A, I = never> {
  /** sent as the HTTP Content-Type */
  contentType: string;
  encode(state: S, slot: number, ctx: ViewContext): string;
  /** reads a turn answer */
  decode(body: string, state: S, slot: number): Parsed<A>;
  /** reads a hello answer; when absent, the body is read as JSON by the game's `rules.init.parse` */
  decodeInit?(body: string, state: S, slot: number): Parsed<I>;
}

/**
 * The wire: what each seat is sent and how its answers' text is read, beyond the rules (the message objects,
 * their bytes, the dialects, how lines pair with questions, the messages that expect no answer, the lobby of
 * bots that connect in). `V` is the per-seat message object (the wire's JSON, typed).
 */
export interface GameWire<S, A, V, I> {
  /** the message object sent to `slot` now (JSON-serialised for remote bots, field order kept) */
  view(state: S, slot: number, ctx: ViewContext): V;
  /**
   * optional: the JSON text of `view(state, slot, ctx)`, written by the game itself — for games whose
   * messages share a large part (Tron's board) that should be serialised once per turn, not once per bot.
   * Must produce exactly the bytes JSON.stringify(view(...)) would.
   */
  encodeJson?(state: S, slot: number, ctx: ViewContext): string;
  /**
   * optional: reads a JSON turn answer knowing its text too, for a game whose original engine tells apart
   * what JSON.parse does not (lighthouses: `5.0` is a float to Python); absent, `rules.parseAnswer` reads it
   */
  parseAnswerText?(text: string, answer: unknown, state: S, slot: number): Parsed<A>;
  /** extra wire dialects, chosen per bot (`http+form://…` selects `form`); JSON is always available */
  dialects?: Record<string, WireDialect<S, A, I>>;
  /** the wire dialect a bot speaks when its spec names none (default `json`) */
  defaultDialect?: string;
  /**
   * optional, for line transports (stdio): why a line the bot sent while an answer is awaited is not that
   * answer (a stale nonce, as paint's `turns_left`), or null when it is. A skipped line is dropped and noted,
   * and reading goes on until the same deadline.
   */
  skipAnswer?(text: string, state: S, slot: number, phase: AskPhase): string | null;
  /**
   * optional, for line transports: every message that asks is answered by exactly one line, so a line that
   * arrives after its deadline is the missed answer and is dropped, never taken for the next one (every
   * game but paint, whose answers carry a nonce instead, and smart-dog's streams). Either way, a line that
   * arrives while nothing is asked or owed is dropped and noted.
   */
  strictPairing?: boolean;
  /**
   * optional, with strict pairing: which phase's answer a line is by its shape alone, or null when the shape
   * does not tell (botsarena: a turn answer has `play`, a hello answer never needs it). A line that arrives
   * while a hello's answer is still owed but has a turn answer's shape shows the bot skipped the hello: the
   * hello's debt is forgiven and the line answers the turn, so a missing hello answer costs nothing, as the
   * rules say. Must be cheap and never throw (it sees any line a bot sends).
   */
  answerPhase?(text: string): AskPhase | null;
  /**
   * optional: a message sent to the seat right after its move was applied, expecting no answer
   * (lighthouses' `{"success":…}`); undefined sends nothing. It sees the move as judged (an action, or the
   * fault that replaced it) and the state after the step. Turns only: hellos get no notice.
   */
  ack?(move: Move<A>, state: S): unknown;
  /** optional: the last message each seat gets when the match is over, expecting no answer (smart-dog's `finished`) */
  farewell?(state: S, slot: number): unknown;
  /** for games whose bots connect in (a gateway, not a URL): the lobby's lines before a bot is seated */
  lobby?: LobbyRules;
}

/** Presentation: what people see of a match (a terminal's board, labels, spectators' share) and how a person plays it. */
export interface GamePresentation<S, A, V, I> {
  /** the board for a terminal */
  render(state: S): string;
  /** a label per slot for people (X/O, colours…) */
  seatLabel?(slot: number, state?: S): string;
  /** for games with hidden information: what spectators see during the match (absent: everything is public) */
  spectator?: SpectatorRules<S, A, I>;
  /** how a person at a terminal plays (absent: people cannot play this game at a terminal) */
  human?: HumanPlay<V>;
}

/**
 * Replay: how a state is fingerprinted after each step (cheaply: a digest, or a chain of what each step
 * changed), and what lets replays written by earlier rules still verify. All optional: without them a
 * replay fingerprints whole states.
 */
export interface GameReplayRules<S, A, I> {
  /**
   * optional: a compact value that identifies the state given the moves so far, fingerprinted instead of
   * the whole state: after every step of a whole-state replay (`hashes` absent), and once after setup to
   * start a chain of step fingerprints (see `changes`). It must change whenever a step's moves change the
   * state.
   */
  digest?(state: S): unknown;
  /**
   * optional: what the step just applied changed, small (Tron: the new heads and this lap's deaths). With
   * it, each step's fingerprint is that value's chained on the previous fingerprint (the first on this
   * value for the state as set up, with no moves: it must hold all of that state the config and seed do
   * not fix by themselves), so it costs what a step changes, not what the state holds. It
   * must determine the new state from the previous one under the rules: any change of state is then a
   * change of the chain, at the step that made it or, where a game lists only what a step is meant to touch
   * (Connect Four: the column played; lighthouses: the player and its lighthouse, all of it at the end of a
   * round), at the latest when the changed part is next listed. Plain numbers cost least; objects cost most.
   */
  changes?(state: S, moves: Move<A | I>[]): unknown[];
  /**
   * optional, instead of `changes`: the chain value `previous` with what the step changed mixed in, with
   * core's `mixInt`, `mixList`, `mixInts` (signed 32-bit integers only) and `mixValue` (anything else):
   * exactly `chainFingerprint(previous, list)` for the list `changes` would return, with no list built
   * (paint's list, built and mixed, was 0.11 µs of a 0.8 µs turn on a 10×10 board; mixed directly, 0.06).
   */
  mixChanges?(previous: number, state: S, moves: Move<A | I>[]): number;
  /**
   * optional: the outcome (or outcomes) earlier versions of these rules gave for this final state, where it
   * differs (paint's failed hello was ranked with a winner), or null: a replay that recorded it still verifies.
   */
  legacyOutcome?(state: S): Outcome | Outcome[] | null;
  /**
   * optional: config keys added after replays were first written, each with the value those replays were
   * played by. A replay holds its match's whole resolved config, so one without such a key predates it and is
   * read with this value (`replayConfig`): a rules change made behind a new key leaves older replays verifying.
   */
  configDefaults?: Record<string, number | boolean | string>;
}

/** Tooling: what `botarena doctor` and `replay position`/`replay fork` need of a game beside its rules. */
export interface GameTooling<S, A> {
  /**
   * optional, for `botarena doctor`: why a legal action loses at once in this position whatever the others
   * do (Tron: it enters a wall or a trail this lap), when another action would not; null otherwise. Only
   * for losses that are certain and cheap to see; the doctor warns of such moves.
   */
  losesAtOnce?(state: S, slot: number, action: A): string | null;
  /**
   * optional: the canned match `botarena doctor` feeds a bot, as built-in bots by seat, a seed and config
   * (absent: the first built-in bot against the last, seed 1, the default config). It should end in a few
   * hundred steps and reach every message type the game has.
   */
  doctor?: { bots: string[]; seed?: number; config?: Record<string, unknown> };
  /**
   * optional: chosen starting positions. `write` gives the config values (key → text, as `--set` takes them)
   * that make `setup` start exactly in `state` — its turn counter included — once the new match's inits are
   * played (bots are greeted again). `botarena replay position` prints them and `replay fork` starts from them.
   */
  position?: { write(state: S): Record<string, string> };
}

/**
 * A game: who plays it and with what settings, its pure rules, its wire, its built-in bots, how people see
 * it, and what its replays and tools need. `C` config, `S` state, `A` a turn's action, `V` the per-seat
 * message object (the wire's JSON, typed), `I` a hello answer's action.
 *
 * States are plain JSON data (no classes, no functions), so they can be hashed, saved and cloned.
 */
export interface GameDefinition<C extends ConfigValues = ConfigValues, S = unknown, A = unknown, V = unknown, I = never> {
  id: string;
  title: string;
  /** one line for `botarena games` */
  summary: string;
  players: { min: number; max: number };
  config: ConfigSpec;
  /**
   * default deadlines per answer, from the game's spec; `slowMs`: answers slower than this are noted in the
   * bot's log (lighthouses' 100 ms, whose deadline adds a grace); `exitMs`: when a match ends normally, how
   * long a stdio bot gets to exit by itself once it was sent its last message and its stdin was closed,
   * before its process group is signalled (the arena's default, 1000 ms, when absent).
   */
  timeouts: { initMs: number; turnMs: number; slowMs?: number; exitMs?: number };
  rules: GameRules<C, S, A, I>;
  wire: GameWire<S, A, V, I>;
  /** the game's built-in bots, by name: they get the same message objects a remote bot gets */
  bots: Record<string, BuiltinBotFactory<V, C>>;
  presentation: GamePresentation<S, A, V, I>;
  replay?: GameReplayRules<S, A, I>;
  tooling?: GameTooling<S, A>;
}

/** A game of any type, as held by the registry and the runner. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyGame = GameDefinition<any, any, any, any, any>;

/** The members that live in a group, by name: a definition that has one at its top level was written flat. */
const GROUP_OF: Record<string, keyof GameDefinition> = {};
for (const [group, members] of Object.entries({
  rules: ['validateConfig', 'configWarnings', 'work', 'setup', 'next', 'init', 'parseAnswer', 'check', 'apply', 'pass', 'stream', 'outcome'],
  wire: ['view', 'encodeJson', 'parseAnswerText', 'dialects', 'defaultDialect', 'skipAnswer', 'strictPairing', 'answerPhase', 'ack', 'farewell', 'lobby'],
  presentation: ['render', 'seatLabel', 'spectator', 'human'],
  replay: ['digest', 'changes', 'mixChanges', 'legacyOutcome', 'configDefaults', 'replayConfigDefaults'],
  tooling: ['losesAtOnce', 'doctor', 'position'],
} as const)) {
  for (const member of members) GROUP_OF[member] = group as keyof GameDefinition;
}

/**
 * Declares a game. Built-in games use this exactly as a third-party game would; it checks the
 * definition's own consistency so a mistake shows up at load time, not mid-match (a member written at the
 * top level that belongs in a group, as definitions were written before the groups, is named with its group).
 */
export function defineGame<C extends ConfigValues, S, A, V, I = never>(def: GameDefinition<C, S, A, V, I>): GameDefinition<C, S, A, V, I> {
  if (!/^[a-z][a-z0-9-]*$/.test(def.id)) throw new Error(`game id "${def.id}" must be lower-case letters, digits and dashes`);
  if (def.players.min < 1 || def.players.max < def.players.min) {
    throw new Error(`game ${def.id}: bad player range ${def.players.min}..${def.players.max}`);
  }
  for (const key of Object.keys(def)) {
    const group = Object.hasOwn(GROUP_OF, key) ? GROUP_OF[key] : undefined;
    if (group)
      throw new Error(`game ${def.id}: "${key}" belongs in the "${group}" group (${group}: { ${key === 'replayConfigDefaults' ? 'configDefaults' : key}, … })`);
  }
  for (const group of ['rules', 'wire', 'presentation'] as const) {
    if (def[group] === null || typeof def[group] !== 'object') throw new Error(`game ${def.id}: the "${group}" group is missing`);
  }
  if (def.wire.dialects && 'json' in def.wire.dialects) throw new Error(`game ${def.id}: the json dialect is built in`);
  return def;
}
