#!/usr/bin/env node
// Generated from starters/src/node/games/tictactoe/bot.mjs + node/shims/json-http.txt by npm run generate:starters: edit those, not this file.
// A Tic-tac-toe starter bot for Botarena over HTTP, in plain Node (standard library only).
// It wins when it can, blocks the other side's line, else takes the centre, a corner, then any cell.
// Run: node bot.mjs [--port 8000]
import { createServer } from 'node:http';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';

/**
 * A cell's content: `""` (empty), `"X"` or `"O"`.
 * @typedef {'' | 'X' | 'O'} Mark
 */
/**
 * Sent once before the first turn. Its answer is read but not used.
 * @typedef {object} InitMessage
 * @property {string} game-id       The match id, as text.
 * @property {'init'} action
 * @property {'tictactoe'} game
 * @property {number} players       always 2
 * @property {''} board             Always the empty string in the hello.
 * @property {number} player-index  Your seat: 0 plays X and moves first, 1 plays O.
 */
/**
 * Sent each time it is your turn.
 * @typedef {object} PlayTurnMessage
 * @property {string} game-id              The match id, as text.
 * @property {'play-turn'} action
 * @property {'tictactoe'} game
 * @property {number} players
 * @property {Record<string, Mark>} board  nine keys "0-0" … "2-2" ("row-col", row 0 at the top)
 * @property {'X' | 'O'} you               The mark you play.
 * @property {number} player-index         Your seat: 0 is X, 1 is O.
 */
/** @typedef {InitMessage | PlayTurnMessage} Message */
/** @typedef {{name: string}} InitAnswer */
/** @typedef {{play: string}} PlayAnswer  the key of an empty cell, e.g. "1-1" */

export const NAME = 'node-starter';

/** The eight lines of three, as cell keys. */
export const LINES = [
  ['0-0', '0-1', '0-2'], ['1-0', '1-1', '1-2'], ['2-0', '2-1', '2-2'], // rows
  ['0-0', '1-0', '2-0'], ['0-1', '1-1', '2-1'], ['0-2', '1-2', '2-2'], // columns
  ['0-0', '1-1', '2-2'], ['0-2', '1-1', '2-0'], // diagonals
];

/** The empty cells of `board`, in key order. */
export function emptyCells(board) {
  return Object.keys(board).filter((key) => board[key] === '');
}

/** A cell that completes a line of `mark` (two of `mark` and this empty cell), or undefined. */
export function winningCell(board, mark) {
  for (const line of LINES) {
    const empty = line.filter((key) => board[key] === '');
    if (empty.length === 1 && line.filter((key) => board[key] === mark).length === 2) return empty[0];
  }
  return undefined;
}

/**
 * Chooses the cell to play. Always an empty cell.
 * @param {PlayTurnMessage} message
 * @returns {string}
 */
export function chooseMove(message) {
  const { board, you } = message;
  const other = you === 'X' ? 'O' : 'X';
  const empty = emptyCells(board);
  // ---- YOUR STRATEGY GOES HERE ----------------------------------------------------------------
  // `empty` lists the legal moves. This simple strategy: win, block, centre, corners, anything.
  const preferred = ['1-1', '0-0', '0-2', '2-0', '2-2'].filter((key) => board[key] === '');
  return winningCell(board, you) ?? winningCell(board, other) ?? preferred[0] ?? empty[0];
}

/**
 * The answer to any message: the name at `init`, a move at `play-turn`.
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
// The message loop (HTTP): the arena POSTs each message as a JSON body; the response body is the answer.
// stdout only carries the one `listening on …` line (tools wait for it); every debug line goes to
// stderr (console.error), which stays out of the way of anything reading stdout.

/** Serves the bot on 127.0.0.1:PORT (`--port N`, default 8000; `--port 0` picks a free port). */
function main() {
  const { values } = parseArgs({ options: { port: { type: 'string', default: '8000' } } });
  const server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      let reply;
      try {
        reply = answer(JSON.parse(body));
      } catch (err) {
        console.error(`could not answer ${body.slice(0, 200)}: ${err.stack}`); // stderr: never on the wire
        res.statusCode = 500;
        res.end();
        return;
      }
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify(reply ?? {}));
    });
  });
  server.keepAliveTimeout = 60_000; // the arena reuses its connection between turns
  server.on('error', (err) => {
    // One line, not a stack trace: most often another program (or this bot, still running) holds the port.
    const reason = err.code === 'EADDRINUSE' ? 'the port is taken (is this bot already running?): stop what holds it, or pick another port with --port N' : err.message;
    console.error(`cannot listen on 127.0.0.1:${values.port}: ${reason}`);
    process.exit(1);
  });
  server.listen(Number(values.port), '127.0.0.1', () => {
    console.log(`listening on http://127.0.0.1:${server.address().port}/`);
  });
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.close(() => process.exit(0)));
}

// Start the server only when run directly (`node bot.mjs`), not when the test imports this file.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) main();
