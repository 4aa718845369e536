import { describeValue, type Parsed, type ViewContext } from '../../core/game.js';
import { DIRECTIONS, type Direction, type TronState } from './rules.js';

/** The init message, as botsarena sent it. */
export interface TronInit {
  'game-id': string;
  action: 'init';
  game: 'tron';
  board: '';
  players: number;
  'player-index': number;
}

/** The lap message: every slot's trail head first (`[]` once dead); `players` counts the dead too. */
export interface TronTurn {
  'game-id': string;
  action: 'play-turn';
  game: 'tron';
  board: [number, number][][];
  'player-index': number;
  players: number;
}

/** A message to a Tron bot. */
export type TronMessage = TronInit | TronTurn;

/** The board of the current lap (head first, dead as []), built once per lap and shared by every seat. */
const boards = new WeakMap<TronState, { lap: number; board: [number, number][][]; json: string }>();
function lapBoard(s: TronState): { board: [number, number][][]; json: string } {
  let b = boards.get(s);
  if (!b || b.lap !== s.lap) {
    const board = s.trails.map((t, slot) => (s.death[slot] ? [] : t.slice().reverse()));
    b = { lap: s.lap, board, json: JSON.stringify(board) };
    boards.set(s, b);
  }
  return b;
}

/** Builds the message for `slot`, field for field and in the original order. */
export function view(s: TronState, slot: number, ctx: ViewContext): TronMessage {
  const players = s.trails.length;
  if (ctx.phase === 'init') return { 'game-id': ctx.matchId, action: 'init', game: 'tron', board: '', players, 'player-index': slot };
  return { 'game-id': ctx.matchId, action: 'play-turn', game: 'tron', board: lapBoard(s).board, 'player-index': slot, players };
}

/** The JSON of `view`, byte for byte, with the board serialised once per lap for all seats. */
export function encodeJson(s: TronState, slot: number, ctx: ViewContext): string {
  if (ctx.phase === 'init') return JSON.stringify(view(s, slot, ctx));
  return `{"game-id":${JSON.stringify(ctx.matchId)},"action":"play-turn","game":"tron","board":${lapBoard(s).json},"player-index":${slot},"players":${s.trails.length}}`;
}

/** Reads `{"play":"x+"}`: exactly one of the four directions, case-sensitive, not trimmed. */
export function parseAnswer(answer: unknown): Parsed<Direction> {
  if (answer === null || typeof answer !== 'object' || Array.isArray(answer)) {
    return { ok: false, kind: 'bad-answer', detail: `expected a JSON object like {"play":"x+"}, got ${describeValue(answer)}` };
  }
  const play = (answer as { play?: unknown }).play;
  if (typeof play === 'string' && (DIRECTIONS as readonly string[]).includes(play)) return { ok: true, action: play as Direction };
  return { ok: false, kind: 'bad-answer', detail: `"play" must be one of "x+", "x-", "y+", "y-", got ${describeValue(play)}` };
}
