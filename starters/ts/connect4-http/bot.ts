// Generated from starters/src/ts/games/connect4/bot.ts + ts/shims/json-http.txt by npm run generate:starters: edit those, not this file.
// A Connect Four starter bot in TypeScript, with Botarena's SDK (`botarena/sdk`).
// It wins when it can, blocks the other bot's four when it must, else plays the non-full column nearest the centre.
// Run it (HTTP): node_modules/.bin/tsx bot.ts --port 8000, then: botarena play connect4 http://127.0.0.1:8000/ random
// Rules and every message: docs/games/connect4.md in the botarena package.
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { serveHttp, type ConnectFourAnswer, type ConnectFourMessage, type ConnectFourTurn, type InitAnswer } from 'botarena/sdk';

/** The board as the message gives it: `board[row][col]`, row 0 at the BOTTOM, 6 rows of 7 cells "", "X" or "O". */
export type Board = ConnectFourTurn['board'];

const ROWS = 6;
const COLS = 7;
/** Columns from the centre out: the centre takes part in the most lines. */
const CENTRE_FIRST = [3, 2, 4, 1, 5, 0, 6];

/**
 * Debug output goes to STDERR: over stdio stdout would be the wire, and here stdout carries the one
 * `listening on …` line that tools wait for; stderr is the terminal you started the bot in.
 */
function debug(text: string): void {
  process.stderr.write(`[connect4-bot] ${text}\n`);
}

/** The row a piece dropped in `col` lands on, or -1 when the column is full (its top cell, row 5, is taken). */
export function landingRow(board: Board, col: number): number {
  for (let row = 0; row < ROWS; row++) if (board[row]?.[col] === '') return row;
  return -1;
}

/** Whether a `mark` piece at (row, col) would make four in a row (horizontal, vertical or diagonal). */
function makesFour(board: Board, row: number, col: number, mark: 'X' | 'O'): boolean {
  const at = (r: number, c: number) => (r === row && c === col ? mark : board[r]?.[c]);
  for (const [dr, dc] of [[0, 1], [1, 0], [1, 1], [1, -1]] as const) {
    let count = 1;
    for (const sign of [1, -1]) {
      for (let k = 1; k < 4 && at(row + sign * k * dr, col + sign * k * dc) === mark; k++) count++;
    }
    if (count >= 4) return true;
  }
  return false;
}

/** Chooses the move for one play-turn message: always a column whose top cell is empty. */
export function chooseMove(m: ConnectFourTurn): ConnectFourAnswer {
  const me = m.you;
  const other = me === 'X' ? 'O' : 'X';
  const open = CENTRE_FIRST.filter((c) => landingRow(m.board, c) >= 0);
  // ==== your strategy goes here ====
  // `m.board[row][col]` (row 0 at the bottom), `m.you` your mark. Return a column 0..6 that is not full:
  // a full one loses the game at once (illegal-move).
  const wins = (mark: 'X' | 'O') => open.find((c) => makesFour(m.board, landingRow(m.board, c), c, mark));
  const col = wins(me) ?? wins(other) ?? open[0];
  if (col === undefined) throw new Error('every column is full: the arena never asks on a full board');
  return { play: col };
}

/** Answers one message: the init (the answer is not used; a name is the convention), or a turn. */
export function handle(m: ConnectFourMessage): InitAnswer | ConnectFourAnswer {
  if (m.action === 'init') {
    debug(`hello: I am slot ${m['player-index']} (${m['player-index'] === 0 ? 'X' : 'O'}); ${ROWS}×${COLS} board`);
    return { name: 'ts-starter' };
  }
  return chooseMove(m);
}

// ==== the message loop ====
// Started only when this file is run, not when a test imports it. The arena POSTs each message as a JSON
// body; the answer is the response body.
if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { values } = parseArgs({ options: { port: { type: 'string', default: '8000' } } });
  try {
    const bot = await serveHttp(handle, { port: Number(values.port), host: '127.0.0.1' });
    console.log(`listening on ${bot.url}`); // exactly this one line on stdout, once connections are accepted
  } catch (err) {
    // One line, not a stack trace: most often another program (or this bot, still running) holds the port.
    const reason = (err as NodeJS.ErrnoException).code === 'EADDRINUSE' ? 'the port is taken (is this bot already running?): stop what holds it, or pick another port with --port N' : String(err);
    console.error(`cannot listen on 127.0.0.1:${values.port}: ${reason}`);
    process.exit(1);
  }
}
