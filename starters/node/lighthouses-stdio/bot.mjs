#!/usr/bin/env node
// Generated from starters/src/node/games/lighthouses/bot.mjs + node/shims/json-stdio.txt by npm run generate:starters: edit those, not this file.
// A Lighthouses starter bot for Botarena over stdio, in plain Node (standard library only).
// It walks to the nearest lighthouse it does not own and captures it when it has the energy; on its own
// lighthouse it links to another of its lighthouses whose key it holds, when the rules allow the link.
// Run: node bot.mjs   (the arena runs it: stdio:node bot.mjs)
import { createInterface } from 'node:readline';
import { pathToFileURL } from 'node:url';

/** @typedef {[number, number]} Point  `[x, y]`, y grows UPWARDS, (0, 0) is the bottom-left corner */
/**
 * Sent once, before round 1. Answer with your name within 2 s.
 * @typedef {object} InitMessage
 * @property {number} player_num     Your seat, 0 to player_count-1; lighthouse owners use the same numbers.
 * @property {number} player_count   How many bots play.
 * @property {Point} position        Your starting cell.
 * @property {number[][]} map        The island, map[y][x]: 1 for island, 0 for water; row 0 is the bottom.
 *   Every row has the same length, and the border is water.
 * @property {Point[]} lighthouses   Every lighthouse's cell, in scan order (y ascending, then x). Turn
 *   messages list the lighthouses in this same order.
 */
/**
 * A lighthouse, as seen in a turn state.
 * @typedef {object} Lighthouse
 * @property {Point} position
 * @property {number | null} owner   the owner's player number; -1 (or null) when neutral
 * @property {number} energy
 * @property {Point[]} connections   the lighthouses it is linked to
 * @property {boolean} have_key      whether you hold its key
 */
/**
 * Sent each round on your turn. Answer with one command within 500 ms.
 * @typedef {object} StateMessage
 * @property {Point} position        Where you stand.
 * @property {number} score          Your score so far.
 * @property {number} energy         The energy you carry.
 * @property {number[][]} view       The 7×7 cells around you, view[dy+3][dx+3] for dx and dy from -3 to 3:
 *   each island cell's energy (0 to 100), 0 for water or off the map, and -1 for the corners farther than 3
 *   cells away.
 * @property {Lighthouse[]} lighthouses Every lighthouse, in the order of the init message.
 */
/**
 * Sent right after each command. Do NOT answer it.
 * @typedef {{success: boolean, message?: string}} ResultMessage
 */
/** @typedef {InitMessage | StateMessage | ResultMessage} Message */
/**
 * @typedef {{command: 'pass'} | {command: 'move', x: number, y: number} | {command: 'attack', energy: number}
 *   | {command: 'connect', destination: Point}} Command
 */

export const NAME = 'node-starter';

/** What the bot remembers from `init`: its number and the island. */
export const memory = { me: 0, island: /** @type {number[][]} */ ([]) };

const same = (a, b) => a[0] === b[0] && a[1] === b[1];
const cross = (o, a, b) => (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0]);

/** Whether segments p–q and r–s cross at a point inside both (touching ends or overlapping lines do not). */
export function crosses(p, q, r, s) {
  return cross(p, q, r) * cross(p, q, s) < 0 && cross(r, s, p) * cross(r, s, q) < 0;
}

/** Whether the rules allow linking the lighthouse `from` (where I stand) to `to`. */
export function canConnect(state, me, from, to) {
  if (same(from.position, to.position) || from.owner !== me || to.owner !== me || !to.have_key) return false;
  if (from.connections.some((c) => same(c, to.position))) return false;
  const [a, b] = [from.position, to.position];
  // No other lighthouse exactly on the segment.
  for (const other of state.lighthouses) {
    const p = other.position;
    if (same(p, a) || same(p, b) || cross(a, b, p) !== 0) continue;
    if (Math.min(a[0], b[0]) <= p[0] && p[0] <= Math.max(a[0], b[0]) && Math.min(a[1], b[1]) <= p[1] && p[1] <= Math.max(a[1], b[1])) return false;
  }
  // No crossing with any existing connection (each is listed at both of its ends).
  for (const l of state.lighthouses) for (const c of l.connections) if (crosses(a, b, l.position, c)) return false;
  return true;
}

/** Whether (x, y) is an island cell. */
export function isIsland(island, x, y) {
  return island[y]?.[x] === 1;
}

/**
 * The step toward `target` that lands on the island: straight if possible, else the island
 * neighbour closest to it. Always an island cell (or 0, 0 when boxed in, which is allowed).
 * @returns {Command}
 */
export function stepToward(island, [x, y], [tx, ty]) {
  let best = { command: 'move', x: 0, y: 0 };
  let bestDist = Infinity;
  for (let dx = -1; dx <= 1; dx++) {
    for (let dy = -1; dy <= 1; dy++) {
      if ((dx || dy) && isIsland(island, x + dx, y + dy)) {
        const dist = Math.max(Math.abs(tx - x - dx), Math.abs(ty - y - dy)) * 10 + Math.abs(tx - x - dx) + Math.abs(ty - y - dy);
        if (dist < bestDist) [best, bestDist] = [{ command: 'move', x: dx, y: dy }, dist];
      }
    }
  }
  return best;
}

/**
 * Chooses this turn's command.
 * @param {StateMessage} state
 * @param {number} me           my player number
 * @param {number[][]} island   map[y][x] from `init`
 * @returns {Command}
 */
export function chooseCommand(state, me, island) {
  const [x, y] = state.position;
  const here = state.lighthouses.find((l) => same(l.position, state.position));
  const neutral = (l) => l.owner === -1 || l.owner === null;
  // ---- YOUR STRATEGY GOES HERE ----------------------------------------------------------------
  if (here && here.owner !== me && state.energy > 0 && (neutral(here) || state.energy > here.energy)) {
    return { command: 'attack', energy: state.energy }; // capture it (an enemy's needs more than its energy)
  }
  if (here && here.owner === me) {
    const partner = state.lighthouses.find((l) => canConnect(state, me, here, l));
    if (partner) return { command: 'connect', destination: partner.position };
  }
  const targets = state.lighthouses.filter((l) => l.owner !== me && !same(l.position, state.position));
  if (targets.length === 0) return { command: 'pass' };
  const far = (l) => Math.max(Math.abs(l.position[0] - x), Math.abs(l.position[1] - y));
  const target = targets.reduce((a, b) => (far(b) < far(a) ? b : a));
  return stepToward(island, state.position, target.position);
}

/**
 * The answer to any message: the name at `init`, a command for a state, and NOTHING (undefined)
 * for the `{"success":…}` result line that follows each command.
 * @param {Message} message
 * @returns {{name: string} | Command | undefined}
 */
export function answer(message) {
  if ('success' in message) {
    // stderr: the arena's log, not the wire (the contest asked for a [BotName] prefix)
    if (!message.success) console.error(`[${NAME}] command failed: ${message.message}`);
    return undefined;
  }
  if ('player_num' in message) {
    memory.me = message.player_num;
    memory.island = message.map;
    console.error(`[${NAME}] player ${message.player_num} of ${message.player_count}, at ${message.position}`);
    return { name: NAME };
  }
  return chooseCommand(message, memory.me, memory.island);
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
