// Generated from starters/src/ts/games/smartdog/bot.ts + ts/shims/text-stdio.txt by npm run generate:starters: edit those, not this file.
// A smart-dog starter bot in TypeScript. Smart-dog speaks text lines, not JSON, so this bot reads them with
// node:readline and writes `do …` / `end` lines typed with the SDK's `SmartDogCommand`.
// Each turn, each of its dogs walks to the cell behind the nearest sheep that is not in its pen (seen from
// the pen) and barks from there to push the sheep toward the pen, never barking at sheep already penned.
// Run it (stdio): botarena play smartdog "stdio:node_modules/.bin/tsx bot.ts" random
// Rules and every line: docs/games/smartdog.md in the botarena package.
import { createInterface } from 'node:readline';
import { pathToFileURL } from 'node:url';
import type { SmartDogCommand } from 'botarena/sdk';

/** The `start` line: who you are, the board size, your territory, the game options. */
export interface Start {
  you: number;
  rows: number;
  cols: number;
  players: number;
  x1: number;
  x2: number;
  y1: number;
  y2: number;
  turnsLimit: number;
  dogBarkingR: number;
  dogVisibilityR: number;
  [option: string]: number;
}

/** An `obj` line: a dog, a sheep, or the voice of a dog you do not see that barked last turn. */
export type Thing =
  | { type: 'Dog'; id: number; x: number; y: number; owner: number; action: 'move' | 'panic' | 'indignant'; voice?: 'barking' }
  | { type: 'Sheep'; x: number; y: number; action: 'panic' | 'move' | 'standBy'; direction: Direction }
  | { type?: undefined; voice: 'barking'; x: number; y: number };

export type Direction = 'up' | 'down' | 'left' | 'right';

/** What the bot knows: the start line, the landscape (rows from y = 0 at the top), this turn's objects. */
export interface Game {
  start?: Start;
  /** `landscape[y][x]`: '.' grass, '#' fence, '^' tree, '1'..'4' a pen of that player */
  landscape: string[];
  things: Thing[];
}

const STEPS: Record<Direction, [number, number]> = { up: [0, -1], down: [0, 1], left: [-1, 0], right: [1, 0] };

/**
 * Debug output goes to STDERR: stdout is the wire (each line there is read as a command), while stderr
 * shows up in the arena's log (`botarena play … --log`).
 */
function debug(text: string): void {
  process.stderr.write(`[smartdog-bot] ${text}\n`);
}

/** A server line's argument: JSON without its outer braces (or brackets); `state` and `obj` have two spaces. */
function argument(line: string, open: string, close: string): unknown {
  const word = line.split(' ')[0]!;
  return JSON.parse(open + line.slice(word.length).trim() + close);
}

const wrap = (v: number, n: number) => ((v % n) + n) % n;
/** The shorter signed way from a to b on a ring of n cells (the board is a torus). */
const delta = (a: number, b: number, n: number) => {
  const d = wrap(b - a, n);
  return d > n / 2 ? d - n : d;
};

/** The commands for one turn: moves and barks for my dogs, then `end`. */
export function chooseCommands(game: Game): SmartDogCommand[] {
  const start = game.start;
  if (!start) return ['end'];
  const { cols, rows, you } = start;
  const land = (x: number, y: number) => game.landscape[wrap(y, rows)]?.[wrap(x, cols)] ?? '#';
  const myPen = String(you);
  const occupied = new Set(game.things.map((t) => `${t.x},${t.y}`));
  const free = (x: number, y: number) => '#^'.indexOf(land(x, y)) < 0 && !occupied.has(`${wrap(x, cols)},${wrap(y, rows)}`);
  const far = (ax: number, ay: number, bx: number, by: number) => Math.abs(delta(ax, bx, cols)) + Math.abs(delta(ay, by, rows));
  // A cell of my pen: where the sheep should go.
  let pen: [number, number] = [start.x1, start.y1];
  for (let y = start.y1; y <= start.y2; y++) for (let x = start.x1; x <= start.x2; x++) if (land(x, y) === myPen) pen = [x, y];
  const dogs = game.things.filter((t): t is Extract<Thing, { type: 'Dog' }> => t.type === 'Dog' && t.owner === you);
  const sheep = game.things.filter((t): t is Extract<Thing, { type: 'Sheep' }> => t.type === 'Sheep');
  const strays = sheep.filter((s) => land(s.x, s.y) !== myPen);
  const commands: SmartDogCommand[] = [];
  // ==== your strategy goes here ====
  // `game.things` is what your dogs see this turn; `game.landscape` the whole board; `start` your territory.
  // A blocked move gets a warning (not a fault) and the turn goes on; always finish with 'end'.
  for (const dog of dogs) {
    if (dog.action === 'panic') continue; // a panicking dog can neither move nor bark
    const target = strays.sort((a, b) => far(dog.x, dog.y, a.x, a.y) - far(dog.x, dog.y, b.x, b.y))[0];
    if (!target) continue;
    // The cell behind the sheep, seen from the pen: a bark from there sends it toward the pen.
    const bx = wrap(target.x - Math.sign(delta(target.x, pen[0], cols)), cols);
    const by = wrap(target.y - Math.sign(delta(target.y, pen[1], rows)), rows);
    if (dog.x === bx && dog.y === by) {
      const r = start.dogBarkingR;
      const pennedNear = sheep.some((s) => land(s.x, s.y) === myPen && delta(dog.x, s.x, cols) ** 2 + delta(dog.y, s.y, rows) ** 2 <= r * r);
      if (!pennedNear && dog.action === 'move') commands.push(`do ${dog.id} bark`);
      continue;
    }
    // The step that gets closest to the cell behind the sheep, onto a free cell.
    let best: { way: Direction; d: number } | undefined;
    for (const [way, [sx, sy]] of Object.entries(STEPS) as [Direction, [number, number]][]) {
      const [nx, ny] = [dog.x + sx, dog.y + sy];
      if (free(nx, ny) && (!best || far(nx, ny, bx, by) < best.d)) best = { way, d: far(nx, ny, bx, by) };
    }
    if (best) {
      commands.push(`do ${dog.id} move ${best.way}`);
      occupied.delete(`${dog.x},${dog.y}`);
      occupied.add(`${wrap(dog.x + STEPS[best.way][0], cols)},${wrap(dog.y + STEPS[best.way][1], rows)}`);
    }
  }
  commands.push('end');
  return commands;
}

/**
 * Reads one server line into `game`. Returns the commands to send when the line is `turn` (your cue),
 * 'finished' at the end of the game, or nothing.
 */
export function readLine(game: Game, line: string): SmartDogCommand[] | 'finished' | undefined {
  const word = line.split(' ')[0];
  switch (word) {
    case 'start':
      game.start = argument(line, '{', '}') as Start;
      break;
    case 'landscape':
      game.landscape = argument(line, '[', ']') as string[];
      break;
    case 'state':
      game.things = [];
      break;
    case 'obj':
      game.things.push(argument(line, '{', '}') as Thing);
      break;
    case 'turn':
      return chooseCommands(game);
    case 'warning':
    case 'error':
      debug(line); // a refused command: not a fault, the turn goes on
      break;
    case 'finished':
      debug(line);
      return 'finished';
  }
  return undefined;
}

// ==== the message loop ====
// Started only when this file is run, not when a test imports it. One server line per stdin line; the
// commands go to stdout, one per line.
if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const game: Game = { landscape: [], things: [] };
  for await (const line of createInterface({ input: process.stdin })) {
    const answer = readLine(game, line);
    if (answer === 'finished') break;
    if (answer) process.stdout.write(answer.map((c) => `${c}\n`).join(''));
  }
}
