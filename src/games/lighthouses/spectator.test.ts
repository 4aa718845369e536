import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MatchEngine } from '../../core/engine.js';
import type { AnyGame } from '../../core/game.js';
import { builtinBotSeed } from '../../core/self-play.js';
import { lighthouses } from './index.js';
import type { LighthousesState } from './rules.js';
import type { LighthousesInit } from './wire.js';

describe('lighthouses spectator frame', () => {
  it('has the island every bot got in its first message, the lighthouses and links, and no player', () => {
    const bots = ['planner', 'random', 'planner'];
    const engine = new MatchEngine(lighthouses as AnyGame, { config: { map: 'bay', rounds: 30 }, seed: 7, players: 3 });
    const players = bots.map((name, slot) =>
      lighthouses.bots[name]!.create({ slot, players: 3, config: engine.config as never, seed: builtinBotSeed(7, name, slot) }),
    );
    const firsts: LighthousesInit[] = [];
    let frames = 0;
    for (let d = engine.decision(); d; d = engine.decision()) {
      const decision = d;
      const moves = decision.seats.map((slot) => {
        const view = engine.view(slot, { phase: decision.phase, matchId: 'x', names: bots });
        if (decision.phase === 'init') firsts[slot] = structuredClone(view) as LighthousesInit;
        return engine.read(slot, decision.phase, players[slot]!.act(view as never, decision.phase));
      });
      engine.commit(decision, moves);
      const s = engine.state as LighthousesState;
      const f = lighthouses.presentation.spectator!.frame(s) as Record<string, unknown>;
      assert.deepEqual(Object.keys(f), ['round', 'width', 'height', 'island', 'lighthouses', 'connections']);
      for (const first of firsts) {
        assert.deepEqual(f.island, first.map, 'the island is the one every bot got');
        assert.deepEqual([f.width, f.height], [first.map[0]!.length, first.map.length]);
      }
      assert.deepEqual(f.connections, s.connections);
      frames++;
    }
    assert.equal(firsts.length, 3);
    assert.ok(frames > 80, `only ${frames} frames`);
  });

  it('stays small on the largest shipped map (41×25, 8 players): the island is about 2 KB of each step', () => {
    const s = lighthouses.rules.setup({ config: { map: 'continent', rounds: 200, neutral: '-1', position: '' }, players: 8, seed: 1 } as never);
    const f = lighthouses.presentation.spectator!.frame(s) as { island: unknown };
    assert.ok(JSON.stringify(f.island).length < 2200);
    assert.ok(JSON.stringify(f).length < 4000, `${JSON.stringify(f).length} bytes`);
  });
});
