import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MatchEngine } from '../../core/engine.js';
import type { AnyGame } from '../../core/game.js';
import { checkPositionRoundTrip } from '../../core/position.kit.js';
import { playBuiltins } from '../../core/self-play.js';
import { tron as typed } from './index.js';
import type { TronState } from './rules.js';

const tron: AnyGame = typed;

/** A match from `config` on a 10×10 grid by default, past its inits. */
function started(config: Record<string, unknown>, players = 2): MatchEngine {
  const engine = new MatchEngine(tron, { config: { width: 10, height: 10, ...config }, seed: 1, players });
  for (let d = engine.decision(); d?.phase === 'init'; d = engine.decision()) engine.commit(d, [{ slot: d.seats[0]!, action: null }]);
  return engine;
}

/** The play turns worth forking a match at: the first two, the middle, the last, and right after each lap with a death. */
function forkTurns(bots: string[], seed: number, config: Record<string, unknown>): number[] {
  const plays = playBuiltins(tron, bots, seed, { config }).records.filter((r) => r.phase !== 'init');
  const last = plays.at(-1)!.turn;
  const afterDeath = plays.flatMap((r, i) => (i + 1 < plays.length && plays[i + 1]!.moves.length < r.moves.length ? [r.turn + 1] : []));
  assert.ok(afterDeath.length, `seed ${seed}: a bot dies before the last lap`);
  return [...new Set([1, 2, Math.ceil(last / 2), last, ...afterDeath])];
}

describe('Tron positions: round trip', () => {
  for (const [bots, config] of [
    [['voronoi', 'stupid', 'random'], { width: 20, height: 20 }],
    [['random', 'voronoi', 'random', 'stupid', 'voronoi'], { width: 14, height: 9 }],
  ] as [string[], Record<string, unknown>][]) {
    it(`${bots.length} bots on ${config.width}×${config.height}: a position written at any lap starts the same match`, () => {
      for (const seed of [1, 2, 3]) for (const turn of forkTurns(bots, seed, config)) checkPositionRoundTrip(tron, bots, seed, turn, config);
    });
  }

  it('a match started from chosen starts or a chosen board forks the same way (the other key is cleared)', () => {
    const bots = ['voronoi', 'stupid', 'random'];
    const fromStarts = { width: 12, height: 12, starts: '0,0;11,11;5,6' };
    for (const turn of forkTurns(bots, 5, fromStarts)) checkPositionRoundTrip(tron, bots, 5, turn, fromStarts);
    const fromBoard = { width: 12, height: 12, trails: '[[[2,3],[2,2],[1,2]],[],[[9,9]]]' };
    const last = playBuiltins(tron, bots, 6, { config: fromBoard }).lastTurn();
    assert.ok(last >= 4, `the match from the board lasts ${last} laps`);
    for (const turn of [1, 3, last]) checkPositionRoundTrip(tron, bots, 6, turn, fromBoard);
  });
});

describe('Tron positions: chosen starts and boards', () => {
  it('starts on the edges of a 3×2 grid, facing each other: the stupid bots meet head-on on lap 1', () => {
    const engine = playBuiltins(tron, ['stupid', 'stupid'], 1, { config: { width: 3, height: 2, starts: '0,0;2,0' } });
    const s = engine.state as TronState;
    assert.deepEqual(s.death, [
      { lap: 1, cause: 'head-on with slot 1 at 1,0' },
      { lap: 1, cause: 'head-on with slot 0 at 1,0' },
    ]);
    assert.deepEqual(engine.outcome().ranks, [1, 1]);
  });

  it('starts may use any cell of the grid, row and column 0 included, and are the lap-1 heads', () => {
    const s = started({ starts: '0,0; 9,9 ;0,9' }, 3).state as TronState;
    assert.deepEqual(s.trails, [[[0, 0]], [[9, 9]], [[0, 9]]]);
    assert.equal(s.lap, 0);
  });

  it('a board pasted from a message: trails head first, [] a dead bot (dead since lap 0), the match goes on at lap 1', () => {
    const engine = started({ trails: '[[[3,1],[2,1],[1,1]],[],[[8,6],[8,7],[8,8]]]' }, 3);
    const s = engine.state as TronState;
    assert.deepEqual(s.trails, [
      [
        [1, 1],
        [2, 1],
        [3, 1],
      ],
      [],
      [
        [8, 8],
        [8, 7],
        [8, 6],
      ],
    ]);
    assert.deepEqual(s.death, [null, { lap: 0, cause: 'dead in the starting position' }, null]);
    assert.deepEqual(engine.decision(), { phase: 'play', seats: [0, 2], turn: 1 });
    assert.equal(
      tron.wire.encodeJson!(s, 0, { phase: 'play', matchId: '9', names: [] }),
      '{"game-id":"9","action":"play-turn","game":"tron","board":[[[3,1],[2,1],[1,1]],[],[[8,6],[8,7],[8,8]]],"width":10,"height":10,"player-index":0,"players":3}',
    );
  });

  it('the full form keeps the lap, the deaths and the dead trails; a later death may cross an earlier dead trail', () => {
    const board = {
      lap: 7,
      trails: [
        [
          [4, 2],
          [3, 2],
          [2, 2],
          [1, 2],
        ],
        [
          [3, 1],
          [3, 2],
          [3, 3],
        ],
        [[6, 6]],
      ],
      deaths: [null, { lap: 5, cause: 'timeout: slow' }, null],
    };
    const engine = started({ trails: JSON.stringify(board) }, 3);
    const s = engine.state as TronState;
    assert.equal(s.lap, 7);
    assert.deepEqual(engine.decision(), { phase: 'play', seats: [0, 2], turn: 8 });
    engine.commit(engine.decision()!, [
      { slot: 0, action: 'y-' },
      { slot: 2, action: 'x-' },
    ]); // 0 enters 4,1: free
    engine.commit(engine.decision()!, [
      { slot: 0, action: 'x-' },
      { slot: 2, action: 'y+' },
    ]); // 0 enters 3,1, 1's old head: free
    engine.commit(engine.decision()!, [
      { slot: 0, action: 'y+' },
      { slot: 2, action: 'y+' },
    ]); // 0 hits its own 3,2
    assert.equal(engine.decision(), null);
    assert.deepEqual(engine.outcome().scores, [10, 5, 11]);
    assert.match(engine.outcome().reason, /^C survives after 10 laps; died: B on lap 5 \(timeout: slow\); A on lap 10 \(hit its own trail at 3,2\)$/);
  });

  it('write gives starts at lap 0 and the full form later, each with the other key empty', () => {
    const fresh = started({}, 3);
    assert.deepEqual(Object.keys(tron.tooling!.position!.write(fresh.state)), ['starts', 'trails']);
    assert.equal(tron.tooling!.position!.write(fresh.state).trails, '');
    assert.match(tron.tooling!.position!.write(fresh.state).starts!, /^\d+,\d+;\d+,\d+;\d+,\d+$/);
    const later = started({ trails: '[[[3,1],[2,1]],[],[[8,6]]]' }, 3);
    assert.deepEqual(tron.tooling!.position!.write(later.state), {
      starts: '',
      trails: '{"lap":0,"trails":[[[3,1],[2,1]],[],[[8,6]]],"deaths":[null,{"lap":0,"cause":"dead in the starting position"},null]}',
    });
  });
});

describe('Tron positions: every bad position is refused, saying what and where', () => {
  const bad: [string, Record<string, unknown>, number, RegExp][] = [
    ['too few starts', { starts: '1,1;2,2' }, 3, /starts gives 2 cells but 3 bots play; expected one "x,y" per slot, separated by ";"/],
    ['a malformed start', { starts: '1,1;2 2' }, 2, /starts: slot 1's cell is "2 2"; expected "x,y" with plain non-negative integers/],
    ['a negative start', { starts: '-1,1;2,2' }, 2, /starts: slot 0's cell is "-1,1"/],
    ['a start off the grid', { starts: '1,1;10,3' }, 2, /starts: slot 1's cell 10,3 is off the 10×10 grid \(x 0..9, y 0..9\)/],
    ['the same start twice', { starts: '4,4;1,1;4,4' }, 3, /starts: slot 2's cell 4,4 is also slot 0's; starts must be distinct/],
    ['both keys', { starts: '1,1;2,2', trails: '[[[1,1]],[[2,2]]]' }, 2, /starts and trails are both given; choose one/],
    ['trails not JSON', { trails: '[[1,1]' }, 2, /trails is not JSON \(.*\); expected a board \[\[\[x,y\],…\],…\]/],
    ['an unknown key', { trails: '{"lap":1,"trail":[]}' }, 2, /trails has unknown key trail; expected a board/],
    ['a bad lap', { trails: '{"lap":-1,"trails":[[[1,1]],[[2,2]]]}' }, 2, /trails: "lap" is -1; expected a non-negative integer/],
    ['no trails in the object', { trails: '{"lap":3}' }, 2, /trails: the trails are missing; expected a board/],
    ['too many trails', { trails: '[[[1,1]],[[2,2]],[[3,3]]]' }, 2, /trails gives 3 trails but 2 bots play; expected one per slot/],
    [
      'deaths of the wrong length',
      { trails: '{"trails":[[[1,1]],[[2,2]]],"deaths":[null]}' },
      2,
      /trails: "deaths" is \[null\]; expected an array with null or \{"lap":N,"cause":"…"\} for each of the 2 slots/,
    ],
    ['a trail that is not a list', { trails: '[[[1,1]],{"x":2}]' }, 2, /trails: slot 1's trail is \{"x":2\}; expected an array of \[x,y\] cells, head first/],
    ['a cell that is not [x,y]', { trails: '[[[1,1]],[[2,2],[2]]]' }, 2, /trails: slot 1's cell 1 is \[2\]; expected \[x,y\] with integers/],
    ['a cell off the grid', { trails: '[[[1,1]],[[0,-1]]]' }, 2, /trails: slot 1's cell 0 \(its head\) 0,-1 is off the 10×10 grid/],
    [
      'a trail crossing itself',
      { trails: '[[[1,1],[1,2],[2,2],[2,1],[1,1]],[[5,5]]]' },
      2,
      /trails: slot 0's cell 4 1,1 repeats an earlier cell of the same trail/,
    ],
    [
      'a broken trail',
      { trails: '[[[1,1],[1,2],[1,4]],[[5,5]]]' },
      2,
      /trails: slot 0's cell 2 1,4 is not next to cell 1 1,2; a trail is a path of neighbouring cells/,
    ],
    ['a diagonal step', { trails: '[[[1,1],[2,2]],[[5,5]]]' }, 2, /slot 0's cell 1 2,2 is not next to cell 0 1,1/],
    [
      'a death that is not an object',
      { trails: '{"lap":2,"trails":[[[1,1]],[[2,2]],[[3,3]]],"deaths":[null,null,true]}' },
      3,
      /trails: slot 2's death is true; expected null \(alive\) or \{"lap":N,"cause":"…"\}/,
    ],
    [
      'a death with an unknown key',
      { trails: '{"lap":2,"trails":[[[1,1]],[[2,2]],[[3,3]]],"deaths":[null,null,{"lap":1,"why":"x"}]}' },
      3,
      /slot 2's death has unknown key why/,
    ],
    [
      'a death after the lap',
      { trails: '{"lap":2,"trails":[[[1,1]],[[2,2]],[[3,3]]],"deaths":[null,null,{"lap":3}]}' },
      3,
      /trails: slot 2's death has lap 3; expected an integer in 0..2 \(the position's lap\)/,
    ],
    [
      'a death with a bad cause',
      { trails: '{"lap":2,"trails":[[[1,1]],[[2,2]],[[3,3]]],"deaths":[null,null,{"lap":1,"cause":7}]}' },
      3,
      /slot 2's death has cause 7; expected a string/,
    ],
    [
      'a living bot without a head',
      { trails: '{"trails":[[[1,1]],[],[[3,3]]],"deaths":[null,null,null]}' },
      3,
      /trails: slot 1's trail is empty but its death is null; a living bot needs at least its head/,
    ],
    [
      'two living trails on one cell',
      { trails: '[[[1,1],[2,1]],[[3,1],[2,1]]]' },
      2,
      /trails: slot 1's trail and slot 0's both hold 2,1; trails may share a cell only when one bot died on an earlier lap/,
    ],
    [
      'two trails dead on the same lap on one cell',
      { trails: '{"lap":4,"trails":[[[1,1]],[[5,5],[5,6]],[[5,6]],[[8,8]]],"deaths":[null,{"lap":2},{"lap":2},null]}' },
      4,
      /slot 2's trail and slot 1's both hold 5,6/,
    ],
    ['fewer than 2 alive', { trails: '[[[1,1]],[]]' }, 2, /the position must leave at least 2 bots alive, it has only slot 0/],
    ['nobody alive', { trails: '{"lap":3,"trails":[[],[]],"deaths":[{"lap":1},{"lap":2}]}' }, 2, /at least 2 bots alive, it has none/],
  ];
  for (const [what, config, players, message] of bad) {
    it(what, () => {
      assert.throws(
        () => new MatchEngine(tron, { config: { width: 10, height: 10, ...config }, seed: 1, players }),
        (err: Error) => {
          assert.match(err.message, /^bad config for tron: /);
          assert.match(err.message, message);
          return true;
        },
      );
    });
  }

  it('seeded starts still need enough cells inside the border; chosen starts do not', () => {
    assert.throws(() => new MatchEngine(tron, { config: { width: 2, height: 2 }, seed: 1, players: 2 }), /a 2×2 grid has 1 start cells/);
    assert.doesNotThrow(() => new MatchEngine(tron, { config: { width: 2, height: 2, starts: '0,0;1,1' }, seed: 1, players: 2 }));
  });
});
