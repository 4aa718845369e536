import { describeValue, preview, type Parsed, type ViewContext, type WireDialect } from '../../core/game.js';
import type { BattleshipConfig, BattleshipFleet, BattleshipShot, BattleshipState, Ship, Strike } from './rules.js';

/** The 9 config keys sent with every message, numbers as JSON strings (as the original did). */
export interface BattleshipBoard {
  opponent: string;
  width: string;
  height: string;
  ship1: string;
  ship2: string;
  ship3: string;
  ship4: string;
  ship5: string;
  ship6: string;
}

/** The init message: the answer must place the fleet. */
export interface BattleshipInit {
  'game-id': number;
  game: 'battleship';
  action: 'init';
  players: 2;
  'player-index': number;
  board: BattleshipBoard;
}

/** The shot message: note the capital B, and no `players` nor `you`. */
export interface BattleshipTurn {
  game: 'Battleship';
  'game-id': number;
  action: 'play-turn';
  'player-index': number;
  board: BattleshipBoard & { your_strikes: Strike[]; his_strikes: Strike[] };
}

/** A message to a Battleship bot. */
export type BattleshipMessage = BattleshipInit | BattleshipTurn;

/** Battleship's game-id is a number: the match id when it is one, else a stable number derived from it. */
export function numericId(matchId: string): number {
  if (/^\d{1,15}$/.test(matchId)) return Number(matchId);
  let h = 0;
  for (const ch of matchId) h = (Math.imul(h, 31) + ch.charCodeAt(0)) >>> 0;
  return h;
}

function board(c: BattleshipConfig, opponent: string): BattleshipBoard {
  const str = (n: number) => String(n);
  return {
    opponent,
    width: str(c.width),
    height: str(c.height),
    ship1: str(c.ship1),
    ship2: str(c.ship2),
    ship3: str(c.ship3),
    ship4: str(c.ship4),
    ship5: str(c.ship5),
    ship6: str(c.ship6),
  };
}

/** Builds the message for `slot`, field for field and in the original order. */
export function view(s: BattleshipState, slot: number, ctx: ViewContext): BattleshipMessage {
  const id = numericId(ctx.matchId);
  const b = board(s.config, ctx.names[1 - slot] ?? '');
  if (ctx.phase === 'init') return { 'game-id': id, game: 'battleship', action: 'init', players: 2, 'player-index': slot, board: b };
  return {
    game: 'Battleship',
    'game-id': id,
    action: 'play-turn',
    'player-index': slot,
    board: { ...b, your_strikes: s.strikes[slot]!.slice(), his_strikes: s.strikes[1 - slot]!.slice() },
  };
}

const SHIP = /^(0|[1-9]\d*),(0|[1-9]\d*)-(0|[1-9]\d*),(0|[1-9]\d*)$/;
const SHOT = /^(0|[1-9]\d*),(0|[1-9]\d*)$/;

/** Reads a list of ship strings "x1,y1-x2,y2" (plain non-negative integers, nothing else). */
export function parseFleet(boats: unknown): Parsed<BattleshipFleet> {
  if (!Array.isArray(boats)) return { ok: false, kind: 'bad-answer', detail: `"boats" must be an array of "x1,y1-x2,y2" strings, got ${describeValue(boats)}` };
  const fleet: Ship[] = [];
  for (const [i, b] of boats.entries()) {
    const m = typeof b === 'string' ? SHIP.exec(b) : null;
    if (!m) return { ok: false, kind: 'bad-answer', detail: `ships badly placed: ship ${i + 1} is ${describeValue(b)}, expected "x1,y1-x2,y2" with plain non-negative integers` };
    fleet.push([Number(m[1]), Number(m[2]), Number(m[3]), Number(m[4])]);
  }
  return { ok: true, action: { fleet } };
}

/** Reads a shot "x,y" (plain non-negative integers; "04,4", "-1,2", " 1,2" are malformed). */
export function parseShot(play: unknown): Parsed<BattleshipShot> {
  const m = typeof play === 'string' ? SHOT.exec(play) : null;
  if (!m) return { ok: false, kind: 'bad-answer', detail: `the shot must be "x,y" with plain non-negative integers, got ${describeValue(play)}` };
  return { ok: true, action: { shot: [Number(m[1]), Number(m[2])] } };
}

/** Reads the JSON hello answer `{"name","boats":[…]}`. */
export function parseHello(answer: unknown): Parsed<BattleshipFleet> {
  if (!isObject(answer)) return { ok: false, kind: 'bad-answer', detail: `expected a JSON object ({"name":…,"boats":[…]}), got ${describeValue(answer)}` };
  return parseFleet((answer as { boats?: unknown }).boats);
}

/** Reads a JSON turn answer `{"play":"x,y"}`. */
export function parseAnswer(answer: unknown): Parsed<BattleshipShot> {
  if (!isObject(answer)) return { ok: false, kind: 'bad-answer', detail: `expected a JSON object ({"play":"x,y"}), got ${describeValue(answer)}` };
  return parseShot((answer as { play?: unknown }).play);
}

function isObject(answer: unknown): boolean {
  return answer !== null && typeof answer === 'object' && !Array.isArray(answer);
}

/** The fields of a 2015 form-encoded request, in the original order. */
export function formFields(s: BattleshipState, slot: number, ctx: ViewContext): URLSearchParams {
  const fields = new URLSearchParams({ game: 'Battleship', match_id: `${numericId(ctx.matchId)}-${slot + 1}`, act: ctx.phase === 'init' ? 'init' : 'fight' });
  for (const [k, v] of Object.entries(board(s.config, ctx.names[1 - slot] ?? ''))) fields.append(k, v);
  if (ctx.phase !== 'init') {
    fields.append('your_strikes', JSON.stringify(s.strikes[slot]));
    fields.append('his_strikes', JSON.stringify(s.strikes[1 - slot]));
  }
  return fields;
}

/**
 * The 2015 dialect (`http+form://…`): an ordinary form POST; the answer is a bare JSON array of ships at
 * init and the bare text "x,y" for a shot. Whitespace around the answer is ignored (our Decision).
 */
export const formDialect: WireDialect<BattleshipState, BattleshipShot, BattleshipFleet> = {
  contentType: 'application/x-www-form-urlencoded',
  encode: (s, slot, ctx) => formFields(s, slot, ctx).toString(),
  decode: (body) => parseShot(body.trim()),
  decodeInit(body) {
    const text = body.trim();
    let boats: unknown;
    try {
      boats = JSON.parse(text);
    } catch {
      return { ok: false, kind: 'not-json', detail: `the init answer must be a JSON array of ships, got ${preview(text)}` };
    }
    return parseFleet(boats);
  },
};
