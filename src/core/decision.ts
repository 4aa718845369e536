// The seat/ask vocabulary: the phases of a match, what the rules ask next (`Decision`), what a view and
// `setup` get, and the order seats are taken in.

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

/**
 * The order in which a stream step's lines are applied for seats whose lines have no arrival time (stdio,
 * built-in): one seat after another, starting from a seat that rotates with the turn, so such matches are
 * deterministic and no seat always goes first.
 */
export function streamOrder(decision: Decision): number[] {
  const k = Math.max(0, decision.turn - 1) % decision.seats.length;
  return [...decision.seats.slice(k), ...decision.seats.slice(0, k)];
}

const seatLists: number[][] = [];

/**
 * The seats 0..n−1, for a decision where every seat answers: one list per n, shared by every match (a
 * decision's seats are read, never changed), so a step that asks everyone makes no new list.
 */
export function everySeat(n: number): readonly number[] {
  return (seatLists[n] ??= Array.from({ length: n }, (_, slot) => slot));
}
