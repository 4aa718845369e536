import { describeValue } from '../../core/game.js';
import { onSegment, segmentsCross } from './geometry.js';
import type { LighthouseMap } from './map.js';
import { addConnection, blankState, CELL_CAP, lighthouseAt, pos, type LighthousesState } from './rules.js';

/**
 * A chosen starting position (`--set position=FILE`), as it stands when player `current` of round `round`
 * is asked: that round's start (energy growth, keys, collection, decay) is already done. Coordinates are
 * [x, y] as on the wire (y = 0 is the map's last line).
 */
export interface PositionFile {
  round: number;
  /** the player asked next in the round; default 0 */
  current?: number;
  /** one per seat, in slot order (names come from the bots' greetings) */
  players: { position: [number, number]; energy: number; score: number; keys: [number, number][] }[];
  /** the lighthouses not listed are neutral with no energy; owner null (or -1) when neutral */
  lighthouses?: { position: [number, number]; owner: number | null; energy: number }[];
  /** [origin, destination] in the order they were made: triangles are re-derived as `connect` finds them */
  connections?: [[number, number], [number, number]][];
  /** cell energies `energy[y][x]` (row 0 is y = 0); all zero when left out */
  energy?: number[][];
}

const isInt = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v);
/** A value from the position as an error quotes it: at most 60 characters, so a file's text is never echoed whole. */
const show = (v: unknown): string => describeValue(v, 60);
const fail = (what: string): never => {
  throw new Error(what);
};
const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

function onlyKeys(v: Record<string, unknown>, where: string, keys: string[], hint = ''): void {
  const extra = Object.keys(v).find((k) => !keys.includes(k));
  if (extra !== undefined) fail(`${where} has an unknown key ${show(extra)}; the keys are ${keys.join(', ')}${hint}`);
}

function int(v: unknown, where: string, min: number, max = Number.MAX_SAFE_INTEGER): number {
  if (!isInt(v) || v < min || v > max)
    fail(`${where} must be an integer ${max === Number.MAX_SAFE_INTEGER ? `≥ ${min}` : `in ${min}..${max}`}, got ${show(v)}`);
  return v as number;
}

function point(v: unknown, where: string): [number, number] {
  if (!Array.isArray(v) || v.length !== 2 || !isInt(v[0]) || !isInt(v[1])) fail(`${where} must be a cell [x, y], got ${show(v)}`);
  return [(v as number[])[0]!, (v as number[])[1]!];
}

function lighthouseOf(s: LighthousesState, v: unknown, where: string): number {
  const [x, y] = point(v, where);
  const i = lighthouseAt(s, x, y);
  if (i < 0) fail(`${where} [${x},${y}] is not a lighthouse of the map; its lighthouses are ${s.lighthouses.map((l) => `[${l.x},${l.y}]`).join(' ')}`);
  return i;
}

/**
 * The state a position file describes on `map` (every validation error says what is wrong and where). The
 * state is ready for the new match's inits: names are set then, and the round is not started again.
 */
export function positionState(map: LighthouseMap, players: number, rounds: number, neutralNull: boolean, text: string): LighthousesState {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    return fail(`not JSON (${(err as Error).message.slice(0, 80)})`);
  }
  if (!isObject(value)) return fail(`expected a JSON object with round, players, lighthouses, connections, energy; got ${show(value)}`);
  onlyKeys(value, 'the position', ['round', 'current', 'players', 'lighthouses', 'connections', 'energy']);
  const s = blankState(map, rounds, neutralNull);
  s.round = int(value.round, 'round', 1, rounds);
  s.current = value.current === undefined ? 0 : int(value.current, 'current (the player asked next)', 0, players - 1);
  if (!Array.isArray(value.players)) return fail(`players must be a list of ${players} players, got ${show(value.players)}`);
  if (value.players.length !== players) fail(`players lists ${value.players.length} players, but the match has ${players}`);
  value.players.forEach((p: unknown, i) => readPlayer(s, p, `players[${i}]`));
  readLighthouses(s, value.lighthouses, players);
  readConnections(s, value.connections);
  if (value.energy !== undefined) readEnergy(s, value.energy);
  return s;
}

function readPlayer(s: LighthousesState, p: unknown, where: string): void {
  if (!isObject(p)) return fail(`${where} must be an object {"position":[x,y],"energy":n,"score":n,"keys":[[x,y],…]}, got ${show(p)}`);
  onlyKeys(p, where, ['position', 'energy', 'score', 'keys'], " (names come from the bots' greetings)");
  const [x, y] = point(p.position, `${where}.position`);
  if (s.island[y]?.[x] !== 1)
    fail(
      `${where}.position [${x},${y}] is ${x < 0 || y < 0 || x >= s.width || y >= s.height ? `off the ${s.width}×${s.height} map` : 'water'}; a player stands on an island cell`,
    );
  const keys: number[] = [];
  if (p.keys !== undefined && !Array.isArray(p.keys)) fail(`${where}.keys must be a list of lighthouse cells [[x,y],…], got ${show(p.keys)}`);
  ((p.keys as unknown[] | undefined) ?? []).forEach((k, j) => {
    const i = lighthouseOf(s, k, `${where}.keys[${j}]`);
    if (keys.includes(i)) fail(`${where}.keys[${j}] [${s.lighthouses[i]!.x},${s.lighthouses[i]!.y}] is listed twice; keys are a set`);
    keys.push(i);
  });
  const energy = int(p.energy ?? 0, `${where}.energy`, 0);
  const score = int(p.score ?? 0, `${where}.score`, 0);
  s.players.push({ x, y, energy, score, keys: keys.sort((a, b) => a - b), name: `Player ${s.players.length}` });
}

function readLighthouses(s: LighthousesState, list: unknown, players: number): void {
  if (list === undefined) return;
  if (!Array.isArray(list)) return fail(`lighthouses must be a list of {"position":[x,y],"owner":slot|null,"energy":n}, got ${show(list)}`);
  const seen = new Set<number>();
  list.forEach((l: unknown, k) => {
    const where = `lighthouses[${k}]`;
    if (!isObject(l)) return fail(`${where} must be an object {"position":[x,y],"owner":slot|null,"energy":n}, got ${show(l)}`);
    onlyKeys(l, where, ['position', 'owner', 'energy']);
    const i = lighthouseOf(s, l.position, `${where}.position`);
    if (seen.has(i)) fail(`${where}.position [${s.lighthouses[i]!.x},${s.lighthouses[i]!.y}] is listed twice`);
    seen.add(i);
    const owner = l.owner === null || l.owner === -1 || l.owner === undefined ? null : int(l.owner, `${where}.owner`, 0, players - 1);
    const energy = int(l.energy ?? 0, `${where}.energy`, 0);
    if (owner === null && energy !== 0) fail(`${where} is neutral with energy ${energy}; a neutral lighthouse has 0 energy (give it an owner, or energy 0)`);
    if (owner !== null && energy === 0) fail(`${where} is owned by ${owner} with energy 0; an owned lighthouse has energy ≥ 1 (at 0 it goes neutral)`);
    Object.assign(s.lighthouses[i]!, { owner, energy });
  });
}

function readConnections(s: LighthousesState, list: unknown): void {
  if (list === undefined) return;
  if (!Array.isArray(list)) return fail(`connections must be a list of [[x,y],[x,y]] (origin, destination), got ${show(list)}`);
  list.forEach((c: unknown, k) => {
    const where = `connections[${k}]`;
    if (!Array.isArray(c) || c.length !== 2) return fail(`${where} must be a pair of lighthouse cells [[x,y],[x,y]], got ${show(c)}`);
    const o = lighthouseOf(s, c[0], `${where}[0]`);
    const d = lighthouseOf(s, c[1], `${where}[1]`);
    const [lo, ld] = [s.lighthouses[o]!, s.lighthouses[d]!];
    const name = `${where} [${lo.x},${lo.y}]–[${ld.x},${ld.y}]`;
    if (o === d) fail(`${name} connects a lighthouse to itself`);
    if (lo.owner === null || lo.owner !== ld.owner) {
      fail(`${name} joins lighthouses owned by ${lo.owner ?? 'nobody'} and ${ld.owner ?? 'nobody'}; a connection joins two lighthouses of one owner`);
    }
    const [a, b] = o < d ? [o, d] : [d, o];
    const twin = s.connections.findIndex(([x, y]) => x === a && y === b);
    if (twin >= 0) fail(`${name} is listed twice (first as connections[${twin}])`);
    const on = s.lighthouses.findIndex((_, i) => i !== o && i !== d && onSegment(pos(s, o), pos(s, d), pos(s, i)));
    if (on >= 0) fail(`${name} passes through the lighthouse [${s.lighthouses[on]!.x},${s.lighthouses[on]!.y}]`);
    const cross = s.connections.findIndex(([x, y]) => segmentsCross(pos(s, o), pos(s, d), pos(s, x), pos(s, y)));
    if (cross >= 0) {
      const [x, y] = s.connections[cross]!;
      fail(`${name} crosses the connection [${s.lighthouses[x]!.x},${s.lighthouses[x]!.y}]–[${s.lighthouses[y]!.x},${s.lighthouses[y]!.y}]`);
    }
    addConnection(s, lo.owner!, o, d);
  });
}

function readEnergy(s: LighthousesState, grid: unknown): void {
  if (!Array.isArray(grid) || grid.length !== s.height) {
    fail(`energy must be a list of ${s.height} rows (energy[y][x], row 0 is y = 0), got ${Array.isArray(grid) ? `${grid.length} rows` : show(grid)}`);
  }
  (grid as unknown[]).forEach((row, y) => {
    if (!Array.isArray(row) || row.length !== s.width)
      fail(`energy[${y}] must be a list of ${s.width} cells (the map's width), got ${Array.isArray(row) ? `${row.length} cells` : show(row)}`);
    (row as unknown[]).forEach((e, x) => {
      const n = int(e, `energy[${y}][${x}] (x=${x}, y=${y})`, 0, CELL_CAP);
      if (n !== 0 && s.island[y]![x] !== 1) fail(`energy[${y}][${x}] (x=${x}, y=${y}) is ${n} on water; water cells hold no energy`);
      s.energy[y]![x] = n;
    });
  });
}

/**
 * The position file of a state, laid out one player, lighthouse, connection and grid row a line. Each
 * connection is written origin first, the way round that re-derives the state's triangles in their order.
 */
export function writePosition(s: LighthousesState): string {
  const cell = (i: number) => [s.lighthouses[i]!.x, s.lighthouses[i]!.y];
  const list = (items: unknown[]) => (items.length ? `[\n    ${items.map((v) => JSON.stringify(v)).join(',\n    ')}\n  ]` : '[]');
  const lines = [
    `  "round": ${s.round}`,
    `  "current": ${s.current}`,
    `  "players": ${list(s.players.map((p) => ({ position: [p.x, p.y], energy: p.energy, score: p.score, keys: p.keys.map(cell) })))}`,
    `  "lighthouses": ${list(s.lighthouses.map((l) => ({ position: [l.x, l.y], owner: l.owner, energy: l.energy })))}`,
    `  "connections": ${list(origins(s).map(([o, d]) => [cell(o), cell(d)]))}`,
    `  "energy": ${list(s.energy)}`,
  ];
  return `{\n${lines.join(',\n')}\n}\n`;
}

/** The state's connections as [origin, destination]: the way round whose re-adding gives the state's triangles in order. */
function origins(s: LighthousesState): [number, number][] {
  const scratch: LighthousesState = { ...s, connections: [], triangles: [] };
  const same = () => scratch.triangles.every((t, k) => JSON.stringify(t) === JSON.stringify(s.triangles[k]));
  return s.connections.map(([a, b]) => {
    const owner = s.lighthouses[a]!.owner ?? 0;
    const saved = { connections: scratch.connections.slice(), triangles: scratch.triangles.slice() };
    addConnection(scratch, owner, a, b);
    if (same()) return [a, b];
    Object.assign(scratch, saved);
    addConnection(scratch, owner, b, a);
    return [b, a];
  });
}
