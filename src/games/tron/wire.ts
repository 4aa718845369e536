import { describeValue, type Parsed, type ViewContext } from '../../core/game.js';
import { DIRECTIONS, type Direction, type TronState } from './rules.js';
import type { TronMessage } from './schema.js';

/**
 * The original grid: on it every message is exactly as botsarena sent it. On any other grid the messages
 * also carry its size, `"width"` and `"height"` (integers; x is 0..width-1, y 0..height-1), right after
 * `board`, the value they describe; bots written for the original never see them.
 */
export const ORIGINAL_SIZE = 100;

export type { TronInit, TronMessage, TronTurn } from './schema.js';

/**
 * The board of the current lap (head first, dead as []), shared by every seat, kept per state and extended
 * lap by lap: each living trail gains its new head at the front, a dead one becomes []. Its JSON is made
 * only for seats that read text, and extended the same way (each trail's text is its new head's and the
 * text it had), so no lap turns the whole board into JSON again.
 */
interface LapBoard {
  lap: number;
  /** trail lengths the board was made from */
  lengths: number[];
  board: [number, number][][];
  /** per trail, its JSON without the outer brackets; null until a text seat asks */
  texts: string[] | null;
  json: string | null;
}
const boards = new WeakMap<TronState, LapBoard>();

function lapBoard(s: TronState): LapBoard {
  let b = boards.get(s);
  if (b && b.lap === s.lap) return b;
  const extend = b && b.lap === s.lap - 1 && s.trails.every((t, slot) => s.death[slot] || t.length === b!.lengths[slot]! + 1);
  if (!b || !extend) {
    const board = s.trails.map((t, slot) => (s.death[slot] ? [] : t.slice().reverse()));
    b = { lap: s.lap, lengths: s.trails.map((t) => t.length), board, texts: null, json: null };
    boards.set(s, b);
    return b;
  }
  s.trails.forEach((t, slot) => {
    if (s.death[slot]) {
      b!.board[slot] = [];
      if (b!.texts) b!.texts[slot] = '';
    } else if (t.length !== b!.lengths[slot]) {
      const head = t[t.length - 1]!;
      b!.board[slot]!.unshift(head);
      if (b!.texts) b!.texts[slot] = b!.texts[slot] ? `[${head[0]},${head[1]}],${b!.texts[slot]}` : `[${head[0]},${head[1]}]`;
    }
  });
  b.lengths = s.trails.map((t) => t.length);
  b.lap = s.lap;
  b.json = null;
  return b;
}

/** The board's JSON, byte for byte `JSON.stringify(board)`, from the trails' texts (made once, then extended). */
function lapJson(s: TronState): string {
  const b = lapBoard(s);
  if (b.json === null) {
    b.texts ??= b.board.map((t) => JSON.stringify(t).slice(1, -1));
    // Joined with `+`, not join(): the pieces stay linked, not copied (V8's cons strings), so a lap whose text
    // only a seat's log counts (a built-in bot's, past its cap) never copies the whole board.
    let json = '[';
    b.texts.forEach((t, i) => (json += i ? `,[${t}]` : `[${t}]`));
    b.json = `${json}]`;
  }
  return b.json;
}

/** Whether the grid is not the original one, so the messages carry its size. */
const sized = (s: TronState): boolean => s.width !== ORIGINAL_SIZE || s.height !== ORIGINAL_SIZE;

/** Builds the message for `slot`, field for field and in the original order (the size after `board`, off the original grid). */
export function view(s: TronState, slot: number, ctx: ViewContext): TronMessage {
  const players = s.trails.length;
  const id = ctx.matchId;
  if (ctx.phase === 'init') {
    return sized(s)
      ? { 'game-id': id, action: 'init', game: 'tron', board: '', width: s.width, height: s.height, players, 'player-index': slot }
      : { 'game-id': id, action: 'init', game: 'tron', board: '', players, 'player-index': slot };
  }
  const board = lapBoard(s).board;
  return sized(s)
    ? { 'game-id': id, action: 'play-turn', game: 'tron', board, width: s.width, height: s.height, 'player-index': slot, players }
    : { 'game-id': id, action: 'play-turn', game: 'tron', board, 'player-index': slot, players };
}

/** The JSON of `view`, byte for byte, with the board serialised once per lap for all seats. */
export function encodeJson(s: TronState, slot: number, ctx: ViewContext): string {
  if (ctx.phase === 'init') return JSON.stringify(view(s, slot, ctx));
  const size = sized(s) ? `,"width":${s.width},"height":${s.height}` : '';
  return `{"game-id":${JSON.stringify(ctx.matchId)},"action":"play-turn","game":"tron","board":${lapJson(s)}${size},"player-index":${slot},"players":${s.trails.length}}`;
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
