// Checking that a parsed JSON value is a replay before anything reads it, by the replay's schema
// (replay-format.ts): first what a schema cannot bound (how deep it nests, values JSON cannot hold), then the
// schema, then what it cannot say (every slot names one of the seats, one item per seat). Each error names the
// first wrong field by its path and quotes a short part of its value.
import { Compile, type Validator } from 'typebox/schema';
import { ReplayMismatchError } from './errors.js';
import { describeValue } from './describe.js';
import { ReplaySchema, type Replay } from './replay-format.js';
import { REPLAY_FORMAT } from './replay-limits.js';

/** How deeply a replay may nest arrays and objects anywhere (a real one needs about ten levels). */
export const MAX_REPLAY_DEPTH = 64;
type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);
/** A field of a parsed object, read only when it is the object's own (never `toString` or `__proto__` from a prototype). */
const own = (o: Obj, key: string): unknown => (Object.hasOwn(o, key) ? o[key] : undefined);

/** A value quoted in a replay error: 60 characters at most. */
const brief = (value: unknown, max = 60): string => describeValue(value, max);

/** A path step: a list index, or an object key (written `.key` when it is a plain name, else quoted and short). */
type Step = number | string;
function pathText(steps: readonly Step[]): string {
  return steps.map((s, i) => (typeof s === 'number' ? `[${s}]` : /^[A-Za-z_$][\w$]{0,39}$/.test(s) ? `${i ? '.' : ''}${s}` : `[${brief(s, 40)}]`)).join('');
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

/** The compiled check of the replay schema, made on first use (compiling it costs a few milliseconds). */
let validator: Validator | undefined;
const replayValidator = () => (validator ??= Compile(ReplaySchema));

/** The words a schema's description leaves to the replay: which slots name a seat, how many items are one per seat. */
function filled(description: string, seats: number | null): string {
  const slots = seats === null ? 'naming a seat' : seats === 1 ? '0 (the only seat)' : `0..${seats - 1} (a seat of the ${seats})`;
  return description.replace('{slots}', slots).replace('{perSeat}', seats === null ? '(one per seat)' : `of ${seats} (one per seat)`);
}

/** One step of a JSON pointer (`~1` is `/`, `~0` is `~`). */
const unescape = (segment: string) => segment.replace(/~1/g, '/').replace(/~0/g, '~');

/** The part of the replay schema a schema path (`#/properties/seats/items`) points at. */
function schemaAt(pointer: string): Obj | undefined {
  let node: unknown = ReplaySchema;
  for (const segment of pointer.replace(/^#\/?/, '').split('/')) {
    if (!segment) continue;
    node = node !== null && typeof node === 'object' ? (node as Record<string, unknown>)[unescape(segment)] : undefined;
  }
  return isObj(node) ? node : undefined;
}

/** The path of an instance pointer (`/turns/3/moves`) as steps, and the value there (own fields only). */
function valueAt(root: unknown, pointer: string): { steps: Step[]; value: unknown } {
  const steps: Step[] = [];
  let value = root;
  for (const segment of pointer.split('/').slice(1)) {
    const key = unescape(segment);
    if (Array.isArray(value) && /^\d+$/.test(key)) {
      steps.push(Number(key));
      value = value[Number(key)];
    } else {
      steps.push(key);
      value = isObj(value) ? own(value, key) : undefined;
    }
  }
  return { steps, value };
}

type SchemaError = ReturnType<ReturnType<typeof replayValidator>['Errors']>[1][number];

/** Where an error is: the object for most, the missing field itself for a `required` error. */
const errorPointer = (e: SchemaError): string =>
  e.keyword === 'required'
    ? `${e.instancePath}/${(e.params as { requiredProperties: string[] }).requiredProperties[0]!.replace(/~/g, '~0').replace(/\//g, '~1')}`
    : e.instancePath;

/**
 * The sentence for the first of the schema's errors: the path of the wrong field, what it must be (its schema's
 * description) and what it is. Where the field may be one of several things (null or a list), the error inside
 * the one it looks like is named when there is one (`result.scores[1]` of a list), else the field as a whole.
 */
function explain(errors: readonly SchemaError[], value: unknown, seats: number | null): string {
  let chosen = errors[0]!;
  let schemaPath = chosen.schemaPath;
  const union = chosen.schemaPath.indexOf('/anyOf/');
  if (union >= 0) {
    const unionPath = chosen.schemaPath.slice(0, union);
    const unionPointer = chosen.instancePath;
    const inside = errors.find((e) => e.schemaPath.startsWith(`${unionPath}/anyOf/`) && errorPointer(e).length > unionPointer.length);
    if (inside) [chosen, schemaPath] = [inside, inside.schemaPath];
    else [chosen, schemaPath] = [{ ...chosen, keyword: 'anyOf', instancePath: unionPointer } as SchemaError, unionPath];
  }
  const pointer = errorPointer(chosen);
  if (chosen.keyword === 'required') schemaPath += `/properties/${pointer.slice(pointer.lastIndexOf('/') + 1)}`;
  const { steps, value: got } = valueAt(value, pointer);
  const description = schemaAt(schemaPath)?.description;
  const want = typeof description === 'string' ? filled(description, seats) : chosen.message;
  return `"${pathText(steps)}" must be ${want}, got ${brief(got)}`;
}

/**
 * Checks a parsed JSON value is a whole replay, before anything reads it: no value nested deeper than
 * MAX_REPLAY_DEPTH levels nor one JSON cannot hold, then the replay's schema (every field's type and range),
 * then what the schema cannot say: each slot names one of the seats, each list of the result and the
 * transcripts has one item per seat, and a move has an action or a fault. The cost is one walk of the value
 * for each. Throws a ReplayMismatchError with a sentence naming the first wrong field by its path
 * (`"turns[3].moves[0].slot" must be an integer 0..1 (a seat of the 2), got null`), quoting at most a short part
 * of its value. Fields it does not know are left alone.
 */
export function assertReplayShape(value: unknown): asserts value is Replay {
  const fail = (what: string): never => {
    throw new ReplayMismatchError(`not a Botarena replay: ${what}`, null);
  };
  if (!isObj(value)) return fail(`expected a JSON object, got ${brief(value)}`);
  const format = own(value, 'format');
  if (format !== REPLAY_FORMAT) fail(`"format" is ${format === undefined ? 'undefined' : brief(format)}, expected "${REPLAY_FORMAT}"`);
  const deep = deepOrOdd(value, MAX_REPLAY_DEPTH);
  if (deep) fail(`"${pathText(deep.steps)}" ${deep.what}`);
  if (own(value, 'hashes') === 'steps') {
    // Written by a development version of main (before chained fingerprints took their final form): its
    // moves are sound but its fingerprints are another scheme's.
    fail(
      '"hashes" is "steps": the replay was written by a development version of botarena whose step fingerprints this version does not make, so it cannot be checked; play the match again with the same bots and seed',
    );
  }
  const seatList = own(value, 'seats');
  const seats = Array.isArray(seatList) && seatList.length ? seatList.length : null;
  const check = replayValidator();
  if (!check.Check(value)) fail(explain(check.Errors(value)[1], value, seats));
  const problem = relationProblem(value as Replay);
  if (problem) fail(problem);
}

/** The first field of a replay that passed its schema which breaks a relation between fields, or null. */
function relationProblem(r: Replay): string | null {
  const n = r.seats.length;
  const bad = (path: string, want: string, got: unknown) => `"${path}" must be ${want}, got ${brief(got)}`;
  for (const [i, seat] of r.seats.entries()) if (seat.slot !== i) return bad(`seats[${i}].slot`, `an integer ${i} (its place in the list)`, seat.slot);
  for (const [i, t] of r.turns.entries()) {
    for (const [j, m] of t.moves.entries()) {
      if (m.slot >= n) return bad(`turns[${i}].moves[${j}].slot`, filled('an integer {slots}', n), m.slot);
      if (m.fault === undefined && !Object.hasOwn(m, 'action')) return `"turns[${i}].moves[${j}]" must have an "action" or a "fault", got ${brief(m)}`;
    }
  }
  const perSeat: [string, readonly unknown[] | null | undefined][] = [
    ['result.ranks', r.result.ranks],
    ['result.scores', r.result.scores],
    ['result.faults', r.result.faults],
    ['result.notes', r.result.notes],
    ['transcripts', r.transcripts],
  ];
  for (const [path, list] of perSeat) if (list && list.length !== n) return `"${path}" must have ${n} items (one per seat), got ${list.length}`;
  if (r.result.winner !== null && r.result.winner >= n) return bad('result.winner', filled('null or {slots}', n), r.result.winner);
  return null;
}
