import assert from 'node:assert/strict';
import { test } from 'node:test';
import { MatchEngine } from '../../../src/core/engine.js';
import { streamOrder, type AnyGame } from '../../../src/core/game.js';
import { builtinBotSeed } from '../../../src/core/self-play.js';
import { smartdog as game } from '../../../src/games/smartdog/index.js';
import type { SmartDogState } from '../../../src/games/smartdog/state.js';
import { smartdog } from './smartdog.js';

// The stream rules on the state as the engine holds it (`unknown` to the engine, the game's own state here).
const stream = game.rules.stream! as unknown as { line(s: unknown, slot: number, text: string): { replies: string[]; done: boolean } };

/**
 * Plays built-in bots as the runner does for built-in seats; before each step, every seat's choices are
 * checked line by line with the game's `stream.line` on a scratch copy of the state (as the runner applies
 * lines): no warning or error, `end` ends the turn, and every command the rules would take is offered.
 */
function playAndCheck(config: Record<string, unknown>, bots: string[], seed: number, withSlot: boolean): number {
  const engine = new MatchEngine(game as AnyGame, { config, seed, players: bots.length });
  const players = bots.map((name, slot) =>
    game.bots[name]!.create({ slot, players: bots.length, config: engine.config as never, seed: builtinBotSeed(seed, name, slot) }),
  );
  let checked = 0;
  for (let d = engine.decision(); d; d = engine.decision()) {
    const decision = d;
    const views = new Map(decision.seats.map((slot) => [slot, engine.view(slot, { phase: decision.phase, matchId: 'test', names: bots })]));
    for (const slot of decision.seats) {
      const view = views.get(slot)!;
      const seat = withSlot ? ({ config: engine.config, answered: [], slot } as never) : ({ config: engine.config, answered: [] } as never);
      const choices = smartdog.play.choices(view, decision.phase, seat);
      const offered = new Set(choices.map((c) => c.line));
      assert.equal(choices[choices.length - 1]?.line, 'end', 'the turn can always be ended');
      for (const c of choices) {
        const scratch = structuredClone(engine.state);
        const r = stream.line(scratch, slot, c.line);
        assert.deepEqual(r.replies, [], `turn ${decision.turn} seat ${slot}: "${c.line}" got ${r.replies.join(' ')}`);
        assert.equal(r.done, c.line === 'end', `"${c.line}" ends the turn only if it is end`);
        checked++;
      }
      // Every command the rules take for the seat's dogs is offered (whenever the seat is known).
      const s = engine.state as SmartDogState;
      for (const dog of s.dogs.filter((x) => x.owner === slot + 1)) {
        for (const line of ['up', 'down', 'left', 'right'].map((dir) => `do ${dog.id} move ${dir}`).concat(`do ${dog.id} bark`)) {
          if (stream.line(structuredClone(engine.state), slot, line).replies.length === 0)
            assert.ok(offered.has(line), `turn ${decision.turn} seat ${slot}: "${line}" is legal but not offered`);
        }
      }
      const cells = choices.flatMap((c) => (c.cell ? [c.cell.join(',')] : []));
      assert.equal(new Set(cells).size, cells.length, 'two choices on one cell');
    }
    // The step as playBuiltins plays it: one seat's lines after another in the stream order.
    let n = 0;
    const numbered = new Map(
      streamOrder(decision).map((slot) => [
        slot,
        (players[slot]!.act(views.get(slot) as string[], decision.phase) as string[]).map((t): [number, string] => [n++, t]),
      ]),
    );
    engine.commit(
      decision,
      decision.seats.map((slot) => ({ slot, action: { lines: numbered.get(slot)! } })),
    );
  }
  return checked;
}

test('every offered line is taken without a warning and every legal command is offered (meadow, 2 players, slot given)', () => {
  assert.ok(playAndCheck({ options: '{"turnsLimit":60}' }, ['herder', 'random'], 4, true) > 1000);
});

test('the same with 4 players and with the seat told only by the first turn (1 player: remembered)', () => {
  assert.ok(playAndCheck({ options: '{"turnsLimit":30}' }, ['random', 'herder', 'random', 'herder'], 9, true) > 1000);
  assert.ok(playAndCheck({ map: 'training', options: '{"turnsLimit":40}' }, ['herder'], 2, false) > 100);
});

test('a message that asks nothing offers nothing; an unknown seat can still end its turn', () => {
  assert.deepEqual(smartdog.play.choices(['finished "youWin":true'], 'play', { config: {}, answered: [], slot: 0 }), []);
  assert.deepEqual(smartdog.play.choices('turn', 'play', { config: {}, answered: [], slot: 0 }), []);
  const twoOwners = [
    'state  "turn":3',
    'obj  "id":1,"type":"Dog","x":1,"y":1,"owner":1,"action":"move"',
    'obj  "id":2,"type":"Dog","x":2,"y":1,"owner":2,"action":"move"',
    'turn',
  ];
  assert.ok(smartdog.play.choices(twoOwners, 'play', { config: {}, answered: [], slot: 0 }).some((c) => c.line === 'end'));
});

test('scared dogs: a panicked one is offered nothing, an indignant one moves but does not bark (a chosen position)', () => {
  const position = JSON.stringify({
    turn: 2,
    dogs: [
      { id: 1, owner: 1, x: 10, y: 6, scare: 'panic', scareTurns: 3 },
      { id: 2, owner: 1, x: 12, y: 8, scare: 'indignant', scareTurns: 3 },
      { id: 3, owner: 2, x: 20, y: 7 },
      { id: 4, owner: 2, x: 28, y: 8, scare: 'indignant', scareTurns: 1 },
    ],
  });
  assert.ok(playAndCheck({ options: '{"turnsLimit":12}', position }, ['random', 'herder'], 3, true) > 50);
  const engine = new MatchEngine(game as AnyGame, { config: { position }, seed: 1, players: 2 });
  const lines = smartdog.play
    .choices(engine.view(0, { phase: 'play', matchId: 't', names: [] }), 'play', { config: {}, answered: [], slot: 0 })
    .map((c) => c.line);
  assert.ok(!lines.some((l) => l.startsWith('do 1 ')), 'the panicked dog neither moves nor barks');
  assert.ok(lines.includes('do 2 move up') && !lines.includes('do 2 bark'), 'the indignant dog moves, and does not bark');
});
