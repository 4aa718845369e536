// Generated from starters/src/ts/games/tron/bot.ts + ts/shims/json-stdio.txt by npm run generate:starters: edit those, not this file.
// A Tron starter bot in TypeScript, with Botarena's SDK (`botarena/sdk`).
// Each lap it takes a move that neither leaves the grid nor hits a trail, preferring cells away from the
// other heads (a head-on kills both) and with the most free cells around them.
// Run it (stdio): botarena play tron "stdio:node_modules/.bin/tsx bot.ts" stupid
// Rules and every message: docs/games/tron.md in the botarena package.
import { pathToFileURL } from 'node:url';
import { serveStdio, type InitAnswer, type TronAnswer, type TronMessage, type TronTurn } from 'botarena/sdk';

/** A move: "x+" goes to x + 1, "y+" to y + 1 (down on screen), and so on. */
export type Move = TronAnswer['play'];

const MOVES: [Move, number, number][] = [['x+', 1, 0], ['y+', 0, 1], ['x-', -1, 0], ['y-', 0, -1]];
/** The grid is 100 × 100 unless the message says otherwise (`width`/`height` are only sent off 100 × 100). */
const DEFAULT_SIZE = 100;

/**
 * Debug output goes to STDERR: stdout is the wire (each line there is read as an answer), while stderr
 * shows up in the arena's log (`botarena play … --log`).
 */
function debug(text: string): void {
  process.stderr.write(`[tron-bot] ${text}\n`);
}

/** Chooses the move for one lap: a move onto a free cell of the grid whenever there is one. */
export function chooseMove(m: TronTurn): TronAnswer {
  const width = m.width ?? DEFAULT_SIZE;
  const height = m.height ?? DEFAULT_SIZE;
  const taken = new Set<string>(); // every trail cell, heads included: moving onto any of them kills
  for (const trail of m.board) for (const [x, y] of trail) taken.add(`${x},${y}`);
  const free = (x: number, y: number) => x >= 0 && y >= 0 && x < width && y < height && !taken.has(`${x},${y}`);
  const head = m.board[m['player-index']]?.[0];
  if (head === undefined) throw new Error('my trail is empty: a dead bot is never asked');
  const [x, y] = head;
  // Cells another bot's head can reach this lap: moving there risks a head-on.
  const danger = new Set<string>();
  m.board.forEach((trail, slot) => {
    const other = trail[0];
    if (slot !== m['player-index'] && other) for (const [, dx, dy] of MOVES) danger.add(`${other[0] + dx},${other[1] + dy}`);
  });
  // ==== your strategy goes here ====
  // `m.board[slot]` is each bot's trail, head first; yours is `m.board[m['player-index']]`.
  // A move off the grid or onto any trail cell kills you.
  let best: { move: Move; score: number } | undefined;
  for (const [move, dx, dy] of MOVES) {
    const [nx, ny] = [x + dx, y + dy];
    if (!free(nx, ny)) continue;
    const room = MOVES.filter(([, ex, ey]) => free(nx + ex, ny + ey)).length; // free cells next to the new head
    const score = room - (danger.has(`${nx},${ny}`) ? 10 : 0);
    if (best === undefined || score > best.score) best = { move, score };
  }
  if (best === undefined) debug(`no free cell next to ${x},${y}: this lap is my last`);
  return { play: best?.move ?? 'x+' };
}

/** Answers one message: the init (the answer is not used; a name is the convention), or a lap. */
export function handle(m: TronMessage): InitAnswer | TronAnswer {
  if (m.action === 'init') {
    debug(`hello: slot ${m['player-index']} of ${m.players}, grid ${m.width ?? DEFAULT_SIZE}×${m.height ?? DEFAULT_SIZE}`);
    return { name: 'ts-starter' };
  }
  return chooseMove(m);
}

// ==== the message loop ====
// Started only when this file is run, not when a test imports it.
if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await serveStdio(handle); // one JSON message per stdin line, one JSON answer per stdout line
}
