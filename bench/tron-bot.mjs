// A fast stdio Tron bot for the benchmark: the original stupid rule on a 100×100 grid of bytes, so the
// bot's own thinking is small next to reading the message.
import { createInterface } from 'node:readline';

// The grid's size (100×100 unless given: node tron-bot.mjs W H); Tron's messages do not carry it.
const W = Number(process.argv[2] ?? 100);
const H = Number(process.argv[3] ?? W);
const DIRS = [
  ['x+', 1, 0],
  ['x-', -1, 0],
  ['y+', 0, 1],
  ['y-', 0, -1],
];
createInterface({ input: process.stdin }).on('line', (line) => {
  const m = JSON.parse(line);
  if (m.action === 'init') return process.stdout.write('{"name":"bench"}\n');
  const taken = new Uint8Array(W * H);
  for (const trail of m.board) for (const [x, y] of trail) taken[y * W + x] = 1;
  const [hx, hy] = m.board[m['player-index']][0];
  let best = 'x+';
  let run = -1;
  for (const [name, dx, dy] of DIRS) {
    let n = 0;
    for (let x = hx + dx, y = hy + dy; x >= 0 && y >= 0 && x < W && y < H && !taken[y * W + x]; x += dx, y += dy) n++;
    if (n > run) [best, run] = [name, n];
  }
  process.stdout.write(`{"play":"${best}"}\n`);
});
