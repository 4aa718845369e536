import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MatchEngine } from '../../core/engine.js';
import { engineBefore } from '../../core/position.js';
import { checkPositionRoundTrip } from '../../core/position.kit.js';
import { playBuiltins } from '../../core/self-play.js';
import type { PaintState } from './rules.js';
import { paint } from './paint.kit.js';

const ctx = { phase: 'play' as const, matchId: '1', names: [] };
/** A match on `config`, its inits answered: ready for the first turn. */
function started(config: Record<string, unknown>, players = 2): MatchEngine {
  const e = new MatchEngine(paint, { config, seed: 1, players });
  const d = e.decision()!;
  e.commit(
    d,
    d.seats.map((slot) => e.read(slot, 'init', { ready: true })),
  );
  return e;
}

describe('paint positions: round trip', () => {
  const cases: [string, Record<string, unknown>, string[], number[], number[]][] = [
    ['10x10', { board: '10x10' }, ['painter', 'random'], [1, 2], [1, 2, 50, 100]],
    ['11x5', { board: '11x5' }, ['random', 'painter'], [3], [1, 37, 110]],
    ['7x13', { board: '7x13' }, ['random', 'random'], [4, 5], [1, 64, 130]],
    ['7x13b with 30 turns and its own ids', { board: '7x13b', turns: 30, ids: 'red,blue' }, ['painter', 'painter'], [6], [1, 15, 30]],
    [
      'a generated board with obstacles, 5 players',
      { width: 9, height: 7, obstacles: 6, turns: 40 },
      ['painter', 'random', 'painter', 'random', 'random'],
      [12, 13],
      [1, 2, 21, 40],
    ],
    ['a generated board, the default turns', { width: 5, height: 4 }, ['random', 'random', 'random'], [7], [1, 10, 20]],
  ];
  for (const [what, config, bots, seeds, turns] of cases) {
    it(`starts the same state and plays on identically: ${what}, seeds ${seeds.join(', ')}, turns ${turns.join(', ')}`, () => {
      for (const seed of seeds) for (const turn of turns) checkPositionRoundTrip(paint, bots, seed, turn, config);
    });
  }

  it('writes the very message the bots were sent at that turn, and the forked match sends it again', () => {
    const bots = ['painter', 'random', 'painter'];
    const config = { width: 8, height: 6, obstacles: 5, turns: 30, ids: 'x1,y2,z3' };
    const e = playBuiltins(paint, bots, 9, { config });
    const replay = {
      config: e.config,
      seed: 9,
      seats: bots.map((bot, slot) => ({ slot, name: bot, bot })),
      turns: e.records,
      hashes: e.hashes === 'chain' ? ('chain' as const) : undefined,
    };
    for (const turn of [1, 12, 30]) {
      const at = engineBefore(paint, replay, turn);
      const sent = paint.wire.encodeJson!(at.state, 0, ctx);
      const { board } = paint.tooling!.position!.write(at.state);
      assert.equal(board, sent);
      const board0 = JSON.parse(board!) as { previous_actions: unknown[]; turns_left: number; obstacles: unknown[] };
      assert.deepEqual([board0.previous_actions.length, board0.turns_left, board0.obstacles.length], [turn - 1, 31 - turn, 5]);
      // Started from the board alone (no turns, ids or size keys): the same message, the same turn number.
      const forked = started({ board }, 3);
      assert.equal(paint.wire.encodeJson!(forked.state, 2, ctx), sent);
      assert.deepEqual(forked.decision(), { phase: 'play', seats: [0, 1, 2], turn });
      const s = forked.state as PaintState;
      assert.deepEqual([s.turns, s.turnsLeft, s.ids, s.history], [30, 31 - turn, ['x1', 'y2', 'z3'], (at.state as PaintState).history]);
    }
  });
});

describe('paint positions: a board with previous_actions', () => {
  const board = {
    width: 3,
    height: 2,
    player_positions: { zed: [0, 0], amy: [1, 1] },
    colors: [
      ['zed', null, null],
      [null, 'amy', 'amy'],
    ],
    previous_actions: [{}, { amy: { type: 'walk', direction: [0, -1] }, zed: { type: 'shoot', direction: [1, 1] } }],
    turns_left: 3,
  };

  it('counts those turns as played: the turn number, the total, and the history the bots see', () => {
    const e = started({ board: JSON.stringify(board) });
    const s = e.state as PaintState;
    assert.deepEqual([s.turns, s.turnsLeft, e.decision()!.turn], [5, 3, 3]);
    assert.deepEqual(s.history, [
      [null, null],
      [
        { type: 'shoot', direction: [1, 1] },
        { type: 'walk', direction: [0, -1] },
      ],
    ]);
    const sent = JSON.parse(paint.wire.encodeJson!(s, 0, ctx)) as typeof board;
    assert.deepEqual(
      sent.previous_actions,
      [{}, { zed: { type: 'shoot', direction: [1, 1] }, amy: { type: 'walk', direction: [0, -1] } }],
      "in the board's order of players",
    );
    // `turns` counts the whole match, the turns already played included.
    const t = started({ board: JSON.stringify(board), turns: 4 }).state as PaintState;
    assert.deepEqual([t.turns, t.turnsLeft], [4, 2]);
  });

  const bad = (change: Record<string, unknown>) => JSON.stringify({ ...board, ...change });
  const walkW = { type: 'walk', direction: [0, -1] };
  const cases: [string, Record<string, unknown>, RegExp][] = [
    [
      'not a list',
      { board: bad({ previous_actions: {} }) },
      /bad board: previous_actions must be a list with one object per turn played \(\{\} when no action counted\), got \{\}/,
    ],
    [
      'a turn not an object',
      { board: bad({ previous_actions: [{}, []] }) },
      /previous_actions\[1\] must be an object \{"id": \{"type":…,"direction":\[di,dj\]\}, …\}, got \[\]/,
    ],
    [
      'an unknown player',
      { board: bad({ previous_actions: [{ bob: walkW }] }) },
      /previous_actions\[0\] names "bob", not a player id of player_positions \(zed, amy\)/,
    ],
    [
      'an action not an object',
      { board: bad({ previous_actions: [{ amy: 'walk' }] }) },
      /previous_actions\[0\]\.amy must be \{"type":"walk"\|"shoot","direction":\[di,dj\]\}, got "walk"/,
    ],
    [
      'an action with an extra key',
      { board: bad({ previous_actions: [{ amy: { ...walkW, turns_left: 4 } }] }) },
      /previous_actions\[0\]\.amy must be \{"type"/,
    ],
    [
      'a bad type',
      { board: bad({ previous_actions: [{ amy: { type: 'jump', direction: [0, 1] } }] }) },
      /previous_actions\[0\]\.amy\.type must be "walk" or "shoot", got "jump"/,
    ],
    [
      'a standing direction',
      { board: bad({ previous_actions: [{}, { zed: { type: 'walk', direction: [0, 0] } }] }) },
      /previous_actions\[1\]\.zed\.direction must be one of the 8 directions \[di,dj\] \(each −1, 0 or 1, not both 0\), got \[0,0\]/,
    ],
    [
      'a direction as strings',
      { board: bad({ previous_actions: [{ zed: { type: 'walk', direction: ['0', '1'] } }] }) },
      /previous_actions\[0\]\.zed\.direction must be one of the 8 directions/,
    ],
    [
      'turns already all played',
      { board: JSON.stringify(board), turns: 2 },
      /turns 2 leaves no turn to play after the board's 2 previous_actions; give more turns, or 0 for the board's turns_left/,
    ],
  ];
  for (const [what, config, expected] of cases) {
    it(`rejects ${what}`, () => {
      assert.throws(
        () => new MatchEngine(paint, { config, seed: 1, players: 2 }),
        (err: Error) => {
          assert.match(err.message, /^bad config for paint: /);
          assert.match(err.message, expected);
          return true;
        },
      );
    });
  }
});
