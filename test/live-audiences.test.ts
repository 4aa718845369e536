import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { runMatch } from '../src/arena/run-match.js';
import type { LiveEvent } from '../src/live/events.js';
import { LocalLiveEvents } from '../src/live/local.js';
import { MatchEngine } from '../src/core/engine.js';
import type { AnyGame } from '../src/core/game.js';
import { battleship } from '../src/games/battleship/index.js';
import { lighthouses } from '../src/games/lighthouses/index.js';
import type { LighthousesInit } from '../src/games/lighthouses/wire.js';

/** Plays a match of built-in bots and collects what each audience got. */
async function watch(game: string, bots: string[], config: Record<string, unknown> = {}) {
  const live = new LocalLiveEvents();
  const got: Record<'public' | 'full', LiveEvent[]> = { public: [], full: [] };
  live.subscribe('w1', 'public', (e) => void got.public.push(e));
  live.subscribe('w1', 'full', (e) => void got.full.push(e));
  const report = await runMatch({ matchId: 'w1', game, seed: 5, config, seats: bots.map((bot) => ({ bot })) }, { live });
  await new Promise((r) => setTimeout(r, 20));
  await live.close();
  return { ...got, report };
}

const steps = (events: LiveEvent[]) => events.filter((e): e is Extract<LiveEvent, { type: 'step' }> => e.type === 'step');

describe('live audiences', () => {
  it('a Battleship spectator never sees a fleet while the match is on, and sees every shot', async () => {
    const { public: pub, full, report } = await watch('battleship', ['random', 'random']);
    const fleets = report.replay.turns.filter((t) => t.phase === 'init').map((t) => (t.moves[0]!.action as { fleet: number[][] }).fleet);
    assert.equal(fleets.length, 2);
    const started = pub[0] as Extract<LiveEvent, { type: 'started' }>;
    assert.equal(started.type, 'started');
    assert.ok(!('config' in started.header) && !('seed' in started.header), 'no config or seed (either could give a fleet away)');
    const during = JSON.stringify(pub.filter((e) => e.type !== 'ended'));
    assert.doesNotMatch(during, /fleet/);
    for (const ship of fleets.flat()) assert.ok(!during.includes(JSON.stringify(ship)), `ship ${JSON.stringify(ship)} shown to spectators`);
    assert.ok(!steps(pub).some((e) => 'hash' in e.record), 'no state fingerprints for spectators');
    const shots = steps(pub)
      .filter((e) => e.record.phase === 'play')
      .map((e) => e.record.moves[0]!.action);
    assert.deepEqual(
      shots,
      report.replay.turns.filter((t) => t.phase === 'play').map((t) => t.moves[0]!.action),
    );
    // The frame comes with the first step, then each step's delta, which the game's fold adds to it.
    const [first, ...rest] = steps(pub);
    assert.ok(first!.frame !== undefined && rest.every((e) => e.frame === undefined && e.delta !== undefined));
    const spectator = battleship.presentation.spectator!;
    const last = rest.reduce<unknown>((frame, e) => spectator.fold!(frame, e.delta), structuredClone(first!.frame)) as { strikes: unknown };
    assert.deepEqual(last.strikes, (report.state as { strikes: unknown }).strikes, 'the frame shows the strikes as both boards do');
    // The organisers' feed has everything: it rebuilds the replay.
    assert.deepEqual(
      steps(full).map((e) => e.record),
      report.replay.turns,
    );
  });

  it('lighthouses and smart-dog spectators get only what every player sees', async () => {
    const lh = await watch('lighthouses', ['random', 'random'], { rounds: 5 });
    for (const e of steps(lh.public)) {
      for (const m of e.record.moves) if (m.action !== undefined) assert.deepEqual(Object.keys(m.action as object), ['command']);
      assert.deepEqual(Object.keys(e.frame as object), ['round', 'width', 'height', 'island', 'lighthouses', 'connections']);
    }
    const greeting = steps(lh.public).find((e) => e.record.phase === 'init')!;
    assert.ok(
      greeting.record.moves.every((m) => m.action === undefined),
      'greetings are not shown',
    );
    const sd = await watch('smartdog', ['random', 'herder'], { options: '{"turnsLimit":5}' });
    for (const e of steps(sd.public)) {
      for (const m of e.record.moves) assert.deepEqual(Object.keys((m.action ?? { lines: 0 }) as object), ['lines']);
    }
    assert.ok(!JSON.stringify(sd.public).includes(' do '), 'no dog commands for spectators');
    assert.ok(JSON.stringify(sd.full).includes('do '), 'the full feed has them');
  });

  it("the public start has the board before the first step: lighthouses' island as every player's hello has it, smart-dog's land", async () => {
    const lh = await watch('lighthouses', ['random', 'random', 'random'], { rounds: 5, map: 'bay' });
    const started = lh.public[0] as Extract<LiveEvent, { type: 'started' }>;
    assert.equal(started.type, 'started');
    assert.ok('hidden' in started.header && !('config' in started.header), 'the header stays without config and seed');
    const frame = started.frame as {
      round: number;
      width: number;
      height: number;
      island: number[][];
      lighthouses: { owner: unknown }[];
      connections: unknown[];
    };
    assert.ok(frame, 'the started event carries the frame of step 0');
    // The island each player's hello gives (the same rules, config and seed as the match).
    const { config, seed } = lh.report.replay;
    const engine = new MatchEngine(lighthouses as AnyGame, { config, seed, players: 3 });
    for (let slot = 0; slot < 3; slot++) {
      const hello = engine.view(slot, { phase: 'init', matchId: 'w1', names: ['random', 'random', 'random'] }) as LighthousesInit;
      assert.deepEqual(frame.island, hello.map, `seat ${slot}'s hello has the island of the public start`);
      assert.equal(frame.lighthouses.length, hello.lighthouses.length);
    }
    assert.deepEqual([frame.width, frame.height], [frame.island[0]!.length, frame.island.length]);
    assert.deepEqual(frame.connections, []);
    assert.ok(
      frame.lighthouses.every((l) => l.owner === null || l.owner === -1),
      'no lighthouse is owned before the first step',
    );
    assert.ok(!JSON.stringify(started).includes('"energy":[') && !/"players"/.test(JSON.stringify(started)), 'no player place or energy');

    const sd = await watch('smartdog', ['random', 'herder'], { options: '{"turnsLimit":5}' });
    const sdStart = sd.public[0] as Extract<LiveEvent, { type: 'started' }>;
    const land = sdStart.frame as { turn: number; rows: number; cols: number; terrain: string[]; territories: unknown[] };
    assert.ok(land && land.terrain.length === land.rows && land.terrain[0]!.length === land.cols, 'the land of step 0');
    const firstFrame = steps(sd.public)[0]!.frame as typeof land;
    assert.deepEqual([land.terrain, land.territories], [firstFrame.terrain, firstFrame.territories], 'the land as the steps show it');
    assert.doesNotMatch(JSON.stringify(sdStart), /Sheep|Dog/, 'no dog or sheep in the public start');
    // The organisers' feed starts as before: the full header, no frame.
    assert.equal((sd.full[0] as { frame?: unknown }).frame, undefined);
  });

  it('a game without hidden information is public as it is', async () => {
    const { public: pub, full } = await watch('connect4', ['random', 'minimax']);
    assert.deepEqual(pub, full);
  });
});
