import assert from 'node:assert/strict';
import { test } from 'node:test';
import { MatchEngine } from '../../../src/core/engine.js';
import type { AnyGame } from '../../../src/core/game.js';
import { builtinBotSeed } from '../../../src/core/self-play.js';
import { paint as game } from '../../../src/games/paint/index.js';
import type { PaintState } from '../../../src/games/paint/rules.js';
import type { PaintTurn } from '../../../src/games/paint/wire.js';
import { paint } from './paint.js';

const human = game.presentation.human!;

/** Plays built-in bots; at every turn checks each seat's choices against the terminal parser and the rules. */
function playAndCheck(config: Record<string, unknown>, bots: string[], seed: number): number {
  const engine = new MatchEngine(game as AnyGame, { config, seed, players: bots.length });
  const players = bots.map((name, slot) =>
    game.bots[name as 'random']!.create({ slot, players: bots.length, config: engine.config as never, seed: builtinBotSeed(seed, name, slot) }),
  );
  let checked = 0;
  for (let d = engine.decision(); d; d = engine.decision()) {
    const decision = d;
    const moves = decision.seats.map((slot) => {
      const view = engine.view(slot, { phase: decision.phase, matchId: 'test', names: bots });
      const choices = paint.play.choices(view, decision.phase, { config: engine.config, answered: [], slot } as never);
      if (decision.phase === 'init') assert.deepEqual(choices, [], 'the server answers the hello itself');
      else {
        assert.equal(new Set(choices.map((c) => c.line)).size, 16, 'walk and shoot, 8 ways each');
        const s = engine.state as PaintState;
        const [row, col] = s.positions[slot]!;
        for (const c of choices) {
          const read = human.parse(c.line, view as PaintTurn, decision.phase);
          assert.ok('answer' in read, `${c.line}: ${JSON.stringify(read)}`);
          const move = engine.read(slot, decision.phase, read.answer);
          assert.equal(move.fault, undefined, `turn ${decision.turn}: "${c.line}" is refused: ${move.fault?.detail}`);
          const { type, direction } = move.action as { type: string; direction: [number, number] };
          assert.equal(type, c.line.split(' ')[0]);
          // The cell is the square the action points at: one step for a walk, two for a shot (column, row).
          const steps = type === 'walk' ? 1 : 2;
          const target = [col + direction[1] * steps, row + direction[0] * steps];
          const onBoard = target[0]! >= 0 && target[1]! >= 0 && target[0]! < s.width && target[1]! < s.height;
          assert.deepEqual(c.cell, onBoard ? target : undefined, `${c.line} from [${row},${col}]`);
          checked++;
        }
        const keys = choices
          .filter((c) => c.key)
          .map((c) => `${c.key}=${c.line}`)
          .sort();
        assert.deepEqual(keys, ['ArrowDown=walk s', 'ArrowLeft=walk w', 'ArrowRight=walk e', 'ArrowUp=walk n']);
      }
      return engine.read(slot, decision.phase, players[slot]!.act(view as never, decision.phase));
    });
    engine.commit(decision, moves);
  }
  return checked;
}

test('every offered action parses, is accepted, and its cell is where it points (10×10, 2 players)', () => {
  assert.ok(playAndCheck({}, ['painter', 'random'], 11) > 1000);
});

test('the same on a board with obstacles and 4 players, and on a shipped board', () => {
  assert.ok(playAndCheck({ width: 14, height: 9, obstacles: 12, turns: 40 }, ['painter', 'random', 'painter', 'random'], 5) > 1000);
  assert.ok(playAndCheck({ board: '11x5', turns: 30 }, ['painter', 'painter'], 2) > 500);
});

test('without the slot the hello seen tells the own square; a view that asks nothing offers nothing', () => {
  assert.deepEqual(paint.play.choices({ player_id: 'bob' }, 'init', { config: {}, answered: [] } as never), []);
  const view: PaintTurn = {
    width: 3,
    height: 3,
    player_positions: { alice: [0, 0], bob: [2, 2] },
    colors: [
      [null, null, null],
      [null, null, null],
      [null, null, null],
    ],
    previous_actions: [],
    turns_left: 5,
  };
  const walkNw = paint.play.choices(view, 'play', { config: {}, answered: [] } as never).find((c) => c.line === 'walk nw');
  assert.deepEqual(walkNw?.cell, [1, 1]);
  assert.deepEqual(paint.play.choices({ nothing: true }, 'play', { config: {}, answered: [] } as never), []);
});
