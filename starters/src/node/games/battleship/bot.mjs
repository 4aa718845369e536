#!/usr/bin/env node
// A Battleship starter bot for Botarena over <%over%>, in plain Node (standard library only).
// It hides its fleet at random (always a valid fleet for the message's ship counts and grid size), then
// shoots around its hits that have not sunk a ship yet, else at unshot cells of a checkerboard.
// Run: <%run-line%>

/**
 * The match settings. Numbers come as JSON STRINGS, as on botsarena ("10", "2").
 * @typedef {object} Settings
 * @property {string} opponent   the other seat's display name
 * @property {string} width      grid width, e.g. "10"
 * @property {string} height     grid height
 * @property {string} ship1      how many ships of length 1 to place … up to ship6
 * @property {string} ship2
 * @property {string} ship3
 * @property {string} ship4
 * @property {string} ship5
 * @property {string} ship6
 */
/**
 * One shot fired: `target` is "x,y"; `result` is "" (miss), "hit" or "hit and sunk".
 * @typedef {{target: string, result: '' | 'hit' | 'hit and sunk'}} Strike
 */
/**
 * Sent once; its answer is your fleet (a bad fleet loses the game).
 * @typedef {object} InitMessage
 * @property {number} game-id       the match id, a number (opaque)
 * @property {'battleship'} game
 * @property {'init'} action
 * @property {number} players       always 2
 * @property {number} player-index  <%doc:init.player-index%>
 * @property {Settings} board
 */
/**
 * Sent each time it is your turn to shoot. (`game` is "Battleship" with a capital B here.)
 * @typedef {object} PlayTurnMessage
 * @property {'Battleship'} game <%doc:turn.game%>
 * @property {number} game-id <%doc:turn.game-id%>
 * @property {'play-turn'} action
 * @property {number} player-index <%doc:turn.player-index%>
 * @property {Settings & {your_strikes: Strike[], his_strikes: Strike[]}} board
 */
/** @typedef {InitMessage | PlayTurnMessage} Message */
/** @typedef {{name: string, boats: string[]}} InitAnswer  ships as "x1,y1-x2,y2" (both ends included) */
/** @typedef {{play: string}} PlayAnswer  the cell to shoot, "x,y" */

export const NAME = 'node-starter';

/** The grid size and the lengths of the ships to place, longest first, from the settings. */
export function readSettings(settings) {
  const lengths = [];
  for (let n = 6; n >= 1; n--) for (let k = 0; k < Number(settings[`ship${n}`] ?? 0); k++) lengths.push(n);
  return { width: Number(settings.width), height: Number(settings.height), lengths };
}

/** Tries to put every ship on the grid without overlaps; returns the ships, or null if one did not fit. */
function tryFleet(width, height, lengths, random) {
  const used = new Set();
  const boats = [];
  for (const length of lengths) {
    // Every place the ship fits, then pick one (at random, or the first when `random` is false).
    const places = [];
    for (const [dx, dy] of [[1, 0], [0, 1]]) {
      for (let x = 0; x + dx * (length - 1) < width; x++) {
        for (let y = 0; y + dy * (length - 1) < height; y++) {
          const cells = Array.from({ length }, (_, k) => `${x + dx * k},${y + dy * k}`);
          if (cells.every((cell) => !used.has(cell))) places.push(cells);
        }
      }
    }
    if (places.length === 0) return null;
    const cells = random ? places[Math.floor(Math.random() * places.length)] : places[0];
    cells.forEach((cell) => used.add(cell));
    boats.push(`${cells[0]}-${cells[cells.length - 1]}`);
  }
  return boats;
}

/**
 * A valid fleet for these settings: the exact number of ships of each length, on the grid, no overlaps.
 * @param {Settings} settings
 * @returns {string[]}
 */
export function placeFleet(settings) {
  const { width, height, lengths } = readSettings(settings);
  // ---- YOUR FLEET PLACEMENT GOES HERE ---------------------------------------------------------
  for (let attempt = 0; attempt < 200; attempt++) {
    const boats = tryFleet(width, height, lengths, true);
    if (boats) return boats;
  }
  return tryFleet(width, height, lengths, false) ?? []; // packed from the corner: the last resort
}

/**
 * Chooses the cell to shoot: never one shot before (while any is left).
 * @param {PlayTurnMessage} message
 * @returns {string}
 */
export function chooseShot(message) {
  const { width, height } = readSettings(message.board);
  const strikes = message.board.your_strikes;
  const fired = new Set(strikes.map((strike) => strike.target));
  const fresh = (x, y) => x >= 0 && y >= 0 && x < width && y < height && !fired.has(`${x},${y}`);
  // ---- YOUR STRATEGY GOES HERE ----------------------------------------------------------------
  // Target: the unshot neighbours of the hits since the last sunk ship (a simple, forgetful hunter).
  const lastSunk = strikes.map((strike) => strike.result).lastIndexOf('hit and sunk');
  for (const strike of strikes.slice(lastSunk + 1)) {
    if (strike.result !== 'hit') continue;
    const [x, y] = strike.target.split(',').map(Number);
    for (const [dx, dy] of [[1, 0], [-1, 0], [0, 1], [0, -1]]) if (fresh(x + dx, y + dy)) return `${x + dx},${y + dy}`;
  }
  // Hunt: a random unshot cell, preferring a checkerboard (every ship of length 2+ covers one).
  const cells = [];
  for (let x = 0; x < width; x++) for (let y = 0; y < height; y++) if (fresh(x, y)) cells.push([x, y]);
  const checker = cells.filter(([x, y]) => (x + y) % 2 === 0);
  const pool = checker.length ? checker : cells;
  if (pool.length === 0) return '0,0'; // every cell shot already: cannot happen before the game ends
  const [x, y] = pool[Math.floor(Math.random() * pool.length)];
  return `${x},${y}`;
}

/**
 * The answer to any message: the fleet at `init`, a shot at `play-turn`.
 * @param {Message} message
 * @returns {InitAnswer | PlayAnswer}
 */
export function answer(message) {
  if (message.action === 'init') {
    const boats = placeFleet(message.board);
    console.error(`init: slot ${message['player-index']}, fleet ${boats.join(' ')}`); // stderr: the log, not the wire
    return { name: NAME, boats };
  }
  return { play: chooseShot(message) };
}
