// A fast stdio Tron bot for the benchmark: the original stupid rule on a 100×100 grid of bytes, so the
// bot's own thinking is small next to reading the message.
import { createInterface } from 'node:readline';

const W = 100;
const DIRS = [['x+', 1, 0], ['x-', -1, 0], ['y+', 0, 1], ['y-', 0, -1]];
createInterface({ input: process.stdin }).on('line', (line) => {
  const m = JSON.parse(line);
  if (m.action === 'init') return process.stdout.write('{"name":"bench"}\n');
  const taken = new Uint8Array(W * W);
  for (const trail of m.board) for (const [x, y] of trail) taken[y * W + x] = 1;
  const [hx, hy] = m.board[m['player-index']][0];
  let best = 'x+';
  let run = -1;
  for (const [name, dx, dy] of DIRS) {
    let n = 0;
    for (let x = hx + dx, y = hy + dy; x >= 0 && y >= 0 && x < W && y < W && !taken[y * W + x]; x += dx, y += dy) n++;
    if (n > run) [best, run] = [name, n];
  }
  process.stdout.write(`{"play":"${best}"}\n`);
});
