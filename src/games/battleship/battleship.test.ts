import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MatchEngine } from '../../core/engine.js';
import type { AnyGame } from '../../core/game.js';
import { playBuiltins } from '../../core/self-play.js';
import { playScript } from '../botsarena/driver.kit.js';
import { battleship as typed } from './index.js';
import type { BattleshipState } from './rules.js';
import { formDialect } from './wire.js';

const battleship: AnyGame = typed;
/** Default fleet, lengths 5, 4, 3, 3, 2, one ship per row from the top-left. */
const FLEET = ['0,0-4,0', '0,1-3,1', '0,2-2,2', '0,3-2,3', '0,4-1,4'];
const OTHER = ['9,9-9,5', '8,9-8,6', '7,9-7,7', '6,9-6,7', '5,9-5,8'];
const init = (boats: unknown) => ({ name: 'x', boats });
const shot = (xy: unknown) => ({ play: xy });
/** Every cell of FLEET, in order: shooting them all sinks the fleet. */
const FLEET_CELLS = FLEET.flatMap((b) => {
  const [x1, y, x2] = b.split(/[,-]/).map(Number) as [number, number, number];
  return Array.from({ length: x2 - x1 + 1 }, (_, i) => `${x1 + i},${y}`);
});

describe('Battleship config', () => {
  const bad: [Record<string, unknown>, RegExp][] = [
    [{ ship2: 0, ship3: 0, ship4: 0, ship5: 0 }, /at least one ship/],
    [{ width: 4, height: 4, ship2: 0, ship3: 3, ship4: 0, ship5: 0 }, /the ships cover 9 cells but at most 8 \(half of 4×4\)/],
    [{ width: 3, height: 20, ship2: 0, ship3: 0, ship4: 0, ship5: 0, ship6: 1 }, null as unknown as RegExp],
    [{ width: 5, height: 4, ship2: 0, ship3: 0, ship4: 0, ship5: 0, ship6: 1 }, /a ship of length 6 fits neither the width 5 nor the height 4/],
    [{ width: 0 }, /config "width" of battleship must be an integer in 1..100/],
    [{ ship3: 11 }, /config "ship3" of battleship must be an integer in 0..10/],
  ];
  for (const [config, message] of bad) {
    it(`${JSON.stringify(config)} ${message ? 'is refused with the rule named' : 'is accepted'}`, () => {
      const make = () => new MatchEngine(battleship, { config, seed: 1, players: 2 });
      if (message) assert.throws(make, message);
      else assert.doesNotThrow(make);
    });
  }
});

describe('Battleship wire', () => {
  it('sends init with numbers as strings and a numeric game-id, in the original field order', () => {
    const m = playScript(battleship, [init(FLEET), init(OTHER), shot('20,20')], { matchId: '1609', names: ['gnieark', 'stupidIA'] });
    assert.equal(
      m.sent[0],
      '{"game-id":1609,"game":"battleship","action":"init","players":2,"player-index":0,"board":{"opponent":"stupidIA","width":"10","height":"10","ship1":"0","ship2":"1","ship3":"2","ship4":"1","ship5":"1","ship6":"0"}}',
    );
    assert.equal(
      m.sent[2],
      '{"game":"Battleship","game-id":1609,"action":"play-turn","player-index":0,"board":{"opponent":"stupidIA","width":"10","height":"10","ship1":"0","ship2":"1","ship3":"2","ship4":"1","ship5":"1","ship6":"0","your_strikes":[],"his_strikes":[]}}',
    );
  });

  it('sends full strike histories, oldest first, from each side', () => {
    const m = playScript(battleship, [init(FLEET), init(OTHER), shot('9,9'), shot('0,0'), shot('1,1'), shot('20,0')]);
    const last = JSON.parse(m.sent[5]!);
    assert.equal(last['player-index'], 1);
    assert.deepEqual(last.board.your_strikes, [{ target: '0,0', result: 'hit' }]);
    assert.deepEqual(last.board.his_strikes, [
      { target: '9,9', result: 'hit' },
      { target: '1,1', result: '' },
    ]);
    assert.equal('players' in last, false);
    assert.equal('you' in last, false);
  });
});

describe('Battleship placement', () => {
  const lose = (slot: number, boats: unknown, pattern: RegExp) => {
    const answers = slot === 0 ? [init(boats)] : [init(FLEET), init(boats)];
    const m = playScript(battleship, answers);
    assert.equal(m.sent.length, answers.length, 'nobody is asked after a bad placement');
    assert.deepEqual(m.outcome.ranks, slot === 0 ? [2, 1] : [1, 2]);
    assert.match(m.outcome.reason, pattern);
  };
  it('a bad placement by slot 0 loses before slot 1 is even asked', () =>
    lose(
      0,
      ['0,0-1,1', ...FLEET.slice(1)],
      /^P2 wins: P1 forfeited on turn 0 \(illegal-move: ships badly placed: ship 1 "0,0-1,1" is neither on one row nor on one column\)/,
    ));
  it('a bad placement by slot 1 loses', () => lose(1, OTHER.slice(1), /P2 forfeited .*wrong number of ships: 1 of length 5 expected, got 0/));
  it('boats must be an array of strings', () => {
    lose(0, '0,0-4,0', /bad-answer: "boats" must be an array/);
    lose(0, undefined, /bad-answer: "boats" must be an array/);
    lose(0, [1, 2], /ship 1 is 1, expected "x1,y1-x2,y2"/);
  });
  for (const malformed of ['0,0-4,0 ', '0,0-4,0x', '-1,0-3,0', '0,0 - 4,0', '00,0-4,0', '0,0,4,0']) {
    it(`refuses the malformed ship ${JSON.stringify(malformed)}`, () => lose(0, [malformed, ...FLEET.slice(1)], /bad-answer: ships badly placed: ship 1 is/));
  }
  it('refuses off-grid and overlapping ships, and too long ones', () => {
    lose(0, ['6,0-10,0', ...FLEET.slice(1)], /ship 1 "6,0-10,0" is off the 10×10 grid/);
    lose(0, [...FLEET.slice(0, 4), '1,0-1,1'], /ship 5 "1,0-1,1" overlaps an earlier ship at 1,0/);
    lose(0, ['0,0-6,0', ...FLEET.slice(1)], /wrong number of ships: 1 of length 5 expected, got 0|0 of length 7 expected, got 1/);
  });
  it('allows touching ships, any ship order and any end order', () => {
    const touching = ['4,0-0,0', '0,1-3,1', '2,2-0,2', '0,3-0,5', '1,3-1,4'].reverse();
    const m = playScript(battleship, [init(touching), init(OTHER), shot('20,20')]);
    assert.match(m.outcome.reason, /P1 forfeited on turn 1/, 'placement accepted; the game reached the first shot');
  });
});

describe('Battleship shots', () => {
  /** P1 shoots `p1Shots` in turn while P2 shoots harmlessly at 9,0. */
  const duel = (p1Shots: string[], extra: unknown[] = []) =>
    playScript(battleship, [init(FLEET), init(OTHER), ...p1Shots.flatMap((s) => [shot(s), shot('9,0')]), ...extra]);

  it('reports miss, hit, hit and sunk, and ends on hit sunk and win without a reply shot', () => {
    const targets = OTHER.flatMap((b) => {
      const [x, y1, , y2] = b.split(/[,-]/).map(Number) as [number, number, number, number];
      return Array.from({ length: y1 - y2 + 1 }, (_, i) => `${x},${y2 + i}`);
    });
    const answers: unknown[] = [init(FLEET), init(OTHER)];
    targets.forEach((t, i) => answers.push(shot(t), ...(i < targets.length - 1 ? [shot('9,0')] : [])));
    const m = playScript(battleship, answers);
    const strikes = (m.engine.state as BattleshipState).strikes[0]!;
    assert.deepEqual(
      strikes.slice(0, 5).map((s) => s.result),
      ['hit', 'hit', 'hit', 'hit', 'hit and sunk'],
    );
    assert.equal(strikes.at(-1)!.result, 'hit sunk and win');
    assert.deepEqual(m.outcome.ranks, [1, 2]);
    assert.match(m.outcome.reason, /^P1 wins: sank the last ship with 5,9 on turn 33$/);
    assert.deepEqual(m.outcome.scores, [5, 0]);
  });

  it('a repeat shot on a hit cell of a ship afloat is "hit" again; on a sunk ship it is ""; a miss is ""', () => {
    const m = duel(['9,5', '9,5', '9,6', '9,7', '9,8', '9,9', '9,5', '0,0'], [shot('bad')]);
    assert.deepEqual(
      (m.engine.state as BattleshipState).strikes[0]!.map((s) => s.result),
      ['hit', 'hit', 'hit', 'hit', 'hit', 'hit and sunk', '', ''],
    );
  });

  for (const bad of ['04,04', '-1,2', ' 1,2', '1,2\n', '1;2', '1,2,3', 3, null]) {
    it(`the malformed shot ${JSON.stringify(bad)} loses at once`, () => {
      const m = duel([], [shot(bad)]);
      assert.match(m.outcome.reason, /^P2 wins: P1 forfeited on turn 1 \(bad-answer: the shot must be "x,y" with plain non-negative integers/);
    });
  }

  it('an off-grid shot loses at once', () => {
    const m = duel(['0,0'], [shot('3,10')]);
    assert.match(m.outcome.reason, /^P2 wins: P1 forfeited on turn 3 \(illegal-move: the shot 3,10 is off the 10×10 grid\)/);
  });

  it('the optional turn cap ends in a draw', () => {
    const m = playScript(battleship, [init(FLEET), init(OTHER), shot('0,9'), shot('9,0'), shot('1,9'), shot('9,1')], { config: { maxTurns: 4 } });
    assert.deepEqual(m.outcome.ranks, [1, 1]);
    assert.equal(m.outcome.reason, 'draw: the turn cap (4 shots) was reached');
  });

  it('P2 can win too (FLEET_CELLS sinks P1)', () => {
    const answers: unknown[] = [init(FLEET), init(OTHER)];
    FLEET_CELLS.forEach((c) => answers.push(shot('0,9'), shot(c)));
    const m = playScript(battleship, answers);
    assert.deepEqual(m.outcome.ranks, [2, 1]);
  });
});

describe('Battleship 2015 form dialect', () => {
  it('encodes init and fight as the original form fields', () => {
    const engine = new MatchEngine(battleship, { config: {}, seed: 1, players: 2 });
    const ctx = { phase: 'init' as const, matchId: '828', names: ['a', 'stupidIA'] };
    assert.equal(
      formDialect.encode(engine.state as BattleshipState, 0, ctx),
      'game=Battleship&match_id=828-1&act=init&opponent=stupidIA&width=10&height=10&ship1=0&ship2=1&ship3=2&ship4=1&ship5=1&ship6=0',
    );
    const s = engine.state as BattleshipState;
    s.strikes[0]!.push({ target: '2,0', result: '' });
    const fight = new URLSearchParams(formDialect.encode(s, 1, { ...ctx, phase: 'play' }));
    assert.equal(fight.get('match_id'), '828-2');
    assert.equal(fight.get('act'), 'fight');
    assert.equal(fight.get('opponent'), 'a');
    assert.equal(fight.get('your_strikes'), '[]');
    assert.equal(fight.get('his_strikes'), '[{"target":"2,0","result":""}]');
  });

  it('reads a bare JSON array at init and bare "x,y" text for a shot, whitespace ignored', () => {
    const s = new MatchEngine(battleship, { config: {}, seed: 1, players: 2 }).state as BattleshipState;
    assert.deepEqual(formDialect.decodeInit!(` ${JSON.stringify(FLEET)}\n`, s, 0), {
      ok: true,
      action: {
        fleet: [
          [0, 0, 4, 0],
          [0, 1, 3, 1],
          [0, 2, 2, 2],
          [0, 3, 2, 3],
          [0, 4, 1, 4],
        ],
      },
    });
    assert.deepEqual(formDialect.decode(' 3,4\r\n', s, 0), { ok: true, action: { shot: [3, 4] } });
    assert.equal(formDialect.decode('{"play":"3,4"}', s, 0).ok, false);
    assert.equal(formDialect.decodeInit!('oops', s, 0).ok, false);
  });
});

describe('Battleship bots', () => {
  it('random always places a legal fleet, even on odd grids', () => {
    for (const config of [{}, { width: 5, height: 20, ship6: 2, ship1: 3 }, { width: 1, height: 12, ship2: 1, ship3: 1, ship4: 0, ship5: 0 }]) {
      for (let seed = 0; seed < 30; seed++) {
        playBuiltins(battleship, ['random', 'random'], seed, { config, onFault: (_s, d) => assert.fail(`${JSON.stringify(config)} seed ${seed}: ${d}`) });
      }
    }
  });

  it('hunter beats random in at least 99 of 100 games with fewer than 60 shots on average', () => {
    let wins = 0;
    let shots = 0;
    for (let seed = 0; seed < 100; seed++) {
      const first = seed % 2 === 0;
      const e = playBuiltins(battleship, first ? ['hunter', 'random'] : ['random', 'hunter'], seed, { onFault: (_s, d) => assert.fail(d) });
      const me = first ? 0 : 1;
      wins += Number(e.outcome().ranks[me] === 1);
      shots += (e.state as BattleshipState).strikes[me]!.length;
    }
    assert.ok(wins >= 99, `hunter won ${wins} of 100`);
    assert.ok(shots / 100 < 60, `hunter needed ${shots / 100} shots on average`);
  });

  it('hunter still finds every ship of a fleet of touching ships', () => {
    // Ships touching end to side (random's fleet of seed 335): a sunk ship's run of hits continues into
    // its neighbours, and a wrong guess once cost the hunter the whole grid.
    const touching = ['0,1-4,1', '3,2-5,2', '6,3-8,3', '6,4-6,7', '1,7-1,8'];
    for (let seed = 0; seed < 20; seed++) {
      const engine = new MatchEngine(battleship, { config: {}, seed, players: 2 });
      const hunter = battleship.bots.hunter!.create({ slot: 1, players: 2, config: engine.config, seed });
      for (let d = engine.decision(); d; d = engine.decision()) {
        const decision = d;
        engine.commit(
          decision,
          decision.seats.map((slot) => {
            const answer =
              slot === 1
                ? hunter.act(engine.view(1, { phase: decision.phase, matchId: '1', names: ['packed', 'hunter'] }), decision.phase)
                : decision.phase === 'init'
                  ? init(touching)
                  : shot('9,0');
            return engine.read(slot, decision.phase, answer);
          }),
        );
      }
      const shots = (engine.state as BattleshipState).strikes[1]!.length;
      assert.equal(engine.outcome().ranks[1], 1, `seed ${seed}`);
      assert.ok(shots <= 60, `seed ${seed}: hunter needed ${shots} shots to sink 17 cells`);
    }
  });
});
