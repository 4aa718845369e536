import type { AskPhase, Parsed, ViewContext } from '../../core/game.js';
import type { PaintAction, PaintState, Vec } from './rules.js';

/** The hello: the bot's id in the game. The answer must be `{"ready":true}`. */
export interface PaintInit {
  player_id: string;
}

/** An action as listed in `previous_actions`. */
export interface PaintActionJson {
  type: 'walk' | 'shoot';
  direction: Vec;
}

/** The state sent each turn, keys in the reference's order; `obstacles` only when the board has some. */
export interface PaintTurn {
  width: number;
  height: number;
  player_positions: Record<string, Vec>;
  colors: (string | null)[][];
  previous_actions: Record<string, PaintActionJson>[];
  turns_left: number;
  obstacles?: Vec[];
}

/** A message to a paint bot. */
export type PaintMessage = PaintInit | PaintTurn;

/**
 * The message for `slot`: the hello, or the whole state. The state message is the same for every player,
 * so it is built once per turn and shared by every seat (read it, never change it); the history list
 * is extended turn by turn rather than rebuilt, since it grows every turn, and the colour rows a turn did
 * not paint are shared with the turn before's message.
 */
export function view(s: PaintState, slot: number, ctx: ViewContext): PaintMessage {
  if (ctx.phase === 'init') return { player_id: s.ids[slot]! };
  const cached = turnViews.get(s);
  if (cached && cached.turnsLeft === s.turnsLeft && cached.view.previous_actions.length === s.history.length) return cached.view;
  const { width: w, height: h } = s;
  let colors: (string | null)[][];
  if (cached && cached.turnsLeft === s.turnsLeft + 1 && cached.view.previous_actions.length + 1 === s.history.length && s.painted) {
    // One turn on from the last message: its rows are shared, and only the rows the turn painted are copied.
    const before = cached.view.colors;
    colors = before.slice();
    for (let k = 0; k < s.painted.length; k += 2) {
      const sq: number = s.painted[k]!;
      const i = (sq - (sq % w)) / w;
      if (colors[i] === before[i]) colors[i] = before[i]!.slice();
      colors[i]![sq % w] = s.ids[s.painted[k + 1]!]!;
    }
  } else {
    colors = [];
    for (let i = 0; i < h; i++) {
      const row: (string | null)[] = [];
      for (let j = 0; j < w; j++) {
        const c = s.colors[i * w + j]!;
        row.push(c >= 0 ? s.ids[c]! : null);
      }
      colors.push(row);
    }
  }
  // Object.fromEntries makes own keys even for an id such as "__proto__".
  const turn: PaintTurn = {
    width: w,
    height: h,
    player_positions: Object.fromEntries(s.ids.map((id, k) => [id, [s.positions[k]![0], s.positions[k]![1]] as Vec])),
    colors,
    previous_actions: historyList(s),
    turns_left: s.turnsLeft,
  };
  if (s.obstacles.length) turn.obstacles = s.obstacles.map(([i, j]) => [i, j]);
  turnViews.set(s, { turnsLeft: s.turnsLeft, view: turn });
  return turn;
}

const turnViews = new WeakMap<PaintState, { turnsLeft: number; view: PaintTurn }>();
const historyLists = new WeakMap<PaintState['history'], PaintTurn['previous_actions']>();

/** `previous_actions` as objects: the cached list extended by the turns played since, then copied. */
function historyList(s: PaintState): PaintTurn['previous_actions'] {
  let list = historyLists.get(s.history);
  if (!list || list.length > s.history.length) list = [];
  for (let t = list.length; t < s.history.length; t++) {
    const entries: [string, { type: PaintAction['type']; direction: Vec }][] = [];
    const turn = s.history[t]!;
    for (let k = 0; k < turn.length; k++) {
      const a = turn[k];
      if (a) entries.push([s.ids[k]!, { type: a.type, direction: [a.direction[0], a.direction[1]] }]);
    }
    list.push(Object.fromEntries(entries));
  }
  historyLists.set(s.history, list);
  return list.slice();
}

/** The JSON of the history so far, extended turn by turn instead of rewritten (it grows every turn). */
const histories = new WeakMap<PaintState['history'], { turns: number; json: string }>();
function historyJson(s: PaintState, ids: string[]): string {
  let cached = histories.get(s.history);
  if (!cached || cached.turns > s.history.length) cached = { turns: 0, json: '' };
  for (let t = cached.turns; t < s.history.length; t++) {
    const parts: string[] = [];
    s.history[t]!.forEach((a, slot) => {
      if (a) parts.push(`${ids[slot]}:{"type":"${a.type}","direction":[${a.direction[0]},${a.direction[1]}]}`);
    });
    cached = { turns: t + 1, json: `${cached.json}${t ? ',' : ''}{${parts.join(',')}}` };
  }
  histories.set(s.history, cached);
  return cached.json;
}

/** The JSON text of `view`, byte for byte, built without the intermediate objects. */
export function encodeJson(s: PaintState, slot: number, ctx: ViewContext): string {
  if (ctx.phase === 'init') return JSON.stringify(view(s, slot, ctx));
  const { width: w, height: h } = s;
  const ids = s.ids.map((id) => JSON.stringify(id));
  const rows: string[] = [];
  for (let i = 0; i < h; i++) {
    let row = '[';
    for (let j = 0; j < w; j++) {
      const c = s.colors[i * w + j]!;
      row += (j ? ',' : '') + (c >= 0 ? ids[c] : 'null');
    }
    rows.push(row + ']');
  }
  const positions = s.positions.map(([i, j], k) => `${ids[k]}:[${i},${j}]`).join(',');
  const obstacles = s.obstacles.length ? `,"obstacles":${JSON.stringify(s.obstacles)}` : '';
  return `{"width":${w},"height":${h},"player_positions":{${positions}},"colors":[${rows.join(',')}],"previous_actions":[${historyJson(s, ids)}],"turns_left":${s.turnsLeft}${obstacles}}`;
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
const show = (v: unknown) => {
  const text = JSON.stringify(v) ?? 'nothing';
  return text.length > 60 ? `${text.slice(0, 60)}…` : text;
};

/**
 * Why a line is not this turn's answer (the `turns_left` nonce): a JSON object whose `turns_left` is
 * there but is not the current number is a late or repeated answer, skipped. Anything else — the right
 * number, no `turns_left`, not a JSON object — is the answer (the last two then count as no action).
 */
export function skipAnswer(text: string, s: PaintState, phase: AskPhase): string | null {
  if (phase === 'init') return null;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  if (!isObject(value) || !('turns_left' in value) || value.turns_left === s.turnsLeft) return null;
  return `turns_left ${show(value.turns_left)} is not the current ${s.turnsLeft}`;
}

/** Reads one direction element as the reference engine's Integer(): numbers truncated, whole-number strings. */
function integer(v: unknown): number | null {
  if (typeof v === 'number' && Number.isFinite(v)) return Math.trunc(v) || 0;
  if (typeof v === 'string' && /^\s*[+-]?\d+\s*$/.test(v)) return Number(v.trim()) || 0;
  return null;
}

/** The 8 directions as "di,dj" keys. */
const VALID = new Set(['-1,-1', '-1,0', '-1,1', '0,-1', '0,1', '1,-1', '1,0', '1,1']);

/** Reads the hello's answer, `{"ready":true}`. */
export function parseReady(answer: unknown): Parsed<null> {
  if (isObject(answer) && answer.ready === true) return { ok: true, action: null };
  return { ok: false, kind: 'bad-answer', detail: `expected {"ready":true} to the hello, got ${show(answer)}` };
}

/** Reads a turn's `{"turns_left":T,"type":…,"direction":[di,dj]}` (extra keys ignored). */
export function parseAnswer(answer: unknown, s: PaintState): Parsed<PaintAction> {
  const example = `{"turns_left":${s.turnsLeft},"type":"walk","direction":[0,1]}`;
  if (!isObject(answer)) return { ok: false, kind: 'bad-answer', detail: `expected a JSON object like ${example}, got ${show(answer)}` };
  if (!('turns_left' in answer)) return { ok: false, kind: 'bad-answer', detail: `no "turns_left": copy it from the state (${s.turnsLeft}), as in ${example}` };
  if (answer.turns_left !== s.turnsLeft) {
    return { ok: false, kind: 'bad-answer', detail: `"turns_left" is ${show(answer.turns_left)}, not the current ${s.turnsLeft}` };
  }
  const { type, direction } = answer;
  if (type !== 'walk' && type !== 'shoot') return { ok: false, kind: 'bad-answer', detail: `"type" must be "walk" or "shoot", got ${show(type)}` };
  if (!Array.isArray(direction) || direction.length !== 2) {
    return { ok: false, kind: 'bad-answer', detail: `"direction" must be a list of two integers [row step, column step] such as [0,1], got ${show(direction)}` };
  }
  const di = integer(direction[0]);
  const dj = integer(direction[1]);
  if (di === null || dj === null) {
    return { ok: false, kind: 'bad-answer', detail: `"direction" ${show(direction)}: ${show(di === null ? direction[0] : direction[1])} is not an integer` };
  }
  if (!VALID.has(`${di},${dj}`)) {
    return { ok: false, kind: 'bad-answer', detail: `"direction" ${show(direction)} is not one of the 8 directions: row and column steps each −1, 0 or 1, not both 0` };
  }
  return { ok: true, action: { type, direction: [di, dj] } };
}
