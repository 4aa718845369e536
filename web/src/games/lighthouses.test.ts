import assert from 'node:assert/strict';
import { test } from 'node:test';
import { MatchEngine } from '../../../src/core/engine.js';
import type { AnyGame } from '../../../src/core/game.js';
import { builtinBotSeed } from '../../../src/core/self-play.js';
import { lighthouses as game } from '../../../src/games/lighthouses/index.js';
import type { LighthousesTurn } from '../../../src/games/lighthouses/wire.js';
import { lighthouses } from './lighthouses.js';

const human = game.presentation.human!;

/**
 * Plays built-in bots and, at every turn of every seat, checks the choices offered against the rules: each
 * line parses and is accepted, and every legal move and connection is offered. Returns how many were checked.
 */
function playAndCheck(map: string, bots: string[], seed: number, rounds: number): { checked: number; connects: number } {
  const engine = new MatchEngine(game as AnyGame, { config: { map, rounds }, seed, players: bots.length });
  const players = bots.map((name, slot) =>
    game.bots[name]!.create({ slot, players: bots.length, config: engine.config as never, seed: builtinBotSeed(seed, name, slot) }),
  );
  let checked = 0;
  let connects = 0;
  for (let d = engine.decision(); d; d = engine.decision()) {
    const decision = d;
    const moves = decision.seats.map((slot) => {
      const ctx = { phase: decision.phase, matchId: 'test', names: bots };
      const view = engine.view(slot, ctx);
      const withSlot = lighthouses.play.choices(view, decision.phase, { config: engine.config, answered: [], slot } as never);
      const plain = lighthouses.play.choices(view, decision.phase, { config: engine.config, answered: [] } as never);
      if (decision.phase === 'init') {
        assert.deepEqual(plain, [], 'the server answers the hello itself');
      } else {
        const lines = new Set(plain.map((c) => c.line));
        for (const c of withSlot) {
          const read = human.parse(c.line, view as LighthousesTurn, decision.phase);
          assert.ok('answer' in read, `${c.line}: ${JSON.stringify(read)}`);
          const move = engine.read(slot, decision.phase, read.answer);
          assert.equal(move.fault, undefined, `round ${decision.turn} seat ${slot}: "${c.line}" was offered but the rules say ${move.fault?.detail}`);
          assert.ok(lines.has(c.line), `"${c.line}" is offered only when the slot is known`);
          if (c.line.startsWith('connect')) connects++;
          checked++;
        }
        // Without the slot only ownership is unchecked: anything else offered is legal.
        for (const c of plain) {
          const read = human.parse(c.line, view as LighthousesTurn, decision.phase);
          const fault: { detail: string } | undefined = 'answer' in read ? engine.read(slot, decision.phase, read.answer).fault : { detail: 'no parse' };
          if (fault) assert.equal(fault.detail, 'Both lighthouses must be player-owned', `"${c.line}": ${fault.detail}`);
        }
        // Completeness: every legal step and connection is among the choices.
        const t = view as LighthousesTurn;
        const candidates = [
          ...[-1, 0, 1].flatMap((dx) => [-1, 0, 1].filter((dy) => dx || dy).map((dy) => `move ${dx} ${dy}`)),
          ...t.lighthouses.map((l) => `connect ${l.position[0]} ${l.position[1]}`),
        ];
        const offered = new Set(withSlot.map((c) => c.line));
        for (const line of candidates) {
          const read = human.parse(line, t, decision.phase);
          if ('answer' in read && !engine.read(slot, decision.phase, read.answer).fault)
            assert.ok(offered.has(line), `round ${decision.turn} seat ${slot}: legal "${line}" is not offered`);
        }
        // A click picks at most one choice per cell.
        const cells = withSlot.flatMap((c) => (c.cell ? [c.cell.join(',')] : []));
        assert.equal(new Set(cells).size, cells.length, 'two choices on one cell');
      }
      return engine.read(slot, decision.phase, players[slot]!.act(view as never, decision.phase));
    });
    engine.commit(decision, moves);
  }
  return { checked, connects };
}

test('every offered command parses and is legal, and every legal step and link is offered (bay, 3 players)', () => {
  const { checked, connects } = playAndCheck('bay', ['planner', 'random', 'planner'], 7, 80);
  assert.ok(checked > 500, `only ${checked} choices checked`);
  assert.ok(connects > 0, 'no position offered a connection: the test did not reach one');
});

test('the same on the small and the large maps', () => {
  for (const [map, n] of [
    ['islet', 2],
    ['continent', 4],
  ] as const) {
    const { checked } = playAndCheck(
      map,
      Array.from({ length: n }, (_, i) => (i % 2 ? 'random' : 'planner')),
      3,
      40,
    );
    assert.ok(checked > 100, `${map}: only ${checked} checked`);
  }
});

test('the hello asks nothing, a turn message offers a text box, a bad view offers nothing', () => {
  assert.deepEqual(lighthouses.play.choices({ player_num: 0 }, 'init', { config: {}, answered: [], slot: 0 }), []);
  assert.deepEqual(lighthouses.play.choices(null, 'play', { config: {}, answered: [], slot: 0 }), []);
  assert.equal(lighthouses.play.text?.({ player_num: 0 }, 'init'), null);
  assert.match(lighthouses.play.text?.({ view: [], position: [1, 1] }, 'play')?.placeholder ?? '', /connect X Y/);
});
