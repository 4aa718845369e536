// A paint starter bot in TypeScript, with Botarena's SDK (`botarena/sdk`).
// It answers the hello with {"ready":true}; each turn it shoots along a trail of its colour when the shot
// would paint at least two squares that are not its own, else walks onto a neighbouring square that is not
// its own yet (unpainted first). Every answer copies the state's `turns_left`.
// <%run-line%>
// Rules and every message: docs/games/paint.md in the botarena package.
import { type PaintAnswer, type PaintInitAnswer, type PaintMessage, type PaintTurn } from 'botarena/sdk';

/** A direction [di, dj]: row step, column step (row 0 is the top). */
export type Direction = PaintAnswer['direction'];

const DIRECTIONS: Direction[] = [[-1, 0], [1, 0], [0, -1], [0, 1], [-1, -1], [-1, 1], [1, -1], [1, 1]];

/**
 * <%debug-doc%>
 */
function debug(text: string): void {
  process.stderr.write(`[paint-bot] ${text}\n`);
}

/** Chooses the action for one state; `me` is my player id (my colour), from the hello. */
export function chooseAction(me: string, m: PaintTurn): PaintAnswer {
  const [i, j] = m.player_positions[me] ?? [0, 0];
  const blocked = new Set((m.obstacles ?? []).map(([a, b]) => `${a},${b}`));
  const avatars = new Set(Object.values(m.player_positions).map(([a, b]) => `${a},${b}`));
  const onBoard = (a: number, b: number) => a >= 0 && b >= 0 && a < m.height && b < m.width && !blocked.has(`${a},${b}`);
  const colour = (a: number, b: number) => m.colors[a]?.[b] ?? null;
  // ==== your strategy goes here ====
  // `m.colors[i][j]` is a player id or null; `m.player_positions[id]` is [row, column]. Always copy
  // `m.turns_left` into the answer: it pairs your answer with this state.
  // Shooting: the range is max(1, n - 1), n being the squares of my colour in a line behind me.
  let bestShot: { direction: Direction; gain: number } | undefined;
  for (const direction of DIRECTIONS) {
    const [di, dj] = direction;
    let n = 1; // my own square is painted my colour before the shots fly
    while (onBoard(i - (n * di), j - (n * dj)) && colour(i - n * di, j - n * dj) === me) n++;
    let gain = 0;
    for (let k = 1; k <= Math.max(1, n - 1); k++) {
      const [a, b] = [i + k * di, j + k * dj];
      if (!onBoard(a, b) || avatars.has(`${a},${b}`)) break; // the shot stops there
      if (colour(a, b) !== me) gain++;
    }
    if (!bestShot || gain > bestShot.gain) bestShot = { direction, gain };
  }
  if (bestShot && bestShot.gain >= 2) return { turns_left: m.turns_left, type: 'shoot', direction: bestShot.direction };
  // Walking: onto a free square, unpainted first, then someone else's, then my own.
  const rank = (a: number, b: number) => (colour(a, b) === null ? 0 : colour(a, b) !== me ? 1 : 2);
  const walks = DIRECTIONS.filter(([di, dj]) => onBoard(i + di, j + dj) && !avatars.has(`${i + di},${j + dj}`));
  walks.sort(([ai, aj], [bi, bj]) => rank(i + ai, j + aj) - rank(i + bi, j + bj));
  return { turns_left: m.turns_left, type: 'walk', direction: walks[0] ?? [1, 0] };
}

let me = '';

/** Answers one message: the hello (`{"ready":true}`, which must be exactly that), or a state. */
export function handle(m: PaintMessage): PaintInitAnswer | PaintAnswer {
  if ('player_id' in m) {
    me = m.player_id;
    debug(`hello: I am ${me}`);
    return { ready: true };
  }
  return chooseAction(me, m);
}
