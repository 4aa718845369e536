import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { BOTS } from './bots.js';
import { parseMapPart, tileBoard } from './map.js';
import { MAPS } from './maps.js';
import { renderBoard } from './render.js';
import { setup } from './rules.js';
import { playBuiltins } from '../../core/self-play.js';
import { smartdog } from './index.js';
import type { SmartDogState } from './state.js';
import { startLines, viewOf } from './view.js';

/** A whole game between built-in bots, played as the runner plays it; the final state. */
const selfPlay = (map: string, bots: string[], seed: number) => ({ state: playBuiltins(smartdog, bots, seed, { config: { map } }).state as SmartDogState });

describe('smart-dog maps, bots and renderer', () => {
  it('every built-in map parses and tiles for 1 to 4 players', () => {
    for (const [name, text] of Object.entries(MAPS)) {
      const part = parseMapPart(text, name);
      for (let p = 1; p <= 4; p++) assert.equal(tileBoard(part, p).dogs.length, p * part.rows.join('').split('@').length - p, `${name} × ${p}`);
    }
    assert.ok(parseMapPart(MAPS.keeper!).rows.join('').includes('o'), 'the keeper map starts with penned sheep');
  });

  it('bots are deterministic and only send well-formed commands ending in end', () => {
    for (const name of Object.keys(BOTS)) {
      const a = selfPlay('meadow', [name, name], 5);
      const b = selfPlay('meadow', [name, name], 5);
      assert.deepEqual(a.state, b.state, name);
    }
    const s = setup({ map: MAPS.highlands!, players: 4 });
    const bot = BOTS.herder!.create(startLines(s, 3), 1);
    const lines = bot(viewOf(s, 3));
    assert.equal(lines.at(-1), 'end');
    for (const l of lines.slice(0, -1)) assert.match(l, /^do \d+ (bark|move (up|down|left|right))$/);
  });

  it('the herder pens every sheep of the training map alone', () => {
    assert.deepEqual(selfPlay('training', ['herder'], 1).state.scores, [10]);
  });

  it('the herder outscores random in at least 90 of 100 duets (maps in rotation, seats alternating)', () => {
    const names = Object.keys(MAPS);
    let wins = 0;
    for (let seed = 0; seed < 100; seed++) {
      const first = seed % 2 === 0;
      const { state } = selfPlay(names[seed % names.length]!, first ? ['herder', 'random'] : ['random', 'herder'], seed);
      const [h, r] = first ? state.scores : [state.scores[1]!, state.scores[0]!];
      if (h! > r!) wins++;
    }
    assert.ok(wins >= 90, `herder won ${wins} of 100`);
  });

  it('renders the board with pens, dogs by owner letter and sheep', () => {
    const s = setup({ map: '@.-\n*.o', players: 2 });
    assert.equal(renderBoard(s), 'turn 1 of 100, 6×2\nA.1B.2\n*.o*.o\nA: 0   B: 0');
  });
});
