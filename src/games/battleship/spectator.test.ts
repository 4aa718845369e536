import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { AnyGame } from '../../core/game.js';
import { MatchEngine } from '../../core/engine.js';
import { builtinBotSeed } from '../../core/self-play.js';
import { battleship } from './index.js';
import type { BattleshipState } from './rules.js';
import type { BattleshipMessage } from './wire.js';

describe('battleship spectator frame', () => {
  it('has the grid size every message gives, the shots and strikes, and no fleet', () => {
    const bots = ['random', 'random'];
    const config = { width: 13, height: 7 };
    const engine = new MatchEngine(battleship as AnyGame, { config, seed: 3, players: 2 });
    const players = bots.map((name, slot) =>
      battleship.bots[name]!.create({ slot, players: 2, config: engine.config as never, seed: builtinBotSeed(3, name, slot) }),
    );
    let frames = 0;
    for (let d = engine.decision(); d; d = engine.decision()) {
      const decision = d;
      const moves = decision.seats.map((slot) => {
        const view = engine.view(slot, { phase: decision.phase, matchId: '1', names: bots }) as BattleshipMessage;
        assert.deepEqual([view.board.width, view.board.height], ['13', '7']);
        return engine.read(slot, decision.phase, players[slot]!.act(view, decision.phase));
      });
      engine.commit(decision, moves);
      const s = engine.state as BattleshipState;
      const f = battleship.presentation.spectator!.frame(s) as Record<string, unknown>;
      assert.deepEqual(Object.keys(f), ['width', 'height', 'shots', 'strikes']);
      assert.deepEqual([f.width, f.height, f.shots], [13, 7, s.shots]);
      frames++;
    }
    assert.ok(frames > 20, `only ${frames} frames`);
  });

  it('sends what a step changed, which folded into the frame before it gives the frame after it, from a chosen position too', () => {
    const spectator = battleship.presentation.spectator!;
    const fleets = '0,0-4,0;0,2-3,2;0,4-2,4;0,6-2,6;0,8-1,8/0,0-0,4;2,0-2,3;4,0-4,2;6,0-6,2;8,0-8,1';
    for (const config of [
      { width: 13, height: 7 },
      { fleets, strikes: '5,5;9,9/1,1' },
    ]) {
      const engine = new MatchEngine(battleship as AnyGame, { config, seed: 4, players: 2 });
      const players = ['random', 'random'].map((name, slot) =>
        battleship.bots[name]!.create({ slot, players: 2, config: engine.config as never, seed: builtinBotSeed(4, name, slot) }),
      );
      let folded: unknown = null;
      let steps = 0;
      for (let d = engine.decision(); d; d = engine.decision()) {
        const decision = d;
        const moves = decision.seats.map((slot) =>
          engine.read(slot, decision.phase, players[slot]!.act(engine.view(slot, { phase: decision.phase, matchId: '1', names: [] }) as never, decision.phase)),
        );
        engine.commit(decision, moves);
        const s = engine.state as BattleshipState;
        const delta = spectator.delta!(s);
        // a few dozen bytes whatever the match's length
        assert.ok(JSON.stringify(delta).length < 160, JSON.stringify(delta));
        folded = steps === 0 ? spectator.frame(s) : spectator.fold!(folded, delta);
        assert.deepEqual(folded, spectator.frame(s), `step ${steps + 1}`);
        steps++;
      }
      assert.ok(steps > 20, `only ${steps} steps`);
      if (config.strikes)
        assert.deepEqual((spectator.frame(engine.state as BattleshipState) as { strikes: unknown[][] }).strikes[0]!.slice(0, 2), [
          { target: '5,5', result: '' },
          { target: '9,9', result: '' },
        ]);
    }
  });

  it('a frame published is a copy: the match going on does not change it', () => {
    const engine = new MatchEngine(battleship as AnyGame, { config: {}, seed: 5, players: 2 });
    const players = ['random', 'random'].map((name, slot) =>
      battleship.bots[name]!.create({ slot, players: 2, config: engine.config as never, seed: builtinBotSeed(5, name, slot) }),
    );
    let first: string | null = null;
    let frame: unknown = null;
    for (let d = engine.decision(); d; d = engine.decision()) {
      const decision = d;
      const moves = decision.seats.map((slot) =>
        engine.read(slot, decision.phase, players[slot]!.act(engine.view(slot, { phase: decision.phase, matchId: '1', names: [] }) as never, decision.phase)),
      );
      engine.commit(decision, moves);
      if ((engine.state as BattleshipState).shots === 3) {
        frame = battleship.presentation.spectator!.frame(engine.state as BattleshipState);
        first = JSON.stringify(frame);
      }
    }
    assert.equal(JSON.stringify(frame), first);
  });

  it('a delta that does not follow the frame (a step missed) is refused, naming the side and the counts', () => {
    const spectator = battleship.presentation.spectator!;
    const frame = { width: 10, height: 10, shots: 1, strikes: [[{ target: '1,1', result: '' }], []] };
    assert.throws(
      () =>
        spectator.fold!(frame, {
          shots: 3,
          strikes: [
            { count: 2, last: { target: '2,2', result: '' } },
            { count: 1, last: { target: '3,3', result: 'hit' } },
          ],
        }),
      /the step's delta is at shot 3 where the frame before it is at shot 1: a step is missing/,
    );
    assert.throws(
      () =>
        spectator.fold!(frame, {
          shots: 2,
          strikes: [
            { count: 3, last: { target: '2,2', result: '' } },
            { count: 0, last: null },
          ],
        }),
      /the step's delta has 3 strikes for P1 where the frame before it has 1: a step is missing/,
    );
  });
});
