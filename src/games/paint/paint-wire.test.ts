import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ConfigValues } from '../../core/config.js';
import { MatchEngine, movesOf } from '../../core/engine.js';
import { engineBefore, positionConfig } from '../../core/position.js';
import { playBuiltins } from '../../core/self-play.js';
import { EMPTY, type PaintState } from './rules.js';
import { drawn, E, paint, shoot, walk } from './paint.kit.js';
import { rubyInteger } from './wire.js';

const ctx = (phase: 'init' | 'play') => ({ phase, matchId: '1', names: [] });

describe('paint wire', () => {
  it('says hello with the player id and sends the board as it is, keys in the reference order', () => {
    const e = new MatchEngine(paint, { config: { board: '11x5' }, seed: 3, players: 2 });
    assert.equal(paint.wire.encodeJson!(e.state, 1, ctx('init')), '{"player_id":"bob"}');
    const d = e.decision()!;
    e.commit(
      d,
      [0, 1].map((slot) => e.read(slot, 'init', { ready: true })),
    );
    const rows = [
      '[null,null,null,null,null,null,null,null,null,null,null]',
      '[null,"alice","alice",null,null,null,null,null,null,null,null]',
      '[null,"alice","alice","alice",null,null,null,"bob","bob","bob",null]',
      '[null,null,null,null,null,null,null,null,"bob","bob",null]',
      '[null,null,null,null,null,null,null,null,null,null,null]',
    ];
    const first = `{"width":11,"height":5,"player_positions":{"alice":[2,3],"bob":[2,7]},"colors":[${rows.join(',')}],"previous_actions":[],"turns_left":110}`;
    assert.equal(paint.wire.encodeJson!(e.state, 0, ctx('play')), first);
    assert.equal(paint.wire.encodeJson!(e.state, 1, ctx('play')), first, 'every player gets the same state');
    assert.equal(JSON.stringify(paint.wire.view(e.state, 0, ctx('play'))), first);
  });

  it('lists every counted action each turn in board order, {} when none counted', () => {
    const m = drawn(['A...', '...B']);
    m.turn({ 1: walk([0.9, '-1']), 0: shoot(['1', 1]) });
    m.turn({ 0: walk([0, 0]), 1: { fault: { kind: 'timeout', detail: 'no answer' } } });
    m.turn({ 1: shoot(E), 0: { turns_left: 8, type: 'walk', direction: [0, 1], comment: 'extra keys are ignored' } });
    assert.match(
      m.message(),
      /"previous_actions":\[\{"alice":\{"type":"shoot","direction":\[1,1\]\},"bob":\{"type":"walk","direction":\[0,-1\]\}\},\{\},\{"alice":\{"type":"walk","direction":\[0,1\]\},"bob":\{"type":"shoot","direction":\[0,1\]\}\}\],"turns_left":7\}$/,
    );
  });

  it('encodeJson equals JSON.stringify(view) on every turn of whole games, obstacles last when present', () => {
    for (const config of [{ board: '7x13b' }, { width: 6, height: 4, obstacles: 5 }, { width: 5, height: 5, ids: 'x"y,__proto__,z' }]) {
      const players = config.ids ? 3 : 2;
      const e = playBuiltins(paint, Array(players).fill('random'), 5, { config });
      const s = e.state as PaintState;
      const replayed = new MatchEngine(paint, { config, seed: 5, players });
      for (const r of e.records) {
        const d = replayed.decision()!;
        if (d.phase === 'play') {
          for (const slot of [0, 1])
            assert.equal(paint.wire.encodeJson!(replayed.state, slot, ctx('play')), JSON.stringify(paint.wire.view(replayed.state, slot, ctx('play'))));
        }
        replayed.commit(d, r.moves as never);
      }
      assert.equal(s.turnsLeft, 0);
      if (config.obstacles)
        assert.match(JSON.stringify(paint.wire.view(e.state, 0, ctx('play'))), /"turns_left":0,"obstacles":\[\[\d+,\d+\](,\[\d+,\d+\]){4}\]\}$/);
    }
  });

  it("each turn's message, built from the one before (rows it did not paint shared), equals one built from scratch", () => {
    for (const config of [{ width: 12, height: 9, turns: 60 }, { width: 8, height: 8, obstacles: 6, turns: 40 }, { board: '10x10' }]) {
      const players = config.board ? 2 : 4;
      const e = playBuiltins(paint, Array(players).fill('random'), 9, { config });
      const replayed = new MatchEngine(paint, { config, seed: 9, players });
      let checked = 0;
      for (const r of e.records) {
        const d = replayed.decision()!;
        if (d.phase === 'play') {
          const extended = JSON.stringify(paint.wire.view(replayed.state, 0, ctx('play')));
          // A copy of the state has no message cached: its message is built whole.
          assert.equal(extended, JSON.stringify(paint.wire.view(structuredClone(replayed.state), 0, ctx('play'))), `turn ${d.turn}`);
          checked++;
        }
        replayed.commit(d, r.moves as never);
      }
      assert.ok(checked > 30);
    }
  });

  // The text keeps each colour row until one of its squares changes; whatever asks, and however often, it must
  // be the text of the board as it is now, byte for byte.
  const scratch = (e: MatchEngine) => JSON.stringify(paint.wire.view(structuredClone(e.state), 0, ctx('play')));
  const text = (e: MatchEngine, slot: number) => paint.wire.encodeJson!(e.state, slot, ctx('play'));

  it("each turn's message text (colour rows kept until they change) equals JSON.stringify(view) built from scratch: every turn, every third turn, from a position", () => {
    const cases: [string, Record<string, unknown>, number][] = [
      ['60×60, 4 players', { width: 60, height: 60, turns: 240 }, 4],
      ['8×8, 10 players (crowded)', { width: 8, height: 8 }, 10],
      ['12×9 with obstacles', { width: 12, height: 9, obstacles: 14, turns: 80 }, 3],
      ['the 7x13b board', { board: '7x13b' }, 2],
    ];
    for (const [what, config, players] of cases) {
      const bots: string[] = Array(players).fill('random');
      const original = playBuiltins(paint, bots, 4, { config });
      const replay = {
        config: original.config as ConfigValues,
        seed: 4,
        seats: bots.map((bot, slot) => ({ slot, name: bot, bot })),
        turns: original.records,
        hashes: original.hashes === 'chain' ? ('chain' as const) : undefined,
      };
      const plays = original.records.filter((r) => r.phase === 'play');
      const middle = plays[plays.length >> 1]!.turn;
      // Three matches at once, interleaved: one asked by every seat every turn, one asked every third turn
      // only (so a message comes several turns after the one before), one started from the middle turn's position.
      const every = new MatchEngine(paint, { config, seed: 4, players });
      const third = new MatchEngine(paint, { config, seed: 4, players });
      const loaded = new MatchEngine(paint, { config: positionConfig(paint, engineBefore(paint, replay, middle)), seed: 4, players });
      let checked = 0;
      for (const r of original.records) {
        const d = every.decision()!;
        if (d.phase === 'play') {
          const fresh = scratch(every);
          for (const slot of d.seats) assert.equal(text(every, slot), fresh, `${what}: turn ${d.turn}, seat ${slot}, asked every turn`);
          if (d.turn % 3 === 0) assert.equal(text(third, d.turn % players), fresh, `${what}: turn ${d.turn}, asked every third turn`);
          if (d.turn >= middle) assert.equal(text(loaded, d.turn % players), fresh, `${what}: turn ${d.turn}, from the position of turn ${middle}`);
          checked++;
        }
        every.commit(d, movesOf(r));
        third.commit(third.decision()!, movesOf(r));
        if (d.phase === 'init' || d.turn >= middle) loaded.commit(loaded.decision()!, movesOf(r));
      }
      assert.equal(every.decision(), null);
      assert.equal(checked, plays.length);
      for (const e of [every, third, loaded]) assert.equal(text(e, 0), scratch(every), `${what}: the last board`);
    }
  });

  it('the message text follows squares changed by hand between two messages, and a colour array replaced', () => {
    const e = playBuiltins(paint, ['random', 'random', 'random'], 2, { config: { width: 9, height: 7, turns: 30 } });
    const s = e.state as PaintState;
    const first = text(e, 0);
    assert.equal(first, scratch(e));
    // The rules noted none of these: the text must still show them.
    s.colors[8] = s.colors[8] === 1 ? 2 : 1;
    s.colors[5 * 9 + 4] = EMPTY;
    assert.equal(text(e, 1), scratch(e));
    assert.notEqual(text(e, 1), first);
    s.colors = s.colors.map((c) => (c === 0 ? 2 : c));
    assert.equal(text(e, 2), scratch(e));
    s.colors[0] = 0;
    assert.equal(text(e, 0), scratch(e));
  });

  const lenient: [unknown, [number, number]][] = [
    [
      [0, 1],
      [0, 1],
    ],
    [
      [0.9, 1],
      [0, 1],
    ],
    [
      [-1.7, 0],
      [-1, 0],
    ],
    [
      ['1', '-1'],
      [1, -1],
    ],
    [
      [' -1 ', 1.5],
      [-1, 1],
    ],
    [
      [-0.5, 1],
      [0, 1],
    ],
  ];
  for (const [direction, read] of lenient) {
    it(`reads the direction ${JSON.stringify(direction)} as ${JSON.stringify(read)}`, () => {
      const m = drawn(['A.', '.B']);
      const p = paint.rules.parseAnswer({ turns_left: 10, type: 'walk', direction }, m.state(), 0);
      assert.deepEqual(p, { ok: true, action: { type: 'walk', direction: read } });
    });
  }

  it("reads a string as Ruby's Integer() does (the reference's Position.from_list)", () => {
    // Each value is what Ruby 3.1's Integer() returned for the string (nil where it raised ArgumentError).
    const ruby: [string, number | null][] = [
      ['0x1', 1],
      ['0X1F', 31],
      ['-0x1f', -31],
      ['0b1', 1],
      ['-0b1', -1],
      ['0b1_0', 2],
      ['0o1', 1],
      ['0o17', 15],
      ['0_1', 1],
      ['0_0_1', 1],
      ['01', 1],
      ['010', 8],
      ['007', 7],
      ['00', 0],
      ['-0', 0],
      ['0d1', 1],
      ['0d09', 9],
      ['1_000', 1000],
      [' 1 ', 1],
      ['\t-1\v', -1],
      ['\f1\r', 1],
      ['+01', 1],
      [' -0x1 ', -1],
      ['09', null],
      ['08', null],
      ['0_8', null],
      ['1__0', null],
      ['_1', null],
      ['1_', null],
      ['0_', null],
      ['0__1', null],
      ['0x', null],
      ['0x_1', null],
      ['0b_1', null],
      ['0o_1', null],
      ['0d_1', null],
      ['0_x1', null],
      ['00x1', null],
      ['+ 1', null],
      ['+-1', null],
      ['1 1', null],
      ['1\u00a0', null],
      ['1\u0000', null],
      ['1e0', null],
      ['1.0', null],
      ['', null],
      [' ', null],
    ];
    for (const [text, value] of ruby) assert.equal(rubyInteger(text), value, JSON.stringify(text));
  });

  const invalid: [unknown, RegExp][] = [
    [{ turns_left: 10, type: 'walk', direction: ['1.0', 0] }, /"direction" \["1.0",0\]: "1.0" is not an integer/],
    [{ turns_left: 10, type: 'walk', direction: [true, 1] }, /true is not an integer/],
    [{ turns_left: 10, type: 'walk', direction: [null, 1] }, /null is not an integer/],
    [{ turns_left: 10, type: 'shoot', direction: [0, 0] }, /\[0,0\] is not one of the 8 directions/],
    [{ turns_left: 10, type: 'shoot', direction: [2, 0] }, /\[2,0\] is not one of the 8 directions/],
    [{ turns_left: 10, type: 'shoot', direction: [0.5, -0.2] }, /is not one of the 8 directions/],
    [{ turns_left: 10, type: 'walk', direction: [1] }, /"direction" must be a list of two integers/],
    [{ turns_left: 10, type: 'walk', direction: [1, 0, 0] }, /a list of two integers .*got \[1,0,0\]/],
    [{ turns_left: 10, type: 'walk', direction: '1,0' }, /a list of two integers/],
    [{ turns_left: 10, type: 'walk' }, /"direction" must be a list of two integers .*got nothing/],
    [{ turns_left: 10, type: 'Walk', direction: [1, 0] }, /"type" must be "walk" or "shoot", got "Walk"/],
    [{ turns_left: 10, direction: [1, 0] }, /"type" must be "walk" or "shoot", got nothing/],
    [{ type: 'walk', direction: [1, 0] }, /no "turns_left": copy it from the state \(10\)/],
    [{ turns_left: '10', type: 'walk', direction: [1, 0] }, /"turns_left" is "10", not the current 10/],
    [{ turns_left: 9, type: 'walk', direction: [1, 0] }, /"turns_left" is 9, not the current 10/],
    [[1, 0], /expected a JSON object like \{"turns_left":10,"type":"walk","direction":\[0,1\]\}, got \[1,0\]/],
    [null, /expected a JSON object/],
  ];
  for (const [answer, detail] of invalid) {
    it(`${JSON.stringify(answer)} is no action, with a reason`, () => {
      const m = drawn(['A.', '.B']);
      const p = paint.rules.parseAnswer(answer, m.state(), 0);
      assert.equal(p.ok, false);
      assert.match((p as { detail: string }).detail, detail);
    });
  }

  it('skips lines carrying another turns_left (late or repeated answers), and takes any other line as the answer', () => {
    const m = drawn(['A.', '.B']);
    const skip = (line: string) => paint.wire.skipAnswer!(line, m.state(), 0, 'play');
    assert.equal(skip('{"turns_left":11,"type":"walk","direction":[0,1]}'), 'turns_left 11 is not the current 10');
    assert.equal(skip('{"turns_left":"10","type":"walk","direction":[0,1]}'), 'turns_left "10" is not the current 10');
    assert.equal(skip('{"turns_left":null}'), 'turns_left null is not the current 10');
    for (const line of [
      '{"turns_left":10,"type":"walk","direction":[0,1]}',
      '{"turns_left":10.0}',
      '{"type":"walk","direction":[0,1]}',
      'walk east',
      '[10]',
      '10',
      '"x"',
      '',
    ]) {
      assert.equal(skip(line), null, line);
    }
    assert.equal(paint.wire.skipAnswer!('{"turns_left":3}', m.state(), 0, 'init'), null, 'the hello answer is never skipped');
  });
});

describe('paint ready handshake', () => {
  it('accepts only an object whose ready is exactly true', () => {
    const e = new MatchEngine(paint, { config: {}, seed: 1, players: 2 });
    assert.deepEqual(paint.rules.init!.parse({ ready: true, name: 'x' }, e.state, 0), { ok: true, action: null });
    for (const bad of [{ ready: 'true' }, { ready: 1 }, {}, [true], true, null]) {
      const p = paint.rules.init!.parse(bad, e.state, 0);
      assert.equal(p.ok, false, JSON.stringify(bad));
      assert.match((p as { detail: string }).detail, /expected \{"ready":true\} to the hello, got /);
    }
  });

  it('when a player fails it, no turn is played and the match ends as an error naming it; the others rank first', () => {
    const e = new MatchEngine(paint, { config: {}, seed: 1, players: 3 });
    const d = e.decision()!;
    assert.deepEqual(d, { phase: 'init', seats: [0, 1, 2], turn: 0 });
    e.commit(d, [
      e.read(0, 'init', { ready: true }),
      { slot: 1, fault: { kind: 'timeout', detail: 'no answer within 5000 ms' } },
      e.read(2, 'init', { ready: false }),
    ]);
    assert.equal(e.decision(), null);
    const o = e.outcome();
    assert.deepEqual(o.ranks, [1, 2, 2]);
    assert.equal(o.scores, null);
    assert.equal(
      o.reason,
      'error: unresponsive players: bob (timeout: no answer within 5000 ms); charlie (bad-answer: expected {"ready":true} to the hello, got {"ready":false}); no turn was played',
    );
    assert.deepEqual({ winner: o.winner, error: o.error }, { winner: null, error: 'unresponsive players: bob (slot 1), charlie (slot 2)' });
    assert.match(paint.presentation.render(e.state), /no turn played: unresponsive bob, charlie/);
  });
});
