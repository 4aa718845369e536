import { describeValue, preview, type Parsed, type ViewContext, type WireDialect } from '../../core/game.js';
import type { BattleshipConfig, BattleshipFleet, BattleshipShot, BattleshipState, Ship } from './rules.js';
import type { BattleshipBoard, BattleshipMessage, BattleshipStrike } from './schema.js';

export type { BattleshipBoard, BattleshipInit, BattleshipMessage, BattleshipStrike, BattleshipTurn } from './schema.js';

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
  const seat = slot as 0 | 1;
  const b = board(s.config, ctx.names[1 - slot] ?? '');
  if (ctx.phase === 'init') return { 'game-id': id, game: 'battleship', action: 'init', players: 2, 'player-index': seat, board: b };
  return {
    game: 'Battleship',
    'game-id': id,
    action: 'play-turn',
    'player-index': seat,
    // (The fourth result, "hit sunk and win", ends the match: no message ever carries it.)
    board: { ...b, your_strikes: s.strikes[slot]!.slice() as BattleshipStrike[], his_strikes: s.strikes[1 - slot]!.slice() as BattleshipStrike[] },
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
    if (!m)
      return {
        ok: false,
        kind: 'bad-answer',
        detail: `ships badly placed: ship ${i + 1} is ${describeValue(b)}, expected "x1,y1-x2,y2" with plain non-negative integers`,
      };
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
