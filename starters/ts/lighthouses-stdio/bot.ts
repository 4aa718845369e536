// Generated from starters/src/ts/games/lighthouses/bot.ts + ts/shims/json-stdio.txt by npm run generate:starters: edit those, not this file.
// A lighthouses starter bot in TypeScript, with Botarena's SDK (`botarena/sdk`).
// It walks (along the island, the shortest way) to the nearest lighthouse it does not own, captures it when
// it has clearly more energy than the lighthouse, links it to the others it owns when the rules allow,
// and moves on. The result line after each command gets no answer.
// Run it (stdio): botarena play lighthouses "stdio:node_modules/.bin/tsx bot.ts" random
// Rules and every message: docs/games/lighthouses.md in the botarena package.
import { pathToFileURL } from 'node:url';
import {
  SILENT,
  serveStdio,
  type LighthousesAnswer,
  type LighthousesInit,
  type LighthousesInitAnswer,
  type LighthousesMessage,
  type LighthousesResult,
  type LighthousesTurn,
} from 'botarena/sdk';

/** What the bot remembers from the init message. */
export interface Memory {
  /** my player number: the `owner` of my lighthouses */
  me: number;
  /** `island[y][x]`: 1 island, 0 water; y grows UPWARDS (row 0 is the bottom) */
  island: number[][];
}

/** The 8 steps, as the `x`/`y` of a move command (y + 1 is up). */
const STEPS = [[1, 0], [-1, 0], [0, 1], [0, -1], [1, 1], [1, -1], [-1, 1], [-1, -1]] as const;

/**
 * Debug output goes to STDERR: stdout is the wire (each line there is read as an answer), while stderr
 * shows up in the arena's log (`botarena play … --log`).
 */
function debug(text: string): void {
  process.stderr.write(`[lighthouses-bot] ${text}\n`);
}

/** Reads the init message. */
export function remember(m: LighthousesInit): Memory {
  return { me: m.player_num, island: m.map };
}

/** A step of a move command: x and y each -1, 0 or 1. */
export type Step = readonly [-1 | 0 | 1, -1 | 0 | 1];

/**
 * The first step of a shortest walk over island cells from `from` to the nearest of `targets`
 * (breadth-first search), or undefined when none can be reached.
 */
export function stepToward(island: number[][], from: [number, number], targets: [number, number][]): Step | undefined {
  const goal = new Set(targets.map(([x, y]) => `${x},${y}`));
  const firstStep = new Map<string, Step>(); // for each cell reached: the step from `from` that leads to it
  const seen = new Set([`${from[0]},${from[1]}`]);
  let frontier: [number, number][] = [from];
  while (frontier.length > 0) {
    const next: [number, number][] = [];
    for (const [x, y] of frontier) {
      for (const step of STEPS) {
        const [nx, ny] = [x + step[0], y + step[1]];
        const key = `${nx},${ny}`;
        if (island[ny]?.[nx] !== 1 || seen.has(key)) continue;
        const first = firstStep.get(`${x},${y}`) ?? step;
        if (goal.has(key)) return first;
        seen.add(key);
        firstStep.set(key, first);
        next.push([nx, ny]);
      }
    }
    frontier = next;
  }
  return undefined;
}

/** Twice the signed area of the triangle a, b, c: > 0 when c is left of a→b, 0 when the three are on a line. */
function orient(a: [number, number], b: [number, number], c: [number, number]): number {
  return (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0]);
}

/**
 * Whether the rules accept connecting the lighthouse at `from` to the one at `to` (see "Connect" in the
 * game's page): both mine, the key of `to` held, not linked yet, no lighthouse on the segment, and the
 * segment crosses no connection (touching at an end or running along it is allowed).
 */
export function canConnect(me: number, m: LighthousesTurn, from: [number, number], to: [number, number]): boolean {
  const same = (p: [number, number], q: [number, number]) => p[0] === q[0] && p[1] === q[1];
  const a = m.lighthouses.find((l) => same(l.position, from));
  const b = m.lighthouses.find((l) => same(l.position, to));
  if (!a || !b || a === b || a.owner !== me || b.owner !== me || !b.have_key) return false;
  if (a.connections.some((c) => same(c, to))) return false;
  const between = (p: [number, number]) =>
    orient(from, to, p) === 0 && p[0] >= Math.min(from[0], to[0]) && p[0] <= Math.max(from[0], to[0]) && p[1] >= Math.min(from[1], to[1]) && p[1] <= Math.max(from[1], to[1]);
  if (m.lighthouses.some((l) => l !== a && l !== b && between(l.position))) return false;
  for (const l of m.lighthouses) {
    for (const c of l.connections) {
      if (orient(from, to, l.position) * orient(from, to, c) < 0 && orient(l.position, c, from) * orient(l.position, c, to) < 0) return false;
    }
  }
  return true;
}

/** Chooses the command for one turn state. Every command here is one the rules accept. */
export function chooseCommand(memory: Memory, m: LighthousesTurn): LighthousesAnswer {
  const [x, y] = m.position;
  const here = m.lighthouses.find((l) => l.position[0] === x && l.position[1] === y);
  // ==== your strategy goes here ====
  // `m.lighthouses` (owner -1 or null when neutral, energy, connections, have_key), `m.energy`, `m.view`.
  // A command the rules refuse is a pass, with an illegal-move fault in the results: `canConnect` checks
  // a connect first. Three connections make a triangle, which scores every island cell inside it.
  if (here && here.owner === memory.me) {
    const link = m.lighthouses.find((l) => canConnect(memory.me, m, here.position, l.position));
    if (link) return { command: 'connect', destination: link.position }; // links score, triangles score more
  }
  // Capture with a margin: a lighthouse loses 10 energy a round, and turns neutral at 0.
  if (here && here.owner !== memory.me && m.energy > here.energy + 30) {
    return { command: 'attack', energy: m.energy }; // takes it: our energy beats its energy
  }
  if (here && here.owner === memory.me && here.energy < 50 && m.energy >= 50) {
    return { command: 'attack', energy: m.energy }; // recharges ours before it decays to neutral
  }
  const notMine = m.lighthouses.filter((l) => l.owner !== memory.me && l !== here).map((l) => l.position);
  const targets = notMine.length > 0 ? notMine : m.lighthouses.filter((l) => l !== here).map((l) => l.position);
  const step = stepToward(memory.island, m.position, targets);
  if (step) return { command: 'move', x: step[0], y: step[1] };
  // Nowhere to go: step onto any neighbouring island cell (walking collects energy), or pass.
  const any = STEPS.find(([dx, dy]) => memory.island[y + dy]?.[x + dx] === 1);
  return any ? { command: 'move', x: any[0], y: any[1] } : { command: 'pass' };
}

let memory: Memory = { me: 0, island: [] };

/** Answers one line: the init (your name), a turn state (a command), or the result of a command (no answer: SILENT). */
export function handle(m: LighthousesMessage | LighthousesResult): LighthousesInitAnswer | LighthousesAnswer | typeof SILENT {
  if ('success' in m) {
    if (!m.success) debug(`command refused: ${m.message}`);
    return SILENT; // never answer a result line: the arena would read it as the next turn's command
  }
  if ('map' in m) {
    memory = remember(m);
    debug(`hello: player ${m.player_num} of ${m.player_count}, start ${m.position.join(',')}, ${m.lighthouses.length} lighthouses`);
    return { name: 'ts-starter' };
  }
  return chooseCommand(memory, m);
}

// ==== the message loop ====
// Started only when this file is run, not when a test imports it.
if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await serveStdio(handle); // one JSON message per stdin line, one JSON answer per stdout line
}
