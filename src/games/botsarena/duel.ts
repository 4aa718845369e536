import { describeValue, type Decision, type InitRules, type Move, type Outcome, type Parsed } from '../../core/game.js';

/**
 * What every two-player botsarena board game shares: sequential inits in slot order whose answers are
 * ignored, then alternating play turns where any fault forfeits the game.
 */
export interface DuelState {
  /** inits still to send (2, 1, 0) */
  initsLeft: number;
  /** moves played so far */
  moves: number;
  /** whose turn it is (0 = X, 1 = O) */
  toPlay: number;
  /** the winner by the board, or null */
  winner: number | null;
  /** a sentence on how the board ended the game (line, full board) */
  ending: string | null;
  /** the forfeit that ended the game, if any */
  forfeit: { slot: number; turn: number; kind: string; detail: string } | null;
}

/** The marks of the two slots: slot 0 is X and moves first. */
export const MARKS = ['X', 'O'] as const;

/**
 * A duel game's step changes (for chained step fingerprints): the bookkeeping, then the board's cells two
 * bits each (0 empty, 1 X, 2 O, 3 anything else), a number per row of a board of rows (of up to 15 cells)
 * or per 15 cells of a flat board, so a step costs a handful of numbers and no JSON of the board.
 */
export function duelChanges(d: DuelState, board: readonly string[] | readonly (readonly string[])[]): unknown[] {
  // (An absent ending or forfeit as 0: a number costs less to mix than text.)
  const out: unknown[] = [d.initsLeft, d.moves, d.toPlay, d.winner ?? -1, d.ending ?? 0, d.forfeit ?? 0];
  if (typeof board[0] === 'string') {
    for (let from = 0; from < board.length; from += 15) out.push(cellBits(board as readonly string[], from, Math.min(from + 15, board.length)));
  } else {
    for (const row of board as readonly (readonly string[])[]) out.push(cellBits(row, 0, row.length));
  }
  return out;
}

function cellBits(cells: readonly string[], from: number, to: number): number {
  let word = 0;
  for (let i = from; i < to; i++) {
    const c = cells[i];
    word = (word << 2) | cellCode(c!);
  }
  return word;
}

/** A cell in two bits: 0 empty, 1 X, 2 O, 3 anything else. */
export function cellCode(c: string): number {
  return c === 'X' ? 1 : c === 'O' ? 2 : c === '' ? 0 : 3;
}

/** A fresh duel bookkeeping block. */
export function newDuel(): DuelState {
  return { initsLeft: 2, moves: 0, toPlay: 0, winner: null, ending: null, forfeit: null };
}

/**
 * The bookkeeping of a game started from a board (`--set board=…`): X moves first, so X has as many pieces
 * as O (X to play) or one more (O to play). Returns a sentence naming the problem for any other count.
 */
export function duelFromBoard(cells: readonly string[]): DuelState | string {
  const x = cells.filter((c) => c === 'X').length;
  const o = cells.filter((c) => c === 'O').length;
  if (x !== o && x !== o + 1) return `X has ${x} pieces and O has ${o}: X moves first, so X has as many as O or one more`;
  return { ...newDuel(), moves: x + o, toPlay: x === o ? 0 : 1 };
}

/**
 * Reads a board written by hand or by `replay position`: rows of `X`, `O` and `.` (empty) separated by `/`,
 * in the order given. Returns the rows, or a sentence naming the first problem.
 */
export function readBoardRows(text: string, rows: number, cols: number): string[][] | string {
  const lines = text.trim().split('/');
  if (lines.length !== rows) return `expected ${rows} rows separated by "/", got ${lines.length}`;
  const out: string[][] = [];
  for (const [r, line] of lines.entries()) {
    if (line.length !== cols) return `row ${r + 1} ${JSON.stringify(line)} has ${line.length} cells, expected ${cols}`;
    const bad = [...line].findIndex((ch) => !'XO.'.includes(ch));
    if (bad >= 0) return `row ${r + 1}, cell ${bad + 1} is ${JSON.stringify(line[bad])}: use X, O or . (empty)`;
    out.push([...line].map((ch) => (ch === '.' ? '' : ch)));
  }
  return out;
}

/** The error sentence of a read that failed, or null when it succeeded. */
export function stringOr(read: unknown): string | null {
  return typeof read === 'string' ? read : null;
}

/** Writes rows of cells ('' empty) in the form `readBoardRows` reads. */
export function writeBoardRows(rows: readonly (readonly string[])[]): string {
  return rows.map((r) => r.map((c) => c || '.').join('')).join('/');
}

/** Who is asked next: the inits one seat at a time, then the player to move; null when the game is over. */
export function duelNext(s: DuelState): Decision | null {
  if (s.initsLeft > 0) return { phase: 'init', seats: [2 - s.initsLeft], turn: 0 };
  if (s.winner !== null || s.ending !== null || s.forfeit) return null;
  return { phase: 'play', seats: [s.toPlay], turn: s.moves + 1 };
}

/**
 * The hello of every botsarena board game: one seat at a time, its answer (any JSON) and its failures
 * ignored. A hello's action is therefore nothing (`null`).
 */
export function duelInit<S extends { duel: DuelState }>(): InitRules<S, null> {
  return {
    parse: () => ({ ok: true, action: null }),
    apply(s) {
      s.duel.initsLeft--;
      return s;
    },
    faultsIgnored: true,
  };
}

/**
 * Which answer a line is by its shape, for strict pairing (`answerPhase`): in every botsarena game a turn
 * answer is a JSON object with `play` and a hello answer has no use for one (a name, Battleship's boats), so
 * such a line answers a turn; of any other line the shape does not tell (null). Parses only lines that
 * mention "play", at most the answer cap's bytes.
 */
export function botsarenaAnswerPhase(text: string): 'play' | null {
  if (!text.includes('"play"')) return null;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  return value !== null && typeof value === 'object' && !Array.isArray(value) && Object.hasOwn(value, 'play') ? 'play' : null;
}

/**
 * Applies the bookkeeping part of a turn. Returns the action to play on the board, or null when a forfeit
 * has ended the game.
 */
export function duelStep<A>(s: DuelState, moves: Move<A>[]): A | null {
  const m = moves[0]!;
  if (m.fault) {
    s.forfeit = { slot: m.slot, turn: s.moves + 1, kind: m.fault.kind, detail: m.fault.detail };
    return null;
  }
  s.moves++;
  s.toPlay = 1 - s.toPlay;
  return m.action;
}

/** The outcome: the board's winner, a forfeit, or a draw, with the reason in words. */
export function duelOutcome(s: DuelState): Outcome {
  if (s.forfeit) {
    const f = s.forfeit;
    const winner = 1 - f.slot;
    return {
      ranks: winner === 0 ? [1, 2] : [2, 1],
      scores: winner === 0 ? [1, 0] : [0, 1],
      reason: `${MARKS[winner]} wins: ${MARKS[f.slot]} forfeited on turn ${f.turn} (${f.kind}: ${f.detail})`,
    };
  }
  if (s.winner !== null) {
    return { ranks: s.winner === 0 ? [1, 2] : [2, 1], scores: s.winner === 0 ? [1, 0] : [0, 1], reason: `${MARKS[s.winner]} wins: ${s.ending}` };
  }
  return { ranks: [1, 1], scores: [0.5, 0.5], reason: `draw: ${s.ending ?? 'the game ended'}` };
}

/**
 * Reads a botsarena answer object at play time: it must be a JSON object with a `play` key (extra keys
 * are ignored). Returns the `play` value, or the fault for a missing one.
 */
export function readPlay(answer: unknown): { play: unknown } | Parsed<never> {
  if (answer === null || typeof answer !== 'object' || Array.isArray(answer)) {
    return { ok: false, kind: 'bad-answer', detail: `expected a JSON object like {"play": …}, got ${describeValue(answer)}` };
  }
  if (!('play' in answer)) {
    return { ok: false, kind: 'bad-answer', detail: `the answer has no "play" field: ${describeValue(answer)}` };
  }
  return { play: (answer as { play: unknown }).play };
}
