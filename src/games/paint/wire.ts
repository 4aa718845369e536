import type { AskPhase, Parsed, ViewContext } from '../../core/game.js';
import type { PaintAction, PaintState, Vec } from './rules.js';
import type { PaintActionJson, PaintMessage, PaintTurn } from './schema.js';

export type { PaintActionJson, PaintInit, PaintMessage, PaintTurn } from './schema.js';

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
    for (let k = 0; k < s.paintedCount; k += 2) {
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
    const entries: [string, PaintActionJson][] = [];
    const turn = s.history[t]!;
    for (let k = 0; k < turn.length; k++) {
      const a = turn[k];
      if (a) entries.push([s.ids[k]!, { type: a.type, direction: [a.direction[0], a.direction[1]] as PaintActionJson['direction'] }]);
    }
    list.push(Object.fromEntries(entries));
  }
  historyLists.set(s.history, list);
  return list.slice();
}

/**
 * The JSON of the history so far, extended turn by turn instead of rewritten (it grows every turn). It is
 * kept as one flat string: added to piece by piece, it would be a chain of thousands of pieces that every
 * message walks again when it is written. Kept for the ids it was written with, in case they change.
 */
const histories = new WeakMap<PaintState['history'], { turns: number; ids: string[]; json: string }>();
function historyJson(s: PaintState, ids: string[]): string {
  let cached = histories.get(s.history);
  if (!cached || cached.turns > s.history.length || cached.ids !== ids) cached = { turns: 0, ids, json: '' };
  if (cached.turns === s.history.length) return cached.json;
  const pieces = [cached.json];
  for (let t = cached.turns; t < s.history.length; t++) {
    const parts: string[] = [];
    s.history[t]!.forEach((a, slot) => {
      if (a) parts.push(`${ids[slot]}:{"type":"${a.type}","direction":[${a.direction[0]},${a.direction[1]}]}`);
    });
    pieces.push(`${t ? ',' : ''}{${parts.join(',')}}`);
  }
  // A join of several pieces makes a new flat string.
  cached = { turns: s.history.length, ids, json: pieces.join('') };
  histories.set(s.history, cached);
  return cached.json;
}

/**
 * The JSON text of `view`, byte for byte, built without the intermediate objects. The colour rows' text is
 * kept from one message to the next and a row is rewritten only when one of its squares changed; the
 * message is the same for every seat, so seats asking on the same turn share one text.
 */
export function encodeJson(s: PaintState, slot: number, ctx: ViewContext): string {
  if (ctx.phase === 'init') return JSON.stringify(view(s, slot, ctx));
  const t = colorsText(s);
  const ids = t.idsJson;
  const positions = s.positions.map(([i, j], k) => `${ids[k]}:[${i},${j}]`).join(',');
  const history = historyJson(s, ids);
  const obstacles = s.obstacles.length ? `,"obstacles":${JSON.stringify(s.obstacles)}` : '';
  // Every part besides the colours is small or already kept (the history), so comparing them is cheap; the
  // colours' text is a new string whenever a row changed, and usually the very same string when none did.
  const m = t.message;
  if (m && m.colors === t.colors && m.positions === positions && m.history === history && m.turnsLeft === s.turnsLeft && m.obstacles === obstacles)
    return m.text;
  const text = `{"width":${t.width},"height":${t.height},"player_positions":{${positions}},"colors":[${t.colors}],"previous_actions":[${history}],"turns_left":${s.turnsLeft}${obstacles}}`;
  t.message = { colors: t.colors, positions, history, turnsLeft: s.turnsLeft, obstacles, text };
  return text;
}

/**
 * A match's colour rows as text, with the squares each row was written from. Nothing in it is taken on
 * trust: every call compares the board with those squares (about 5 µs on 60×60, where writing every row
 * took 100 µs and more), so the text is right whatever happened in between — turns played with no message asked, squares set by
 * hand, a colour array replaced. `s.painted` is not used: it notes only the last turn's squares.
 */
interface ColorsText {
  width: number;
  height: number;
  /** the player ids the rows were written with, and their JSON */
  ids: string[];
  idsJson: string[];
  /** the squares as the rows show them, row-major */
  squares: Int32Array;
  rows: string[];
  /** the rows joined */
  colors: string;
  /** the last whole message and what it was made of */
  message: { colors: string; positions: string; history: string; turnsLeft: number; obstacles: string; text: string } | null;
}

// Keyed on the state: a copy, a state loaded from a position or another match starts with no text of its own.
const colorsTexts = new WeakMap<PaintState, ColorsText>();

/** The colour rows' text of `s`, rewriting only the rows whose squares differ from those it was written from. */
function colorsText(s: PaintState): ColorsText {
  const { width: w, height: h, colors } = s;
  let t = colorsTexts.get(s);
  const fresh = !t || t.width !== w || t.height !== h || t.ids.length !== s.ids.length || t.ids.some((id, k) => id !== s.ids[k]);
  if (!t || fresh) {
    t = {
      width: w,
      height: h,
      ids: s.ids.slice(),
      idsJson: s.ids.map((id) => JSON.stringify(id)),
      squares: new Int32Array(w * h),
      rows: [],
      colors: '',
      message: null,
    };
    colorsTexts.set(s, t);
  }
  const { squares, rows, idsJson } = t;
  let changed = fresh;
  const cells: string[] = new Array<string>(w);
  for (let i = 0; i < h; i++) {
    const at = i * w;
    if (!fresh) {
      // A square that is not a whole 32-bit number (or is missing) never equals its copy: its row is rewritten each time.
      let j = 0;
      while (j < w && colors[at + j] === squares[at + j]) j++;
      if (j === w) continue;
    }
    for (let j = 0; j < w; j++) {
      const c = colors[at + j]!;
      squares[at + j] = c;
      cells[j] = c >= 0 ? idsJson[c]! : 'null';
    }
    // Joined, not added cell by cell: a row kept for many turns is then one flat string, which the colours'
    // join copies at once instead of walking a chain of 2 × width pieces every turn.
    rows[i] = `[${cells.join(',')}]`;
    changed = true;
  }
  if (changed) t.colors = rows.join(',');
  return t;
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

/**
 * A string as Ruby's Integer() reads it (the reference engine's Position.from_list): blanks around, a sign,
 * then 0x, 0b, 0o or 0d and digits of that base, or 0 and octal digits (`"010"` is 8), or decimal digits
 * not starting with 0; single underscores may join digits (`"0_1"`, `"1_000"`). The groups hold the digits
 * of each base: hex, binary, octal (0o), octal (0), decimal (0d), decimal.
 */
const RUBY_INTEGER =
  /^[ \t\n\v\f\r]*[+-]?(?:0[xX]([0-9a-fA-F](?:_?[0-9a-fA-F])*)|0[bB]([01](?:_?[01])*)|0[oO]([0-7](?:_?[0-7])*)|0((?:_?[0-7])+)|0[dD](\d(?:_?\d)*)|([1-9](?:_?\d)*|0))[ \t\n\v\f\r]*$/;
const BASES = [16, 2, 8, 8, 10, 10];

/** The value of a string Ruby's Integer() accepts, or null when it raises. */
export function rubyInteger(text: string): number | null {
  const m = RUBY_INTEGER.exec(text);
  if (!m) return null;
  const k = m.findIndex((g, i) => i > 0 && g !== undefined) - 1;
  const value = parseInt(m[k + 1]!.replaceAll('_', ''), BASES[k]);
  return text.trim().startsWith('-') ? -value || 0 : value;
}

/** Reads one direction element as the reference engine's Integer(): numbers truncated, integer strings as Ruby reads them. */
function integer(v: unknown): number | null {
  if (typeof v === 'number' && Number.isFinite(v)) return Math.trunc(v) || 0;
  if (typeof v === 'string') return rubyInteger(v);
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
  const { type } = answer;
  if (type !== 'walk' && type !== 'shoot') return { ok: false, kind: 'bad-answer', detail: `"type" must be "walk" or "shoot", got ${show(type)}` };
  // The reference indexes the direction with [0] and [1] after checking its size is 2: a string of two
  // characters passes, each character read by Integer(), so "01" is [0, 1].
  const direction = typeof answer.direction === 'string' && [...answer.direction].length === 2 ? [...answer.direction] : answer.direction;
  if (!Array.isArray(direction) || direction.length !== 2) {
    return {
      ok: false,
      kind: 'bad-answer',
      detail: `"direction" must be a list of two integers [row step, column step] such as [0,1], got ${show(answer.direction)}`,
    };
  }
  const di = integer(direction[0]);
  const dj = integer(direction[1]);
  if (di === null || dj === null) {
    return {
      ok: false,
      kind: 'bad-answer',
      detail: `"direction" ${show(answer.direction)}: ${show(di === null ? direction[0] : direction[1])} is not an integer`,
    };
  }
  if (!VALID.has(`${di},${dj}`)) {
    return {
      ok: false,
      kind: 'bad-answer',
      detail: `"direction" ${show(answer.direction)} is not one of the 8 directions: row and column steps each −1, 0 or 1, not both 0`,
    };
  }
  return { ok: true, action: { type, direction: [di, dj] } };
}
