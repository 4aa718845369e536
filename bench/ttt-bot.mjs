// A fast tic-tac-toe bot for the server benchmark: win, else block, else the centre, else the first empty
// cell, so its own thinking is next to nothing and a match costs what the arena and the transport cost.
//   node ttt-bot.mjs               stdio: one JSON message per line in, one answer per line out
//   node ttt-bot.mjs --http PORT   a node:http keep-alive server answering POSTed messages (prints its port)
import { createServer } from 'node:http';
import { createInterface } from 'node:readline';

const CELLS = ['0-0', '0-1', '0-2', '1-0', '1-1', '1-2', '2-0', '2-1', '2-2'];
const LINES = [
  [0, 1, 2],
  [3, 4, 5],
  [6, 7, 8],
  [0, 3, 6],
  [1, 4, 7],
  [2, 5, 8],
  [0, 4, 8],
  [2, 4, 6],
];

function completing(marks, mark) {
  for (const line of LINES) {
    const mine = line.filter((i) => marks[i] === mark).length;
    const empty = line.find((i) => marks[i] === '');
    if (mine === 2 && empty !== undefined) return CELLS[empty];
  }
  return null;
}

function answer(text) {
  const m = JSON.parse(text);
  if (m.action !== 'play-turn') return '{"name":"ttt-bench"}';
  const marks = CELLS.map((c) => m.board[c]);
  const other = m.you === 'X' ? 'O' : 'X';
  const cell = completing(marks, m.you) ?? completing(marks, other) ?? (marks[4] === '' ? '1-1' : CELLS[marks.indexOf('')]);
  return `{"play":"${cell}"}`;
}

if (process.argv[2] === '--http') {
  const server = createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      res.setHeader('content-type', 'application/json');
      res.end(answer(Buffer.concat(chunks).toString('utf8')));
    });
  });
  server.keepAliveTimeout = 60_000;
  server.listen(Number(process.argv[3] ?? 0), '127.0.0.1', () => process.stdout.write(`${server.address().port}\n`));
} else {
  createInterface({ input: process.stdin }).on('line', (line) => process.stdout.write(`${answer(line)}\n`));
}
