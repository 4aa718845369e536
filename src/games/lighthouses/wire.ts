import { describeValue, type Move, type Parsed } from '../../core/game.js';
import { sharedPair } from '../../core/pairs.js';
import { isFloatLiteral, pyReprJson, topLevelMembers } from './pyrepr.js';
import { isIsland, type Command, type LighthousesState } from './rules.js';
import type { LighthousesMessage, LighthousesResult, LighthousesTurn, LighthouseView } from './schema.js';

export type { LighthousesInit, LighthousesMessage, LighthousesResult, LighthousesTurn, LighthouseView } from './schema.js';

/** The message for `slot`: the init, or its state this turn. `neutral` is what a neutral owner is sent as. */
export function view(s: LighthousesState, slot: number, phase: string, neutral: -1 | null): LighthousesMessage {
  const p = s.players[slot]!;
  if (phase === 'init') {
    return {
      player_num: slot,
      player_count: s.players.length,
      position: [p.x, p.y],
      map: s.island as (0 | 1)[][],
      lighthouses: s.lighthouses.map((l) => [l.x, l.y]),
    };
  }
  // A view is made for every command: its cells are shared pairs (src/core/pairs.ts) and its energy rows are
  // made at their length (a quarter less allocated than with new pairs and rows grown by pushes).
  const links = s.lighthouses.map((): [number, number][] => []);
  for (const [a, b] of s.connections) {
    links[a]!.push(sharedPair(s.lighthouses[b]!.x, s.lighthouses[b]!.y));
    links[b]!.push(sharedPair(s.lighthouses[a]!.x, s.lighthouses[a]!.y));
  }
  return {
    position: sharedPair(p.x, p.y),
    score: p.score,
    energy: p.energy,
    view: energyView(s, p.x, p.y),
    lighthouses: s.lighthouses.map((l, i): LighthouseView => ({
      position: sharedPair(l.x, l.y),
      owner: l.owner ?? neutral,
      energy: l.energy,
      connections: links[i]!,
      have_key: p.keys.includes(i),
    })),
  };
}

function energyView(s: LighthousesState, px: number, py: number): number[][] {
  const rows: number[][] = new Array<number[]>(7);
  for (let dy = -3; dy <= 3; dy++) {
    const row: number[] = new Array<number>(7);
    for (let dx = -3; dx <= 3; dx++) {
      const x = px + dx;
      const y = py + dy;
      row[dx + 3] = dx * dx + dy * dy > 9 ? -1 : isIsland(s, x, y) ? s.energy[y]![x]! : 0;
    }
    rows[dy + 3] = row;
  }
  return rows;
}

/**
 * The JSON text of a turn's message, written directly: the bytes JSON.stringify gives for it (every value in
 * it is an integer, a boolean or null), in about a third of the time. Stringifying the 2.5 KB message took
 * 23 µs, the largest piece of the arena's own work for a command to a stdio bot.
 */
export function encodeTurn(m: LighthousesTurn): string {
  let out = `{"position":[${m.position[0]},${m.position[1]}],"score":${m.score},"energy":${m.energy},"view":[`;
  for (let r = 0; r < m.view.length; r++) out += `${r ? ',' : ''}[${m.view[r]!.join(',')}]`;
  out += '],"lighthouses":[';
  for (let i = 0; i < m.lighthouses.length; i++) {
    const l = m.lighthouses[i]!;
    let links = '';
    for (let k = 0; k < l.connections.length; k++) links += `${k ? ',' : ''}[${l.connections[k]![0]},${l.connections[k]![1]}]`;
    out += `${i ? ',' : ''}{"position":[${l.position[0]},${l.position[1]}],"owner":${l.owner},"energy":${l.energy},"connections":[${links}],"have_key":${l.have_key}}`;
  }
  return `${out}]}`;
}

/** Reads the greeting (`{"name":…}`) or a command object. Every command's fields are judged later, in the reference's order. */
export function parseGreeting(answer: unknown): Parsed<string> {
  const name = isObject(answer) ? (answer as { name?: unknown }).name : undefined;
  if (typeof name === 'string') return { ok: true, action: name };
  return { ok: false, kind: 'bad-answer', detail: `the greeting must be an object with a string "name", like {"name":"MyBot"}; got ${describeValue(answer)}` };
}

function isObject(answer: unknown): answer is object {
  return answer !== null && typeof answer === 'object' && !Array.isArray(answer);
}

/** Reads a turn's command object; what the command means is judged by the rules (`commandError`). */
export function parseAnswer(answer: unknown): Parsed<Command> {
  if (!isObject(answer) || !('command' in answer)) return { ok: false, kind: 'bad-answer', detail: 'Invalid command structure' };
  const a = answer as Record<string, unknown>;
  switch (a.command) {
    case 'pass':
      return { ok: true, action: { command: 'pass' } };
    case 'move':
      return { ok: true, action: { command: 'move', x: a.x, y: a.y } };
    case 'attack':
      return { ok: true, action: { command: 'attack', energy: a.energy } };
    case 'connect':
      return { ok: true, action: { command: 'connect', destination: a.destination } };
    default:
      return { ok: true, action: { command: 'other', name: a.command } };
  }
}

/**
 * Reads a turn's command from its JSON text: as `parseAnswer`, with what only the text tells the reference
 * apart (pyrepr.ts): `"energy": 5.0` is a float to it ("Attack command requires integer energy", where
 * JSON.parse gives 5), and an unknown command is quoted as Python writes it (`Invalid command 5.0`).
 */
export function parseAnswerText(text: string, answer: unknown): Parsed<Command> {
  const read = parseAnswer(answer);
  if (!read.ok || (read.action.command !== 'attack' && read.action.command !== 'other')) return read;
  const raw = topLevelMembers(text, ['command', 'energy']);
  const command = raw.get('command');
  if (read.action.command === 'other') return command === undefined ? read : { ok: true, action: { ...read.action, repr: pyReprJson(command) } };
  const energy = raw.get('energy');
  return energy !== undefined && typeof read.action.energy === 'number' && isFloatLiteral(energy)
    ? { ok: true, action: { ...read.action, float: true } }
    : read;
}

/** The result a bot is sent after its command: success, or the reference's message for what went wrong. */
export function result(move: Move<Command>): LighthousesResult {
  if (!move.fault) return { success: true };
  const { kind, detail } = move.fault;
  const message = kind === 'not-json' || kind === 'too-large' ? 'Invalid JSON' : kind === 'bad-answer' || kind === 'illegal-move' ? detail : 'Timeout';
  return { success: false, message };
}
