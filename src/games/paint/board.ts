import { describeValue } from '../../core/game.js';
import { rngCreate, rngInt, rngShuffle } from '../../core/rng.js';
import { BOARDS, type BoardFile } from './boards.js';
import { DIRECTIONS, EMPTY, OBSTACLE, type PaintAction, type PaintState, type Vec } from './rules.js';

/** Paint's match configuration. */
export interface PaintConfig {
  board: string;
  width: number;
  height: number;
  turns: number;
  obstacles: number;
  ids: string;
  [key: string]: string | number;
}

/** A board ready to play: players in order, the grid as slot numbers. */
export interface Board {
  width: number;
  height: number;
  ids: string[];
  positions: Vec[];
  colors: number[];
  obstacles: Vec[];
  /** the total number of turns, those already played (`history`) included */
  turns: number;
  /** the turns already played (a board's `previous_actions`), by slot; [] for a fresh board */
  history: (PaintAction | null)[][];
}

/** The default player ids: alice … heidi, then player9, player10, … */
export function defaultId(slot: number): string {
  return ['alice', 'bob', 'charlie', 'danielle', 'erin', 'frank', 'grace', 'heidi'][slot] ?? `player${slot + 1}`;
}

/** The names of the shipped boards. */
export const BOARD_NAMES = Object.keys(BOARDS);

/** A value from a board as an error quotes it: at most 60 characters, so a file's text is never echoed whole. */
const show = (v: unknown): string => describeValue(v, 60);
/** A player id as an error names it: as it is when short and plain, else quoted and cut. */
const idName = (id: string): string => (/^[\w-]{1,40}$/.test(id) ? id : show(id));
/** The player ids as an error lists them: the first ten. */
const idList = (ids: string[]): string => ids.slice(0, 10).map(idName).join(', ') + (ids.length > 10 ? ` and ${ids.length - 10} more` : '');
const isInt = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v);
const isSquare = (v: unknown, w: number, h: number): v is Vec =>
  Array.isArray(v) && v.length === 2 && isInt(v[0]) && isInt(v[1]) && v[0] >= 0 && v[1] >= 0 && v[0] < h && v[1] < w;

/** Reads a board object in the wire form; throws an Error whose message says what is wrong and where. */
export function readBoard(value: unknown): Omit<Board, 'turns'> & { turns: number | null } {
  const bad = (what: string): never => {
    throw new Error(what);
  };
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    bad('expected a JSON object with width, height, player_positions, colors, previous_actions, turns_left');
  const b = value as Partial<Record<keyof BoardFile, unknown>>;
  const { width: w, height: h } = b;
  if (!isInt(w) || w < 1) return bad(`width must be a positive integer, got ${show(w)}`);
  if (!isInt(h) || h < 1) return bad(`height must be a positive integer, got ${show(h)}`);
  const pp = b.player_positions;
  if (pp === null || typeof pp !== 'object' || Array.isArray(pp)) return bad('player_positions must be an object {"id": [row, column], …}');
  const ids = Object.keys(pp);
  if (ids.length < 1) bad('player_positions names no player');
  const positions = ids.map((id) => {
    const p = (pp as Record<string, unknown>)[id];
    if (!isSquare(p, w, h))
      bad(`player_positions.${idName(id)} must be [row, column] inside the ${w}×${h} board (rows 0..${h - 1}, columns 0..${w - 1}), got ${show(p)}`);
    return [(p as Vec)[0], (p as Vec)[1]] as Vec;
  });
  positions.forEach(([i, j], k) => {
    const other = positions.findIndex(([a, c]) => a === i && c === j);
    if (other !== k) bad(`player_positions: ${idName(ids[other]!)} and ${idName(ids[k]!)} both start on [${i},${j}]`);
  });
  if (!Array.isArray(b.colors) || b.colors.length !== h)
    return bad(`colors must be a list of ${h} rows (height), got ${Array.isArray(b.colors) ? `${b.colors.length} rows` : show(b.colors)}`);
  const colors: number[] = [];
  b.colors.forEach((row: unknown, i) => {
    if (!Array.isArray(row) || row.length !== w)
      bad(`colors[${i}] must be a list of ${w} squares (width), got ${Array.isArray(row) ? `${row.length}` : show(row)}`);
    (row as unknown[]).forEach((c, j) => {
      if (c === null) return void colors.push(EMPTY);
      const slot = typeof c === 'string' ? ids.indexOf(c) : -1;
      if (slot < 0) bad(`colors[${i}][${j}] must be null or a player id of player_positions (${idList(ids)}), got ${show(c)}`);
      colors.push(slot);
    });
  });
  const history = readHistory(b.previous_actions, ids);
  const t = b.turns_left;
  if (t !== undefined && (!isInt(t) || t < 1)) bad(`turns_left must be a positive integer, got ${show(t)}`);
  const obstacles: Vec[] = [];
  if (b.obstacles !== undefined) {
    if (!Array.isArray(b.obstacles)) bad(`obstacles must be a list of [row, column], got ${show(b.obstacles)}`);
    (b.obstacles as unknown[]).forEach((o, k) => {
      if (!isSquare(o, w, h)) bad(`obstacles[${k}] must be [row, column] inside the ${w}×${h} board, got ${show(o)}`);
      const [i, j] = o as Vec;
      if (colors[i * w + j] === OBSTACLE) bad(`obstacles[${k}]: [${i},${j}] is listed twice`);
      if (colors[i * w + j] !== EMPTY) bad(`obstacles[${k}]: [${i},${j}] is painted; an obstacle is never painted`);
      const on = positions.findIndex(([a, c]) => a === i && c === j);
      if (on >= 0) bad(`obstacles[${k}]: [${i},${j}] is the start of ${ids[on]}`);
      colors[i * w + j] = OBSTACLE;
      obstacles.push([i, j]);
    });
  }
  return { width: w, height: h, ids, positions, colors, obstacles, history, turns: t === undefined ? null : (t as number) };
}

/** Reads `previous_actions` (one object per turn played, id → {"type":…,"direction":[di,dj]}) into actions by slot. */
function readHistory(list: unknown, ids: string[]): (PaintAction | null)[][] {
  if (list === undefined) return [];
  const bad = (what: string): never => {
    throw new Error(what);
  };
  if (!Array.isArray(list)) return bad(`previous_actions must be a list with one object per turn played ({} when no action counted), got ${show(list)}`);
  return list.map((turn: unknown, t) => {
    if (turn === null || typeof turn !== 'object' || Array.isArray(turn))
      return bad(`previous_actions[${t}] must be an object {"id": {"type":…,"direction":[di,dj]}, …}, got ${show(turn)}`);
    const actions: (PaintAction | null)[] = ids.map(() => null);
    for (const [id, a] of Object.entries(turn)) {
      const slot = ids.indexOf(id);
      const where = `previous_actions[${t}].${idName(id)}`;
      if (slot < 0) bad(`previous_actions[${t}] names ${show(id)}, not a player id of player_positions (${idList(ids)})`);
      const { type, direction: d, ...rest } = (a ?? {}) as Record<string, unknown>;
      if (typeof a !== 'object' || a === null || Array.isArray(a) || Object.keys(rest).length)
        bad(`${where} must be {"type":"walk"|"shoot","direction":[di,dj]}, got ${show(a)}`);
      if (type !== 'walk' && type !== 'shoot') bad(`${where}.type must be "walk" or "shoot", got ${show(type)}`);
      const dir = Array.isArray(d) && d.length === 2 ? DIRECTIONS.find(([di, dj]) => d[0] === di && d[1] === dj) : undefined;
      if (!dir) bad(`${where}.direction must be one of the 8 directions [di,dj] (each −1, 0 or 1, not both 0), got ${show(d)}`);
      actions[slot] = { type: type as PaintAction['type'], direction: [dir![0], dir![1]] };
    }
    return actions;
  });
}

/** The squares of a rectangle's border in walking order (a line when it is one row or column thick). */
function ring(r0: number, c0: number, r1: number, c1: number): Vec[] {
  const out: Vec[] = [];
  if (r0 === r1) for (let j = c0; j <= c1; j++) out.push([r0, j]);
  else if (c0 === c1) for (let i = r0; i <= r1; i++) out.push([i, c0]);
  else {
    for (let j = c0; j < c1; j++) out.push([r0, j]);
    for (let i = r0; i < r1; i++) out.push([i, c1]);
    for (let j = c1; j > c0; j--) out.push([r1, j]);
    for (let i = r1; i > r0; i--) out.push([i, c0]);
  }
  return out;
}

/**
 * A generated board: starts spread evenly along a ring inset by about a quarter of the shorter side
 * (for two players on a rectangle they are point-symmetric), rotated by the seed; each start is painted
 * its player's colour; obstacles on seeded free squares. Crowded boards use every square in snake order.
 */
export function generateBoard(width: number, height: number, ids: string[], obstacles: number, turns: number, seed: number): Board {
  const rng = rngCreate(seed);
  const inset = Math.floor((Math.min(width, height) - 1) / 4);
  let path = ring(inset, inset, height - 1 - inset, width - 1 - inset);
  if (path.length < ids.length) {
    path = [];
    for (let i = 0; i < height; i++) for (let k = 0; k < width; k++) path.push([i, i % 2 ? width - 1 - k : k]);
  }
  const offset = rngInt(rng, 0, path.length - 1);
  const positions = ids.map((_, slot) => path[(offset + Math.floor((slot * path.length) / ids.length)) % path.length]!);
  // (Filled by push, not Array(n).fill: V8 keeps such an array packed, which the rules read faster.)
  const colors: number[] = [];
  for (let k = 0; k < width * height; k++) colors.push(EMPTY);
  positions.forEach(([i, j], slot) => (colors[i * width + j] = slot));
  // (Without obstacles nothing is drawn: the generator is not used after this.)
  const free: number[] = [];
  if (obstacles) for (let k = 0; k < colors.length; k++) if (colors[k] === EMPTY) free.push(k);
  const blocked = obstacles
    ? rngShuffle(rng, free)
        .slice(0, obstacles)
        .sort((a, b) => a - b)
    : [];
  for (const k of blocked) colors[k] = OBSTACLE;
  const obstacleList = blocked.map((k) => [Math.floor(k / width), k % width] as Vec);
  return { width, height, ids, positions: positions.map(([i, j]) => [i, j]), colors, obstacles: obstacleList, turns, history: [] };
}

/** The player ids a config asks for (`ids`, comma-separated), or the defaults; throws on a bad list. */
function idsFor(config: PaintConfig, players: number): string[] | null {
  if (!config.ids.trim()) return null;
  const ids = config.ids.split(',').map((s) => s.trim());
  if (ids.some((id) => !id)) throw new Error(`ids: an empty id in ${JSON.stringify(config.ids)}; give ids separated by commas`);
  // JSON objects list whole-number keys first, which would break the board's order of player_positions.
  const number = ids.find((id) => /^(0|[1-9]\d*)$/.test(id));
  if (number !== undefined) throw new Error(`ids: "${number}" is a whole number; player ids must contain a non-digit (JSON objects reorder number keys)`);
  if (new Set(ids).size !== ids.length) throw new Error(`ids: ${JSON.stringify(config.ids)} names a player twice`);
  if (ids.length < players) throw new Error(`ids names ${ids.length} players, fewer than the ${players} seats`);
  return ids.slice(0, players);
}

/** The player ids of a generated board for this config; throws when the config cannot make one. */
function generatedIds(config: PaintConfig, players: number): string[] {
  const ids = idsFor(config, players);
  const { width: w, height: h, obstacles } = config;
  if (w * h - obstacles < players)
    throw new Error(`a ${w}×${h} board with ${obstacles} obstacles has ${w * h - obstacles} free squares, fewer than ${players} players`);
  return ids ?? Array.from({ length: players }, (_, s) => defaultId(s));
}

/** Throws an Error saying what is wrong with a config for this many players (a generated board is not made). */
export function checkBoardConfig(config: PaintConfig, players: number): void {
  if (config.board.trim()) boardFor(config, players, 0);
  else generatedIds(config, players);
}

/** The board a config describes for this many players; throws an Error saying what is wrong. */
export function boardFor(config: PaintConfig, players: number, seed: number): Board {
  const text = config.board.trim();
  if (!text) {
    const { width: w, height: h, obstacles } = config;
    return generateBoard(w, h, generatedIds(config, players), obstacles, config.turns || w * h, seed);
  }
  const ids = idsFor(config, players);
  let value: unknown = Object.hasOwn(BOARDS, text) ? BOARDS[text] : undefined;
  let source = `the board ${text}`;
  if (value === undefined) {
    if (!text.startsWith('{')) {
      throw new Error(
        `bad board: ${JSON.stringify(text.slice(0, 60))} is not a shipped board (${BOARD_NAMES.join(', ')}), a board's JSON text, nor a file (from the command line, give a path to a JSON file)`,
      );
    }
    try {
      value = JSON.parse(text);
    } catch (err) {
      throw new Error(`bad board: not JSON (${(err as Error).message.slice(0, 80)})`);
    }
    source = 'the board';
  }
  let read: ReturnType<typeof readBoard>;
  try {
    read = readBoard(value);
  } catch (err) {
    throw new Error(`bad board: ${(err as Error).message}`);
  }
  if (read.ids.length !== players) throw new Error(`${source} is for ${read.ids.length} players (${idList(read.ids)}), not ${players}`);
  const played = read.history.length;
  // `turns` counts the whole match, the board's previous_actions included: they were its first turns.
  const turns = config.turns || (read.turns === null ? 0 : played + read.turns);
  if (!turns) throw new Error('bad board: turns_left is missing (or set the turns config key)');
  if (turns <= played)
    throw new Error(`turns ${turns} leaves no turn to play after the board's ${played} previous_actions; give more turns, or 0 for the board's turns_left`);
  return { ...read, ids: ids ?? read.ids, turns };
}

/** The starting state of a match on `board`. */
export function initialState(board: Board): PaintState {
  const { history, ...rest } = board;
  return {
    ...rest,
    turnsLeft: board.turns - history.length,
    history: history.map((t) => t.slice()),
    started: false,
    unresponsive: [],
    painted: null,
    paintedCount: 0,
  };
}
