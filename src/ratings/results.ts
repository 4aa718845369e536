import { ReplayMismatchError, UsageError } from '../core/errors.js';
import { describeValue } from '../core/game.js';
import { REPLAY_FORMAT, type Replay } from '../core/replay.js';
import { assertReplayShape } from '../core/replay-shape.js';

// What the rating systems read: one plain shape for a finished match, whichever record it comes from (a
// `play --json` line, a tournament's results file, a replay), checked once here so the ladders can trust it.
// No Node module: the server and a browser page rate with the same code.

/** One seat of a finished match, as the ratings see it. */
export interface RatedPlayer {
  /** the bot's display name: ratings are kept per name (and per game) */
  name: string;
  /** 1 is first; seats sharing a place share a rank (Tron: bots dying in the same lap) */
  rank: number;
  score?: number | null;
  /** the kind of the seat's latest fault (timeout, crash…), when it had one */
  faultKind?: string | null;
}

/** A finished match: its game and its seats in slot order. */
export interface MatchOutcome {
  game: string;
  matchId?: string;
  players: RatedPlayer[];
  /** set when the match ended as an error (paint: a player failed the ready handshake): it is not rated */
  error?: string;
}

/** The most seats a rated match may have (a match job's limit too). */
export const MAX_RATED_PLAYERS = 64;
/** The longest line a results file may hold: a real one is well under 1 KiB per seat. */
export const MAX_RESULT_LINE_CHARS = 1024 * 1024;
/** The longest bot name (a match job's limit) and game id a result may hold. */
const MAX_NAME_CHARS = 200;
const MAX_GAME_CHARS = 100;

/** What a file given to the ratings must hold, said once in every error about its content. */
export const RESULTS_EXPECTED = "one JSON match result per line (`botarena play --json` output, a tournament's results.jsonl) or one replay";

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);
/** A field of a parsed object, read only when it is the object's own (never `__proto__` or `toString`). */
const own = (o: Obj, key: string): unknown => (Object.hasOwn(o, key) ? o[key] : undefined);
const brief = (v: unknown) => describeValue(v, 60);

/**
 * Reads the object `botarena play --json` prints, or a line of a tournament's results file (its extra fields,
 * such as `index`, `round` or `replay`, are left alone). Checks what the ratings use: `game`, and per seat in
 * slot order its `name`, its `rank` (an integer from 1 to the number of seats), `score` and `fault.kind`.
 * Throws a UsageError starting with `where` (the file and line) that names the first wrong field and what was
 * expected, quoting at most a short part of the value.
 */
export function outcomeFromJsonResult(value: unknown, where = 'match result'): MatchOutcome {
  const bad = (path: string, want: string, got: unknown): never => {
    throw new UsageError(`${where}: "${path}" must be ${want}, got ${brief(got)}`);
  };
  if (!isObj(value)) {
    throw new UsageError(`${where}: expected a JSON object (a match result with "game" and "players"), got ${brief(value)}`);
  }
  if (own(value, 'format') === REPLAY_FORMAT) {
    throw new UsageError(`${where}: this is a replay, not a result line; give each replay as a file of its own`);
  }
  const game = own(value, 'game');
  if (typeof game !== 'string' || !game || game.length > MAX_GAME_CHARS) bad('game', `a game id of 1 to ${MAX_GAME_CHARS} characters`, game);
  const players = own(value, 'players');
  if (!Array.isArray(players)) return bad('players', 'an array of the seats {"slot","name","rank",…} in slot order', players);
  const n = players.length;
  if (n < 2 || n > MAX_RATED_PLAYERS) {
    // The count only: the list itself may be huge.
    throw new UsageError(`${where}: "players" must list 2 to ${MAX_RATED_PLAYERS} seats, got ${n}`);
  }
  const out: RatedPlayer[] = players.map((p, i): RatedPlayer => {
    const at = `players[${i}]`;
    if (!isObj(p)) return bad(at, 'a seat {"slot","name","rank",…}', p);
    const slot = own(p, 'slot');
    if (slot !== undefined && slot !== i) bad(`${at}.slot`, `${i} (the seats are listed in slot order)`, slot);
    const name = own(p, 'name');
    if (typeof name !== 'string' || !name.trim() || name.length > MAX_NAME_CHARS) bad(`${at}.name`, `a name of 1 to ${MAX_NAME_CHARS} characters`, name);
    const rank = own(p, 'rank');
    if (typeof rank !== 'number' || !Number.isInteger(rank) || rank < 1 || rank > n)
      bad(`${at}.rank`, `an integer 1..${n} (a place among the ${n} seats)`, rank);
    const score = own(p, 'score');
    if (score !== undefined && score !== null && (typeof score !== 'number' || !Number.isFinite(score))) bad(`${at}.score`, 'a number or null', score);
    const fault = own(p, 'fault');
    let faultKind: string | null = null;
    if (fault !== undefined && fault !== null) {
      const kind = isObj(fault) ? own(fault, 'kind') : undefined;
      if (typeof kind !== 'string') bad(`${at}.fault`, 'null or a fault {"turn","kind","detail"}', fault);
      faultKind = kind as string;
    }
    return { name: name as string, rank: rank as number, score: (score as number | null | undefined) ?? null, faultKind };
  });
  const matchId = own(value, 'matchId');
  const outcome: MatchOutcome = typeof matchId === 'string' ? { game: game as string, matchId, players: out } : { game: game as string, players: out };
  const error = own(value, 'error');
  if (error !== undefined && error !== null && typeof error !== 'string') bad('error', 'null or what went wrong (a match that ended as an error)', error);
  if (error) outcome.error = error as string;
  return outcome;
}

/**
 * A replay's outcome: its seats' names with the result's ranks, scores and faults. The replay is taken as
 * shape-checked (`assertReplayShape`, which `readOutcomes` runs); the checks of a result line (seat count,
 * ranks within the seats, names) are made here too, with `where` starting the error.
 */
export function outcomeFromReplay(replay: Replay, where = `replay ${replay.matchId}`): MatchOutcome {
  if (replay.stopped !== undefined) throw new UsageError(`${where}: the match was stopped before its end (${replay.stopped}), so it has no result to rate`);
  const r = replay.result;
  const line = {
    game: replay.game,
    matchId: replay.matchId,
    error: r.error ?? null,
    players: replay.seats.map((s, i) => ({ slot: i, name: s.name, rank: r.ranks[i], score: r.scores ? r.scores[i] : null, fault: r.faults[i] ?? null })),
  };
  return outcomeFromJsonResult(line, where);
}

/**
 * Reads a whole file's text into match outcomes, in file order: either one replay (a JSON object whose
 * `format` is the replay format, on one line as botarena writes it or spread over several), or JSON lines,
 * each a `play --json` result or a tournament's results line (when every line has a tournament's `index`, in
 * index order within each tournament's run of lines: the order the tournament rated them). Blank lines are skipped; anything else that is
 * not a result is an error (nothing is ignored silently), a UsageError naming `source`, the line and what
 * was expected. A line longer than MAX_RESULT_LINE_CHARS is refused before it is parsed, and a match with
 * more than MAX_RATED_PLAYERS seats before its seats are read. A file holding no result at all is an error too.
 */
export function readOutcomes(text: string, source: string): MatchOutcome[] {
  const replay = wholeReplay(text);
  if (replay !== undefined) {
    try {
      assertReplayShape(replay);
    } catch (err) {
      if (!(err instanceof ReplayMismatchError)) throw err;
      throw new UsageError(`${source}: ${err.message}`);
    }
    return [outcomeFromReplay(replay, source)];
  }
  const outcomes: MatchOutcome[] = [];
  // A tournament writes its results as matches finish, and rates them in match order (their `index`): a file
  // whose every line has an index is rated in that order too, so `rate` agrees with the tournament's table.
  // Several tournaments' results in one file (concatenated) keep their file order: each run of lines of one
  // tournament is sorted on its own (tournamentRuns).
  const indices: (number | null)[] = [];
  const matchIds: unknown[] = [];
  const seated: [number, string][][] = [];
  let start = 0;
  for (let lineNo = 1; start <= text.length; lineNo++) {
    const nl = text.indexOf('\n', start);
    const end = nl === -1 ? text.length : nl;
    const where = `${source} line ${lineNo}`;
    if (end - start > MAX_RESULT_LINE_CHARS) {
      throw new UsageError(
        `${where} is longer than ${MAX_RESULT_LINE_CHARS} characters (1 MiB), the most a result line may hold; expected ${RESULTS_EXPECTED}`,
      );
    }
    const line = text.slice(start, end).replace(/\r$/, '');
    start = end + 1;
    if (!line.trim()) continue;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (err) {
      const why = err instanceof Error ? err.message : String(err);
      throw new UsageError(`${where} is not valid JSON (${why.length > 120 ? `${why.slice(0, 120)}…` : why}); expected ${RESULTS_EXPECTED}`);
    }
    outcomes.push(outcomeFromJsonResult(value, where));
    const index = isObj(value) ? own(value, 'index') : undefined;
    indices.push(Number.isSafeInteger(index) ? (index as number) : null);
    matchIds.push(isObj(value) ? own(value, 'matchId') : undefined);
    seated.push(seatsOf(value));
  }
  if (!outcomes.length) throw new UsageError(`${source} holds no match result; expected ${RESULTS_EXPECTED}`);
  if (indices.some((i) => i === null)) return outcomes;
  return tournamentRuns(indices as number[], matchIds, seated).flatMap((run) => run.sort((a, b) => indices[a]! - indices[b]!).map((i) => outcomes[i]!));
}

/**
 * Splits a results file's lines (by position) into runs of consecutive lines of one tournament. A tournament's
 * lines have match ids `t<seed>-<index>` and seat its bots by their place in its list (`seats`), each with one
 * name: a run ends where the part before `-<index>` changes, where an index comes again (a second tournament with
 * the same seed), or where a bot's place and name no longer agree with the run's (another list of bots).
 */
function tournamentRuns(indices: number[], matchIds: unknown[], seated: [number, string][][]): number[][] {
  const runs: number[][] = [];
  let key: string | null = null;
  let seen = new Set<number>();
  let nameAt = new Map<number, string>();
  let placeOf = new Map<string, number>();
  indices.forEach((index, i) => {
    const id = matchIds[i];
    const k = typeof id === 'string' && id.endsWith(`-${index}`) ? id.slice(0, -`-${index}`.length) : '';
    const clash = seated[i]!.some(([place, name]) => (nameAt.get(place) ?? name) !== name || (placeOf.get(name) ?? place) !== place);
    if (!runs.length || k !== key || seen.has(index) || clash) {
      runs.push([]);
      key = k;
      seen = new Set();
      nameAt = new Map();
      placeOf = new Map();
    }
    runs.at(-1)!.push(i);
    seen.add(index);
    for (const [place, name] of seated[i]!) {
      nameAt.set(place, name);
      placeOf.set(name, place);
    }
  });
  return runs;
}

/** A tournament line's bots as [place in its list, name], by seat; [] when it has no such `seats`. */
function seatsOf(value: unknown): [number, string][] {
  if (!isObj(value)) return [];
  const seats = own(value, 'seats');
  const players = own(value, 'players');
  if (!Array.isArray(seats) || !Array.isArray(players) || seats.length !== players.length) return [];
  return seats.flatMap((place: unknown, slot): [number, string][] => {
    const p: unknown = players[slot];
    const name = isObj(p) ? own(p, 'name') : undefined;
    return Number.isSafeInteger(place) && typeof name === 'string' ? [[place as number, name]] : [];
  });
}

/**
 * The file's value when the whole text is one JSON object with a `format` field (a replay, or something that
 * claims to be one and is checked as such); undefined otherwise, and the text is read as JSON lines. Only a
 * text starting with `{` is parsed whole, and a results file fails at its second line at the latest.
 */
function wholeReplay(text: string): unknown {
  const first = /\S/.exec(text);
  if (!first || first[0] !== '{') return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  return isObj(value) && Object.hasOwn(value, 'format') ? value : undefined;
}

/** How one bot (a name) did in one match, as a ladder's games/W/D/L count it. */
export interface NameResult {
  name: string;
  /** the best rank among the seats it held */
  rank: number;
  result: 'win' | 'draw' | 'loss';
}

/**
 * Each distinct name of a match with its result: a win when its best seat is ranked first and no other name
 * is, a draw when another name shares the first rank, a loss otherwise (for a duel: the winner, a draw, the
 * loser). A name holding several seats counts once, by its best seat. Empty when a single name holds every
 * seat: a bot against itself is neither rated nor counted.
 */
export function nameResults(outcome: MatchOutcome): NameResult[] {
  const best = new Map<string, number>();
  for (const p of outcome.players) best.set(p.name, Math.min(p.rank, best.get(p.name) ?? Infinity));
  if (best.size < 2) return [];
  const top = Math.min(...best.values());
  const firsts = [...best.values()].filter((r) => r === top).length;
  return [...best].map(([name, rank]) => ({ name, rank, result: rank !== top ? 'loss' : firsts === 1 ? 'win' : 'draw' }));
}
