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
});
