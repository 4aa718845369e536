import { describeValue } from '../../core/game.js';
import { rngCreate } from '../../core/rng.js';
import type { Death, TronState } from './rules.js';

type Cell = [number, number];

/** Tron's match config: the grid and an optional chosen starting position (`starts` or `trails`, not both). */
export type TronConfig = { width: number; height: number; starts: string; trails: string };

/** A chosen starting position: laps already played, each slot's trail (tail first, as the state keeps it), deaths. */
export interface TronPosition {
  lap: number;
  trails: Cell[][];
  death: (Death | null)[];
}

/** The cause recorded for a bot given as dead (a `[]` trail) in a plain board. */
export const GIVEN_DEAD = 'dead in the starting position';

/** A value from the position as an error quotes it: at most 60 characters, so a file's text is never echoed whole. */
const show = (v: unknown): string => describeValue(v, 60);
/** Unknown keys as an error names them: a few, each short. */
const keyList = (keys: string[]): string =>
  keys
    .slice(0, 5)
    .map((k) => (/^[\w-]{1,40}$/.test(k) ? k : show(k)))
    .join(', ') + (keys.length > 5 ? ` and ${keys.length - 5} more` : '');

const CELL = /^(0|[1-9]\d*),(0|[1-9]\d*)$/;
const FORMS =
  'expected a board [[[x,y],…],…] (each slot\'s trail, head first, [] for a dead bot) or {"lap":N,"trails":[…],"deaths":[null|{"lap":N,"cause":"…"},…]}';

const onGrid = (w: number, h: number, x: number, y: number) => x >= 0 && y >= 0 && x < w && y < h;
const gridText = (w: number, h: number) => `the ${w}×${h} grid (x 0..${w - 1}, y 0..${h - 1})`;

/**
 * Reads `starts` ("x,y;x,y;…", one cell per slot) into a position at lap 0.
 * Throws an Error naming the slot and what is wrong.
 */
export function parseStarts(text: string, width: number, height: number, players: number): TronPosition {
  const items = text.split(';').map((s) => s.trim());
  if (items.length !== players)
    throw new Error(
      `starts gives ${items.length} cell${items.length === 1 ? '' : 's'} but ${players} bots play; expected one "x,y" per slot, separated by ";"`,
    );
  const seen = new Map<string, number>();
  const trails = items.map((item, slot): Cell[] => {
    const m = CELL.exec(item);
    if (!m) throw new Error(`starts: slot ${slot}'s cell is ${show(item)}; expected "x,y" with plain non-negative integers`);
    const [x, y] = [Number(m[1]), Number(m[2])];
    if (!onGrid(width, height, x, y)) throw new Error(`starts: slot ${slot}'s cell ${x},${y} is off ${gridText(width, height)}`);
    const other = seen.get(item);
    if (other !== undefined) throw new Error(`starts: slot ${slot}'s cell ${x},${y} is also slot ${other}'s; starts must be distinct`);
    seen.set(item, slot);
    return [[x, y]];
  });
  return { lap: 0, trails, death: trails.map(() => null) };
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
const isLap = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;

/** One slot's trail from the JSON (head first), checked cell by cell: on the grid, each next to the previous, no repeat. */
function readTrail(raw: unknown, slot: number, width: number, height: number): Cell[] {
  if (!Array.isArray(raw)) throw new Error(`trails: slot ${slot}'s trail is ${show(raw)}; expected an array of [x,y] cells, head first`);
  const seen = new Set<string>();
  const cells = raw.map((c: unknown, i): Cell => {
    const where = `trails: slot ${slot}'s cell ${i}${i === 0 ? ' (its head)' : ''}`;
    if (!Array.isArray(c) || c.length !== 2 || !c.every((n) => Number.isSafeInteger(n)))
      throw new Error(`${where} is ${show(c)}; expected [x,y] with integers`);
    const [x, y] = c as Cell;
    if (!onGrid(width, height, x, y)) throw new Error(`${where} ${x},${y} is off ${gridText(width, height)}`);
    if (seen.has(`${x},${y}`)) throw new Error(`${where} ${x},${y} repeats an earlier cell of the same trail`);
    seen.add(`${x},${y}`);
    return [x, y];
  });
  for (let i = 1; i < cells.length; i++) {
    const [[px, py], [x, y]] = [cells[i - 1]!, cells[i]!];
    if (Math.abs(x - px) + Math.abs(y - py) !== 1)
      throw new Error(`trails: slot ${slot}'s cell ${i} ${x},${y} is not next to cell ${i - 1} ${px},${py}; a trail is a path of neighbouring cells`);
  }
  return cells.reverse();
}

/** One slot's death from the object form: null, or {"lap":N,"cause":"…"} with N in 0..lap. */
function readDeath(raw: unknown, slot: number, lap: number): Death | null {
  if (raw === null) return null;
  const where = `trails: slot ${slot}'s death`;
  if (!isObject(raw)) throw new Error(`${where} is ${show(raw)}; expected null (alive) or {"lap":N,"cause":"…"}`);
  const extra = Object.keys(raw).filter((k) => k !== 'lap' && k !== 'cause');
  if (extra.length) throw new Error(`${where} has unknown key${extra.length > 1 ? 's' : ''} ${keyList(extra)}; expected {"lap":N,"cause":"…"}`);
  if (!isLap(raw.lap) || raw.lap > lap) throw new Error(`${where} has lap ${show(raw.lap)}; expected an integer in 0..${lap} (the position's lap)`);
  if (raw.cause !== undefined && typeof raw.cause !== 'string') throw new Error(`${where} has cause ${show(raw.cause)}; expected a string`);
  return { lap: raw.lap, cause: raw.cause ?? GIVEN_DEAD };
}

/**
 * Reads `trails`: either the wire's board `[[[x,y],…],…]` (each slot's trail head first; `[]` is a bot
 * dead since lap 0) at lap 0, or the full form `{"lap":N,"trails":[…],"deaths":[…]}` (what `write` gives),
 * where `lap` (default 0) counts the laps already played and `deaths` holds null or `{"lap":N,"cause":"…"}`
 * per slot, so a dead bot's trail may be kept (without `deaths`, `[]` is dead since lap 0 as in the board).
 * Trails are on the grid, each cell next to the previous, and only share a cell when one bot died on an
 * earlier lap than the other. Throws an Error naming the slot, the cell and what was expected.
 */
export function parseTrails(text: string, width: number, height: number, players: number): TronPosition {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new Error(`trails is not JSON (${(err as Error).message.slice(0, 80)}); ${FORMS}`);
  }
  let lap = 0;
  let rawTrails: unknown = value;
  let rawDeaths: unknown = undefined;
  if (isObject(value)) {
    const extra = Object.keys(value).filter((k) => !['lap', 'trails', 'deaths'].includes(k));
    if (extra.length) throw new Error(`trails has unknown key${extra.length > 1 ? 's' : ''} ${keyList(extra)}; ${FORMS}`);
    if (value.lap !== undefined && !isLap(value.lap))
      throw new Error(`trails: "lap" is ${show(value.lap)}; expected a non-negative integer (laps already played)`);
    lap = (value.lap as number | undefined) ?? 0;
    rawTrails = value.trails;
    rawDeaths = value.deaths;
  }
  if (!Array.isArray(rawTrails)) throw new Error(`trails: the trails are ${rawTrails === undefined ? 'missing' : show(rawTrails)}; ${FORMS}`);
  if (rawTrails.length !== players)
    throw new Error(`trails gives ${rawTrails.length} trail${rawTrails.length === 1 ? '' : 's'} but ${players} bots play; expected one per slot`);
  if (rawDeaths !== undefined && (!Array.isArray(rawDeaths) || rawDeaths.length !== players)) {
    throw new Error(`trails: "deaths" is ${show(rawDeaths)}; expected an array with null or {"lap":N,"cause":"…"} for each of the ${players} slots`);
  }
  const trails = rawTrails.map((t, slot) => readTrail(t, slot, width, height));
  const death = trails.map((t, slot) => {
    if (rawDeaths === undefined) return t.length ? null : { lap: 0, cause: GIVEN_DEAD };
    const d = readDeath((rawDeaths as unknown[])[slot], slot, lap);
    if (!d && !t.length) throw new Error(`trails: slot ${slot}'s trail is empty but its death is null; a living bot needs at least its head`);
    return d;
  });
  checkOverlaps(trails, death);
  return { lap, trails, death };
}

/** Two trails may share a cell only when one bot died on an earlier lap than the other (its trail had left). */
function checkOverlaps(trails: Cell[][], death: (Death | null)[]): void {
  const until = (slot: number) => death[slot]?.lap ?? Infinity;
  const owners = new Map<string, number[]>();
  trails.forEach((t, slot) => {
    for (const [x, y] of t) {
      const k = `${x},${y}`;
      for (const other of owners.get(k) ?? []) {
        if (until(other) === until(slot)) {
          throw new Error(
            `trails: slot ${slot}'s trail and slot ${other}'s both hold ${k}; trails may share a cell only when one bot died on an earlier lap than the other`,
          );
        }
      }
      owners.set(k, [...(owners.get(k) ?? []), slot]);
    }
  });
}

/** The position the config chooses (null when neither `starts` nor `trails` is given); throws an Error when it is bad. */
export function readPosition(config: TronConfig, players: number): TronPosition | null {
  const { width, height, starts, trails } = config;
  if (starts && trails) throw new Error('starts and trails are both given; choose one (starts for lone heads, trails for a whole board)');
  const p = starts ? parseStarts(starts, width, height, players) : trails ? parseTrails(trails, width, height, players) : null;
  const alive = p ? p.death.flatMap((d, slot) => (d ? [] : [slot])) : [];
  if (p && alive.length < 2) throw new Error(`the position must leave at least 2 bots alive, it has ${alive.length ? `only slot ${alive[0]}` : 'none'}`);
  return p;
}

/** The state a chosen position starts in, before the inits (which change nothing in Tron). */
export function positionState(width: number, height: number, p: TronPosition, seed: number): TronState {
  return { width, height, rng: rngCreate(seed), initsLeft: p.trails.length, lap: p.lap, trails: p.trails, death: p.death };
}

/**
 * The config that starts a match in `s`: `starts` while every bot is a lone head at lap 0, else `trails`
 * in the full object form (heads first, the dead's trails and deaths kept). The other key is set empty.
 */
export function writePosition(s: TronState): Record<string, string> {
  if (s.lap === 0 && s.death.every((d) => !d) && s.trails.every((t) => t.length === 1)) {
    return { starts: s.trails.map((t) => `${t[0]![0]},${t[0]![1]}`).join(';'), trails: '' };
  }
  const trails = s.trails.map((t) => t.slice().reverse());
  return { starts: '', trails: JSON.stringify({ lap: s.lap, trails, deaths: s.death }) };
}
