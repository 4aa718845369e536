import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { MatchEngine } from '../../../src/core/engine.js';
import type { AnyGame, AskPhase } from '../../../src/core/game.js';
import { playBuiltins } from '../../../src/core/self-play.js';
import { tictactoe as rules } from '../../../src/games/tictactoe/index.js';
import { CELLS } from '../../../src/games/tictactoe/rules.js';
import type { TicTacToeTurn } from '../../../src/games/tictactoe/wire.js';
import { tictactoe } from './tictactoe.js';

const game: AnyGame = rules;

/** Plays a match of built-in bots, calling `look` with every seat's real view before it answers. */
function playWatching(bots: readonly string[], seed: number, look: (engine: MatchEngine, slot: number, view: unknown, phase: AskPhase) => void): MatchEngine {
  return playBuiltins(game, [...bots], seed, { watch: look });
}

describe('tic-tac-toe human play in the browser', () => {
  it('offers exactly the empty cells, each as a line the terminal parser reads into a legal move', () => {
    let checked = 0;
    for (const [seed, bots] of [
      [1, ['random', 'random']],
      [2, ['random', 'minimax']],
      [3, ['minimax', 'random']],
      [4, ['random', 'random']],
    ] as const) {
      playWatching([...bots], seed, (engine, slot, view, phase) => {
        const choices = tictactoe.play.choices(view, phase, { config: engine.config, answered: [], slot });
        if (phase === 'init') {
          // The server answers the hello itself (human.hello), so nothing is asked.
          assert.ok(game.presentation.human!.hello);
          assert.deepEqual(choices, []);
          return;
        }
        const board = (view as TicTacToeTurn).board;
        const empty = CELLS.filter((k) => board[k] === '');
        assert.deepEqual(choices.map((c) => c.line).sort(), [...empty].sort(), 'every empty cell, and only those');
        for (const c of choices) {
          const parsed = game.presentation.human!.parse(c.line, view, phase);
          assert.ok('answer' in parsed, `"${c.line}" does not parse: ${JSON.stringify(parsed)}`);
          const move = engine.read(slot, phase, parsed.answer);
          assert.equal(move.fault, undefined, `"${c.line}" is refused: ${JSON.stringify(move.fault)}`);
          // The click cell is (column, row) of that key, and it maps back to the same move.
          assert.equal(`${c.cell![1]}-${c.cell![0]}`, move.action);
          checked++;
        }
      });
    }
    assert.ok(checked > 20, `only ${checked} choices checked`);
  });

  it('offers nothing on a message that is not a play turn', () => {
    assert.deepEqual(tictactoe.play.choices({ action: 'init' }, 'play', { config: {}, answered: [], slot: 0 }), []);
  });
});
