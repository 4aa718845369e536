import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { MatchEngine } from '../../../src/core/engine.js';
import type { AnyGame, AskPhase } from '../../../src/core/game.js';
import { playBuiltins } from '../../../src/core/self-play.js';
import { battleship as rules } from '../../../src/games/battleship/index.js';
import type { BattleshipMessage, BattleshipTurn } from '../../../src/games/battleship/wire.js';
import { battleship } from './battleship.js';

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

/** Checks that a choice's line parses with the terminal's parser and that the rules accept the answer; returns the move. */
function accepted(engine: MatchEngine, slot: number, view: unknown, phase: 'init' | 'play', line: string) {
  const parsed = game.presentation.human!.parse(line, view, phase);
  assert.ok('answer' in parsed, `"${line}" does not parse: ${JSON.stringify(parsed)}`);
  const move = engine.read(slot, phase, parsed.answer);
  assert.equal(move.fault, undefined, `"${line}" is refused: ${JSON.stringify(move.fault)}`);
  return move;
}

const MATCHES: [number, string[], Record<string, unknown>][] = [
  [1, ['random', 'hunter'], {}],
  [2, ['hunter', 'hunter'], {}],
  [3, ['hunter', 'random'], { width: 7, height: 5, ship5: 0, ship4: 0, ship3: 1, ship2: 2, ship1: 1 }],
];

describe('Battleship human play in the browser', () => {
  it('at init offers fleets the rules accept and says how to type one', () => {
    let fleets = 0;
    for (const [seed, bots, config] of MATCHES) {
      playWatching(bots, seed, config, (engine, slot, view, phase) => {
        if (phase !== 'init') return;
        // No human.hello: the person places the fleet.
        assert.equal(game.presentation.human!.hello, undefined);
        const choices = battleship.play.choices(view, phase, { config: engine.config, answered: [], slot });
        assert.ok(choices.length >= 2, 'a few fleets to pick');
        for (const c of choices) {
          accepted(engine, slot, view, phase, c.line);
          fleets++;
        }
        const text = battleship.play.text!(view, phase);
        assert.ok(text);
        // The placeholder's example is a fleet the rules accept too.
        const example = /e\.g\. (.*)$/.exec(text.placeholder)![1]!;
        accepted(engine, slot, view, phase, example);
      });
    }
    assert.equal(fleets, 3 * 2 * 3);
  });

  it('in play offers exactly the cells not yet shot, each a shot the rules accept', () => {
    let checked = 0;
    for (const [seed, bots, config] of MATCHES) {
      playWatching(bots, seed, config, (engine, slot, view, phase) => {
        if (phase !== 'play') return;
        const v = view as BattleshipTurn;
        const choices = battleship.play.choices(view, phase, { config: engine.config, answered: [], slot });
        const { width, height } = engine.config as { width: number; height: number };
        const shot = new Set(v.board.your_strikes.map((k) => k.target));
        const open: string[] = [];
        for (let x = 0; x < width; x++) for (let y = 0; y < height; y++) if (!shot.has(`${x},${y}`)) open.push(`${x},${y}`);
        assert.deepEqual(choices.map((c) => c.line).sort(), open.sort(), 'every cell not yet shot, and only those');
        for (const c of choices) {
          const move = accepted(engine, slot, view, phase, c.line);
          assert.deepEqual((move.action as { shot: number[] }).shot, [...c.cell!]);
          checked++;
        }
        assert.equal(battleship.play.text!(view, phase), null);
      });
    }
    assert.ok(checked > 1000, `only ${checked} choices checked`);
  });

  it('offers nothing on a message that asks nothing', () => {
    assert.deepEqual(battleship.play.choices({ action: 'notice' } as unknown as BattleshipMessage, 'play', { config: {}, answered: [], slot: 0 }), []);
  });
});
