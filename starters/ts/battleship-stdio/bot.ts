// Generated from starters/src/ts/games/battleship/bot.ts + ts/shims/json-stdio.txt by npm run generate:starters: edit those, not this file.
// A Battleship starter bot in TypeScript, with Botarena's SDK (`botarena/sdk`).
// It places a valid fleet for the ship counts the init message asks for, then never fires at the same
// cell twice: it shoots next to its hits that are not sunk yet, else on a checkerboard, else anywhere new.
// Run it (stdio): botarena play battleship "stdio:node_modules/.bin/tsx bot.ts" random
// Rules and every message: docs/games/battleship.md in the botarena package.
import { pathToFileURL } from 'node:url';
import { serveStdio, type BattleshipAnswer, type BattleshipInit, type BattleshipInitAnswer, type BattleshipMessage, type BattleshipTurn } from 'botarena/sdk';

/** A ship on the wire: its two end cells, "x1,y1-x2,y2" (both included, same row or same column). */
export type Ship = BattleshipInitAnswer['boats'][number];
/** A cell on the wire: "x,y". */
export type Target = BattleshipAnswer['play'];
/** The match settings sent in every message; the numbers come as JSON strings ("10"). */
export type Settings = BattleshipInit['board'];

/**
 * Debug output goes to STDERR: stdout is the wire (each line there is read as an answer), while stderr
 * shows up in the arena's log (`botarena play … --log`).
 */
function debug(text: string): void {
  process.stderr.write(`[battleship-bot] ${text}\n`);
}

/** The lengths of the ships to place, longest first: `shipN` ships of length N. */
export function shipLengths(board: Settings): number[] {
  const counts = [board.ship1, board.ship2, board.ship3, board.ship4, board.ship5, board.ship6].map(Number);
  const lengths: number[] = [];
  for (let len = 6; len >= 1; len--) for (let k = 0; k < (counts[len - 1] ?? 0); k++) lengths.push(len);
  return lengths;
}

/**
 * Places the fleet: each ship, longest first, at the first free spot from a random cell, across or down.
 * Ships may touch; they may not overlap or leave the grid. After 20 unlucky tries it packs the ships from
 * the corner, which always fits the configurations the arena accepts in practice.
 */
export function placeFleet(board: Settings, random: () => number = Math.random): Ship[] {
  // ==== your fleet placement goes here ====
  for (let attempt = 0; attempt < 20; attempt++) {
    const fleet = tryFleet(board, random);
    if (fleet) return fleet;
  }
  const fleet = tryFleet(board, () => 0);
  if (!fleet) throw new Error('cannot fit the fleet: change placeFleet');
  return fleet;
}

/** One try at placing every ship, the scan starting at cells drawn with `random`; undefined when one does not fit. */
function tryFleet(board: Settings, random: () => number): Ship[] | undefined {
  const width = Number(board.width);
  const height = Number(board.height);
  const used = new Set<string>();
  const boats: Ship[] = [];
  for (const len of shipLengths(board)) {
    const start = Math.floor(random() * width * height);
    const acrossFirst = random() < 0.5;
    let placed = false;
    for (let k = 0; k < width * height && !placed; k++) {
      const cell = (start + k) % (width * height);
      const [x, y] = [cell % width, Math.floor(cell / width)];
      for (const down of acrossFirst ? [false, true] : [true, false]) {
        const fits = down ? y + len <= height : x + len <= width;
        const cells = Array.from({ length: len }, (_, i) => (down ? `${x},${y + i}` : `${x + i},${y}`));
        if (!fits || cells.some((c) => used.has(c))) continue;
        for (const c of cells) used.add(c);
        boats.push(`${x},${y}-${down ? x : x + len - 1},${down ? y + len - 1 : y}`);
        placed = true;
        break;
      }
    }
    if (!placed) return undefined;
  }
  return boats;
}

/** Chooses the shot for one play-turn message: always a cell of the grid not fired at before. */
export function chooseShot(m: BattleshipTurn): BattleshipAnswer {
  const width = Number(m.board.width);
  const height = Number(m.board.height);
  const fired = new Set(m.board.your_strikes.map((s) => s.target));
  const fresh = (x: number, y: number) => x >= 0 && y >= 0 && x < width && y < height && !fired.has(`${x},${y}`);
  // ==== your strategy goes here ====
  // `m.board.your_strikes` lists your shots and their results ("", "hit", "hit and sunk"), oldest first.
  // Target mode: a new cell next to a hit (its ship may be afloat still).
  for (const s of m.board.your_strikes) {
    if (s.result !== 'hit') continue;
    const [x, y] = s.target.split(',').map(Number) as [number, number];
    for (const [dx, dy] of [[1, 0], [-1, 0], [0, 1], [0, -1]] as const) {
      if (fresh(x + dx, y + dy)) return { play: `${x + dx},${y + dy}` };
    }
  }
  // Hunt mode: every ship of length 2 or more covers a cell of the checkerboard, so try those first.
  for (const parity of [0, 1]) {
    for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) if ((x + y) % 2 === parity && fresh(x, y)) return { play: `${x},${y}` };
  }
  debug('every cell has been fired at: repeating a shot');
  return { play: '0,0' };
}

/** Answers one message: the init (your fleet: a bad one loses the game), or a turn (a shot). */
export function handle(m: BattleshipMessage): BattleshipInitAnswer | BattleshipAnswer {
  if (m.action === 'init') {
    const boats = placeFleet(m.board);
    debug(`fleet on ${m.board.width}×${m.board.height}: ${boats.join(' ')}`);
    return { name: 'ts-starter', boats };
  }
  return chooseShot(m);
}

// ==== the message loop ====
// Started only when this file is run, not when a test imports it.
if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await serveStdio(handle); // one JSON message per stdin line, one JSON answer per stdout line
}
