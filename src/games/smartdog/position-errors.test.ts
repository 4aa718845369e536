import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MatchEngine } from '../../core/engine.js';
import { smartdog } from './index.js';

// Meadow for two players is 32×12: a fence at 2,1, a tree at 2,10, the map's first sheep at 12,2 and dog at 7,6.
const dog = (extra: object = {}) => ({ id: 1, owner: 1, x: 0, y: 0, ...extra });
const sheep = (extra: object = {}) => ({ x: 5, y: 0, ...extra });
const pos = (p: object) => JSON.stringify(p);

const CASES: [string, string, RegExp][] = [
  ['not JSON', '{turn:3}', /^position: not valid JSON \(.*\); give a position's JSON text or the path of a position file$/],
  ['not an object', '[1]', /^position: \[1\] is not a JSON object; expected \{"turn":…, "dogs":…, "sheep":…, "out":…\}$/],
  ['an unknown key', pos({ dog: [] }), /^position: unknown key "dog"; expected turn, dogs, sheep, out$/],
  ['turn 0', pos({ turn: 0 }), /^position: "turn" is 0; expected an integer from 1 to 100 \(the game's turnsLimit is 100\)$/],
  ['a turn past the limit', pos({ turn: 101 }), /^position: "turn" is 101; expected an integer from 1 to 100/],
  ['a turn as text', pos({ turn: '5' }), /^position: "turn" is "5"; expected an integer/],
  ['dogs not a list', pos({ dogs: {} }), /^position: "dogs" is \{\}; expected a JSON array$/],
  ['a dog not an object', pos({ dogs: [3] }), /^position dogs\[0\]: 3 is not a JSON object; expected \{"id":…, "owner":…/],
  [
    'a dog with an unknown key',
    pos({ dogs: [dog({ scared: 'panic' })] }),
    /^position dogs\[0\]: unknown key "scared"; expected id, owner, x, y, scare, scareTurns, barkedLastTurn$/,
  ],
  ['a dog without an id', pos({ dogs: [{ owner: 1, x: 0, y: 0 }] }), /^position dogs\[0\]: "id" is missing; expected an integer from 1 to \d+$/],
  ['a dog id 0', pos({ dogs: [dog({ id: 0 })] }), /^position dogs\[0\]: "id" is 0; expected an integer from 1/],
  ['two dogs with one id', pos({ dogs: [dog(), dog({ x: 1 })] }), /^position dogs\[1\]: id 1 is already the id of dogs\[0\]; dog ids must be unique$/],
  [
    'an owner out of range',
    pos({ dogs: [dog({ owner: 3 })] }),
    /^position dogs\[0\]: "owner" is 3; expected an integer from 1 to 2 \(a player of this 2-player game\)$/,
  ],
  [
    'x off the board',
    pos({ dogs: [dog({ x: 32 })] }),
    /^position dogs\[0\]: "x" is 32; expected an integer from 0 to 31 \(the board is 32×12 for 2 players\)$/,
  ],
  [
    'y off the board',
    pos({ dogs: [dog({ y: -1 })] }),
    /^position dogs\[0\]: "y" is -1; expected an integer from 0 to 11 \(the board is 32×12 for 2 players\)$/,
  ],
  ['a fractional x', pos({ sheep: [sheep({ x: 1.5 })] }), /^position sheep\[0\]: "x" is 1.5; expected an integer/],
  ['a dog on a fence', pos({ dogs: [dog({ x: 2, y: 1 })] }), /^position dogs\[0\]: cell 2,1 is a fence \(#\); dogs and sheep stand on grass or a pen$/],
  ['a sheep on a tree', pos({ sheep: [sheep({ x: 2, y: 10 })] }), /^position sheep\[0\]: cell 2,10 is a tree \(\^\); dogs and sheep stand on grass or a pen$/],
  ['two dogs on one cell', pos({ dogs: [dog(), dog({ id: 2 })] }), /^position dogs\[1\]: cell 0,0 is taken by dogs\[0\]; one object per cell$/],
  ['a sheep on a dog', pos({ dogs: [dog({ x: 5 })], sheep: [sheep()] }), /^position sheep\[0\]: cell 5,0 is taken by dogs\[0\]; one object per cell$/],
  [
    "a dog on the map's sheep",
    pos({ dogs: [dog({ x: 12, y: 2 })] }),
    /^position dogs\[0\]: cell 12,2 is taken by a sheep of the map \(give "sheep" to place the sheep yourself\); one object per cell$/,
  ],
  [
    "a sheep on the map's dog",
    pos({ sheep: [sheep({ x: 7, y: 6 })] }),
    /^position sheep\[0\]: cell 7,6 is taken by the map's dog 1 \(give "dogs" to place the dogs yourself\); one object per cell$/,
  ],
  ['an unknown scare', pos({ dogs: [dog({ scare: 'scared', scareTurns: 2 })] }), /^position dogs\[0\]: "scare" is "scared"; expected one of panic, indignant$/],
  [
    'a scare without turns',
    pos({ dogs: [dog({ scare: 'panic' })] }),
    /^position dogs\[0\]: scare "panic" needs "scareTurns" above 0 \(the turns it still lasts\)$/,
  ],
  ['scare turns without a scare', pos({ dogs: [dog({ scareTurns: 2 })] }), /^position dogs\[0\]: "scareTurns" 2 needs "scare": "panic" or "indignant"$/],
  ['negative scare turns', pos({ dogs: [dog({ scare: 'panic', scareTurns: -1 })] }), /^position dogs\[0\]: "scareTurns" is -1; expected an integer from 0/],
  ['a bark flag as text', pos({ dogs: [dog({ barkedLastTurn: 'yes' })] }), /^position dogs\[0\]: "barkedLastTurn" is "yes"; expected true or false$/],
  [
    'a sheep with an unknown key',
    pos({ sheep: [sheep({ direction: 'up' })] }),
    /^position sheep\[0\]: unknown key "direction"; expected x, y, heading, fear, fearDir, chain$/,
  ],
  ['an unknown heading', pos({ sheep: [sheep({ heading: 'north' })] }), /^position sheep\[0\]: "heading" is "north"; expected one of up, down, left, right$/],
  [
    'an unknown flight direction',
    pos({ sheep: [sheep({ fear: 1, fearDir: 'away' })] }),
    /^position sheep\[0\]: "fearDir" is "away"; expected one of up, down, left, right$/,
  ],
  [
    'fear without a direction',
    pos({ sheep: [sheep({ fear: 2 })] }),
    /^position sheep\[0\]: fear 2 needs "fearDir" \(the way it flees: up, down, left, right\)$/,
  ],
  ['negative fear', pos({ sheep: [sheep({ fear: -1 })] }), /^position sheep\[0\]: "fear" is -1; expected an integer from 0/],
  ['a chain not a list', pos({ sheep: [sheep({ chain: 1 })] }), /^position sheep\[0\]: "chain" is 1; expected a JSON array$/],
  [
    'a chain naming the sheep itself',
    pos({ sheep: [sheep({ chain: [0] }), sheep({ x: 6 })] }),
    /^position sheep\[0\]\.chain\[0\]: 0 is not another sheep; expected a sheep's index in the "sheep" list \(0 to 1, not 0 itself\)$/,
  ],
  ['a chain past the list', pos({ sheep: [sheep({ chain: [1, 4] }), sheep({ x: 6 })] }), /^position sheep\[0\]\.chain\[1\]: 4 is not another sheep/],
  [
    'a chain naming a sheep twice',
    pos({ sheep: [sheep({ chain: [1, 2, 1] }), sheep({ x: 6 }), sheep({ x: 7 })] }),
    /^position sheep\[0\]\.chain: sheep 1 is listed twice; a fear chain names each sheep once$/,
  ],
  ['out not a list', pos({ out: 2 }), /^position: "out" is 2; expected a JSON array$/],
  ['out naming no player', pos({ out: [0] }), /^position out\[0\]: 0 is not a player; expected a player number from 1 to 2$/],
  ['out naming player 3 of 2', pos({ out: ['3'] }), /^position out\[0\]: "3" is not a player; expected a player number from 1 to 2$/],
  ['out naming a player twice', pos({ out: [2, 2] }), /^position out\[1\]: player 2 is listed twice$/],
  ['every player out', pos({ out: [2, 1] }), /^position: every player is out; at least one must still play$/],
];

describe('smart-dog chosen positions: every mistake is refused with what, where and what was expected', () => {
  for (const [what, position, problem] of CASES) {
    it(`refuses ${what}`, () => {
      assert.throws(
        () => new MatchEngine(smartdog, { config: { map: 'meadow', position }, seed: 1, players: 2 }),
        (err: Error) => {
          const m = /^bad config for smartdog: (.*)$/s.exec(err.message);
          assert.ok(m, err.message);
          assert.match(m[1]!, problem);
          return true;
        },
      );
    });
  }

  it('a blank position is no position, and the turn limit comes from the options', () => {
    const blank = new MatchEngine(smartdog, { config: { map: 'meadow', position: ' \n' }, seed: 1, players: 2 }).state;
    assert.deepEqual(blank, new MatchEngine(smartdog, { config: { map: 'meadow' }, seed: 1, players: 2 }).state);
    assert.throws(
      () => new MatchEngine(smartdog, { config: { map: 'meadow', options: '{"turnsLimit":10}', position: '{"turn":11}' }, seed: 1, players: 2 }),
      /turnsLimit is 10/,
    );
  });
});
