// The parts a game definition is made of besides its functions: its hello rules, what spectators see, its
// built-in bots, the lobby of games whose bots connect in, and how a person plays at a terminal.
import type { ConfigValues } from './config.js';
import type { AskPhase } from './decision.js';
import type { Move, Parsed } from './moves.js';

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
  /**
   * For a frame that grows as the match goes (Battleship's shots so far): what the last step changed in it, in
   * a size that does not grow. Spectators then get `frame` with the first step only and this with every later
   * one, which `fold` adds to the frame before it: each step's event costs the same at the end of a long match
   * as at its start. Both or neither.
   */
  delta?(state: S): unknown;
  /** the frame after a step, from the frame before it (which it may change and return) and that step's `delta`; throws when they do not follow */
  fold?(frame: unknown, delta: unknown): unknown;
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
