// A minimal stdio lighthouses bot for the benchmark: greets, then steps to a random island neighbour
// each turn and reads the result line. Its own work is tiny next to the messages.
import { createInterface } from 'node:readline';

let map = null;
let expectResult = false;
createInterface({ input: process.stdin }).on('line', (line) => {
  const m = JSON.parse(line);
  if (m.map) {
    map = m.map;
    return process.stdout.write('{"name":"bench"}\n');
  }
  if (expectResult) {
    expectResult = false;
    return;
  }
  expectResult = true;
  const [x, y] = m.position;
  const steps = [
    [-1, -1],
    [-1, 0],
    [-1, 1],
    [0, -1],
    [0, 1],
    [1, -1],
    [1, 0],
    [1, 1],
  ].filter(([dx, dy]) => map[y + dy][x + dx]);
  const [dx, dy] = steps[Math.floor(Math.random() * steps.length)];
  process.stdout.write(`{"command":"move","x":${dx},"y":${dy}}\n`);
});
