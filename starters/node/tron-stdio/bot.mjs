#!/usr/bin/env node
// Generated from starters/src/node/games/tron/bot.mjs + node/shims/json-stdio.txt by npm run generate:starters: edit those, not this file.
// A Tron starter bot for Botarena over stdio, in plain Node (standard library only).
// Each lap it takes the safe move (on the grid, onto no trail) that leaves the most room to move in,
// and avoids cells another head could also reach this lap (a head-on kills both).
// Run: node bot.mjs   (the arena runs it: stdio:node bot.mjs)
import { createInterface } from 'node:readline';
import { pathToFileURL } from 'node:url';

/**
 * A cell, `[x, y]`.
 * @typedef {[number, number]} Cell
 */
/**
 * Sent once before the first lap. Its answer is read but not used.
 * @typedef {object} InitMessage
 * @property {string} game-id       The match id, as text.
 * @property {'init'} action
 * @property {'tron'} game
 * @property {''} board             Always the empty string in the hello.
 * @property {number} [width]       Grid width (x is 0 to width-1); only present off the 100×100 grid.
 * @property {number} [height]      Grid height (y is 0 to height-1); only present off the 100×100 grid.
 * @property {number} players       How many bots play.
 * @property {number} player-index  Your seat, 0 to players-1.
 */
/**
 * Sent every lap while you are alive, to every bot at once.
 * @typedef {object} PlayTurnMessage
 * @property {string} game-id       The match id, as text.
 * @property {'play-turn'} action
 * @property {'tron'} game
 * @property {Cell[][]} board       One trail per seat, seat 0 first. Each trail HEAD FIRST; a dead bot's
 *   trail is [].
 * @property {number} [width]       Grid width; only present off the 100×100 grid.
 * @property {number} [height]      Grid height; only present off the 100×100 grid.
 * @property {number} player-index  Your seat: your trail is board[player-index].
 * @property {number} players       How many bots play, dead ones included.
 */
/** @typedef {InitMessage | PlayTurnMessage} Message */
/** @typedef {'x+' | 'x-' | 'y+' | 'y-'} Move */
/** @typedef {{name: string}} InitAnswer */
/** @typedef {{play: Move}} PlayAnswer */

export const NAME = 'node-starter';

/** @type {Record<Move, [number, number]>} */
export const MOVES = { 'x+': [1, 0], 'x-': [-1, 0], 'y+': [0, 1], 'y-': [0, -1] };

/** The moves from my head that stay on the grid and hit no trail (any bot's cells, heads included). */
export function safeMoves(message) {
  const width = message.width ?? 100;
  const height = message.height ?? 100;
  const taken = new Set(message.board.flat().map(([x, y]) => `${x},${y}`));
  const [hx, hy] = message.board[message['player-index']][0];
  return /** @type {Move[]} */ (Object.keys(MOVES)).filter((move) => {
    const [x, y] = [hx + MOVES[move][0], hy + MOVES[move][1]];
    return x >= 0 && y >= 0 && x < width && y < height && !taken.has(`${x},${y}`);
  });
}

/** How many free cells are reachable from (x, y), counting at most `limit` (a flood fill). */
export function room(message, x, y, limit = 400) {
  const width = message.width ?? 100;
  const height = message.height ?? 100;
  const seen = new Set(message.board.flat().map(([cx, cy]) => `${cx},${cy}`));
  const queue = [[x, y]];
  seen.add(`${x},${y}`);
  let count = 0;
  while (queue.length && count < limit) {
    const [cx, cy] = queue.shift();
    count++;
    for (const [dx, dy] of Object.values(MOVES)) {
      const [nx, ny] = [cx + dx, cy + dy];
      if (nx < 0 || ny < 0 || nx >= width || ny >= height || seen.has(`${nx},${ny}`)) continue;
      seen.add(`${nx},${ny}`);
      queue.push([nx, ny]);
    }
  }
  return count;
}

/**
 * Chooses this lap's move: a safe one whenever there is one.
 * @param {PlayTurnMessage} message
 * @returns {Move}
 */
export function chooseMove(message) {
  const me = message['player-index'];
  const [hx, hy] = message.board[me][0];
  const safe = safeMoves(message);
  if (safe.length === 0) return 'x+'; // walled in: every move dies
  // Cells another living head can step onto this lap (going there risks a head-on).
  const contested = new Set();
  message.board.forEach((trail, slot) => {
    if (slot === me || trail.length === 0) return;
    for (const [dx, dy] of Object.values(MOVES)) contested.add(`${trail[0][0] + dx},${trail[0][1] + dy}`);
  });
  // ---- YOUR STRATEGY GOES HERE ----------------------------------------------------------------
  // `safe` lists the moves that do not die at once. This one scores each by the room left behind it.
  let best = safe[0];
  let bestScore = -Infinity;
  for (const move of safe) {
    const [x, y] = [hx + MOVES[move][0], hy + MOVES[move][1]];
    const score = room(message, x, y) - (contested.has(`${x},${y}`) ? 1000 : 0);
    if (score > bestScore) [best, bestScore] = [move, score];
  }
  return best;
}

/**
 * The answer to any message: the name at `init`, a move at `play-turn`.
 * @param {Message} message
 * @returns {InitAnswer | PlayAnswer}
 */
export function answer(message) {
  if (message.action === 'init') {
    // stderr: the arena's log, not the wire
    console.error(`init: slot ${message['player-index']} of ${message.players}, grid ${message.width ?? 100}×${message.height ?? 100}`);
    return { name: NAME };
  }
  return { play: chooseMove(message) };
}

// ---------------------------------------------------------------------------------------------------
// The message loop (stdio): one JSON message per line on stdin, one JSON answer per line on stdout.
// stdout is the wire, so NOTHING else may be printed there: every debug line goes to stderr
// (console.error), which the arena shows in its `--log` output.

/** Reads messages until stdin closes (the match is over), answering each with one line. */
function main() {
  const lines = createInterface({ input: process.stdin, terminal: false });
  lines.on('line', (line) => {
    if (!line.trim()) return;
    let reply;
    try {
      reply = answer(JSON.parse(line));
    } catch (err) {
      console.error(`could not answer ${line.slice(0, 200)}: ${err.stack}`); // stderr: never on the wire
      return;
    }
    if (reply !== undefined) process.stdout.write(`${JSON.stringify(reply)}\n`);
  });
  // When the match ends the arena closes stdin; readline then closes and the process exits by itself.
}

// Start the loop only when run directly (`node bot.mjs`), not when the test imports this file.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) main();
