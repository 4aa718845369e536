#!/usr/bin/env node
// A Smart-dog starter bot for Botarena over <%over%>, in plain Node (standard library only).
// Each turn every dog goes for the nearest stray sheep it sees and pushes it toward our pen from
// behind (barking when in place, but never near sheep already penned); then it ends its turn.
// Run: <%run-line%>

/**
 * The `start` line (first turn only): `start "you":1,"rows":12,…`.
 * @typedef {object} Start
 * @property {number} you        your player number (1–4)
 * @property {number} rows       board size (the board is a torus: it wraps at every edge)
 * @property {number} cols
 * @property {number} players
 * @property {number} x1         your territory: x1..x2, y1..y2, bounds included
 * @property {number} x2
 * @property {number} y1
 * @property {number} y2
 * @property {number} dogVisibilityR
 * @property {number} dogBarkingR
 * @property {number} turnsLimit
 */
/**
 * An `obj` line: a dog, a sheep, or (only `voice`, `x`, `y`) an unseen dog that barked last turn.
 * @typedef {object} Obj
 * @property {number} [id]                  dogs only
 * @property {'Dog' | 'Sheep'} [type]
 * @property {number} x                     column, 0 on the left
 * @property {number} y                     row, 0 at the TOP (`up` is y - 1)
 * @property {number} [owner]               dogs only: the owner's player number
 * @property {string} [action]              dogs: move | panic | indignant; sheep: panic | move | standBy
 * @property {string} [direction]           sheep only: heading or flight direction
 * @property {'barking'} [voice]
 */
/**
 * Everything the bot knows, updated line by line.
 * @typedef {object} Game
 * @property {Start | null} start
 * @property {string[]} land     landscape rows from y = 0: `.` grass, `#` fence, `^` tree, `1`–`4` pens
 * @property {number} turn
 * @property {Obj[]} objs        this turn's view
 */

export const NAME = 'node-starter';

/**
 * Splits a server line into its command and its argument: `ARG` is JSON without its outer `{}`
 * (or `[]` for `landscape`), so it is wrapped back before parsing.
 * @param {string} line
 * @returns {{command: string, data: any}}
 */
export function parseLine(line) {
  const text = line.replace(/\r$/, '');
  const space = text.indexOf(' ');
  const command = space < 0 ? text : text.slice(0, space);
  const rest = space < 0 ? '' : text.slice(space + 1).trim();
  if (!rest) return { command, data: null };
  if (command === 'landscape') return { command, data: JSON.parse(`[${rest}]`) };
  if (['start', 'state', 'obj', 'finished'].includes(command)) return { command, data: JSON.parse(`{${rest}}`) };
  return { command, data: rest };
}

/** @returns {Game} */
export function newGame() {
  return { start: null, land: [], turn: 0, objs: [] };
}

const wrap = (v, n) => ((v % n) + n) % n;
/** The shorter signed way from a to b on a ring of n cells. */
const delta = (a, b, n) => {
  const d = wrap(b - a, n);
  return d > n / 2 ? d - n : d;
};
export const STEPS = { up: [0, -1], down: [0, 1], left: [-1, 0], right: [1, 0] };

/**
 * The commands for this turn: `do ID move DIR` / `do ID bark` lines, always ending with `end`.
 * @param {Game} game
 * @returns {string[]}
 */
export function chooseCommands(game) {
  const { start, land, objs } = game;
  const { rows, cols, you } = start;
  const pen = String(you);
  const dist = (a, b) => Math.abs(delta(a.x, b.x, cols)) + Math.abs(delta(a.y, b.y, rows));
  const free = (x, y) => land[y][x] !== '#' && land[y][x] !== '^' && !objs.some((o) => o.type && o.x === x && o.y === y);
  // One cell of our pen, to push sheep toward.
  let home = { x: start.x1, y: start.y1 };
  for (let y = start.y1; y <= start.y2; y++) for (let x = start.x1; x <= start.x2; x++) if (land[y]?.[x] === pen) home = { x, y };
  const dogs = objs.filter((o) => o.type === 'Dog' && o.owner === you);
  const strays = objs.filter((o) => o.type === 'Sheep' && land[o.y][o.x] !== pen);
  const penned = objs.filter((o) => o.type === 'Sheep' && land[o.y][o.x] === pen);
  const lines = [];
  // ---- YOUR STRATEGY GOES HERE ----------------------------------------------------------------
  for (const dog of dogs) {
    if (dog.action === 'panic') continue; // a panicking dog can neither move nor bark
    const sheep = [...strays].sort((a, b) => dist(dog, a) - dist(dog, b))[0];
    // The cell behind the sheep, seen from the pen: bark from there to push it one cell toward the pen.
    const target = sheep
      ? { x: wrap(sheep.x - Math.sign(delta(sheep.x, home.x, cols)), cols), y: wrap(sheep.y - Math.sign(delta(sheep.y, home.y, rows)), rows) }
      : home;
    if (sheep && dog.x === target.x && dog.y === target.y) {
      const r = start.dogBarkingR;
      const nearPenned = penned.some((o) => delta(dog.x, o.x, cols) ** 2 + delta(dog.y, o.y, rows) ** 2 <= r * r);
      if (!nearPenned && dog.action !== 'indignant') lines.push(`do ${dog.id} bark`);
      continue;
    }
    // Otherwise step to the free neighbour closest to the target (if it gets closer).
    let best = null;
    for (const [way, [dx, dy]] of Object.entries(STEPS)) {
      const next = { x: wrap(dog.x + dx, cols), y: wrap(dog.y + dy, rows) };
      if (free(next.x, next.y) && (!best || dist(next, target) < best.d)) best = { way, d: dist(next, target) };
    }
    if (best && best.d < dist(dog, target)) lines.push(`do ${dog.id} move ${best.way}`);
  }
  lines.push('end');
  return lines;
}

/**
 * Feeds one server line into `game`; returns the lines to send back (only after `turn`).
 * @param {Game} game
 * @param {string} line
 * @returns {string[]}
 */
export function onLine(game, line) {
  if (!line.trim()) return [];
  const { command, data } = parseLine(line);
  switch (command) {
    case 'start':
      game.start = data;
      console.error(`start: player ${data.you} of ${data.players}, board ${data.cols}×${data.rows}`); // stderr: the log
      return [];
    case 'landscape':
      game.land = data;
      return [];
    case 'state':
      game.turn = data.turn;
      game.objs = [];
      return [];
    case 'obj':
      game.objs.push(data);
      return [];
    case 'turn':
      return chooseCommands(game);
    case 'finished':
      console.error(data.youWin ? 'finished: we won' : `finished: we lost (winner: ${data.winner ?? 'nobody'})`);
      return [];
    default: // wait, warning, error: worth reading in the log
      console.error(line);
      return [];
  }
}
