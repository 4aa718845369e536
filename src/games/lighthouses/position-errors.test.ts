import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MatchEngine } from '../../core/engine.js';
import type { AnyGame } from '../../core/game.js';
import { lighthouses as typed } from './index.js';
import type { LighthousesState } from './rules.js';

const game: AnyGame = typed;

/** L0 (3,2), L1 (1,5), L2 (5,5); (0,0) and the border are water. */
const TRIO = ['#######', '#!   !#', '#  A  #', '#     #', '#  !  #', '#B    #', '#######'].join('\n');
/** L0 (4,1) below, L1 (1,3) left, L2 (7,3) right, L3 (4,5) above: L0–L3 crosses L1–L2. */
const DIAMOND = ['#########', '#   !   #', '#       #', '#!     !#', '#       #', '#A  !  B#', '#########'].join('\n');
/** L0 (1,2), L1 (4,2), L2 (7,2) in a row. */
const LINE = ['#########', '#!  !  !#', '#A     B#', '#########'].join('\n');

const two = [
  { position: [3, 4], energy: 0, score: 0, keys: [] },
  { position: [1, 1], energy: 0, score: 0, keys: [] },
];
const owned = (cells: number[][], owner = 0) => cells.map((position) => ({ position, owner, energy: 10 }));
const start = (map: string, position: unknown, players = 2) =>
  new MatchEngine(game, { config: { map, rounds: 50, position: typeof position === 'string' ? position : JSON.stringify(position) }, seed: 1, players });

describe('lighthouses positions: validation', () => {
  const cases: [string, string, unknown, RegExp][] = [
    ['not JSON', TRIO, '{"round":', /bad position: not JSON/],
    ['not an object', TRIO, [1], /expected a JSON object with round, players/],
    ['an unknown key', TRIO, { round: 1, players: two, triangles: [] }, /the position has an unknown key "triangles"; the keys are round, current, players/],
    ['round missing', TRIO, { players: two }, /round must be an integer in 1\.\.50, got nothing/],
    ['round past the last', TRIO, { round: 51, players: two }, /round must be an integer in 1\.\.50, got 51/],
    ['current out of range', TRIO, { round: 1, current: 2, players: two }, /current \(the player asked next\) must be an integer in 0\.\.1, got 2/],
    ['players not a list', TRIO, { round: 1, players: {} }, /players must be a list of 2 players, got \{\}/],
    ['too few players', TRIO, { round: 1, players: [two[0]] }, /players lists 1 players, but the match has 2/],
    ['a player not an object', TRIO, { round: 1, players: [two[0], 7] }, /players\[1\] must be an object \{"position":\[x,y\]/],
    [
      'a player with a name',
      TRIO,
      { round: 1, players: [two[0], { ...two[1], name: 'x' }] },
      /players\[1\] has an unknown key "name"; .*names come from the bots' greetings/,
    ],
    ['a position not a cell', TRIO, { round: 1, players: [two[0], { position: [1] }] }, /players\[1\]\.position must be a cell \[x, y\], got \[1\]/],
    [
      'a player on water',
      TRIO,
      { round: 1, players: [two[0], { position: [0, 3] }] },
      /players\[1\]\.position \[0,3\] is water; a player stands on an island cell/,
    ],
    ['a player off the map', TRIO, { round: 1, players: [{ position: [9, 3] }, two[1]] }, /players\[0\]\.position \[9,3\] is off the 7×7 map/],
    ['negative energy', TRIO, { round: 1, players: [{ ...two[0], energy: -1 }, two[1]] }, /players\[0\]\.energy must be an integer ≥ 0, got -1/],
    ['a fractional score', TRIO, { round: 1, players: [{ ...two[0], score: 1.5 }, two[1]] }, /players\[0\]\.score must be an integer ≥ 0, got 1\.5/],
    ['keys not a list', TRIO, { round: 1, players: [{ ...two[0], keys: 3 }, two[1]] }, /players\[0\]\.keys must be a list of lighthouse cells/],
    [
      'a key not a lighthouse',
      TRIO,
      { round: 1, players: [{ ...two[0], keys: [[3, 3]] }, two[1]] },
      /players\[0\]\.keys\[0\] \[3,3\] is not a lighthouse of the map; its lighthouses are \[3,2\] \[1,5\] \[5,5\]/,
    ],
    [
      'a key twice',
      TRIO,
      {
        round: 1,
        players: [
          {
            ...two[0],
            keys: [
              [3, 2],
              [3, 2],
            ],
          },
          two[1],
        ],
      },
      /players\[0\]\.keys\[1\] \[3,2\] is listed twice; keys are a set/,
    ],
    ['lighthouses not a list', TRIO, { round: 1, players: two, lighthouses: 1 }, /lighthouses must be a list of \{"position"/],
    ['a lighthouse not an object', TRIO, { round: 1, players: two, lighthouses: [[3, 2]] }, /lighthouses\[0\] must be an object/],
    [
      'a lighthouse with an unknown key',
      TRIO,
      { round: 1, players: two, lighthouses: [{ position: [3, 2], keys: 1 }] },
      /lighthouses\[0\] has an unknown key "keys"; the keys are position, owner, energy/,
    ],
    [
      'a lighthouse where there is none',
      TRIO,
      { round: 1, players: two, lighthouses: [{ position: [2, 2] }] },
      /lighthouses\[0\]\.position \[2,2\] is not a lighthouse of the map/,
    ],
    [
      'a lighthouse twice',
      TRIO,
      { round: 1, players: two, lighthouses: [...owned([[3, 2]]), ...owned([[3, 2]])] },
      /lighthouses\[1\]\.position \[3,2\] is listed twice/,
    ],
    ['an owner out of range', TRIO, { round: 1, players: two, lighthouses: owned([[3, 2]], 2) }, /lighthouses\[0\]\.owner must be an integer in 0\.\.1, got 2/],
    [
      'a neutral lighthouse with energy',
      TRIO,
      { round: 1, players: two, lighthouses: [{ position: [3, 2], owner: null, energy: 5 }] },
      /lighthouses\[0\] is neutral with energy 5; a neutral lighthouse has 0 energy/,
    ],
    [
      'an owned lighthouse without energy',
      TRIO,
      { round: 1, players: two, lighthouses: [{ position: [3, 2], owner: 1, energy: 0 }] },
      /lighthouses\[0\] is owned by 1 with energy 0; an owned lighthouse has energy ≥ 1/,
    ],
    ['connections not a list', TRIO, { round: 1, players: two, connections: {} }, /connections must be a list of \[\[x,y\],\[x,y\]\]/],
    ['a connection not a pair', TRIO, { round: 1, players: two, connections: [[[3, 2]]] }, /connections\[0\] must be a pair of lighthouse cells/],
    [
      'a connection to no lighthouse',
      TRIO,
      {
        round: 1,
        players: two,
        connections: [
          [
            [3, 2],
            [3, 3],
          ],
        ],
      },
      /connections\[0\]\[1\] \[3,3\] is not a lighthouse of the map/,
    ],
    [
      'a connection to itself',
      TRIO,
      {
        round: 1,
        players: two,
        lighthouses: owned([[3, 2]]),
        connections: [
          [
            [3, 2],
            [3, 2],
          ],
        ],
      },
      /connections\[0\] \[3,2\]–\[3,2\] connects a lighthouse to itself/,
    ],
    [
      'a connection between owners',
      TRIO,
      {
        round: 1,
        players: two,
        lighthouses: [...owned([[3, 2]]), ...owned([[1, 5]], 1)],
        connections: [
          [
            [3, 2],
            [1, 5],
          ],
        ],
      },
      /connections\[0\] \[3,2\]–\[1,5\] joins lighthouses owned by 0 and 1; a connection joins two lighthouses of one owner/,
    ],
    [
      'a connection to a neutral one',
      TRIO,
      {
        round: 1,
        players: two,
        lighthouses: owned([[3, 2]]),
        connections: [
          [
            [3, 2],
            [5, 5],
          ],
        ],
      },
      /joins lighthouses owned by 0 and nobody/,
    ],
    [
      'a connection twice',
      TRIO,
      {
        round: 1,
        players: two,
        lighthouses: owned([
          [3, 2],
          [5, 5],
        ]),
        connections: [
          [
            [3, 2],
            [5, 5],
          ],
          [
            [5, 5],
            [3, 2],
          ],
        ],
      },
      /connections\[1\] \[5,5\]–\[3,2\] is listed twice \(first as connections\[0\]\)/,
    ],
    [
      'a connection through a lighthouse',
      LINE,
      {
        round: 1,
        players: [{ position: [1, 1] }, { position: [7, 1] }],
        lighthouses: owned([
          [1, 2],
          [4, 2],
          [7, 2],
        ]),
        connections: [
          [
            [1, 2],
            [7, 2],
          ],
        ],
      },
      /connections\[0\] \[1,2\]–\[7,2\] passes through the lighthouse \[4,2\]/,
    ],
    [
      'crossing connections',
      DIAMOND,
      {
        round: 1,
        players: [{ position: [1, 1] }, { position: [7, 1] }],
        lighthouses: owned([
          [4, 1],
          [1, 3],
          [7, 3],
          [4, 5],
        ]),
        connections: [
          [
            [4, 1],
            [4, 5],
          ],
          [
            [1, 3],
            [7, 3],
          ],
        ],
      },
      /connections\[1\] \[1,3\]–\[7,3\] crosses the connection \[4,1\]–\[4,5\]/,
    ],
    ['energy rows', TRIO, { round: 1, players: two, energy: [[0]] }, /energy must be a list of 7 rows \(energy\[y\]\[x\], row 0 is y = 0\), got 1 rows/],
    [
      'an energy row',
      TRIO,
      { round: 1, players: two, energy: Array.from({ length: 7 }, (_, y) => Array(y === 3 ? 6 : 7).fill(0)) },
      /energy\[3\] must be a list of 7 cells \(the map's width\), got 6 cells/,
    ],
    [
      'an energy over the cap',
      TRIO,
      { round: 1, players: two, energy: Array.from({ length: 7 }, (_, y) => Array(7).fill(y === 2 ? 101 : 0)) },
      /energy\[2\]\[0\] \(x=0, y=2\) must be an integer in 0\.\.100, got 101/,
    ],
    [
      'energy on water',
      TRIO,
      { round: 1, players: two, energy: Array.from({ length: 7 }, (_, y) => Array(7).fill(y === 0 ? 1 : 0)) },
      /energy\[0\]\[0\] \(x=0, y=0\) is 1 on water; water cells hold no energy/,
    ],
  ];
  for (const [what, map, position, expected] of cases) {
    it(`rejects ${what}`, () => {
      assert.throws(
        () => start(map, position),
        (err: Error) => {
          assert.match(err.message, /^bad config for lighthouses: bad position: /);
          assert.match(err.message, expected);
          return true;
        },
      );
    });
  }

  it('takes -1 for a neutral owner, leaves unlisted lighthouses neutral, and needs no start slot per player', () => {
    const three = [{ position: [3, 4] }, { position: [3, 4] }, { position: [1, 1], keys: [[5, 5]] }];
    const e = start(TRIO, { round: 3, current: 2, players: three, lighthouses: [{ position: [1, 5], owner: -1, energy: 0 }, ...owned([[5, 5]], 2)] }, 3);
    const s = e.state as LighthousesState;
    assert.deepEqual(
      s.lighthouses.map((l) => l.owner),
      [null, null, 2],
    );
    assert.deepEqual(
      s.players.map((p) => [p.x, p.y, p.energy, p.score, p.keys]),
      [
        [3, 4, 0, 0, []],
        [3, 4, 0, 0, []],
        [1, 1, 0, 0, [2]],
      ],
    );
    assert.deepEqual([s.round, s.current], [3, 2]);
    assert.throws(() => start(TRIO, '', 3), /the map has 2 start slots, fewer than 3 players/);
  });
});
