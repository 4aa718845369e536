// What the per-step fingerprint costs in each game, measured directly: the recorded moves of matches
// between built-in bots are replayed through the engine and, after each step, the step's fingerprint (the
// game's changes chained by core's `chainStep`, written as hex) is made again REPEAT times under one timer;
// the match's first fingerprint (the set-up state's changes) is timed the same way and spread over its
// steps. Its share is that cost over the time of a step with the bots (views, bots, rules, records: what
// the issue measured) and of a step of the rules alone (target: under 10 % of a step in every game). Timing
// the fingerprint itself, rather than a match with and without it, keeps the shares steady on a shared
// machine.
import { chainStep, MatchEngine, type TurnRecord } from '../src/core/engine.js';
import type { AnyGame } from '../src/core/game.js';
import { hex } from '../src/core/hash.js';
import { playBuiltins } from '../src/core/self-play.js';
import { getGame } from '../src/games/index.js';

const ONLY = process.env.FP_ONLY;
const MATCHES: [string, string[], Record<string, unknown>][] = [
  ['tictactoe', ['random', 'random'], {}],
  ['connect4', ['random', 'random'], {}],
  ['battleship', ['random', 'random'], {}],
  ['tron', ['stupid', 'stupid', 'stupid', 'stupid'], {}],
  ['lighthouses', ['random', 'random', 'random', 'random'], { map: 'continent' }],
  ['paint', ['random', 'random', 'random', 'random'], { width: 60, height: 60, turns: 400 }],
  ['smartdog', ['random', 'random', 'random', 'random'], { map: 'highlands' }],
];

type Recorded = { seed: number; players: number; config: Record<string, unknown>; records: TurnRecord[] };

const REPEAT = 20;

function replayAll(game: AnyGame, recorded: Recorded[]): number {
  const t0 = performance.now();
  for (const r of recorded) {
    const e = new MatchEngine(game, { config: r.config, seed: r.seed, players: r.players });
    for (const rec of r.records) e.commit(e.decision()!, rec.moves);
  }
  return performance.now() - t0;
}

/** Milliseconds the fingerprints of these matches take, and the first of each match (each timed REPEAT times over, divided back). */
function fingerprintTime(game: AnyGame, recorded: Recorded[]): { ms: number; first: number } {
  let ms = 0;
  let first = 0;
  let sink = '';
  for (const r of recorded) {
    const e = new MatchEngine(game, { config: r.config, seed: r.seed, players: r.players });
    let chain = 0;
    let t0 = performance.now();
    for (let k = 0; k < REPEAT; k++) chain = chainStep(game, 0x811c9dc5, e.state, []);
    first += performance.now() - t0;
    for (const rec of r.records) {
      e.commit(e.decision()!, rec.moves);
      const moves = rec.moves.map(({ ms: _ms, ...m }) => m);
      t0 = performance.now();
      for (let k = 0; k < REPEAT; k++) sink = hex(chainStep(game, chain, e.state, moves));
      ms += performance.now() - t0;
      chain = parseInt(sink, 16);
      if (sink !== rec.hash) throw new Error(`${game.id}: the bench's fingerprint ${sink} is not the engine's ${rec.hash}`);
    }
  }
  return { ms: (ms + first) / REPEAT, first: first / REPEAT };
}

export function benchFingerprints(): (string | number)[][] {
  const rows: (string | number)[][] = [
    [
      'game (built-in bots)',
      'steps',
      'µs/step with bots',
      'µs/step rules alone',
      'µs fingerprint/step',
      'of which the first',
      'share with bots',
      'share of rules alone',
    ],
  ];
  for (const [id, bots, config] of MATCHES.filter(([g]) => !ONLY || g === ONLY)) {
    const game = getGame(id);
    // Enough matches that each timing is tens of milliseconds.
    const count = { tictactoe: 1500, connect4: 600, battleship: 40, tron: 8, lighthouses: 40, paint: 8, smartdog: 8 }[id] ?? 20;
    const recorded: Recorded[] = Array.from({ length: count }, (_, seed) => ({
      seed,
      players: bots.length,
      config,
      records: playBuiltins(game, bots, seed, { config }).records,
    }));
    const steps = recorded.reduce((n, r) => n + r.records.length, 0);
    const best = (run: () => number) => Math.min(...Array.from({ length: 5 }, run));
    const withBots = best(() => {
      const t0 = performance.now();
      for (const r of recorded) playBuiltins(game, bots, r.seed, { config });
      return performance.now() - t0;
    });
    const rules = best(() => replayAll(game, recorded));
    const times = Array.from({ length: 5 }, () => fingerprintTime(game, recorded));
    const fp = Math.min(...times.map((t) => t.ms));
    const first = Math.min(...times.map((t) => t.first));
    const us = (ms: number) => ((ms * 1000) / steps).toFixed(2);
    const share = (of: number) => `${((100 * fp) / of).toFixed(1)} %`;
    rows.push([id, steps, us(withBots), us(rules), us(fp), us(first), share(withBots), share(rules)]);
  }
  return rows;
}
