import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { MatchEngine } from '../../../src/core/engine.js';
import type { AnyGame, AskPhase } from '../../../src/core/game.js';
import { playBuiltins } from '../../../src/core/self-play.js';
import { tron as rules } from '../../../src/games/tron/index.js';
import { gridOf, STEP, type Direction, type TronState } from '../../../src/games/tron/rules.js';
import type { TronTurn } from '../../../src/games/tron/wire.js';
import { tron } from './tron.js';

const game: AnyGame = rules;

/** Plays a match of built-in bots, calling `look` with every seat's real view before it answers. */
function playWatching(
  bots: readonly string[],
  seed: number,
  config: Record<string, unknown>,
  look: (engine: MatchEngine, slot: number, view: unknown, phase: AskPhase) => void,
): MatchEngine {
  return playBuiltins(game, [...bots], seed, { config, watch: look });
}

const MATCHES: [number, string[], Record<string, unknown>][] = [
  [2, ['voronoi', 'random'], {}],
  [3, ['stupid', 'random', 'voronoi', 'random'], { width: 12, height: 9 }],
  [4, ['random', 'random', 'random', 'random', 'random', 'random'], { width: 8, height: 8 }],
];

describe('Tron human play in the browser', () => {
  it('offers the four directions, each a legal answer, with exactly the moves that crash at once marked', () => {
    let checked = 0;
    let crashes = 0;
    for (const [seed, bots, config] of MATCHES) {
      playWatching(bots, seed, config, (engine, slot, view, phase) => {
        const choices = tron.play.choices(view, phase, { config: engine.config, answered: [], slot });
        if (phase === 'init') {
          // The server answers the hello itself (human.hello), so nothing is asked.
          assert.ok(game.presentation.human!.hello);
          assert.deepEqual(choices, []);
          return;
        }
        const s = engine.state as TronState;
        const head = (view as TronTurn).board[slot]![0]!;
        const grid = gridOf(s);
        assert.deepEqual(choices.map((c) => c.key).sort(), ['ArrowDown', 'ArrowLeft', 'ArrowRight', 'ArrowUp']);
        const dirs: string[] = [];
        for (const c of choices) {
          const parsed = game.presentation.human!.parse(c.line, view, phase);
          assert.ok('answer' in parsed, `"${c.line}" does not parse: ${JSON.stringify(parsed)}`);
          const move = engine.read(slot, phase, parsed.answer);
          assert.equal(move.fault, undefined, `"${c.line}" is refused: ${JSON.stringify(move.fault)}`);
          const dir = move.action as Direction;
          dirs.push(dir);
          // y grows downwards: the up arrow is y-.
          assert.equal(c.key, { 'y-': 'ArrowUp', 'y+': 'ArrowDown', 'x-': 'ArrowLeft', 'x+': 'ArrowRight' }[dir]);
          const [x, y] = [head[0] + STEP[dir][0], head[1] + STEP[dir][1]];
          // The rules' own board (living trails) decides what crashes.
          const crash = x < 0 || y < 0 || x >= s.width || y >= s.height || grid[y * s.width + x] !== 0;
          assert.equal(c.label.endsWith('(crash)'), crash, `${c.label} at ${x},${y}`);
          if (crash) {
            assert.equal(c.cell, undefined);
            crashes++;
          } else assert.deepEqual(c.cell, [x, y]);
          checked++;
        }
        assert.deepEqual(dirs.sort(), ['x+', 'x-', 'y+', 'y-'], 'all four directions');
      });
    }
    assert.ok(checked > 400, `only ${checked} choices checked`);
    assert.ok(crashes > 20, `only ${crashes} crashing moves seen`);
  });

  it('offers nothing to a dead seat or on a message that asks nothing', () => {
    const seat = { config: { width: 10, height: 10 }, answered: [], slot: 0 };
    assert.deepEqual(tron.play.choices({ action: 'play-turn', board: [[], [[1, 1]]], 'player-index': 0, players: 2 }, 'play', seat), []);
    assert.deepEqual(tron.play.choices({ action: 'notice' }, 'play', seat), []);
  });
});
