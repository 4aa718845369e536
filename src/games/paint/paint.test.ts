import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MatchEngine } from '../../core/engine.js';
import { playBuiltins } from '../../core/self-play.js';
import { BOARDS } from './boards.js';
import { human } from './human.js';
import { OBSTACLE, type PaintState } from './rules.js';
import { drawn, paint, shoot, walk, E, S } from './paint.kit.js';
import type { PaintTurn } from './wire.js';

const ctx = { phase: 'play' as const, matchId: '1', names: [] };
const engine = (config: Record<string, unknown>, players = 2, seed = 1) => new MatchEngine(paint, { config, seed, players });
const stateOf = (config: Record<string, unknown>, players = 2, seed = 1) => engine(config, players, seed).state as PaintState;

describe('paint boards and config', () => {
  it('ships the four reference boards: each first state is the board itself', () => {
    for (const [name, board] of Object.entries(BOARDS)) {
      const v = paint.wire.view(stateOf({ board: name }), 0, ctx);
      assert.deepEqual(v, board, name);
    }
    const s = stateOf({ board: '7x13' });
    assert.deepEqual(
      [s.width, s.height, s.turns, s.positions],
      [
        13,
        7,
        130,
        [
          [3, 1],
          [3, 11],
        ],
      ],
    );
  });

  it('plays any board given as JSON text, with its own ids and obstacles, and turns overriding turns_left', () => {
    const board = {
      turns_left: 4,
      colors: [
        ['zed', null, null],
        [null, null, 'amy'],
      ],
      width: 3,
      height: 2,
      player_positions: { zed: [0, 0], amy: [1, 2] },
      obstacles: [[0, 2]],
    };
    const s = stateOf({ board: JSON.stringify(board) });
    assert.deepEqual([s.ids, s.turns, s.obstacles, s.colors[2]], [['zed', 'amy'], 4, [[0, 2]], OBSTACLE]);
    assert.equal(stateOf({ board: JSON.stringify(board), turns: 9 }).turns, 9);
    assert.deepEqual(stateOf({ board: '10x10', ids: 'red,blue' }).ids, ['red', 'blue']);
  });

  const bad: [Record<string, unknown>, number, RegExp][] = [
    [{ board: 'huge' }, 2, /bad board: "huge" is not a shipped board \(10x10, 11x5, 7x13, 7x13b\), a board's JSON text, nor a file/],
    [{ board: '{"width":3' }, 2, /bad board: not JSON/],
    [{ board: '[]' }, 2, /not a shipped board/],
    [{ board: '{"width":0}' }, 2, /bad board: width must be a positive integer, got 0/],
    [
      { board: '{"width":2,"height":1,"player_positions":{"a":[0,0],"b":[0,2]}}' },
      2,
      /bad board: player_positions.b must be \[row, column\] inside the 2×1 board .* got \[0,2\]/,
    ],
    [{ board: '{"width":2,"height":1,"player_positions":{"a":[0,0],"b":[0,0]}}' }, 2, /bad board: player_positions: a and b both start on \[0,0\]/],
    [
      { board: '{"width":2,"height":1,"player_positions":{"a":[0,0],"b":[0,1]},"colors":[["a"]]}' },
      2,
      /bad board: colors\[0\] must be a list of 2 squares \(width\), got 1/,
    ],
    [
      { board: '{"width":2,"height":1,"player_positions":{"a":[0,0],"b":[0,1]},"colors":[["a","c"]]}' },
      2,
      /bad board: colors\[0\]\[1\] must be null or a player id of player_positions \(a, b\), got "c"/,
    ],
    [{ board: '{"width":2,"height":1,"player_positions":{"a":[0,0],"b":[0,1]},"colors":[[null,null]]}' }, 2, /bad board: turns_left is missing/],
    [
      { board: '{"width":2,"height":1,"player_positions":{"a":[0,0],"b":[0,1]},"colors":[[null,null]],"turns_left":5,"previous_actions":[{"c":{}}]}' },
      2,
      /previous_actions\[0\] names "c", not a player id of player_positions \(a, b\)/,
    ],
    [
      { board: '{"width":3,"height":1,"player_positions":{"a":[0,0],"b":[0,1]},"colors":[[null,null,"a"]],"turns_left":5,"obstacles":[[0,2]]}' },
      2,
      /obstacles\[0\]: \[0,2\] is painted/,
    ],
    [{ board: '10x10' }, 3, /the board 10x10 is for 2 players \(alice, bob\), not 3/],
    [{ width: 2, height: 2, obstacles: 3 }, 2, /a 2×2 board with 3 obstacles has 1 free squares, fewer than 2 players/],
    [{ ids: 'a,,b' }, 2, /ids: an empty id/],
    [{ ids: 'a,a' }, 2, /names a player twice/],
    [{ ids: 'a' }, 2, /ids names 1 players, fewer than the 2 seats/],
    [{ ids: 'a,7' }, 2, /"7" is a whole number/],
  ];
  for (const [config, players, message] of bad) {
    it(`refuses ${JSON.stringify(config)} for ${players} players, saying why`, () => {
      assert.throws(
        () => engine(config, players),
        (err: Error) => (assert.match(err.message, /^bad config for paint: /), assert.match(err.message, message), true),
      );
    });
  }

  it('generates boards from the seed: starts spread out and painted, obstacles free of them, the same for the same seed', () => {
    const two = stateOf({ width: 10, height: 10 }, 2, 7);
    const [[i0, j0], [i1, j1]] = two.positions as [[number, number], [number, number]];
    assert.deepEqual([i0 + i1, j0 + j1], [9, 9], 'two players start point-symmetric');
    assert.equal(two.turns, 100);
    two.positions.forEach(([i, j], slot) => assert.equal(two.colors[i * 10 + j], slot));
    assert.deepEqual(stateOf({ width: 10, height: 10 }, 2, 7), two);
    assert.notDeepEqual(stateOf({ width: 10, height: 10 }, 2, 8).positions, two.positions);
    const many = stateOf({ width: 3, height: 3, obstacles: 2, turns: 5 }, 7, 3);
    assert.deepEqual(many.ids, ['alice', 'bob', 'charlie', 'danielle', 'erin', 'frank', 'grace']);
    assert.equal(new Set(many.positions.map(String)).size, 7);
    assert.equal(many.obstacles.length, 2);
    for (const [i, j] of many.obstacles) assert.equal(many.colors[i * 3 + j], OBSTACLE);
    assert.deepEqual(stateOf({ width: 30, height: 1 }, 10).ids.slice(7), ['heidi', 'player9', 'player10']);
  });
});

describe('paint turns, scores and ranks', () => {
  it('plays exactly `turns` turns, counting turns_left down to 1 in the last message', () => {
    const m = drawn(['A..', '..B'], 3);
    const seen: number[] = [];
    while (m.engine.decision()) {
      seen.push((paint.wire.view(m.state(), 0, ctx) as PaintTurn).turns_left);
      m.turn({ 0: walk(E), 1: shoot(S) });
    }
    assert.deepEqual(seen, [3, 2, 1]);
    assert.equal(m.state().history.length, 3);
  });

  it('scores squares of each colour; equal counts share a rank', () => {
    const m = drawn(['Aa.b', 'Bcc.', 'C...'], 1);
    m.turn({});
    const o = m.engine.outcome();
    assert.deepEqual(o.scores, [2, 2, 3]);
    assert.deepEqual(o.ranks, [2, 2, 1]);
    assert.equal(o.reason, 'charlie wins after 1 turns (squares: alice 2, bob 2, charlie 3)');
    const tie = drawn(['A.B'], 1);
    tie.turn({});
    assert.deepEqual(tie.engine.outcome().ranks, [1, 1]);
    assert.match(tie.engine.outcome().reason, /^alice and bob share the lead/);
  });

  it('renders the board with letters: avatars upper case, paint lower case, obstacles #', () => {
    const m = drawn(['Aa.#', 'b..B']);
    assert.equal(paint.presentation.render(m.state()), 'turn 0 of 10, 4×2\n  0123\n0 Aa.#\n1 b..B\nA alice at [0,0]: 2 · B bob at [1,3]: 2');
  });
});

describe('paint bots and human play', () => {
  it('random answers valid actions with the nonce copied', () => {
    const e = playBuiltins(paint, ['random', 'random'], 4, { config: { board: '10x10' }, onFault: (_s, d) => assert.fail(d) });
    assert.equal(e.decision(), null);
    const kinds = new Set((e.state as PaintState).history.flatMap((t) => t.map((a) => a!.type)));
    assert.deepEqual([...kinds].sort(), ['shoot', 'walk']);
  });

  it('painter beats random in at least 9 of 10 games over the shipped boards, both seats (100-game figures in the report)', () => {
    const boards = Object.keys(BOARDS);
    let wins = 0;
    for (let seed = 0; seed < 10; seed++) {
      const first = seed % 2 === 0;
      const config = { board: boards[seed % boards.length] };
      const ranks = playBuiltins(paint, first ? ['painter', 'random'] : ['random', 'painter'], seed, { config, onFault: (_s, d) => assert.fail(d) }).outcome()
        .ranks;
      wins += Number(first ? ranks[0]! < ranks[1]! : ranks[1]! < ranks[0]!);
    }
    assert.ok(wins >= 9, `painter won ${wins} of 10`);
  });

  it('several bots play a generated board with obstacles to the end, and the same seed replays it', () => {
    const bots = ['painter', 'random', 'painter', 'random', 'painter'];
    const config = { width: 9, height: 7, obstacles: 6, turns: 40 };
    const a = playBuiltins(paint, bots, 12, { config, onFault: (_s, d) => assert.fail(d) });
    const b = playBuiltins(paint, bots, 12, { config });
    assert.equal(a.decision(), null);
    assert.deepEqual(a.records, b.records);
  });

  it('a person types a type and a direction', () => {
    const view = paint.wire.view(drawn(['A.', '.B']).state(), 0, ctx) as PaintTurn;
    assert.match(human.prompt(view, 'play'), /0 A\.\n1 \.B\nA = alice \(slot 0\) at \[0,0\]: 1\nB = bob \(slot 1\) at \[1,1\]: 1\n10 turns left\nyour action/);
    assert.deepEqual(human.parse('walk e', view, 'play'), { answer: { turns_left: 10, type: 'walk', direction: [0, 1] } });
    assert.deepEqual(human.parse('s SW', view, 'play'), { answer: { turns_left: 10, type: 'shoot', direction: [1, -1] } });
    assert.deepEqual(human.parse('shoot -1 0', view, 'play'), { answer: { turns_left: 10, type: 'shoot', direction: [-1, 0] } });
    assert.match((human.parse('jump e', view, 'play') as { error: string }).error, /"jump e" is not an action/);
    assert.ok('error' in human.parse('walk 0 0', view, 'play'));
  });
});
