#!/usr/bin/env node
// A Tron starter bot for Botarena over <%over%>, in plain Node (standard library only).
// Each lap it takes the safe move (on the grid, onto no trail) that leaves the most room to move in,
// and avoids cells another head could also reach this lap (a head-on kills both).
// Run: <%run-line%>

/**
 * A cell, `[x, y]`.
 * @typedef {[number, number]} Cell
 */
/**
 * Sent once before the first lap. Its answer is read but not used.
 * @typedef {object} InitMessage
 * @property {string} game-id       <%doc:init.game-id%>
 * @property {'init'} action
 * @property {'tron'} game
 * @property {''} board             <%doc:init.board%>
 * @property {number} [width]       <%doc:init.width%>
 * @property {number} [height]      <%doc:init.height%>
 * @property {number} players       <%doc:init.players%>
 * @property {number} player-index  <%doc:init.player-index%>
 */
/**
 * Sent every lap while you are alive, to every bot at once.
 * @typedef {object} PlayTurnMessage
 * @property {string} game-id       <%doc:turn.game-id%>
 * @property {'play-turn'} action
 * @property {'tron'} game
 * @property {Cell[][]} board       <%doc:turn.board%> Each trail HEAD FIRST; a dead bot's trail is [].
 * @property {number} [width]       <%doc:turn.width%>
 * @property {number} [height]      <%doc:turn.height%>
 * @property {number} player-index  <%doc:turn.player-index%>
 * @property {number} players       <%doc:turn.players%>
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
