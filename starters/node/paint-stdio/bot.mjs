#!/usr/bin/env node
// Generated from starters/src/node/games/paint/bot.mjs + node/shims/json-stdio.txt by npm run generate:starters: edit those, not this file.
// A Paint starter bot for Botarena over stdio, in plain Node (standard library only).
// Greedy: each turn, the walk or shot that paints the most squares not yet of its colour.
// Run: node bot.mjs   (the arena runs it: stdio:node bot.mjs)
import { createInterface } from 'node:readline';
import { pathToFileURL } from 'node:url';

/** @typedef {[number, number]} Square     `[row, column]`, row 0 at the top */
/** @typedef {[number, number]} Direction  `[di, dj]`, each -1, 0 or 1, not [0, 0] */
/**
 * The hello, sent once. Answer `{"ready": true}` within 5 s.
 * @typedef {{player_id: string}} HelloMessage  your id, also your colour in `colors`
 */
/**
 * The state, sent to every player at once each turn. Answer within 500 ms.
 * @typedef {object} StateMessage
 * @property {number} width                              Columns.
 * @property {number} height                             Rows.
 * @property {Record<string, Square>} player_positions   Each player's square, by player id.
 * @property {(string | null)[][]} colors                colors[row][column]: the id of the player whose paint
 *   covers the square, or null for an unpainted square or an obstacle. `height` rows of `width` squares.
 * @property {Record<string, {type: 'walk' | 'shoot', direction: Direction}>[]} previous_actions One object
 *   per turn played so far, oldest first: each player's action that turn, by player id (a player who took no
 *   action is left out).
 * @property {number} turns_left                         Turns still to play, this one included; echo it in
 *   the answer.
 * @property {Square[]} [obstacles]                      The obstacle squares: never painted, never walked on.
 *   Present only when there are some.
 */
/** @typedef {HelloMessage | StateMessage} Message */
/** @typedef {{turns_left: number, type: 'walk' | 'shoot', direction: Direction}} Move */

export const DIRECTIONS = /** @type {Direction[]} */ ([[-1, -1], [-1, 0], [-1, 1], [0, -1], [0, 1], [1, -1], [1, 0], [1, 1]]);

/** What the bot remembers from the hello: its id. */
export const memory = { id: '' };

/**
 * Chooses this turn's move: the walk or shot that paints the most squares not yet ours.
 * @param {StateMessage} state
 * @param {string} id   my player id
 * @returns {Move}
 */
export function chooseMove(state, id) {
  const { width, height, colors } = state;
  const blocked = new Set((state.obstacles ?? []).map(([i, j]) => `${i},${j}`));
  const inside = (i, j) => i >= 0 && j >= 0 && i < height && j < width && !blocked.has(`${i},${j}`);
  const avatars = new Set(Object.values(state.player_positions).map(([i, j]) => `${i},${j}`));
  const [mi, mj] = state.player_positions[id];
  // ---- YOUR STRATEGY GOES HERE ----------------------------------------------------------------
  /** @type {{type: 'walk' | 'shoot', direction: Direction}} */
  let best = { type: 'walk', direction: DIRECTIONS[0] };
  let bestGain = -1;
  for (const [di, dj] of DIRECTIONS) {
    // Walking paints the square walked onto (if nobody stands there).
    const [wi, wj] = [mi + di, mj + dj];
    if (inside(wi, wj) && !avatars.has(`${wi},${wj}`)) {
      const gain = colors[wi][wj] === id ? 0 : 1;
      if (gain > bestGain) [best, bestGain] = [{ type: 'walk', direction: [di, dj] }, gain];
    }
    // A shot reaches max(1, n - 1) squares, n being our unbroken trail behind us (our square included).
    let trail = 0;
    for (let i = mi, j = mj; inside(i, j) && colors[i][j] === id; i -= di, j -= dj) trail++;
    let gain = 0;
    for (let k = 1, i = wi, j = wj; k <= Math.max(1, trail - 1) && inside(i, j) && !avatars.has(`${i},${j}`); k++, i += di, j += dj) {
      if (colors[i][j] !== id) gain++;
    }
    if (gain > bestGain) [best, bestGain] = [{ type: 'shoot', direction: [di, dj] }, gain];
  }
  return { turns_left: state.turns_left, ...best };
}

/**
 * The answer to any message: `{"ready":true}` to the hello, a move (with `turns_left` copied) to a state.
 * @param {Message} message
 * @returns {{ready: true} | Move}
 */
export function answer(message) {
  if ('player_id' in message) {
    memory.id = message.player_id;
    console.error(`hello: I am ${memory.id}`); // stderr: the arena's log, not the wire
    return { ready: true };
  }
  return chooseMove(message, memory.id);
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
