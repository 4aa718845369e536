import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MatchEngine, movesOf } from '../../core/engine.js';
import type { AnyGame } from '../../core/game.js';
import { engineBefore } from '../../core/position.js';
import { checkPositionRoundTrip } from '../../core/position.kit.js';
import { playBuiltins } from '../../core/self-play.js';
import { lighthouses as typed, type PositionFile } from './index.js';
import { parseMap } from './map.js';
import { writePosition } from './position.js';
import { addConnection, setupState, type LighthousesState } from './rules.js';

const game: AnyGame = typed;

/** Three lighthouses: L0 (3,2), L1 (1,5), L2 (5,5) (scan order); A starts at (3,4), B at (1,1). */
const TRIO = ['#######', '#!   !#', '#  A  #', '#     #', '#  !  #', '#B    #', '#######'].join('\n');

/** Greets the engine's bots (as a fork does) and returns the engine, ready for the first command. */
function started(config: Record<string, unknown>, players = 2): MatchEngine {
  const e = new MatchEngine(game, { config, seed: 1, players });
  const d = e.decision()!;
  e.commit(
    d,
    d.seats.map((slot) => ({ slot, action: `bot${slot}` })),
  );
  return e;
}
const play = (e: MatchEngine, answer: unknown) => {
  const d = e.decision()!;
  const slot = d.seats[0]!;
  const move = e.read(slot, d.phase, answer);
  e.commit(d, [move]);
  return move;
};

describe('lighthouses positions: round trip', () => {
  const cases: [string, string[], number[], number[]][] = [
    ['islet', ['planner', 'random'], [1, 2, 3], [1, 2, 77, 150, 200]],
    ['bay', ['random', 'planner', 'random'], [4, 5], [1, 60, 199]],
    ['cross', ['random', 'random'], [6], [3, 100, 200]],
    ['continent', ['planner', 'planner', 'planner', 'random'], [1, 4], [1, 40, 60, 90, 130, 200]],
  ];
  for (const [map, bots, seeds, turns] of cases) {
    it(`starts the same state and plays on identically on ${map} (${bots.join(', ')}), seeds ${seeds.join(', ')}, turns ${turns.join(', ')}`, () => {
      for (const seed of seeds) for (const turn of turns) checkPositionRoundTrip(game, bots, seed, turn, { map, rounds: 200 });
    });
  }

  it('carries connections, triangles, keys and cell energies (the digest leaves the energies out, the position does not)', () => {
    const bots = ['planner', 'planner', 'planner', 'random'];
    const e = playBuiltins(game, bots, 4, { config: { map: 'continent' } });
    const at = engineBefore(
      game,
      {
        config: e.config,
        seed: 4,
        seats: bots.map((bot, slot) => ({ slot, name: bot, bot })),
        turns: e.records,
        hashes: e.hashes === 'chain' ? 'chain' : undefined,
      },
      90,
    );
    const s = at.state as LighthousesState;
    assert.ok(s.triangles.length >= 2 && s.players.some((p) => p.keys.length > 0));
    const forked = started({ ...e.config, position: writePosition(s) }, 4).state as LighthousesState;
    for (const k of ['energy', 'lighthouses', 'connections', 'triangles', 'round', 'current'] as const) assert.deepEqual(forked[k], s[k], k);
    assert.deepEqual(
      forked.players.map(({ name: _, ...p }) => p),
      s.players.map(({ name: _, ...p }) => p),
    );
  });

  it('starts mid-round too: a position written after some players of a round acted asks the next one', () => {
    const bots = ['planner', 'random', 'planner'];
    const e = playBuiltins(game, bots, 8, { config: { map: 'bay', rounds: 60 } });
    const inits = e.records.filter((r) => r.phase === 'init');
    const cut = e.records.findIndex((r) => r.phase === 'play' && r.turn === 30) + 2; // players 0 and 1 of round 30 acted
    const at = new MatchEngine(game, { config: e.config, seed: 8, players: 3 });
    for (const rec of e.records.slice(0, cut)) at.commit(at.decision()!, movesOf(rec));
    assert.equal((at.state as LighthousesState).current, 2);
    const forked = new MatchEngine(game, { config: { ...e.config, ...game.tooling!.position!.write(at.state) }, seed: 8, players: 3 });
    for (const rec of inits) forked.commit(forked.decision()!, movesOf(rec));
    for (const rec of e.records.slice(cut)) {
      assert.deepEqual(forked.decision(), at.decision());
      // Chained step fingerprints depend on the history: the fork and the original are compared by their states.
      forked.commit(forked.decision()!, movesOf(rec));
      at.commit(at.decision()!, movesOf(rec));
      assert.equal(forked.stateFingerprint(), at.stateFingerprint());
      assert.equal(at.records.at(-1)!.hash, rec.hash);
    }
    assert.deepEqual((forked.state as LighthousesState).energy, (e.state as LighthousesState).energy);
    assert.deepEqual(forked.outcome(), e.outcome());
  });

  it('writes each connection origin first, so one that closes two triangles at once re-derives them in their order', () => {
    // A diamond: L0 (4,1) below, L1 (1,3) left, L2 (7,3) right, L3 (4,5) above; its four sides, then the
    // diagonal from L2 to L1, which closes two triangles, found from L2's sides: 0-1-2 first, then 1-2-3.
    const DIAMOND = ['#########', '#   !   #', '#       #', '#!     !#', '#       #', '#A  !  B#', '#########'].join('\n');
    const s = setupState(parseMap(DIAMOND), 2, 10);
    for (const l of s.lighthouses) Object.assign(l, { owner: 1, energy: 50 });
    for (const [o, d] of [
      [2, 0],
      [2, 3],
      [1, 3],
      [1, 0],
      [2, 1],
    ] as const)
      addConnection(s, 1, o, d);
    assert.deepEqual(
      s.triangles.map((t) => t.v),
      [
        [0, 1, 2],
        [1, 2, 3],
      ],
    );
    const text = writePosition(s);
    assert.match(text, /\[\[7,3\],\[1,3\]\]/, 'the diagonal is written from L2, its origin');
    const back = started({ map: DIAMOND, position: text }).state as LighthousesState;
    assert.deepEqual(back.connections, s.connections);
    assert.deepEqual(back.triangles, s.triangles);
  });
});

describe('lighthouses positions: a hand-written one', () => {
  // Player 0 stands on its own L0 (3,2) holding the keys of L1 (1,5) and L2 (5,5); L1–L2 and L0–L1 exist,
  // so connecting L0 to L2 closes the triangle.
  const position: PositionFile = {
    round: 7,
    players: [
      {
        position: [3, 2],
        energy: 40,
        score: 12,
        keys: [
          [5, 5],
          [1, 5],
        ],
      },
      { position: [1, 1], energy: 0, score: 3, keys: [] },
    ],
    lighthouses: [
      { position: [3, 2], owner: 0, energy: 30 },
      { position: [1, 5], owner: 0, energy: 20 },
      { position: [5, 5], owner: 0, energy: 10 },
    ],
    connections: [
      [
        [1, 5],
        [5, 5],
      ],
      [
        [3, 2],
        [1, 5],
      ],
    ],
  };

  it('starts where it says, cell energies zero, names from the greetings; the next connect scores the triangle', () => {
    const e = started({ map: TRIO, position: JSON.stringify(position), rounds: 10 });
    const s = e.state as LighthousesState;
    assert.deepEqual([s.round, s.current, s.players[0]!.keys, s.players.map((p) => p.name)], [7, 0, [1, 2], ['bot0', 'bot1']]);
    assert.ok(s.energy.every((row) => row.every((c) => c === 0)));
    assert.deepEqual(s.connections, [
      [1, 2],
      [0, 1],
    ]);
    assert.deepEqual(e.decision(), { phase: 'play', seats: [0], turn: 7 });
    assert.equal(play(e, { command: 'connect', destination: [5, 5] }).fault, undefined);
    assert.equal(s.triangles.length, 1);
    const cells = s.triangles[0]!.cells;
    assert.deepEqual(s.triangles, [{ v: [0, 1, 2], owner: 0, cells }]);
    assert.ok(cells > 0);
    assert.deepEqual(s.players[0]!.keys, [1], 'the key of L2 is spent');
    play(e, { command: 'pass' });
    // End of round 7: 3 lighthouses, 3 connections, the triangle's island cells.
    assert.deepEqual([s.round, s.players[0]!.score, s.players[1]!.score], [8, 12 + 2 * 3 + 2 * 3 + cells, 3]);
  });
});
