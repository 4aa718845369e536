// Checking that a parsed JSON value has the replay's shape before anything reads it: every field's type and
// range, bounded depth, hostile keys refused. Apart from replay.ts, which records and re-runs replays.
import { ReplayMismatchError } from './errors.js';
import { describeValue, type AskPhase } from './game.js';
import type { Replay, TranscriptEntry } from './replay.js';

/** The replay format tag; bump the number when the shape changes incompatibly. */
export const REPLAY_FORMAT = 'botarena-replay/1';

/** How deeply a replay may nest arrays and objects anywhere (a real one needs about ten levels). */
export const MAX_REPLAY_DEPTH = 64;
/** The largest seed a replay may hold: the range `botarena play --seed` takes. */
const MAX_SEED = 0xffff_ffff;
/** The longest deadline a replay may record, in ms (the `--timeout` range). */
const MAX_DEADLINE_MS = 3_600_000;

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);
const isInt = (v: unknown, lo: number, hi: number): v is number => typeof v === 'number' && Number.isInteger(v) && v >= lo && v <= hi;
const isFiniteNumber = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
/** A field of a parsed object, read only when it is the object's own (never `toString` or `__proto__` from a prototype). */
const own = (o: Obj, key: string): unknown => (Object.hasOwn(o, key) ? o[key] : undefined);

/** A value quoted in a replay error: 60 characters at most. */
const brief = (value: unknown, max = 60): string => describeValue(value, max);

/** A path step: a list index, or an object key (written `.key` when it is a plain name, else quoted and short). */
type Step = number | string;
function pathText(steps: readonly Step[]): string {
  return steps
    .map((s, i) => (typeof s === 'number' ? `[${s}]` : /^[A-Za-z_$][\w$]{0,39}$/.test(s) ? `${i ? '.' : ''}${s}` : `[${brief(s, 40)}]`))
    .join('');
}

/**
 * The path of the first array or object nested deeper than `max` levels (the top value is level 1), or of the
 * first value JSON cannot hold (a function, NaN…), and what is wrong there; null when there is none. Walks
 * with a list of the arrays and objects still to look into, not by recursion.
 */
function deepOrOdd(value: unknown, max: number): { steps: Step[]; what: string } | null {
  interface Frame {
    v: object;
    depth: number;
    parent: Frame | null;
    step: Step;
  }
  const stepsOf = (f: Frame, last?: Step): Step[] => {
    const steps: Step[] = last === undefined ? [] : [last];
    for (let at: Frame | null = f; at?.parent; at = at.parent) steps.push(at.step);
    return steps.reverse();
  };
  const odd = (v: unknown): string | null => {
    if (v === null || typeof v === 'string' || typeof v === 'boolean' || typeof v === 'object') return null;
    if (typeof v === 'number') return Number.isFinite(v) ? null : `is ${v}, which JSON cannot hold`;
    return `is ${typeof v === 'undefined' ? 'undefined' : `a ${typeof v}`}, which JSON cannot hold`;
  };
  const top = odd(value);
  if (top) return { steps: [], what: top };
  if (value === null || typeof value !== 'object') return null;
  const stack: Frame[] = [{ v: value, depth: 1, parent: null, step: '' }];
  while (stack.length) {
    const f = stack.pop()!;
    if (f.depth > max) {
      // Name where the deep part starts, not all of its levels.
      const steps = stepsOf(f);
      return { steps: steps.slice(0, 6), what: `nests arrays and objects deeper than ${max} levels${steps.length > 6 ? ' (below this path)' : ''}` };
    }
    const keys = Array.isArray(f.v) ? null : Object.keys(f.v);
    for (let i = (keys ?? (f.v as unknown[])).length - 1; i >= 0; i--) {
      const step = keys ? keys[i]! : i;
      const child: unknown = (f.v as Record<Step, unknown>)[step];
      const what = odd(child);
      if (what) return { steps: stepsOf(f, step), what };
      if (child !== null && typeof child === 'object') stack.push({ v: child, depth: f.depth + 1, parent: f, step });
    }
  }
  return null;
}

/**
 * Checks a parsed JSON value has the whole replay shape, before anything reads it: every field's type and
 * range, every list's length where the seats fix it, and no value nested deeper than MAX_REPLAY_DEPTH levels.
 * Throws a ReplayMismatchError with a sentence naming the first wrong field by its path
 * (`"turns[3].moves[0].slot" must be an integer 0..1, got null`), quoting at most a short part of its value.
 * Fields it does not know are left alone.
 */
export function assertReplayShape(value: unknown): asserts value is Replay {
  const fail = (what: string): never => {
    throw new ReplayMismatchError(`not a Botarena replay: ${what}`, null);
  };
  const bad = (path: string, want: string, got: unknown): never => fail(`"${path}" must be ${want}, got ${brief(got)}`);
  if (!isObj(value)) return fail(`expected a JSON object, got ${brief(value)}`);
  const format = own(value, 'format');
  if (format !== REPLAY_FORMAT) fail(`"format" is ${format === undefined ? 'undefined' : brief(format)}, expected "${REPLAY_FORMAT}"`);
  const deep = deepOrOdd(value, MAX_REPLAY_DEPTH);
  if (deep) fail(`"${pathText(deep.steps)}" ${deep.what}`);

  // Field readers: each returns the checked value or fails naming the path.
  const obj = (o: Obj, key: string, path: string): Obj => {
    const v = own(o, key);
    return isObj(v) ? v : bad(path, 'a JSON object', v);
  };
  const list = (o: Obj, key: string, path: string, length?: number, what = 'an array'): unknown[] => {
    const v = own(o, key);
    if (!Array.isArray(v)) return bad(path, length === undefined ? what : `${what} of ${length} (one per seat)`, v);
    if (length !== undefined && v.length !== length) fail(`"${path}" must have ${length} items (one per seat), got ${v.length}`);
    return v;
  };
  const str = (o: Obj, key: string, path: string): string => {
    const v = own(o, key);
    return typeof v === 'string' ? v : bad(path, 'a string', v);
  };
  const int = (o: Obj, key: string, path: string, lo: number, hi: number, range = `${lo}..${hi}`): number => {
    const v = own(o, key);
    return isInt(v, lo, hi) ? v : bad(path, `an integer ${range}`, v);
  };
  const num = (o: Obj, key: string, path: string): number => {
    const v = own(o, key);
    return isFiniteNumber(v) ? v : bad(path, 'a number', v);
  };
  const item = (v: unknown, path: string, want: string): Obj => (isObj(v) ? v : bad(path, want, v));
  const has = (o: Obj, key: string) => own(o, key) !== undefined;

  const r = value;
  str(r, 'engineVersion', 'engineVersion');
  str(r, 'game', 'game');
  const config = obj(r, 'config', 'config');
  for (const key of Object.keys(config)) {
    const v = config[key];
    if (typeof v !== 'string' && typeof v !== 'boolean' && !isFiniteNumber(v)) bad(pathText(['config', key]), 'a string, a number or true/false', v);
  }
  int(r, 'seed', 'seed', 0, MAX_SEED);
  str(r, 'matchId', 'matchId');

  const seats = list(r, 'seats', 'seats');
  if (!seats.length) fail('"seats" must list at least one seat, got []');
  const n = seats.length;
  const slotRange = n === 1 ? '0 (the only seat)' : `0..${n - 1} (a seat of the ${n})`;
  seats.forEach((s, i) => {
    const seat = item(s, `seats[${i}]`, 'a seat {"slot","name","bot"}');
    int(seat, 'slot', `seats[${i}].slot`, i, i, `${i} (its place in the list)`);
    str(seat, 'name', `seats[${i}].name`);
    str(seat, 'bot', `seats[${i}].bot`);
  });

  const timeouts = obj(r, 'timeouts', 'timeouts');
  int(timeouts, 'initMs', 'timeouts.initMs', 1, MAX_DEADLINE_MS);
  int(timeouts, 'turnMs', 'timeouts.turnMs', 1, MAX_DEADLINE_MS);
  if (has(timeouts, 'turnSet') && typeof own(timeouts, 'turnSet') !== 'boolean') bad('timeouts.turnSet', 'true or false', own(timeouts, 'turnSet'));

  if (has(r, 'forkedFrom')) {
    const f = obj(r, 'forkedFrom', 'forkedFrom');
    str(f, 'matchId', 'forkedFrom.matchId');
    int(f, 'seed', 'forkedFrom.seed', 0, MAX_SEED);
    int(f, 'turn', 'forkedFrom.turn', 0, Number.MAX_SAFE_INTEGER, '≥ 0');
    str(f, 'fingerprint', 'forkedFrom.fingerprint');
  }
  if (has(r, 'hashes') && own(r, 'hashes') === 'steps') {
    // Written by a development version of main (before chained fingerprints took their final form): its
    // moves are sound but its fingerprints are another scheme's.
    fail('"hashes" is "steps": the replay was written by a development version of botarena whose step fingerprints this version does not make, so it cannot be checked; play the match again with the same bots and seed');
  }
  if (has(r, 'hashes') && own(r, 'hashes') !== 'chain') bad('hashes', '"chain" (or no "hashes" at all: whole-state fingerprints)', own(r, 'hashes'));

  const fault = (o: Obj, key: string, path: string): void => {
    const f = obj(o, key, path);
    str(f, 'kind', `${path}.kind`);
    str(f, 'detail', `${path}.detail`);
  };
  const phases: readonly AskPhase[] = ['init', 'play'];
  list(r, 'turns', 'turns').forEach((t, i) => {
    const at = `turns[${i}]`;
    const rec = item(t, at, 'a step {"turn","phase","moves","hash"}');
    const phase = own(rec, 'phase');
    if (!phases.includes(phase as AskPhase)) bad(`${at}.phase`, phases.map((p) => `"${p}"`).join(' or '), phase);
    int(rec, 'turn', `${at}.turn`, 0, Number.MAX_SAFE_INTEGER, '≥ 0');
    str(rec, 'hash', `${at}.hash`);
    list(rec, 'moves', `${at}.moves`).forEach((m, j) => {
      const where = `${at}.moves[${j}]`;
      const move = item(m, where, 'a move {"slot","action"} or {"slot","fault"}');
      int(move, 'slot', `${where}.slot`, 0, n - 1, slotRange);
      if (has(move, 'ms')) num(move, 'ms', `${where}.ms`);
      if (has(move, 'fault')) fault(move, 'fault', `${where}.fault`);
      else if (!Object.hasOwn(move, 'action')) fail(`"${where}" must have an "action" or a "fault", got ${brief(move)}`);
    });
  });

  const result = obj(r, 'result', 'result');
  list(result, 'ranks', 'result.ranks', n).forEach((rank, i) => {
    if (!isInt(rank, 1, Number.MAX_SAFE_INTEGER)) bad(`result.ranks[${i}]`, 'an integer ≥ 1', rank);
  });
  if (own(result, 'scores') !== null) {
    list(result, 'scores', 'result.scores', n, 'null or an array').forEach((score, i) => {
      if (!isFiniteNumber(score)) bad(`result.scores[${i}]`, 'a number', score);
    });
  }
  str(result, 'reason', 'result.reason');
  const winner = own(result, 'winner');
  if (winner !== null && !isInt(winner, 0, n - 1)) bad('result.winner', `null or ${slotRange}`, winner);
  if (typeof own(result, 'draw') !== 'boolean') bad('result.draw', 'true or false', own(result, 'draw'));
  if (has(result, 'error')) str(result, 'error', 'result.error');
  for (const key of has(result, 'notes') ? ['faults', 'notes'] : ['faults']) {
    list(result, key, `result.${key}`, n).forEach((f, i) => {
      if (f === null) return;
      const where = `result.${key}[${i}]`;
      const fo = item(f, where, 'null or a fault {"turn","kind","detail"}');
      int(fo, 'turn', `${where}.turn`, 0, Number.MAX_SAFE_INTEGER, '≥ 0');
      str(fo, 'kind', `${where}.kind`);
      str(fo, 'detail', `${where}.detail`);
    });
  }

  if (has(r, 'durationMs')) num(r, 'durationMs', 'durationMs');
  if (has(r, 'stopped')) str(r, 'stopped', 'stopped');
  if (has(r, 'transcripts')) {
    const dirs: readonly TranscriptEntry['dir'][] = ['send', 'recv', 'stderr', 'note'];
    list(r, 'transcripts', 'transcripts', n).forEach((seat, i) => {
      if (!Array.isArray(seat)) bad(`transcripts[${i}]`, "an array of the seat's messages", seat);
      (seat as unknown[]).forEach((e, j) => {
        const where = `transcripts[${i}][${j}]`;
        const entry = item(e, where, 'a message {"dir","t","text"}');
        const dir = own(entry, 'dir');
        if (!dirs.includes(dir as TranscriptEntry['dir'])) bad(`${where}.dir`, dirs.map((d) => `"${d}"`).join(', '), dir);
        num(entry, 't', `${where}.t`);
        str(entry, 'text', `${where}.text`);
      });
    });
  }
}
