import { describeValue } from '../../core/game.js';
import { cellOf, DIRECTIONS, terrainAt, walkable, type Direction, type Dog, type DogScare, type Sheep, type SmartDogState } from './state.js';

/** A dog of a position: where it stands, and (optional, calm by default) its scare and last turn's bark. */
export interface PositionDog {
  id: number;
  owner: number;
  x: number;
  y: number;
  scare?: DogScare;
  scareTurns?: number;
  barkedLastTurn?: boolean;
}

/** A sheep of a position: where it stands, and (optional) its heading and fear; calm, heading down by default. */
export interface PositionSheep {
  x: number;
  y: number;
  heading?: Direction;
  fear?: number;
  fearDir?: Direction;
  chain?: number[];
}

/**
 * A chosen starting position on the map's board, as the turn `turn` begins (after the sheep's countdown,
 * as bots see it). `dogs`/`sheep` replace the map's objects in that order (creation order); absent, the
 * map's own objects stay. `out` lists the players (1-based) that are out for good.
 */
export interface Position {
  turn?: number;
  dogs?: PositionDog[];
  sheep?: PositionSheep[];
  out?: number[];
}

type Obj = Record<string, unknown>;

const KEYS = {
  position: ['turn', 'dogs', 'sheep', 'out'],
  dog: ['id', 'owner', 'x', 'y', 'scare', 'scareTurns', 'barkedLastTurn'],
  sheep: ['x', 'y', 'heading', 'fear', 'fearDir', 'chain'],
};
const SCARES: readonly DogScare[] = ['panic', 'indignant'];

/** A value from the position as an error quotes it: at most 60 characters, so a file's text is never echoed whole. */
const show = (v: unknown): string => describeValue(v, 60);

function fail(where: string, what: string): never {
  throw new Error(`position${where ? ` ${where}` : ''}: ${what}`);
}

/** A JSON object with only the known keys. */
function object(v: unknown, where: string, keys: readonly string[]): Obj {
  if (v === null || typeof v !== 'object' || Array.isArray(v))
    fail(where, `${show(v)} is not a JSON object; expected {${keys.map((k) => `"${k}":…`).join(', ')}}`);
  for (const k of Object.keys(v)) if (!keys.includes(k)) fail(where, `unknown key ${show(k)}; expected ${keys.join(', ')}`);
  return v as Obj;
}

/** An integer field in lo..hi (or its default when absent and one is given). */
function int(o: Obj, key: string, where: string, lo: number, hi: number, why: string, dflt?: number): number {
  const v = o[key];
  if (v === undefined && dflt !== undefined) return dflt;
  if (v === undefined) fail(where, `"${key}" is missing; expected an integer from ${lo} to ${hi}${why}`);
  if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < lo || v > hi)
    fail(where, `"${key}" is ${show(v)}; expected an integer from ${lo} to ${hi}${why}`);
  return v;
}

/** One of the given words (or its default when absent). */
function word<T extends string>(o: Obj, key: string, where: string, choices: readonly T[], dflt?: T): T {
  const v = o[key];
  if (v === undefined && dflt !== undefined) return dflt;
  if (typeof v !== 'string' || !(choices as readonly string[]).includes(v))
    fail(where, `"${key}" is ${v === undefined ? 'missing' : show(v)}; expected one of ${choices.join(', ')}`);
  return v as T;
}

/** A list field (absent is allowed: null is returned). */
function list(o: Obj, key: string, where: string): unknown[] | null {
  const v = o[key];
  if (v === undefined) return null;
  if (!Array.isArray(v)) fail(where, `"${key}" is ${show(v)}; expected a JSON array`);
  return v;
}

/** Checks a cell is on the board, walkable and not taken yet; claims it. */
function claim(s: SmartDogState, occ: Map<number, string>, o: Obj, where: string): [number, number] {
  const size = ` (the board is ${s.cols}×${s.rows} for ${s.players} player${s.players === 1 ? '' : 's'})`;
  const x = int(o, 'x', where, 0, s.cols - 1, size);
  const y = int(o, 'y', where, 0, s.rows - 1, size);
  const ch = terrainAt(s, x, y);
  if (!walkable(ch)) fail(where, `cell ${x},${y} is ${ch === '#' ? 'a fence (#)' : 'a tree (^)'}; dogs and sheep stand on grass or a pen`);
  const k = cellOf(s, x, y);
  const other = occ.get(k);
  if (other !== undefined) fail(where, `cell ${x},${y} is taken by ${other}; one object per cell`);
  occ.set(k, where);
  return [x, y];
}

function readDog(s: SmartDogState, occ: Map<number, string>, ids: Map<number, string>, v: unknown, where: string): Dog {
  const o = object(v, where, KEYS.dog);
  const id = int(o, 'id', where, 1, Number.MAX_SAFE_INTEGER, '');
  if (ids.has(id)) fail(where, `id ${id} is already the id of ${ids.get(id)}; dog ids must be unique`);
  ids.set(id, where);
  const owner = int(o, 'owner', where, 1, s.players, ` (a player of this ${s.players}-player game)`);
  const [x, y] = claim(s, occ, o, where);
  const scare = o.scare === undefined || o.scare === null ? null : word(o, 'scare', where, SCARES);
  const scareTurns = int(o, 'scareTurns', where, 0, Number.MAX_SAFE_INTEGER, '', 0);
  if (scare && scareTurns === 0) fail(where, `scare "${scare}" needs "scareTurns" above 0 (the turns it still lasts)`);
  if (!scare && scareTurns > 0) fail(where, `"scareTurns" ${scareTurns} needs "scare": "panic" or "indignant"`);
  const barked = o.barkedLastTurn ?? false;
  if (typeof barked !== 'boolean') fail(where, `"barkedLastTurn" is ${show(barked)}; expected true or false`);
  return { id, owner, x, y, moved: false, barked: false, barkedPrev: barked, scare, scareTurns, enemyHit: null, allyHit: false };
}

function readSheep(s: SmartDogState, occ: Map<number, string>, v: unknown, where: string, i: number, count: number): Sheep {
  const o = object(v, where, KEYS.sheep);
  const [x, y] = claim(s, occ, o, where);
  const heading = word(o, 'heading', where, DIRECTIONS, 'down');
  const fear = int(o, 'fear', where, 0, Number.MAX_SAFE_INTEGER, '', 0);
  if (fear > 0 && o.fearDir === undefined) fail(where, `fear ${fear} needs "fearDir" (the way it flees: ${DIRECTIONS.join(', ')})`);
  const fearDir = word(o, 'fearDir', where, DIRECTIONS, 'down');
  const chain = (list(o, 'chain', where) ?? []).map((j, n) => {
    if (typeof j !== 'number' || !Number.isInteger(j) || j < 0 || j >= count || j === i) {
      fail(`${where}.chain[${n}]`, `${show(j)} is not another sheep; expected a sheep's index in the "sheep" list (0 to ${count - 1}, not ${i} itself)`);
    }
    return j;
  });
  const twice = chain.find((j, n) => chain.indexOf(j) !== n);
  if (twice !== undefined) fail(`${where}.chain`, `sheep ${twice} is listed twice; a fear chain names each sheep once`);
  return { x, y, heading, fear, fearDir, chain };
}

/** Reads a position's JSON text (shape only; `placePosition` checks it against the board). */
export function parsePosition(text: string): Position {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch (e) {
    fail('', `not valid JSON (${(e as Error).message.slice(0, 80)}); give a position's JSON text or the path of a position file`);
  }
  return object(v, '', KEYS.position) as Position;
}

/**
 * Puts a position on a freshly set-up board: the turn, the objects (in the given order), the players out;
 * rebuilds the occupancy. Every error names the entry (`dogs[1]`, `sheep[0].chain[2]`…) and what was expected.
 */
export function placePosition(s: SmartDogState, p: Position): void {
  const o = p as Obj;
  s.turn = int(o, 'turn', '', 1, s.options.turnsLimit, ` (the game's turnsLimit is ${s.options.turnsLimit})`, 1);
  const occ = new Map<number, string>();
  const ids = new Map<number, string>();
  const dogs = list(o, 'dogs', '');
  const sheep = list(o, 'sheep', '');
  // Objects the position leaves out stay where the map put them, and count as taken cells.
  if (!dogs) s.dogs.forEach((d) => occ.set(cellOf(s, d.x, d.y), `the map's dog ${d.id} (give "dogs" to place the dogs yourself)`));
  if (!sheep) s.sheep.forEach((sh) => occ.set(cellOf(s, sh.x, sh.y), `a sheep of the map (give "sheep" to place the sheep yourself)`));
  if (dogs) s.dogs = dogs.map((v, k) => readDog(s, occ, ids, v, `dogs[${k}]`));
  if (sheep) s.sheep = sheep.map((v, k) => readSheep(s, occ, v, `sheep[${k}]`, k, sheep.length));
  const out = list(o, 'out', '') ?? [];
  s.out = Array<boolean>(s.players).fill(false);
  out.forEach((v, k) => {
    if (typeof v !== 'number' || !Number.isInteger(v) || v < 1 || v > s.players)
      fail(`out[${k}]`, `${show(v)} is not a player; expected a player number from 1 to ${s.players}`);
    if (s.out[v - 1]) fail(`out[${k}]`, `player ${v} is listed twice`);
    s.out[v - 1] = true;
  });
  if (s.out.every(Boolean)) fail('', 'every player is out; at least one must still play');
  s.occ = Array<number>(s.rows * s.cols).fill(0);
  s.dogs.forEach((d, k) => (s.occ[cellOf(s, d.x, d.y)] = k + 1));
  s.sheep.forEach((sh, k) => (s.occ[cellOf(s, sh.x, sh.y)] = -k - 1));
}

/**
 * The position of a state between turns as JSON text, one object a line: what `placePosition` needs to
 * rebuild it exactly (counters only where they are not the calm defaults). The map and options stay in the
 * config; the per-turn flags (moved, barked, ended) are always clear between turns.
 */
export function writePosition(s: SmartDogState): string {
  const dogs = s.dogs.map((d) => {
    const w: PositionDog = { id: d.id, owner: d.owner, x: d.x, y: d.y };
    if (d.scare !== null || d.scareTurns > 0) Object.assign(w, { scare: d.scare, scareTurns: d.scareTurns });
    if (d.barkedPrev) w.barkedLastTurn = true;
    return JSON.stringify(w);
  });
  const sheep = s.sheep.map((sh) => {
    const w: PositionSheep = { x: sh.x, y: sh.y, heading: sh.heading };
    if (sh.fear > 0) w.fear = sh.fear;
    if (sh.fear > 0 || sh.fearDir !== 'down') w.fearDir = sh.fearDir;
    if (sh.chain.length) w.chain = sh.chain;
    return JSON.stringify(w);
  });
  const out = s.out.flatMap((o, k) => (o ? [k + 1] : []));
  const block = (items: string[]) => (items.length ? `[\n  ${items.join(',\n  ')}\n]` : '[]');
  return `{"turn":${s.turn},\n"dogs":${block(dogs)},\n"sheep":${block(sheep)},\n"out":${JSON.stringify(out)}}\n`;
}
