import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MatchEngine } from '../../core/engine.js';
import type { AnyGame } from '../../core/game.js';
import { checkPositionRoundTrip } from '../../core/position.kit.js';
import { playBuiltins } from '../../core/self-play.js';
import { playScript } from '../botsarena/driver.kit.js';
import { battleship as typed } from './index.js';
import type { BattleshipState } from './rules.js';

const battleship: AnyGame = typed;
/** P1's fleet (lengths 5, 4, 3, 3, 2 on rows 0..4) and P2's (columns 5..9 from the bottom). */
const P1 = '0,0-4,0;0,1-3,1;0,2-2,2;0,3-2,3;0,4-1,4';
const P2 = '9,9-9,5;8,9-8,6;7,9-7,7;6,9-6,7;5,9-5,8';
const FLEETS = `${P1}/${P2}`;
/** Every cell of P2's fleet but 5,8: P1 has sunk all of it but one cell. */
const P2_CELLS_BUT_ONE = ['9,5', '9,6', '9,7', '9,8', '9,9', '8,6', '8,7', '8,8', '8,9', '7,7', '7,8', '7,9', '6,7', '6,8', '6,9', '5,9'];
/** P2's misses, as many as P1's shots. */
const P2_MISSES = Array.from({ length: 16 }, (_, i) => `${5 + (i % 5)},${Math.floor(i / 5)}`);
const init = (boats: unknown) => ({ name: 'x', boats });
const shot = (xy: string) => ({ play: xy });

/** The play turns worth forking at: the first two, the middle, the last, and right after the first hit and the first sink. */
function forkTurns(bots: string[], seed: number, config: Record<string, unknown>): number[] {
  const engine = playBuiltins(battleship, bots, seed, { config });
  const s = engine.state as BattleshipState;
  const last = engine.lastTurn();
  const turnOf = (side: number, i: number) => 2 * i + side + 1; // P1 shoots on odd turns
  const after = (found: string) =>
    Math.min(...[0, 1].map((side) => s.strikes[side]!.findIndex((k) => k.result.startsWith(found))).map((i, side) => (i < 0 ? Infinity : turnOf(side, i) + 1)));
  const afterHit = after('hit');
  const afterSink = after('hit and sunk');
  assert.ok(afterHit < last && afterSink < last, `seed ${seed}: a hit (${afterHit}) and a sink (${afterSink}) before the last turn ${last}`);
  return [...new Set([1, 2, Math.ceil(last / 2), last, afterHit, afterSink])];
}

describe('Battleship positions: round trip', () => {
  const cases: [string[], Record<string, unknown>][] = [
    [['hunter', 'random'], {}],
    [['hunter', 'hunter'], { width: 7, height: 6, ship1: 2, ship5: 0 }],
    [['random', 'hunter'], { fleets: FLEETS, strikes: '0,9;9,0/0,0' }],
  ];
  for (const [bots, config] of cases) {
    it(`${bots.join(' vs ')} ${JSON.stringify(config)}: a position written at any turn starts the same match`, () => {
      for (const seed of [1, 2, 3]) for (const turn of forkTurns(bots, seed, config)) checkPositionRoundTrip(battleship, bots, seed, turn, config);
    });
  }

  it('a turn cap counts the shots of the position too', () => {
    const config = { maxTurns: 30 };
    for (const turn of [1, 15, 30]) checkPositionRoundTrip(battleship, ['random', 'random'], 4, turn, config);
  });
});

describe('Battleship positions: chosen fleets and strikes', () => {
  it('one shot from the end: P1 sinks the last ship with its next shot and wins on turn 33', () => {
    const strikes = `${P2_CELLS_BUT_ONE.join(';')}/${P2_MISSES.join(';')}`;
    // The init answers place other fleets: they are checked but not used.
    const m = playScript(battleship, [init(P2.split(';')), init(P1.split(';')), shot('5,8')], { config: { fleets: FLEETS, strikes } });
    const turn = JSON.parse(m.sent[2]!);
    assert.equal(turn.board.your_strikes.length, 16);
    assert.deepEqual(turn.board.your_strikes.slice(3, 5), [
      { target: '9,8', result: 'hit' },
      { target: '9,9', result: 'hit and sunk' },
    ]);
    assert.deepEqual(turn.board.his_strikes[0], { target: '5,0', result: '' });
    assert.deepEqual(m.outcome.ranks, [1, 2]);
    assert.equal(m.outcome.reason, 'P1 wins: sank the last ship with 5,8 on turn 33');
    assert.deepEqual(m.outcome.scores, [5, 0]);
  });

  it('the turn counter goes on from the position; P2 is asked when P1 has one shot more', () => {
    const engine = new MatchEngine(battleship, { config: { fleets: FLEETS, strikes: '0,0;1,1;2,2/3,3;4,4' }, seed: 1, players: 2 });
    assert.deepEqual(engine.decision(), { phase: 'init', seats: [0], turn: 0 });
    engine.commit(engine.decision()!, [{ slot: 0, action: { fleet: [] } }]);
    engine.commit(engine.decision()!, [{ slot: 1, action: { fleet: [] } }]);
    assert.deepEqual(engine.decision(), { phase: 'play', seats: [1], turn: 6 });
    assert.deepEqual((engine.state as BattleshipState).fleets[0]![0], [0, 0, 4, 0], 'the chosen fleet stays');
  });

  it('an init answer is still judged: a bad fleet forfeits as in any match', () => {
    const m = playScript(battleship, [init(['0,0-1,1'])], { config: { fleets: FLEETS } });
    assert.match(m.outcome.reason, /^P2 wins: P1 forfeited on turn 0 \(illegal-move: ships badly placed/);
  });

  it('accepts JSON forms: the boats of each side, and strikes pasted from messages when their results agree', () => {
    const fleets = JSON.stringify([P1.split(';'), P2.split(';')]);
    const strikes = JSON.stringify([[{ target: '9,5', result: 'hit' }, '0,0'], [{ target: '0,0', result: 'hit' }]]);
    const s = new MatchEngine(battleship, { config: { fleets, strikes }, seed: 1, players: 2 }).state as BattleshipState;
    assert.deepEqual(s.strikes, [
      [
        { target: '9,5', result: 'hit' },
        { target: '0,0', result: '' },
      ],
      [{ target: '0,0', result: 'hit' }],
    ]);
    assert.equal(s.shots, 3);
  });

  it('write gives both fleets and both histories in the text forms, strikes empty before the first shot', () => {
    const engine = new MatchEngine(battleship, { config: { fleets: ` ${P1} / ${P2}\n` }, seed: 1, players: 2 });
    assert.deepEqual(battleship.tooling!.position!.write(engine.state), { fleets: FLEETS, strikes: '' });
    const later = new MatchEngine(battleship, { config: { fleets: FLEETS, strikes: '1,1 2,2\n3,3/9,9;0,0' }, seed: 1, players: 2 });
    assert.deepEqual(battleship.tooling!.position!.write(later.state), { fleets: FLEETS, strikes: '1,1;2,2;3,3/9,9;0,0' });
  });

  it('keeps the hashes of matches without a position (old replays still verify)', () => {
    const s = new MatchEngine(battleship, { config: {}, seed: 1, players: 2 }).state as BattleshipState;
    assert.deepEqual(Object.keys(s.config), ['width', 'height', 'ship1', 'ship2', 'ship3', 'ship4', 'ship5', 'ship6', 'maxTurns']);
  });
});

describe('Battleship positions: every bad position is refused, saying what and where', () => {
  const won = `${[...P2_CELLS_BUT_ONE, '5,8'].join(';')}/${P2_MISSES.join(';')}`;
  const bad: [string, Record<string, unknown>, RegExp][] = [
    ['strikes without fleets', { strikes: '1,1/' }, /strikes need fleets: the results depend on where the ships are/],
    ['fleets without "/"', { fleets: P1 }, /fleets must have exactly one "\/" between P1's and P2's part, got 0; expected "x1,y1-x2,y2;…\/x1,y1-x2,y2;…"/],
    ['fleets with two "/"', { fleets: `${P1}/${P2}/${P2}` }, /fleets must have exactly one "\/" .* got 2/],
    ['fleets in broken JSON', { fleets: '[["0,0-4,0"]' }, /fleets is not JSON \(.*\); expected/],
    ['fleets in JSON with one side', { fleets: JSON.stringify([P1.split(';')]) }, /fleets must hold exactly two lists, P1's then P2's/],
    [
      'a malformed ship',
      { fleets: `${P1}/9,9-9,5;8,9-8,6;7,9-7,7;6,9 6,7;5,9-5,8` },
      /fleets, P2: ships badly placed: ship 4 is "6,9", expected "x1,y1-x2,y2" with plain non-negative integers/,
    ],
    [
      'a diagonal ship',
      { fleets: `0,0-4,4;0,1-3,1;0,2-2,2;0,3-2,3;0,4-1,4/${P2}` },
      /fleets, P1: ships badly placed: ship 1 "0,0-4,4" is neither on one row nor on one column/,
    ],
    [
      'a ship off the grid',
      { fleets: `${P1}/9,10-9,6;8,9-8,6;7,9-7,7;6,9-6,7;5,9-5,8` },
      /fleets, P2: ships badly placed: ship 1 "9,10-9,6" is off the 10×10 grid/,
    ],
    [
      'overlapping ships',
      { fleets: `${P1}/9,9-9,5;8,9-8,6;7,9-7,7;6,9-6,7;9,9-8,9` },
      /fleets, P2: ships badly placed: ship 5 "9,9-8,9" overlaps an earlier ship at 9,9/,
    ],
    ['a missing ship', { fleets: `${P1}/9,9-9,5;8,9-8,6;7,9-7,7;6,9-6,7` }, /fleets, P2: wrong number of ships: 1 of length 2 expected, got 0/],
    [
      'a malformed shot',
      { fleets: FLEETS, strikes: '1,1;02,2/3,3' },
      /strikes: P1's shot 2: the shot must be "x,y" with plain non-negative integers, got "02,2"/,
    ],
    ['a shot off the grid', { fleets: FLEETS, strikes: '1,1/3,10' }, /strikes: P2's shot 1 3,10 is off the 10×10 grid \(x 0..9, y 0..9\)/],
    ['strikes without "/"', { fleets: FLEETS, strikes: '1,1' }, /strikes must have exactly one "\/" between P1's and P2's part, got 0/],
    [
      'a strike with an unknown key',
      { fleets: FLEETS, strikes: '[[{"target":"1,1","res":""}],[]]' },
      /strikes: P1's shot 1 has unknown key res; expected \{"target":"x,y","result":"…"\}/,
    ],
    [
      'shots that do not alternate',
      { fleets: FLEETS, strikes: '1,1/2,2;3,3' },
      /strikes: P1 has 1 shot and P2 2; P1 shoots first and they alternate, so P1 has as many shots as P2 or one more/,
    ],
    ['P1 two shots ahead', { fleets: FLEETS, strikes: '1,1;2,2/' }, /strikes: P1 has 2 shots and P2 0/],
    [
      'a result that disagrees with the fleets',
      { fleets: FLEETS, strikes: '[[{"target":"9,5","result":""}],[]]' },
      /strikes: P1's shot 1 at 9,5 is "hit" on these fleets, but the given result is a miss \(""\)/,
    ],
    [
      'a made-up result',
      { fleets: FLEETS, strikes: '[["0,0"],[{"target":"9,9","result":"hot"}]]' },
      /strikes: P2's shot 1 at 9,9 is a miss \(""\) on these fleets, but the given result is "hot"/,
    ],
    [
      'a history already won',
      { fleets: FLEETS, strikes: won },
      /strikes: P1's shot 17 at 5,8 sinks P2's last ship, so the match would be over; a position must leave a shot to play/,
    ],
    [
      'a history at the turn cap',
      { fleets: FLEETS, strikes: '1,1;2,2/3,3;4,4', maxTurns: 4 },
      /strikes: the 4 shots reach the turn cap \(maxTurns 4\), so the match would be over/,
    ],
    ['the rules first', { fleets: FLEETS, ship2: 0, ship3: 0, ship4: 0, ship5: 0 }, /at least one ship/],
  ];
  for (const [what, config, message] of bad) {
    it(what, () => {
      assert.throws(
        () => new MatchEngine(battleship, { config, seed: 1, players: 2 }),
        (err: Error) => {
          assert.match(err.message, /^bad config for battleship: /);
          assert.match(err.message, message);
          return true;
        },
      );
    });
  }
});
