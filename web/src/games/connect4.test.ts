import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { MatchEngine } from '../../../src/core/engine.js';
import type { AnyGame, AskPhase } from '../../../src/core/game.js';
import { playBuiltins } from '../../../src/core/self-play.js';
import { connect4 as rules } from '../../../src/games/connect4/index.js';
import { COLS, ROWS } from '../../../src/games/connect4/rules.js';
import type { ConnectFourTurn } from '../../../src/games/connect4/wire.js';
import { connect4 } from './connect4.js';

const game: AnyGame = rules;

/** Plays a match of built-in bots, calling `look` with every seat's real view before it answers. */
function playWatching(bots: readonly string[], seed: number, look: (engine: MatchEngine, slot: number, view: unknown, phase: AskPhase) => void): MatchEngine {
  return playBuiltins(game, [...bots], seed, { watch: look });
}

describe('Connect Four human play in the browser', () => {
  it('offers exactly the non-full columns, each as a line the terminal parser reads into a legal move', () => {
    let checked = 0;
    let fullColumnSeen = false;
    for (const [seed, bots] of [
      [1, ['random', 'random']],
      [2, ['random', 'minimax']],
      [3, ['minimax', 'random']],
      [4, ['random', 'random']],
      [5, ['minimax', 'minimax']],
    ] as const) {
      playWatching([...bots], seed, (engine, slot, view, phase) => {
        const choices = connect4.play.choices(view, phase, { config: engine.config, answered: [], slot });
        if (phase === 'init') {
          // The server answers the hello itself (human.hello), so nothing is asked.
          assert.ok(game.presentation.human!.hello);
          assert.deepEqual(choices, []);
          return;
        }
        const board = (view as ConnectFourTurn).board;
        const open = Array.from({ length: COLS }, (_, c) => c).filter((c) => board[ROWS - 1]![c] === '');
        if (open.length < COLS) fullColumnSeen = true;
        assert.deepEqual(
          choices.map((c) => c.line),
          open.map(String),
          'every non-full column, and only those',
        );
        for (const c of choices) {
          const parsed = game.presentation.human!.parse(c.line, view, phase);
          assert.ok('answer' in parsed, `"${c.line}" does not parse: ${JSON.stringify(parsed)}`);
          const move = engine.read(slot, phase, parsed.answer);
          assert.equal(move.fault, undefined, `"${c.line}" is refused: ${JSON.stringify(move.fault)}`);
          // The click cell is where the disc lands: an empty cell on the bottom or on a disc.
          const [col, row] = c.cell!;
          assert.equal(col, move.action);
          assert.equal(board[row]![col], '');
          assert.ok(row === 0 || board[row - 1]![col] !== '');
          checked++;
        }
      });
    }
    assert.ok(checked > 50, `only ${checked} choices checked`);
    assert.ok(fullColumnSeen, 'no position with a full column was checked');
  });

  it('offers nothing on a message that is not a play turn', () => {
    assert.deepEqual(connect4.play.choices({ action: 'init' }, 'play', { config: {}, answered: [], slot: 0 }), []);
  });
});
