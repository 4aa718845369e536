#!/usr/bin/env node
// Generated from starters/src/node/games/connect4/bot.mjs + node/shims/json-stdio.txt by npm run generate:starters: edit those, not this file.
// A Connect Four starter bot for Botarena over stdio, in plain Node (standard library only).
// It wins when it can, blocks the other side's four, else plays the open column nearest the centre.
// Run: node bot.mjs   (the arena runs it: stdio:node bot.mjs)
import { createInterface } from 'node:readline';
import { pathToFileURL } from 'node:url';

/**
 * A cell's content: `""` (empty), `"X"` or `"O"`.
 * @typedef {'' | 'X' | 'O'} Mark
 */
/**
 * Sent once before the first turn. Its answer is read but not used.
 * @typedef {object} InitMessage
 * @property {string} game-id       The match id, as text.
 * @property {'init'} action
 * @property {'connectfour'} game   the wire's name for the game
 * @property {number} players       always 2
 * @property {''} board             Always the empty string in the hello.
 * @property {number} player-index  Your seat: 0 plays X and moves first, 1 plays O.
 */
/**
 * Sent each time it is your turn.
 * @typedef {object} PlayTurnMessage
 * @property {string} game-id     The match id, as text.
 * @property {'play-turn'} action
 * @property {'connectfour'} game
 * @property {number} players
 * @property {string} opponent    The other bot's display name (may be empty).
 * @property {'X' | 'O'} you      The mark you play.
 * @property {Mark[][]} board     Six rows, bottom row first. 6 rows of 7 cells, board[row][col].
 * @property {number} player-index Your seat: 0 is X, 1 is O.
 */
/** @typedef {InitMessage | PlayTurnMessage} Message */
/** @typedef {{name: string}} InitAnswer */
/** @typedef {{play: number}} PlayAnswer  a column 0 to 6 whose top cell (row 5) is empty */

export const NAME = 'node-starter';
export const ROWS = 6;
export const COLS = 7;

/** The columns that can still be played (top cell empty), nearest the centre first. */
export function openColumns(board) {
  return [3, 2, 4, 1, 5, 0, 6].filter((col) => board[ROWS - 1][col] === '');
}

/** Whether dropping `mark` into `col` makes four in a row. */
export function wins(board, col, mark) {
  const row = board.findIndex((cells) => cells[col] === '');
  if (row < 0) return false;
  const at = (r, c) => (r === row && c === col ? mark : board[r]?.[c]);
  for (const [dr, dc] of [[0, 1], [1, 0], [1, 1], [1, -1]]) {
    let count = 1;
    for (const sign of [1, -1]) for (let k = 1; at(row + sign * k * dr, col + sign * k * dc) === mark; k++) count++;
    if (count >= 4) return true;
  }
  return false;
}

/**
 * Chooses the column to play. Always a column that is not full.
 * @param {PlayTurnMessage} message
 * @returns {number}
 */
export function chooseMove(message) {
  const { board, you } = message;
  const other = you === 'X' ? 'O' : 'X';
  const open = openColumns(board);
  // ---- YOUR STRATEGY GOES HERE ----------------------------------------------------------------
  // `open` lists the legal moves. This simple strategy: win, block, else nearest the centre.
  return open.find((col) => wins(board, col, you)) ?? open.find((col) => wins(board, col, other)) ?? open[0];
}

/**
 * The answer to any message: the name at `init`, a column at `play-turn`.
 * @param {Message} message
 * @returns {InitAnswer | PlayAnswer}
 */
export function answer(message) {
  if (message.action === 'init') {
    console.error(`init: I am slot ${message['player-index']}`); // stderr: the arena's log, not the wire
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
