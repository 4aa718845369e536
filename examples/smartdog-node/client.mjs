#!/usr/bin/env node
// A smart-dog starter client in plain Node: connects to the server, joins a hub, and each turn sends its
// dogs after the nearest stray sheep it sees, barking from behind to push it toward its own pen.
// Usage: node client.mjs [--host 127.0.0.1] [--port 3002] [--name starter] [--hub duet]
import { createConnection } from 'node:net';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';

const { values: opt } = parseArgs({
  options: {
    host: { type: 'string', default: '127.0.0.1' },
    port: { type: 'string', default: '3002' },
    name: { type: 'string', default: 'starter' },
    hub: { type: 'string', default: 'duet' },
  },
});

const socket = createConnection(Number(opt.port), opt.host);
socket.setNoDelay(true); // many short lines a turn: send each at once
const send = (line) => socket.write(`${line}\n`);
/** The server's argument is JSON without its outer braces or brackets. */
const arg = (line, cmd, open = '{', close = '}') => JSON.parse(`${open}${line.slice(line.indexOf(' ') + (cmd === 'state' || cmd === 'obj' ? 2 : 1))}${close}`);

let game = null; // the start line: you, rows, cols, x1..y2 (your territory)
let land = []; // the landscape rows: . grass, # fence, ^ tree, 1-4 pens
let objs = [];
const wrap = (v, n) => ((v % n) + n) % n;
/** The shorter way from a to b on the torus. */
const delta = (a, b, n) => {
  const d = wrap(b - a, n);
  return d > n / 2 ? d - n : d;
};
const myPen = () => {
  for (let y = 0; y < game.rows; y++) for (let x = 0; x < game.cols; x++) if (land[y][x] === String(game.you)) return [x, y];
  return [game.x1, game.y1];
};

const STEPS = { up: [0, -1], down: [0, 1], left: [-1, 0], right: [1, 0] };
/** The step toward (tx, ty) that gets closest on the torus onto a free cell (no fence, tree, dog or sheep). */
function step(dog, tx, ty) {
  const far = (x, y) => Math.abs(delta(x, tx, game.cols)) + Math.abs(delta(y, ty, game.rows));
  let best = null;
  for (const [way, [sx, sy]] of Object.entries(STEPS)) {
    const x = wrap(dog.x + sx, game.cols);
    const y = wrap(dog.y + sy, game.rows);
    const blocked = land[y][x] === '#' || land[y][x] === '^' || objs.some((o) => o.x === x && o.y === y);
    if (!blocked && (!best || far(x, y) < best.d)) best = { way, d: far(x, y) };
  }
  return best && best.d < far(dog.x, dog.y) + 1 ? best.way : null;
}

function play() {
  const [px, py] = myPen();
  const dogs = objs.filter((o) => o.type === 'Dog' && o.owner === game.you);
  const strays = objs.filter((o) => o.type === 'Sheep' && land[o.y][o.x] !== String(game.you));
  for (const dog of dogs) {
    // The sheep nearest to this dog, and the cell behind it (seen from the pen) to push it from.
    const sheep = strays.sort(
      (a, b) =>
        Math.abs(delta(dog.x, a.x, game.cols)) +
        Math.abs(delta(dog.y, a.y, game.rows)) -
        (Math.abs(delta(dog.x, b.x, game.cols)) + Math.abs(delta(dog.y, b.y, game.rows))),
    )[0];
    if (!sheep) continue;
    const bx = wrap(sheep.x - Math.sign(delta(sheep.x, px, game.cols)), game.cols);
    const by = wrap(sheep.y - Math.sign(delta(sheep.y, py, game.rows)), game.rows);
    if (dog.x === bx && dog.y === by) {
      // A bark scares every sheep in range, penned ones too: never bark our own penned sheep out.
      const r = game.dogBarkingR;
      const penned = objs.some(
        (o) => o.type === 'Sheep' && land[o.y][o.x] === String(game.you) && delta(dog.x, o.x, game.cols) ** 2 + delta(dog.y, o.y, game.rows) ** 2 <= r * r,
      );
      if (!penned) send(`do ${dog.id} bark`);
      continue;
    }
    const way = step(dog, bx, by);
    if (way) send(`do ${dog.id} move ${way}`);
  }
  send('end');
}

socket.on('connect', () => send(`join ${opt.name} ${opt.hub}`));
createInterface({ input: socket }).on('line', (line) => {
  const cmd = line.split(' ')[0];
  if (cmd === 'start') game = arg(line, cmd);
  else if (cmd === 'landscape') land = arg(line, cmd, '[', ']');
  else if (cmd === 'state') objs = [];
  else if (cmd === 'obj') objs.push(arg(line, cmd));
  else if (cmd === 'turn') play();
  else if (cmd === 'wait') console.error('waiting for more players…');
  else if (cmd === 'warning' || cmd === 'error') console.error(line);
  else if (cmd === 'finished') {
    const f = arg(line, cmd);
    console.error(f.youWin ? 'we won' : `we lost (winner: ${f.winner ?? 'nobody'})`);
    socket.end();
  }
});
socket.on('error', (err) => {
  console.error(`cannot talk to the server at ${opt.host}:${opt.port}: ${err.message}`);
  process.exit(1);
});
