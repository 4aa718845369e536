import { dogBookkeeping } from './dogs.js';
import { parseMapPart, tileBoard, type MapPart } from './map.js';
import { resolveOptions } from './options.js';
import { parsePosition, placePosition, type Position } from './position.js';
import { sheepCountdown, sheepPhase } from './sheep.js';
import { cellOf, penOwner, terrainAt, type SmartDogState } from './state.js';

export { applyCommand, type CommandAnswer } from './dogs.js';

/** What a game is made from: the map part (text or parsed), the player count, hub options, the first dog id. */
export interface SetupInput {
  map: string | MapPart;
  players: number;
  hubOptions?: Record<string, unknown>;
  /** dog ids count up from here in creation order (the server keeps them unique across its games) */
  firstDogId?: number;
  /** a chosen starting position (JSON text or parsed) on the tiled board; none starts the map as drawn */
  position?: string | Position;
}

/** Builds the state before turn 1 (or a position's turn): the tiled board, resolved options, nobody ended, scores. */
export function setup(input: SetupInput): SmartDogState {
  const part = typeof input.map === 'string' ? parseMapPart(input.map) : input.map;
  const options = resolveOptions(input.hubOptions, part.options);
  const b = tileBoard(part, input.players, input.firstDogId ?? 1);
  const s: SmartDogState = {
    options,
    players: input.players,
    rows: b.rows,
    cols: b.cols,
    terrain: b.terrain,
    territories: b.territories,
    tileSheep: b.tileSheep,
    tilePenned: b.tilePenned,
    dogs: b.dogs,
    sheep: b.sheep,
    occ: Array<number>(b.rows * b.cols).fill(0),
    turn: 1,
    ended: Array<boolean>(input.players).fill(false),
    out: Array<boolean>(input.players).fill(false),
    scores: [],
    finished: false,
  };
  s.dogs.forEach((d, k) => (s.occ[cellOf(s, d.x, d.y)] = k + 1));
  s.sheep.forEach((sh, k) => (s.occ[cellOf(s, sh.x, sh.y)] = -k - 1));
  if (input.position !== undefined) placePosition(s, typeof input.position === 'string' ? parsePosition(input.position) : input.position);
  s.scores = computeScores(s);
  return s;
}

/** Whether every player has ended the turn (out players count as ended). */
export function allEnded(s: SmartDogState): boolean {
  return s.ended.every((e, k) => e || s.out[k]);
}

/**
 * Closes the current turn: the sheep phase, the dogs' fear bookkeeping, the scores; then either the game
 * finishes (after turn `turnsLimit`) or the next turn starts with the sheep's fear countdown.
 */
export function endTurn(s: SmartDogState): void {
  if (s.finished) return;
  sheepPhase(s);
  dogBookkeeping(s);
  s.scores = computeScores(s);
  if (s.turn >= s.options.turnsLimit) {
    s.finished = true;
    return;
  }
  s.turn++;
  s.ended.fill(false);
  sheepCountdown(s);
}

/**
 * Marks a player out for good (timeout or disconnect): it ends every later turn at once and scores −10.
 * When nobody is left the game ends at once.
 */
export function markOut(s: SmartDogState, player: number): void {
  s.out[player - 1] = true;
  s.scores = computeScores(s);
  if (s.out.every(Boolean)) s.finished = true;
}

/** The score of one player from I (penned per tile at the start), M (sheep per tile) and C (on its pens now). */
export function scoreOf(penned: number, total: number, onPens: number): number {
  if (onPens === penned) return 0;
  if (onPens < penned) return (-10 * (penned - onPens)) / penned;
  return (10 * onPens) / total;
}

/** The scores of all players, by player − 1; an out player scores −10. */
export function computeScores(s: SmartDogState): number[] {
  const onPens = Array<number>(s.players).fill(0);
  for (const sh of s.sheep) {
    const owner = penOwner(terrainAt(s, sh.x, sh.y));
    if (owner > 0) onPens[owner - 1]!++;
  }
  return onPens.map((c, k) => (s.out[k] ? -10 : scoreOf(s.tilePenned, s.tileSheep, c)));
}

/** The winner (1-based): the highest score above −10, ties to the lowest id; null when nobody qualifies. */
export function winnerOf(s: SmartDogState): number | null {
  let best: number | null = null;
  s.scores.forEach((sc, k) => {
    if (sc > -10 && (best === null || sc > s.scores[best - 1]!)) best = k + 1;
  });
  return best;
}
