#!/usr/bin/env node
// A Connect Four bot for Botarena over HTTP, in plain Node (node:http only).
// Botarena POSTs each message as JSON; the response body is the answer.
// Run: node examples/connect4-node-http/bot.mjs [--port 8123]
import { createServer } from 'node:http';

const ROWS = 6;
const portArg = process.argv.indexOf('--port');
const port = portArg > 0 ? Number(process.argv[portArg + 1]) : 8123;

/** Whether dropping `mark` in `col` makes four in a row (board[row][col], row 0 at the bottom). */
function wins(board, col, mark) {
  const row = board.findIndex((r) => r[col] === '');
  if (row < 0) return false;
  const at = (r, c) => (r === row && c === col ? mark : board[r]?.[c]);
  for (const [dr, dc] of [
    [0, 1],
    [1, 0],
    [1, 1],
    [1, -1],
  ]) {
    let n = 1;
    for (const s of [1, -1]) for (let k = 1; at(row + s * k * dr, col + s * k * dc) === mark; k++) n++;
    if (n >= 4) return true;
  }
  return false;
}

/** Win if possible, else block the opponent's win, else the playable column nearest the centre. */
function choose(board, me) {
  const other = me === 'X' ? 'O' : 'X';
  const open = [3, 2, 4, 1, 5, 0, 6].filter((c) => board[ROWS - 1][c] === '');
  return open.find((c) => wins(board, c, me)) ?? open.find((c) => wins(board, c, other)) ?? open[0];
}

const server = createServer((req, res) => {
  let body = '';
  req.on('data', (chunk) => (body += chunk));
  req.on('end', () => {
    const message = JSON.parse(body);
    const answer = message.action === 'init' ? { name: 'node-example' } : { play: choose(message.board, message.you) };
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify(answer));
  });
});
server.keepAliveTimeout = 60_000;
server.listen(port, '127.0.0.1', () => console.log(`listening on http://127.0.0.1:${server.address().port}/`));
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => server.close(() => process.exit(0)));
