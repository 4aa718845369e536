import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { AnyGame } from '../../core/game.js';
import { MatchEngine } from '../../core/engine.js';
import { streamOrder } from '../../core/game.js';
import { builtinBotSeed } from '../../core/self-play.js';
import { smartdog } from './index.js';
import type { SmartDogState } from './state.js';

/** A server line's JSON argument (the text after the command word, inside `open` … `close`). */
const argOf = (line: string, open: string, close: string): unknown => JSON.parse(`${open}${line.slice(line.indexOf(' ') + 1)}${close}`);

describe('smart-dog spectator frame', () => {
  for (const players of [2, 3, 4]) {
    it(`has the land every player got on turn 1, the barks every player hears, and no dog or sheep (${players} players)`, () => {
      const bots = Array.from({ length: players }, (_, i) => (i % 2 ? 'random' : 'herder'));
      const engine = new MatchEngine(smartdog as AnyGame, { config: { map: 'highlands', options: '{"turnsLimit":25}' }, seed: 9, players });
      const made = bots.map((name, slot) =>
        smartdog.bots[name]!.create({ slot, players, config: engine.config as never, seed: builtinBotSeed(9, name, slot) }),
      );
      const starts: { start: Record<string, number>; landscape: string[] }[] = [];
      let barks = 0;
      for (let d = engine.decision(); d; d = engine.decision()) {
        const decision = d;
        const views = new Map(decision.seats.map((slot) => [slot, engine.view(slot, { phase: decision.phase, matchId: 'x', names: bots }) as string[]]));
        for (const [slot, lines] of views) {
          const start = lines.find((l) => l.startsWith('start '));
          const landscape = lines.find((l) => l.startsWith('landscape '));
          if (start && landscape) starts[slot] = { start: argOf(start, '{', '}') as Record<string, number>, landscape: argOf(landscape, '[', ']') as string[] };
        }
        const f = smartdog.presentation.spectator!.frame(engine.state as never) as Record<string, unknown> & {
          barking: [number, number][];
          territories: { x1: number; y1: number; x2: number; y2: number }[];
        };
        assert.deepEqual(Object.keys(f), ['turn', 'out', 'barking', 'rows', 'cols', 'terrain', 'territories', 'turnsLimit', 'dogBarkingR']);
        starts.forEach(({ start, landscape }, slot) => {
          assert.deepEqual(f.terrain, landscape, 'the landscape every player got');
          assert.deepEqual([f.rows, f.cols, f.turnsLimit, f.dogBarkingR], [start.rows, start.cols, start.turnsLimit, start.dogBarkingR]);
          const t = f.territories[slot]!;
          assert.deepEqual([t.x1, t.x2, t.y1, t.y2], [start.x1, start.x2, start.y1, start.y2], "the seat's own territory as its start line says");
        });
        // Every player hears every bark: as a barking dog it sees, or as a bark's place alone.
        for (const lines of views.values()) {
          const heard = lines.filter((l) => l.startsWith('obj ') && l.includes('"voice":"barking"')).map((l) => argOf(l, '{', '}') as { x: number; y: number });
          assert.deepEqual(heard.map((o) => `${o.x},${o.y}`).sort(), f.barking.map(([x, y]) => `${x},${y}`).sort());
        }
        barks += f.barking.length;
        const text = JSON.stringify(f);
        assert.doesNotMatch(text, /Dog|Sheep|sheep|owner|"id"/, 'no object of the game');
        let n = 0;
        const numbered = new Map(
          streamOrder(decision).map((slot) => [slot, (made[slot]!.act(views.get(slot)!, decision.phase) as string[]).map((t): [number, string] => [n++, t])]),
        );
        engine.commit(
          decision,
          decision.seats.map((slot) => ({ slot, action: { lines: numbered.get(slot)! } })),
        );
      }
      assert.equal(starts.length, players);
      assert.ok(barks > 0, 'no dog barked: the test did not reach a bark');
      assert.equal((engine.state as SmartDogState).finished, true);
    });
  }
});
