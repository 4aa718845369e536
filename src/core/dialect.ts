// The game's wire as bytes: the default JSON dialect (with its bounds on a bot's answer) and the choice of a
// game's other dialects.
import type { GameDefinition, WireDialect } from './definition.js';
import type { ConfigValues } from './config.js';
import type { InitRules } from './game-parts.js';
import type { Parsed } from './moves.js';
import { preview } from './describe.js';

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

/** The default wire: the view as JSON text, answers parsed as JSON then read by `rules.parseAnswer` (hellos by `rules.init.parse`). */
export function jsonDialect<S, A, I>(game: GameDefinition<ConfigValues, S, A, unknown, I>): WireDialect<S, A, I> {
  return {
    contentType: 'application/json',
    encode: game.wire.encodeJson
      ? (state, slot, ctx) => game.wire.encodeJson!(state, slot, ctx)
      : (state, slot, ctx) => JSON.stringify(game.wire.view(state, slot, ctx)),
    decode: (body, state, slot) =>
      readJson(body, (value) => (game.wire.parseAnswerText ? game.wire.parseAnswerText(body, value, state, slot) : game.rules.parseAnswer(value, state, slot))),
    decodeInit: (body, state, slot) => readJson(body, (value) => initRules(game).parse(value, state, slot)),
  };
}

/** Reads a hello answer's bytes in `dialect`: its own reader, else JSON read by the game's `rules.init.parse`. */
export function decodeInit<S, A, I>(
  game: GameDefinition<ConfigValues, S, A, unknown, I>,
  dialect: WireDialect<S, A, I>,
  body: string,
  state: S,
  slot: number,
): Parsed<I> {
  if (dialect.decodeInit) return dialect.decodeInit(body, state, slot);
  return readJson(body, (value) => initRules(game).parse(value, state, slot));
}

/** The game's hello rules; asking an `init` step without them is a bug in the game. */
export function initRules<S, I>(game: GameDefinition<ConfigValues, S, unknown, unknown, I>): InitRules<S, I> {
  if (!game.rules.init) throw new Error(`game ${game.id} asks an init step but defines no init rules`);
  return game.rules.init;
}

/** The dialect named `name` for a game ('json' is always there). */
export function getDialect<S, A, I>(game: GameDefinition<ConfigValues, S, A, unknown, I>, name = 'json'): WireDialect<S, A, I> {
  if (name === 'json') return jsonDialect(game);
  const d = game.wire.dialects && Object.hasOwn(game.wire.dialects, name) ? game.wire.dialects[name] : undefined;
  if (!d) {
    const known = ['json', ...Object.keys(game.wire.dialects ?? {})];
    throw new Error(`game ${game.id} has no wire dialect "${name}"; it has: ${known.join(', ')}`);
  }
  return d;
}
