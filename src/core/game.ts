// The game API: GameDefinition and the helpers every game and the engine share. Kept whole (about 500 lines)
// until issue 33 regroups GameDefinition into named groups (rules / wire / presentation / replay / tooling) and
// splits this file along them; splitting it before would move the same code twice.
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

/**
 * The phases of a match: the hello (`init`, the init deadline applies; its answers are read by the game's
 * `init` rules), a turn of play (`play`, the turn deadline), and the farewell once the game is over (`end`,
 * messages that expect no answer). Replays record `init` and `play`.
 */
export type Phase = 'init' | 'play' | 'end';

/** The phases in which seats are asked to answer. */
export type AskPhase = Exclude<Phase, 'end'>;

/** What the rules ask next: which seats answer now (in parallel), in which phase, on which turn. */
export interface Decision {
  phase: AskPhase;
  /** the seats asked now, all at once; their answers are applied together (read only: it may be shared, see `everySeat`) */
  seats: readonly number[];
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
  /**
   * `null` when the rules name no winner although someone ranks first (smart-dog when nobody scores above
   * −10, or a stopped game); absent when the ranks say it (the only first rank wins, a shared first is a draw)
   */
  winner?: null;
  /**
   * set when the match ends as an error rather than a game (paint: a player failed the ready handshake, so no
   * turn was played): what went wrong, naming who. Nobody wins (`winner` is then null), and `play` exits 1.
   */
  error?: string;
}

/** The result of reading a bot's answer: an action, or a fault saying what was wrong with it. */
export type Parsed<A> = { ok: true; action: A } | { ok: false; kind: 'not-json' | 'bad-answer'; detail: string };

/** What a view (the message for one seat) may depend on besides the state. */
export interface ViewContext {
  phase: AskPhase;
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
export interface WireDialect<S, A, I = never> {
  /** sent as the HTTP Content-Type */
  contentType: string;
  encode(state: S, slot: number, ctx: ViewContext): string;
  /** reads a turn answer */
  decode(body: string, state: S, slot: number): Parsed<A>;
  /** reads a hello answer; when absent, the body is read as JSON by the game's `init.parse` */
  decodeInit?(body: string, state: S, slot: number): Parsed<I>;
}

/**
 * The hello step's rules, kept apart from turns' so each answer has its own type: `I` is what a hello
 * answer becomes (a name, a fleet, nothing). A game whose `next` asks an `init` step must have them.
 */
export interface InitRules<S, I> {
  /** reads a hello answer (parsed JSON, or a built-in bot's value) */
  parse(answer: unknown, state: S, slot: number): Parsed<I>;
  /** why a well-formed hello answer is refused, or null when it is accepted */
  check?(state: S, slot: number, action: I): string | null;
  /** applies the hello step: a move per seat asked, in seat order */
  apply(state: S, moves: Move<I>[]): S;
  /**
   * true when a hello's fault changes nothing in the rules (the botsarena games but Battleship ignore the
   * hello's answer and its failures): the seat's result then shows it as a note, not as a fault.
   */
  faultsIgnored?: boolean;
  /**
   * the part of a hello answer that says how the bot will play, compared when another bot is re-fed the
   * same messages (`replay refeed`); absent: the whole action. A name is not part of it (lighthouses).
   */
  essence?(action: I): unknown;
}

/**
 * For games with hidden information: what a spectator may see while the match is on (a bot's owner could
 * otherwise read the other side's secrets from the live feed). Spectators then get neither the config nor
 * the seed (either can give a secret away), each step's actions as `action` shows them, and `frame`: the part of
 * the state every player's view shows, which a viewer draws instead of re-running the rules. Once the match
 * is over, its replay is public like any other.
 */
export interface SpectatorRules<S, A, I> {
  /** what a spectator sees of a hello's action (absent, or undefined: nothing but that the seat answered) */
  hello?(action: I): unknown;
  /** what a spectator sees of a turn's action (undefined: nothing but that the seat answered) */
  action(action: A): unknown;
  /** the public part of the state after a step */
  frame(state: S): unknown;
}

/** An in-process bot: gets the same message object a remote bot would get, returns the answer object. */
export interface BuiltinBot<V> {
  act(view: V, phase: AskPhase): unknown;
}

/** A named built-in bot of a game. */
export interface BuiltinBotFactory<V, C = ConfigValues> {
  description: string;
  create(ctx: { slot: number; players: number; config: C; seed: number }): BuiltinBot<V>;
}

/** What a line from a bot that connected in, but has no seat yet, asks for. */
export type LobbyRequest = { join: { name: string; hub?: string } } | { reply: string } | null;

/**
 * For games whose bots connect in (smart-dog's TCP): the lobby's lines, before a bot has a seat. The
 * listener that accepts the connections is the transports' own; only the words are the game's.
 */
export interface LobbyRules {
  /** a line from a bot not seated yet: it joins (a name, and the hub it asks for), or is answered, or ignored (null) */
  read(line: string, joined: boolean): LobbyRequest;
  /** the line a joined bot gets while it waits for its match */
  waiting: string;
  /** the line a bot gets when it asks for a hub that does not exist */
  noSuchHub: string;
}

/** What a person's seat knows beside the message: the match's config, and the answers given so far, in order. */
export interface HumanSeat {
  config: Readonly<Record<string, unknown>>;
  answered: readonly unknown[];
  /** the person's terminal, in characters, when known (a board that fits is shown whole) */
  screen?: { columns: number; rows: number };
}

/** How a person at a terminal plays: what to show, and how to read a typed line into an answer. */
export interface HumanPlay<V> {
  /**
   * the init answer given for the person without asking (a name, paint's `{"ready":true}`); when absent,
   * the person is asked for it like for a move (Battleship's fleet)
   */
  hello?(view: V, name: string): unknown;
  /** the board and the question, for this view (`seat`: the match's config, and what the person answered so far) */
  prompt(view: V, phase: AskPhase, seat?: HumanSeat): string;
  /** a typed line → the wire answer object, or an error sentence to show before asking again */
  parse(line: string, view: V, phase: AskPhase): { answer: unknown } | { error: string };
}

/**
 * A game: pure rules, its wire, its built-in bots and a text renderer. `C` config, `S` state,
 * `A` a turn's action, `V` the per-seat message object (the wire's JSON, typed), `I` a hello answer's action.
 *
 * States are plain JSON data (no classes, no functions), so they can be hashed, saved and cloned.
 * `apply` may reuse the state it is given: a caller that keeps a state must clone it first.
 */
export interface GameDefinition<C extends ConfigValues = ConfigValues, S = unknown, A = unknown, V = unknown, I = never> {
  id: string;
  title: string;
  /** one line for `botarena games` */
  summary: string;
  players: { min: number; max: number };
  config: ConfigSpec;
  /** a sentence naming the broken rule, or null when the config (with this many players) is playable */
  validateConfig?(config: C, players: number): string | null;
  /** sentences about a playable config that may not do what was meant (a setting another one overrides) */
  configWarnings?(config: C, players: number): string[];
  /**
   * default deadlines per answer, from the game's spec; `slowMs`: answers slower than this are noted in the
   * bot's log (lighthouses' 100 ms, whose deadline adds a grace); `exitMs`: when a match ends normally, how
   * long a stdio bot gets to exit by itself once it was sent its last message and its stdin was closed,
   * before its process group is signalled (the arena's default, 1000 ms, when absent).
   */
  timeouts: { initMs: number; turnMs: number; slowMs?: number; exitMs?: number };
  /** a label per slot for people (X/O, colours…) */
  seatLabel?(slot: number, state?: S): string;

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
  /** for games whose bots connect in: the lobby's lines before a bot is seated */
  lobby?: LobbyRules;
  /** the wire dialect a bot speaks when its spec names none (default `json`) */
  defaultDialect?: string;
  /** the hello step's rules, for games whose `next` asks an `init` step */
  init?: InitRules<S, I>;
  /** reads a turn answer object (parsed JSON, or a built-in bot's return value) into an action */
  parseAnswer(answer: unknown, state: S, slot: number): Parsed<A>;
  /**
   * optional: reads a JSON turn answer knowing its text too, for a game whose original engine tells apart
   * what JSON.parse does not (lighthouses: `5.0` is a float to Python); absent, `parseAnswer` reads it
   */
  parseAnswerText?(text: string, answer: unknown, state: S, slot: number): Parsed<A>;
  /** why a well-formed turn action is illegal here, or null when it is legal */
  check?(state: S, slot: number, action: A): string | null;
  /**
   * optional, for `botarena doctor`: why a legal action loses at once in this position whatever the others
   * do (Tron: it enters a wall or a trail this lap), when another action would not; null otherwise. Only
   * for losses that are certain and cheap to see; the doctor warns of such moves.
   */
  losesAtOnce?(state: S, slot: number, action: A): string | null;
  /** applies one turn step: a move (action or fault) for each seat of the current decision, in seat order */
  apply(state: S, moves: Move<A>[]): S;
  /** for games with hidden information: what spectators see during the match (absent: everything is public) */
  spectator?: SpectatorRules<S, A, I>;
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
  /** the outcome; only called when `next` returns null */
  outcome(state: S): Outcome;
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
  replayConfigDefaults?: Record<string, number | boolean | string>;
  /** the board for a terminal */
  render(state: S): string;

  /** extra wire dialects, chosen per bot (`http+form://…` selects `form`); JSON is always available */
  dialects?: Record<string, WireDialect<S, A, I>>;
  bots: Record<string, BuiltinBotFactory<V, C>>;
  human?: HumanPlay<V>;
  /**
   * optional: the canned match `botarena doctor` feeds a bot, as built-in bots by seat, a seed and config
   * (absent: the first built-in bot against the last, seed 1, the default config). It should end in a few
   * hundred steps and reach every message type the game has.
   */
  doctor?: { bots: string[]; seed?: number; config?: Record<string, unknown> };
}

/** A game of any type, as held by the registry and the runner. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyGame = GameDefinition<any, any, any, any, any>;

/**
 * Declares a game. Built-in games use this exactly as a third-party game would; it checks the
 * definition's own consistency so a mistake shows up at load time, not mid-match.
 */
export function defineGame<C extends ConfigValues, S, A, V, I = never>(def: GameDefinition<C, S, A, V, I>): GameDefinition<C, S, A, V, I> {
  if (!/^[a-z][a-z0-9-]*$/.test(def.id)) throw new Error(`game id "${def.id}" must be lower-case letters, digits and dashes`);
  if (def.players.min < 1 || def.players.max < def.players.min) {
    throw new Error(`game ${def.id}: bad player range ${def.players.min}..${def.players.max}`);
  }
  if (def.dialects && 'json' in def.dialects) throw new Error(`game ${def.id}: the json dialect is built in`);
  return def;
}

/** How deeply a bot's JSON answer may nest (arrays and objects); no game's answer needs more than a few levels. */
export const MAX_ANSWER_DEPTH = 32;

/** Whether a parsed JSON value nests arrays/objects deeper than `max` (checked without recursion). */
export function nestedDeeperThan(value: unknown, max: number): boolean {
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length) {
    const [v, depth] = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    if (depth > max) return true;
    for (const child of Array.isArray(v) ? v : Object.values(v)) if (child !== null && typeof child === 'object') stack.push([child, depth + 1]);
  }
  return false;
}

/** Reads a JSON body, or says it is not JSON (or nested too deep to be an answer). */
function readJson<T>(body: string, then: (value: unknown) => Parsed<T>): Parsed<T> {
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    return { ok: false, kind: 'not-json', detail: `answer is not JSON: ${preview(body)}; expected one JSON object` };
  }
  if (nestedDeeperThan(value, MAX_ANSWER_DEPTH)) {
    return { ok: false, kind: 'bad-answer', detail: `answer nests arrays or objects deeper than ${MAX_ANSWER_DEPTH} levels: ${preview(body, 40)}` };
  }
  return then(value);
}

/** The default wire: the view as JSON text, answers parsed as JSON then read by `parseAnswer` (hellos by `init.parse`). */
export function jsonDialect<S, A, I>(game: GameDefinition<ConfigValues, S, A, unknown, I>): WireDialect<S, A, I> {
  return {
    contentType: 'application/json',
    encode: game.encodeJson ? (state, slot, ctx) => game.encodeJson!(state, slot, ctx) : (state, slot, ctx) => JSON.stringify(game.view(state, slot, ctx)),
    decode: (body, state, slot) => readJson(body, (value) => (game.parseAnswerText ? game.parseAnswerText(body, value, state, slot) : game.parseAnswer(value, state, slot))),
    decodeInit: (body, state, slot) => readJson(body, (value) => initRules(game).parse(value, state, slot)),
  };
}

/** Reads a hello answer's bytes in `dialect`: its own reader, else JSON read by the game's `init.parse`. */
export function decodeInit<S, A, I>(game: GameDefinition<ConfigValues, S, A, unknown, I>, dialect: WireDialect<S, A, I>, body: string, state: S, slot: number): Parsed<I> {
  if (dialect.decodeInit) return dialect.decodeInit(body, state, slot);
  return readJson(body, (value) => initRules(game).parse(value, state, slot));
}

/** The game's hello rules; asking an `init` step without them is a bug in the game. */
export function initRules<S, I>(game: GameDefinition<ConfigValues, S, unknown, unknown, I>): InitRules<S, I> {
  if (!game.init) throw new Error(`game ${game.id} asks an init step but defines no init rules`);
  return game.init;
}

/**
 * The order in which a stream step's lines are applied for seats whose lines have no arrival time (stdio,
 * built-in): one seat after another, starting from a seat that rotates with the turn, so such matches are
 * deterministic and no seat always goes first.
 */
export function streamOrder(decision: Decision): number[] {
  const k = Math.max(0, decision.turn - 1) % decision.seats.length;
  return [...decision.seats.slice(k), ...decision.seats.slice(0, k)];
}

/** The dialect named `name` for a game ('json' is always there). */
export function getDialect<S, A, I>(game: GameDefinition<ConfigValues, S, A, unknown, I>, name = 'json'): WireDialect<S, A, I> {
  if (name === 'json') return jsonDialect(game);
  const d = game.dialects && Object.hasOwn(game.dialects, name) ? game.dialects[name] : undefined;
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

/** A raw piece of text in `describeValue`'s work list (brackets, commas, keys). */
class Raw {
  constructor(readonly text: string) {}
}

/**
 * A value as an error message quotes it: short JSON-like text, at most `max` characters (then "…"), built
 * without recursion and without stringifying the whole value, so a huge or deeply nested value (a bot's
 * answer, a crafted file) costs little; numbers JSON cannot write show as they are (`Infinity`, not `null`),
 * and no value shows as `nothing`. Never throws.
 */
export function describeValue(value: unknown, max = 80): string {
  if (value === undefined) return 'nothing';
  let out = '';
  const todo: unknown[] = [value];
  while (todo.length && out.length <= max) {
    const v = todo.pop();
    if (v instanceof Raw) out += v.text;
    else if (typeof v === 'string') out += JSON.stringify(v.length > max ? v.slice(0, max + 1) : v);
    else if (v === null || typeof v === 'number' || typeof v === 'boolean') out += String(v);
    else if (Array.isArray(v)) {
      // Every item shows at least one character: more than `max` of them cannot show.
      const items: unknown[] = [new Raw('[')];
      for (let i = 0; i < v.length && i <= max; i++) items.push(...(i ? [new Raw(','), v[i]] : [v[i]]));
      items.push(new Raw(v.length > max + 1 ? ',…]' : ']'));
      todo.push(...items.reverse());
    } else if (typeof v === 'object') {
      const items: unknown[] = [new Raw('{')];
      let n = 0;
      for (const key in v) {
        if (!Object.hasOwn(v, key)) continue;
        if (n++ > max) break;
        items.push(new Raw(`${n > 1 ? ',' : ''}${JSON.stringify(key.length > max ? key.slice(0, max + 1) : key)}:`), (v as Record<string, unknown>)[key]);
      }
      items.push(new Raw('}'));
      todo.push(...items.reverse());
    } else out += typeof v === 'undefined' ? 'undefined' : `a ${typeof v}`;
  }
  return out.length > max ? `${out.slice(0, max)}…` : out;
}

/** Ranks from scores, higher is better; equal scores share the better rank (1, 1, 3). */
export function ranksFromScores(scores: readonly number[]): number[] {
  return scores.map((s) => 1 + scores.filter((o) => o > s).length);
}

const seatLists: number[][] = [];

/**
 * The seats 0..n−1, for a decision where every seat answers: one list per n, shared by every match (a
 * decision's seats are read, never changed), so a step that asks everyone makes no new list.
 */
export function everySeat(n: number): readonly number[] {
  return (seatLists[n] ??= Array.from({ length: n }, (_, slot) => slot));
}
