// Lighthouses' rules alone, against a hand-written loop of the same rules: recorded games (4 `random` bots
// on the largest shipped map) are replayed through the engine (no views, no bots), and through a loop on
// typed arrays that plays the same commands; both must end every game with the same players (place,
// energy, score), lighthouses (owner, energy) and links. The loop borrows only the triangle rasteriser
// from the game (a pure geometry function, called when a link closes a triangle).
import { MatchEngine, type TurnRecord } from '../src/core/engine.js';
import { playBuiltins } from '../src/core/self-play.js';
import { getGame } from '../src/games/index.js';
import { rasterizeTriangle } from '../src/games/lighthouses/geometry.js';
import type { Command, LighthousesState } from '../src/games/lighthouses/rules.js';
import { timePair } from './stats.js';

const CAP = 100;

/** What a game ends with, as compared between the two: per player x, y, energy, score; per lighthouse owner, energy; the links. */
type Ending = { players: number[]; lighthouses: number[]; links: string };

function endingOf(s: LighthousesState): Ending {
  return {
    players: s.players.flatMap((p) => [p.x, p.y, p.energy, p.score]),
    lighthouses: s.lighthouses.flatMap((l) => [l.owner ?? -1, l.energy]),
    links: s.connections.map(([a, b]) => `${a}-${b}`).join(' '),
  };
}

/** The same rules as a plain loop on typed arrays, from the state as set up (round 1 begun). */
function handLoop(start: LighthousesState, steps: TurnRecord[]): Ending {
  const { width: w, height: h, rounds } = start;
  const cells = w * h;
  const island = new Uint8Array(cells);
  const energy = new Int32Array(cells);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      island[y * w + x] = start.island[y]![x]!;
      energy[y * w + x] = start.energy[y]![x]!;
    }
  }
  const L = start.lighthouses.length;
  const lx = Int32Array.from(start.lighthouses, (l) => l.x);
  const ly = Int32Array.from(start.lighthouses, (l) => l.y);
  const owner = Int32Array.from(start.lighthouses, (l) => l.owner ?? -1);
  const lEnergy = Int32Array.from(start.lighthouses, (l) => l.energy);
  const at = new Int32Array(cells).fill(-1);
  for (let i = 0; i < L; i++) at[ly[i]! * w + lx[i]!] = i;
  // Each lighthouse's growth: (cell, amount) pairs within distance 4 on the island.
  const growth = Array.from({ length: L }, (_, i) => {
    const out: number[] = [];
    for (let dy = -4; dy <= 4; dy++) {
      for (let dx = -4; dx <= 4; dx++) {
        const x = lx[i]! + dx;
        const y = ly[i]! + dy;
        const amount = Math.floor(5 - Math.sqrt(dx * dx + dy * dy));
        if (amount > 0 && x >= 0 && y >= 0 && x < w && y < h && island[y * w + x]) out.push(y * w + x, amount);
      }
    }
    return Int32Array.from(out);
  });
  const P = start.players.length;
  const px = Int32Array.from(start.players, (p) => p.x);
  const py = Int32Array.from(start.players, (p) => p.y);
  const pEnergy = Int32Array.from(start.players, (p) => p.energy);
  const score = Int32Array.from(start.players, (p) => p.score);
  const key = new Uint8Array(P * L);
  start.players.forEach((p, s) => p.keys.forEach((k) => (key[s * L + k] = 1)));
  let links: number[] = start.connections.flat(); // pairs, lower index first, in the order made
  let triangles: number[] = start.triangles.flatMap((t) => [...t.v, t.owner, t.cells]); // v0 v1 v2 owner cells
  const onCell = new Int32Array(cells);

  const neutralise = (i: number) => {
    owner[i] = -1;
    lEnergy[i] = 0;
    const keptLinks: number[] = [];
    for (let k = 0; k < links.length; k += 2) if (links[k] !== i && links[k + 1] !== i) keptLinks.push(links[k]!, links[k + 1]!);
    links = keptLinks;
    const keptTriangles: number[] = [];
    for (let k = 0; k < triangles.length; k += 5)
      if (triangles[k] !== i && triangles[k + 1] !== i && triangles[k + 2] !== i) keptTriangles.push(...triangles.slice(k, k + 5));
    triangles = keptTriangles;
  };
  const linked = (a: number, b: number) => {
    for (let k = 0; k < links.length; k += 2) if ((links[k] === a && links[k + 1] === b) || (links[k] === b && links[k + 1] === a)) return true;
    return false;
  };
  const startRound = () => {
    for (let i = 0; i < L; i++) {
      const g = growth[i]!;
      for (let k = 0; k < g.length; k += 2) energy[g[k]!] = Math.min(CAP, energy[g[k]!]! + g[k + 1]!);
    }
    for (let s = 0; s < P; s++) {
      const l = at[py[s]! * w + px[s]!]!;
      if (l >= 0) key[s * L + l] = 1;
    }
    for (let s = 0; s < P; s++) onCell[py[s]! * w + px[s]!] = 0;
    for (let s = 0; s < P; s++) {
      const cell = py[s]! * w + px[s]!;
      onCell[cell] = onCell[cell]! + 1;
    }
    for (let s = 0; s < P; s++) pEnergy[s] = pEnergy[s]! + Math.floor(energy[py[s]! * w + px[s]!]! / onCell[py[s]! * w + px[s]!]!);
    for (let s = 0; s < P; s++) energy[py[s]! * w + px[s]!] = 0;
    for (let i = 0; i < L; i++) {
      lEnergy[i] = lEnergy[i]! - 10;
      if (lEnergy[i]! <= 0) neutralise(i);
    }
  };

  let round = start.round;
  let current = start.current;
  for (const step of steps) {
    if (step.phase !== 'play') continue;
    const m = step.moves[0]!;
    const s = m.slot;
    const c = m.fault ? null : (m.action as Command);
    if (c?.command === 'move') {
      px[s] = px[s]! + (c.x as number);
      py[s] = py[s]! + (c.y as number);
    } else if (c?.command === 'attack') {
      const i = at[py[s]! * w + px[s]!]!;
      let n = Math.min(c.energy as number, pEnergy[s]!);
      pEnergy[s] = pEnergy[s]! - n;
      let taken = false;
      if (owner[i] !== -1 && owner[i] !== s) {
        const d = Math.min(lEnergy[i]!, n);
        lEnergy[i] = lEnergy[i]! - d;
        if (lEnergy[i] === 0) neutralise(i);
        n -= d;
        taken = n === 0;
      }
      if (!taken && n > 0) {
        owner[i] = s;
        lEnergy[i] = lEnergy[i]! + n;
      }
    } else if (c?.command === 'connect') {
      const [dx, dy] = c.destination as [number, number];
      const o = at[py[s]! * w + px[s]!]!;
      const d = at[dy * w + dx]!;
      key[s * L + d] = 0;
      const n = links.length;
      for (let k = 0; k < n; k += 2) {
        const t = links[k] === o ? links[k + 1]! : links[k + 1] === o ? links[k]! : -1;
        if (t < 0 || !linked(t, d)) continue;
        let area = 0;
        for (const [x, y] of rasterizeTriangle([lx[o]!, ly[o]!], [lx[d]!, ly[d]!], [lx[t]!, ly[t]!]))
          if (x >= 0 && y >= 0 && x < w && y < h && island[y * w + x]) area++;
        const v = [o, d, t].sort((a, b) => a - b);
        triangles.push(v[0]!, v[1]!, v[2]!, s, area);
      }
      links.push(Math.min(o, d), Math.max(o, d));
    }
    if (++current === P) {
      for (let p = 0; p < P; p++) {
        let points = 0;
        for (let i = 0; i < L; i++) if (owner[i] === p) points += 2;
        for (let k = 0; k < links.length; k += 2) if (owner[links[k]!] === p) points += 2;
        for (let k = 0; k < triangles.length; k += 5) if (triangles[k + 3] === p) points += triangles[k + 4]!;
        score[p] = score[p]! + points;
      }
      round++;
      current = 0;
      if (round <= rounds) startRound();
    }
  }
  const players: number[] = [];
  for (let s = 0; s < P; s++) players.push(px[s]!, py[s]!, pEnergy[s]!, score[s]!);
  const lights: number[] = [];
  for (let i = 0; i < L; i++) lights.push(owner[i]!, lEnergy[i]!);
  const text: string[] = [];
  for (let k = 0; k < links.length; k += 2) text.push(`${links[k]}-${links[k + 1]}`);
  return { players, lighthouses: lights, links: text.join(' ') };
}

export function benchLighthousesRules(games = 30): (string | number)[][] {
  const game = getGame('lighthouses');
  const config = { map: 'continent', rounds: 200 };
  const bots = ['random', 'random', 'random', 'random'];
  const recorded = Array.from({ length: games }, (_, seed) => {
    const played = playBuiltins(game, bots, seed, { config });
    const start = new MatchEngine(game, { config, seed, players: 4 }).state as LighthousesState;
    return { seed, start, records: played.records, ending: JSON.stringify(endingOf(played.state as LighthousesState)) };
  });
  const commands = recorded.reduce((n, r) => n + r.records.filter((t) => t.phase === 'play').length, 0);
  const kinds = new Map<string, number>();
  for (const r of recorded)
    for (const t of r.records)
      for (const m of t.moves)
        if (t.phase === 'play')
          kinds.set(m.fault ? 'fault' : (m.action as Command).command, (kinds.get(m.fault ? 'fault' : (m.action as Command).command) ?? 0) + 1);

  // Engine and loop are timed side by side (see timePair).
  let same = 0;
  const engine = () => {
    for (const r of recorded) {
      const e = new MatchEngine(game, { config, seed: r.seed, players: 4 });
      for (const rec of r.records) e.commit(e.decision()!, rec.moves);
    }
  };
  const loop = () => {
    same = 0;
    for (const r of recorded) if (JSON.stringify(handLoop(r.start, r.records)) === r.ending) same++;
  };
  const [engineMs, loopMs] = timePair(engine, loop);
  if (same !== games) throw new Error(`the hand-written loop ended ${games - same} of ${games} games otherwise than the rules`);
  const us = (ms: number) => ((ms * 1000) / commands).toFixed(2);
  const mix = [...kinds].map(([k, n]) => `${k} ${Math.round((100 * n) / commands)} %`).join(', ');
  return [
    ['Lighthouses rules alone, 4 random bots, continent, 200 rounds, recorded games', 'games', 'commands', 'µs/command', 'ratio'],
    ['engine: MatchEngine.commit with the recorded commands', games, commands, us(engineMs), (engineMs / loopMs).toFixed(1) + '×'],
    ['floor: a hand-written loop on typed arrays (same endings, checked)', games, commands, us(loopMs), '1.0×'],
    [`(commands: ${mix})`, '', '', '', ''],
  ];
}
