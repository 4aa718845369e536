import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MatchEngine } from '../../core/engine.js';
import type { AnyGame } from '../../core/game.js';
import { lighthouses as typed } from './index.js';
import { parseMap } from './map.js';
import { MAPS } from './maps.js';
import { applyCommand, commandError, endRound, setupState, startRound, type Command, type LighthousesState } from './rules.js';

const game: AnyGame = typed;

/** A 15×15 island with one lighthouse in the middle (7,7) and start slots far from it. */
const LONE = [
  '###############',
  '#A           B#',
  ...Array.from({ length: 11 }, (_, i) => (i === 5 ? '#      !      #' : '#             #')),
  '#             #',
  '###############',
].join('\n');

/**
 * Three lighthouses: L0 (3,2), L1 (1,5), L2 (5,5) (scan order); A starts at (3,4), B at (1,1).
 */
const TRIO = ['#######', '#!   !#', '#  A  #', '#     #', '#  !  #', '#B    #', '#######'].join('\n');

const fresh = (text: string, players = 2, rounds = 200) => setupState(parseMap(text), players, rounds);
const cmd = (s: LighthousesState, slot: number, c: Command) => {
  const err = commandError(s, slot, c);
  if (err === null) applyCommand(s, slot, c);
  return err;
};

describe('lighthouses round start', () => {
  it('grows energy by floor(5 − distance) around every lighthouse, within |dx|,|dy| ≤ 4', () => {
    const s = fresh(LONE);
    const e = (dx: number, dy: number) => s.energy[7 + dy]![7 + dx]!;
    assert.equal(e(0, 0), 5);
    assert.deepEqual(
      [e(1, 0), e(1, 1), e(2, 0), e(2, 1), e(2, 2), e(3, 0), e(3, 1), e(3, 2), e(4, 0), e(4, 3), e(4, 4), e(5, 0)],
      [4, 3, 3, 2, 2, 2, 1, 1, 1, 0, 0, 0],
    );
  });

  it('clamps every cell at 100, and players on one cell share its energy, the remainder lost', () => {
    const s = fresh(LONE);
    for (let r = 0; r < 30; r++) startRound(s);
    assert.equal(s.energy[7]![7], 100);
    assert.equal(s.energy[7]![8], 100);
    // Two players on the lighthouse: 100 each round start growth is capped, then split 50/50.
    s.players[0]!.x = s.players[1]!.x = 8;
    s.players[0]!.y = s.players[1]!.y = 7;
    s.energy[7]![8] = 97; // + 4 growth = 101 → 100? no: 97 + 4 clamps to 100
    const before = s.players.map((p) => p.energy);
    startRound(s);
    assert.deepEqual(
      s.players.map((p, i) => p.energy - before[i]!),
      [50, 50],
    );
    assert.equal(s.energy[7]![8], 0);
    s.energy[7]![8] = 3; // 3 + 4 = 7 → 3 each, 1 lost
    startRound(s);
    assert.deepEqual(
      s.players.map((p, i) => p.energy - before[i]!),
      [53, 53],
    );
  });

  it('grows overlapping areas as the reference does, lighthouse by lighthouse, capped after each', () => {
    // The reference (engine.py, pre_round) adds each lighthouse's energy in turn with min(CAP, e + delta); the
    // rules add a cell's summed deltas once. On `continent` (28 lighthouses, areas overlapping), with cells
    // emptied here and there as players would, every cell must match over 60 rounds.
    const s = setupState(parseMap(MAPS['continent']!.text), 4, 200);
    const reference = s.energy.map((row) => row.slice());
    for (let round = 1; round <= 60; round++) {
      // setupState began round 1; each later round begins with startRound.
      if (round > 1) grow();
      assert.deepEqual(s.energy, reference, `round ${round}`);
      const l = s.lighthouses[(round * 7) % s.lighthouses.length]!;
      s.energy[l.y]![l.x] = reference[l.y]![l.x] = 0;
    }

    function grow(): void {
      for (const l of s.lighthouses) {
        for (let dy = -4; dy <= 4; dy++) {
          for (let dx = -4; dx <= 4; dx++) {
            const [x, y] = [l.x + dx, l.y + dy];
            const delta = Math.floor(5 - Math.sqrt(dx * dx + dy * dy));
            if (delta > 0 && s.island[y]?.[x] === 1) reference[y]![x] = Math.min(100, reference[y]![x]! + delta);
          }
        }
      }
      for (const p of s.players) reference[p.y]![p.x] = 0;
      startRound(s);
    }
  });

  it('gives the key of the lighthouse a player stands on, as a set', () => {
    const s = fresh(TRIO);
    s.players[0]!.x = 3;
    s.players[0]!.y = 2;
    startRound(s);
    startRound(s);
    assert.deepEqual(s.players[0]!.keys, [0]);
    s.players[0]!.x = 1;
    s.players[0]!.y = 5;
    startRound(s);
    assert.deepEqual(s.players[0]!.keys, [0, 1]);
  });

  it('decays lighthouses by 10; at 0 one goes neutral and its connections and triangles go with it', () => {
    const s = fresh(TRIO);
    s.lighthouses.forEach((l) => Object.assign(l, { owner: 0, energy: 100 }));
    s.lighthouses[0]!.energy = 15;
    s.connections = [
      [0, 1],
      [1, 2],
      [0, 2],
    ];
    s.triangles = [{ v: [0, 1, 2], owner: 0, cells: 8 }];
    startRound(s);
    assert.deepEqual(
      s.lighthouses.map((l) => l.energy),
      [5, 90, 90],
    );
    assert.equal(s.triangles.length, 1);
    startRound(s);
    assert.deepEqual(s.lighthouses[0], { x: 3, y: 2, owner: null, energy: 0 });
    assert.deepEqual(s.connections, [[1, 2]]);
    assert.deepEqual(s.triangles, []);
  });
});

describe('lighthouses commands', () => {
  it('move: every check in the reference order, with its message', () => {
    const s = fresh(TRIO); // A at (3,4)
    assert.equal(cmd(s, 0, { command: 'move', x: 1 }), 'Move command requires x, y');
    assert.equal(cmd(s, 0, { command: 'move', y: 1 }), 'Move command requires x, y');
    for (const bad of [2, -2, 0.5, '1', [1], null]) assert.equal(cmd(s, 0, { command: 'move', x: bad, y: 0 }), 'Delta must be 1 cell away', String(bad));
    assert.equal(cmd(s, 0, { command: 'move', x: 2, y: 9 }), 'Delta must be 1 cell away');
    assert.equal(cmd(s, 1, { command: 'move', x: -1, y: 0 }), 'Target pos is not in island'); // B at (1,1): water at x=0
    assert.equal(cmd(s, 0, { command: 'move', x: 1, y: 1 }), null);
    assert.deepEqual([s.players[0]!.x, s.players[0]!.y], [4, 5]);
    assert.equal(cmd(s, 0, { command: 'move', x: 0, y: 0 }), null, '0,0 is a no-op');
    assert.deepEqual([s.players[0]!.x, s.players[0]!.y], [4, 5]);
    // Python's bool is an int: the reference's `dx not in (0, 1, -1)` lets True through as 1, False as 0
    // (marcan/lighthouses_aicontest, engine/engine.py, Player.move).
    assert.equal(cmd(s, 0, { command: 'move', x: true, y: false }), null);
    assert.deepEqual([s.players[0]!.x, s.players[0]!.y], [5, 5]);
  });

  it('attack: checks, clamping to the energy held, capture, recharge, and taking an enemy lighthouse', () => {
    const s = fresh(TRIO);
    const a = s.players[0]!;
    a.energy = 50;
    assert.equal(cmd(s, 0, { command: 'attack' }), 'Attack command requires integer energy');
    assert.equal(cmd(s, 0, { command: 'attack', energy: 1.5 }), 'Attack command requires integer energy');
    assert.equal(cmd(s, 0, { command: 'attack', energy: 10 }), 'Player must be located at target lighthouse');
    Object.assign(a, { x: 3, y: 2 });
    assert.equal(cmd(s, 0, { command: 'attack', energy: -1 }), 'Strength must be positive');
    assert.equal(cmd(s, 0, { command: 'attack', energy: 0 }), null);
    assert.equal(s.lighthouses[0]!.owner, null, 'attack 0 is a pass');
    assert.equal(cmd(s, 0, { command: 'attack', energy: 5, float: true }), 'Attack command requires integer energy', 'written 5.0: a float');
    // isinstance(True, int) holds in Python (engine/botplayer.py): an attack of true is an attack of 1.
    assert.equal(cmd(s, 0, { command: 'attack', energy: true }), null);
    assert.deepEqual([s.lighthouses[0]!.owner, s.lighthouses[0]!.energy, a.energy], [0, 1, 49]);
    assert.equal(cmd(s, 0, { command: 'attack', energy: false }), null, 'false is an attack of 0');
    Object.assign(s.lighthouses[0]!, { owner: null, energy: 0 });
    a.energy = 50;
    assert.equal(cmd(s, 0, { command: 'attack', energy: 30 }), null);
    assert.deepEqual([s.lighthouses[0]!.owner, s.lighthouses[0]!.energy, a.energy], [0, 30, 20]);
    assert.equal(cmd(s, 0, { command: 'attack', energy: 1000 }), null, 'clamped to the 20 held');
    assert.deepEqual([s.lighthouses[0]!.energy, a.energy], [50, 0]);
    const b = s.players[1]!;
    Object.assign(b, { x: 3, y: 2, energy: 200 });
    s.connections = [[0, 1]];
    s.lighthouses[1]!.owner = 0;
    s.lighthouses[1]!.energy = 10;
    assert.equal(cmd(s, 1, { command: 'attack', energy: 20 }), null);
    assert.deepEqual([s.lighthouses[0]!.owner, s.lighthouses[0]!.energy], [0, 30], 'a weaker attack only drains');
    assert.equal(cmd(s, 1, { command: 'attack', energy: 30 }), null);
    assert.deepEqual([s.lighthouses[0]!.owner, s.lighthouses[0]!.energy], [null, 0], 'an equal attack neutralises');
    assert.deepEqual(s.connections, [], 'and cuts its connections');
    s.lighthouses[0]!.owner = 0;
    s.lighthouses[0]!.energy = 40;
    assert.equal(cmd(s, 1, { command: 'attack', energy: 100 }), null);
    assert.deepEqual([s.lighthouses[0]!.owner, s.lighthouses[0]!.energy, b.energy], [1, 60, 50], 'the remainder captures it');
  });

  it('connect: every check in the reference order, with its message', () => {
    const s = fresh(TRIO);
    const a = s.players[0]!;
    const c = (destination: unknown) => commandError(s, 0, { command: 'connect', destination });
    assert.equal(commandError(s, 0, { command: 'connect' }), 'Connect command requires destination');
    for (const d of [3, true, null, [[1, 5]], [1, { x: 5 }]]) assert.equal(c(d), 'Destination must be a coordinate pair', JSON.stringify(d));
    assert.equal(c([1, 5]), 'Player must be located at the origin lighthouse');
    Object.assign(a, { x: 3, y: 2 });
    for (const d of ['1,5', [1, 5, 0], [2, 5], { x: 1, y: 5 }]) assert.equal(c(d), 'Destination must be an existing lighthouse', JSON.stringify(d));
    assert.equal(c([1, 5]), 'Both lighthouses must be player-owned');
    s.lighthouses.forEach((l) => Object.assign(l, { owner: 0, energy: 50 }));
    assert.equal(c([1, 5]), 'Player does not have the destination key');
    a.keys = [0, 1, 2];
    assert.equal(c([3, 2]), 'Cannot connect lighthouse to itself');
    assert.equal(c([1, 5]), null);
    // tuple(destination) with True in it finds the lighthouse at 1: (True, 5) == (1, 5) and hashes alike
    // (engine/botplayer.py, then Game.connect's `dest_pos not in self.lighthouses`).
    assert.equal(c([true, 5]), null);
    s.connections = [[0, 1]];
    assert.equal(c([1, 5]), 'Connection already exists');
    s.connections = [];
    s.players[1]!.keys = [0];
    assert.equal(commandError(s, 1, { command: 'connect', destination: [3, 2] }), 'Player must be located at the origin lighthouse');
  });

  it('connect refuses a lighthouse on the segment and a crossing, and accepts sharing an end', () => {
    const m = ['#########', '#!  !  !#', '#   A   #', '#!     !#', '#B      #', '#########'].join('\n');
    const s = fresh(m); // L0 (1,2) L1 (7,2) L2 (1,4) L3 (4,4) L4 (7,4)
    s.lighthouses.forEach((l) => Object.assign(l, { owner: 0, energy: 50 }));
    const a = s.players[0]!;
    a.keys = [0, 1, 2, 3, 4];
    Object.assign(a, { x: 1, y: 4 });
    assert.equal(commandError(s, 0, { command: 'connect', destination: [7, 4] }), 'Connection cannot intersect a lighthouse');
    s.connections = [[0, 3]]; // (1,2)–(4,4)
    Object.assign(a, { x: 1, y: 4 });
    assert.equal(commandError(s, 0, { command: 'connect', destination: [7, 2] }), 'Connection cannot intersect another connection');
    assert.equal(commandError(s, 0, { command: 'connect', destination: [4, 4] }), null, 'touching at a shared lighthouse is fine');
  });

  it('connect spends only the destination key and registers every triangle it closes, counting island cells', () => {
    const s = fresh(TRIO);
    s.lighthouses.forEach((l) => Object.assign(l, { owner: 0, energy: 50 }));
    const a = s.players[0]!;
    Object.assign(a, { x: 3, y: 2, keys: [0, 1, 2] });
    assert.equal(cmd(s, 0, { command: 'connect', destination: [1, 5] }), null);
    assert.deepEqual(a.keys, [0, 2]);
    Object.assign(a, { x: 1, y: 5 });
    assert.equal(cmd(s, 0, { command: 'connect', destination: [5, 5] }), null);
    assert.deepEqual(s.triangles, []);
    Object.assign(a, { x: 5, y: 5, keys: [0] });
    assert.equal(cmd(s, 0, { command: 'connect', destination: [3, 2] }), null);
    assert.deepEqual(s.triangles, [{ v: [0, 1, 2], owner: 0, cells: 8 }]);
    assert.deepEqual(s.connections, [
      [0, 1],
      [1, 2],
      [0, 2],
    ]);
  });

  it('drops water cells from a triangle', () => {
    const m = ['#########', '#!     !#', '#  ###  #', '#  ###  #', '#A  !   #', '#########'].join('\n');
    const s = fresh(m, 1); // L0 (4,1), L1 (1,4), L2 (7,4); the water block sits inside the triangle
    s.lighthouses.forEach((l) => Object.assign(l, { owner: 0, energy: 50 }));
    s.connections = [
      [0, 1],
      [1, 2],
    ];
    Object.assign(s.players[0]!, { x: 4, y: 1, keys: [2] });
    assert.equal(cmd(s, 0, { command: 'connect', destination: [7, 4] }), null);
    // Top-left rule: y=4 x 1..6 (the right end is on a non-top edge), y=3 x 2..5, y=2 x 3..4, the apex out:
    // 12 lattice points, of which (3..5,3) and (3..4,2) are water.
    assert.equal(s.triangles[0]!.cells, 7);
  });

  it('scores 2 per lighthouse, 2 per connection and every triangle cell at the end of each round', () => {
    const s = fresh(TRIO);
    s.lighthouses.forEach((l) => Object.assign(l, { owner: 0, energy: 50 }));
    s.connections = [
      [0, 1],
      [1, 2],
      [0, 2],
    ];
    s.triangles = [
      { v: [0, 1, 2], owner: 0, cells: 8 },
      { v: [0, 1, 2], owner: 0, cells: 8 },
    ];
    endRound(s);
    assert.deepEqual(
      s.players.map((p) => p.score),
      [6 + 6 + 16, 0],
    );
    assert.equal(s.round, 2);
  });
});

describe('lighthouses: a scripted 23-round game, checked round by round', () => {
  it('captures, connects, spends keys, closes a triangle and loses it to decay', () => {
    const e = new MatchEngine(game, { config: { map: TRIO, rounds: 23 }, seed: 1, players: 2 });
    const s = e.state as LighthousesState;
    const move = (x: number, y: number) => ({ command: 'move', x, y });
    const attack = { command: 'attack', energy: 200 };
    const connect = (x: number, y: number) => ({ command: 'connect', destination: [x, y] });
    // A's commands, one per round (B passes); A starts with 1000 energy so the test reads only the plan.
    const plan = [
      move(0, -1),
      move(0, -1),
      attack,
      move(-1, 1),
      move(-1, 1),
      move(0, 1),
      attack,
      connect(3, 2), // 1–8
      move(1, 0),
      move(1, 0),
      move(1, 0),
      move(1, 0),
      attack,
      connect(1, 5),
      connect(3, 2), // 9–15
      move(-1, -1),
      move(-1, -1),
      move(0, -1),
      connect(5, 5),
      { command: 'pass' },
      { command: 'pass' },
      { command: 'pass' },
      { command: 'pass' }, // 16–23
    ];
    const scores = [0, 0, 2, 4, 6, 8, 12, 18, 24, 30, 36, 42, 50, 60, 70, 80, 90, 100, 120, 140, 160, 180, 186];
    const ask = (slot: number, answer: unknown) => {
      const d = e.decision()!;
      assert.deepEqual(d.seats, [slot]);
      return e.commit(d, [e.read(slot, d.phase, answer)]);
    };
    const init = e.decision()!;
    e.commit(
      init,
      init.seats.map((slot) => e.read(slot, 'init', { name: `p${slot}` })),
    );
    assert.deepEqual(
      s.players.map((p) => p.name),
      ['p0', 'p1'],
    );
    s.players[0]!.energy = 1000;
    plan.forEach((c, i) => {
      const round = i + 1;
      const rec = ask(0, c);
      assert.equal(rec.turn, round);
      if (round === 15) assert.equal(rec.moves[0]!.fault?.detail, 'Player does not have the destination key', 'the key of L0 was spent in round 8');
      else assert.equal(rec.moves[0]!.fault, undefined, `round ${round}: ${JSON.stringify(rec.moves[0]!.fault)}`);
      ask(1, { command: 'pass' });
      assert.equal(s.players[0]!.score, scores[i], `score after round ${round}`);
      if (round === 8) assert.deepEqual(s.connections, [[0, 1]]);
      if (round === 19) {
        assert.deepEqual(s.triangles, [{ v: [0, 1, 2], owner: 0, cells: 8 }]);
        // 200 each at rounds 3, 7 and 13, minus 10 at every round start since, round 20's included.
        assert.deepEqual(
          s.lighthouses.map((l) => l.energy),
          [30, 70, 130],
        );
      }
    });
    assert.equal(e.decision(), null);
    assert.deepEqual(
      s.lighthouses.map((l) => l.owner),
      [null, 0, 0],
      'L0 decayed to neutral at the start of round 23',
    );
    assert.deepEqual(s.connections, [[1, 2]]);
    assert.deepEqual(s.triangles, []);
    const o = e.outcome();
    assert.deepEqual(o.ranks, [1, 2]);
    assert.deepEqual(o.scores, [186, 0]);
    assert.match(o.reason, /^A \(p0\) wins with 186 points after 23 rounds$/);
  });
});
