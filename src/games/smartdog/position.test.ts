import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { MatchEngine, movesOf } from '../../core/engine.js';
import { fingerprint } from '../../core/hash.js';
import { engineBefore, positionConfig } from '../../core/position.js';
import { checkPositionRoundTrip } from '../../core/position.kit.js';
import { playBuiltins } from '../../core/self-play.js';
import { smartdog, type SmartDogConfig } from './index.js';
import { penOwner, terrainAt, type SmartDogState } from './state.js';

/** What a position must carry over, and a test for it in the state before a turn. */
const FEATURES: Record<string, (s: SmartDogState) => boolean> = {
  'a scared sheep': (s) => s.sheep.some((sh) => sh.fear > 0),
  'a sheep with a fear chain': (s) => s.sheep.some((sh) => sh.chain.length > 0),
  'a calm sheep with an old flight direction': (s) => s.sheep.some((sh) => sh.fear === 0 && sh.fearDir !== 'down'),
  'a panicking dog': (s) => s.dogs.some((d) => d.scare === 'panic'),
  'an indignant dog': (s) => s.dogs.some((d) => d.scare === 'indignant'),
  'a dog that barked last turn': (s) => s.dogs.some((d) => d.barkedPrev),
  'a penned sheep': (s) => s.sheep.some((sh) => penOwner(terrainAt(s, sh.x, sh.y)) > 0),
  'a player out': (s) => s.out.some(Boolean),
};

/** The first turn (before it is played) where each feature shows, over a finished engine's records. */
function featureTurns(original: MatchEngine, found: Map<string, string>, label: string): number[] {
  const e = new MatchEngine(smartdog, { config: original.config, seed: original.seed, players: original.players });
  const turns = new Set<number>();
  for (const rec of original.records) {
    for (const [name, has] of Object.entries(FEATURES)) {
      if (!has(e.state as SmartDogState) || found.get(name)?.startsWith(label)) continue;
      if (!found.has(name)) found.set(name, `${label} turn ${rec.turn}`);
      turns.add(rec.turn);
    }
    e.commit(e.decision()!, movesOf(rec));
  }
  return [...turns];
}

/** Herder's and random's lines for a turn, as playBuiltins numbers them; `quit` makes that slot time out. */
function playWithQuit(config: Record<string, unknown>, bots: string[], seed: number, quit: { slot: number; turn: number }): MatchEngine {
  const e = new MatchEngine(smartdog, { config, seed, players: bots.length });
  const players = bots.map((name, slot) => smartdog.bots[name]!.create({ slot, players: bots.length, config: e.config as SmartDogConfig, seed: seed + slot }));
  for (let d = e.decision(); d; d = e.decision()) {
    let n = 0;
    const moves = d.seats.map((slot) => {
      const lines = (players[slot]!.act(e.view(slot, { phase: d!.phase, matchId: '1', names: bots }) as string[], d!.phase) as string[]).map(
        (t): [number, string] => [n++, t],
      );
      if (slot === quit.slot && d!.turn === quit.turn)
        return { slot, action: { lines: lines.slice(0, 1) }, fault: { kind: 'timeout' as const, detail: 'no end in time' } };
      return { slot, action: { lines } };
    });
    e.commit(d, moves);
  }
  return e;
}

/** The position kit's round trip for an engine played by hand (same state at `turn`, then the same steps); the position. */
function checkRecordsRoundTrip(original: MatchEngine, bots: string[], turn: number): string {
  const replay = {
    config: original.config,
    seed: original.seed,
    seats: bots.map((bot, slot) => ({ slot, name: bot, bot })),
    turns: original.records,
    hashes: original.hashes === 'chain' ? ('chain' as const) : undefined,
  };
  const at = engineBefore(smartdog, replay, turn);
  const shadow = engineBefore(smartdog, replay, turn); // the original, followed on beside the fork
  const forked = new MatchEngine(smartdog, { config: positionConfig(smartdog, at), seed: original.seed, players: bots.length });
  const digest = (e: MatchEngine) => fingerprint(smartdog.replay!.digest!(e.state as never));
  assert.equal(digest(forked), digest(at), `turn ${turn}: the position does not start the same state`);
  // Chained step fingerprints depend on the history: the fork and the original are compared by their states.
  for (const rec of original.records.filter((r) => r.turn >= turn)) {
    forked.commit(forked.decision()!, movesOf(rec));
    shadow.commit(shadow.decision()!, movesOf(rec));
    assert.equal(forked.stateFingerprint(), shadow.stateFingerprint(), `after turn ${rec.turn}`);
  }
  assert.equal(forked.decision(), null);
  assert.deepEqual(forked.outcome(), original.outcome());
  return smartdog.tooling!.position!.write(at.state as never).position!;
}

describe('smart-dog chosen positions: round trips', () => {
  it('a position written before any turn starts the same state, and the rest of the match replays identically', () => {
    const found = new Map<string, string>();
    // A tiny part so that dogs of different players meet, bark at each other and cross into enemy land.
    const tiny = '@..*\n.*-.\n..o@';
    const cases: [string, string[], number, string][] = [
      ['training', ['herder'], 1, '{"turnsLimit":30,"sheepStandBy":1}'],
      ['meadow', ['random', 'herder'], 2, '{"turnsLimit":30}'],
      [tiny, ['random', 'random'], 3, '{"turnsLimit":30,"sheepScaryTurns":3,"dogScaryTurns":2}'],
      ['keeper', ['herder', 'random', 'random'], 4, '{"turnsLimit":25,"sheepStandBy":0,"sheepScaryTurns":2}'],
      ['meadow', ['random', 'random', 'herder', 'random'], 5, '{"turnsLimit":25,"dogVisibilityR":6,"dogBarkingR":6}'],
    ];
    for (const [map, bots, seed, options] of cases) {
      const config = { map, options, firstDogId: 100 + seed };
      const original = playBuiltins(smartdog, bots, seed, { config });
      const last = original.lastTurn();
      const turns = new Set([1, 2, Math.floor(last / 2), last, ...featureTurns(original, found, `${map.includes('\n') ? 'tiny' : map}×${bots.length}`)]);
      for (const turn of turns) checkPositionRoundTrip(smartdog, bots, seed, turn, config);
    }
    assert.deepEqual(
      Object.keys(FEATURES).filter((f) => !found.has(f) && f !== 'a player out'),
      [],
      `every feature is met: ${JSON.stringify(Object.fromEntries(found))}`,
    );
  });

  it('a player that timed out stays out from the position on (with leave=out and with leave=abort)', () => {
    const bots = ['herder', 'random', 'random'];
    const e = playWithQuit({ map: 'meadow', options: '{"turnsLimit":20}' }, bots, 7, { slot: 1, turn: 4 });
    assert.deepEqual((e.state as SmartDogState).out, [false, true, false]);
    assert.equal(e.outcome().scores?.[1], -10);
    for (const turn of [4, 5, 13, 20]) checkRecordsRoundTrip(e, bots, turn);
    assert.match(checkRecordsRoundTrip(e, bots, 6), /"out":\[2\]\}\n$/);
    const aborted = playWithQuit({ map: 'keeper', options: '{"turnsLimit":10}', leave: 'abort' }, ['herder', 'herder'], 1, { slot: 0, turn: 6 });
    assert.match(aborted.outcome().reason, /^stopped: player 1 timed out/);
    for (const turn of [2, 5, 6]) checkRecordsRoundTrip(aborted, ['herder', 'herder'], turn);
  });
});

describe('smart-dog chosen positions: written by hand', () => {
  const training = (position: object, options = '') =>
    new MatchEngine(smartdog, { config: { map: 'training', options, position: JSON.stringify(position) }, seed: 1, players: 1 });
  const play = (e: MatchEngine, ...lines: string[]) => e.commit(e.decision()!, [{ slot: 0, action: { lines: lines.map((l, i) => [i, l]) } }]);

  it('a sheep one step from the pen with a dog behind it: a bark pens it on the next turn and the score goes up', () => {
    // The training pen is x 2..5, y 2..4, open on its right side (x 6); the tile holds 5 sheep, none penned.
    const e = training({
      turn: 12,
      dogs: [{ id: 7, owner: 1, x: 7, y: 3 }],
      sheep: [
        { x: 6, y: 3 },
        { x: 10, y: 8, heading: 'left' },
      ],
    });
    const s = e.state as SmartDogState;
    assert.deepEqual([s.turn, s.scores, s.dogs.map((d) => d.id)], [12, [0], [7]]);
    const view = e.view(0, { phase: 'play', matchId: '1', names: ['me'] }) as string[];
    assert.match(view[0]!, /^start "you":1,/, 'the bots are greeted on the first turn of the position');
    assert.deepEqual(view.slice(2), [
      'state  "turn":12',
      'obj  "type":"Sheep","x":6,"y":3,"action":"standBy","direction":"down"',
      'obj  "id":7,"type":"Dog","x":7,"y":3,"owner":1,"action":"move"',
      'turn',
    ]);
    play(e, 'do 7 bark', 'end');
    const after = e.state as SmartDogState;
    assert.deepEqual([after.turn, after.sheep[0], after.scores], [13, { x: 5, y: 3, heading: 'left', fear: 0, fearDir: 'left', chain: [] }, [2]]);
    assert.deepEqual(after.dogs[0]!.barkedPrev, true);
    assert.equal((e.view(0, { phase: 'play', matchId: '1', names: ['me'] }) as string[])[0], 'state  "turn":13', 'no second greeting');
  });

  it('a penned sheep stays on a move turn; a scared one flees out of the pen', () => {
    const e = training({
      turn: 5,
      dogs: [{ id: 1, owner: 1, x: 0, y: 0, scare: 'panic', scareTurns: 2, barkedLastTurn: true }],
      sheep: [
        { x: 4, y: 3 },
        { x: 5, y: 2, fear: 2, fearDir: 'right' },
      ],
    });
    play(e, 'do 1 move down', 'do 1 bark', 'end');
    const s = e.state as SmartDogState;
    assert.deepEqual([s.sheep[0]!.x, s.sheep[0]!.y, s.sheep[1]!.x, s.sheep[1]!.y], [4, 3, 6, 2]);
    assert.deepEqual([s.dogs[0]!.x, s.dogs[0]!.y, s.dogs[0]!.scareTurns, s.scores], [0, 0, 1, [2]]);
  });

  it('parts left out keep the map: only a turn, only sheep, only the players out', () => {
    const plain = new MatchEngine(smartdog, { config: { map: 'meadow' }, seed: 1, players: 2 }).state as SmartDogState;
    const later = new MatchEngine(smartdog, { config: { map: 'meadow', position: '{"turn":50}' }, seed: 1, players: 2 }).state as SmartDogState;
    assert.deepEqual({ ...later, turn: 1, greetTurn: 1 }, plain);
    const sheep = new MatchEngine(smartdog, { config: { map: 'meadow', position: '{"sheep":[{"x":0,"y":0}],"out":[1]}' }, seed: 1, players: 2 })
      .state as SmartDogState;
    assert.deepEqual([sheep.dogs, sheep.sheep.length, sheep.out, sheep.scores], [plain.dogs, 1, [true, false], [-10, 0]]);
    assert.equal(sheep.occ.filter((o) => o !== 0).length, plain.dogs.length + 1, 'the occupancy is rebuilt from the objects');
    assert.deepEqual(smartdog.rules.next(sheep as never)?.seats, [1]);
  });

  it("the example in NOTES.md starts a meadow duet: a sheep on player 1's pen, player 2's dog panicking, player 2 out", () => {
    const notes = readFileSync(new URL('./NOTES.md', import.meta.url), 'utf8');
    const e = new MatchEngine(smartdog, { config: { map: 'meadow', position: /```json\n([^`]*)```/.exec(notes)![1]! }, seed: 1, players: 2 });
    const s = e.state as SmartDogState;
    assert.deepEqual([s.turn, s.dogs.map((d) => d.scare), s.sheep.length, s.out, s.scores], [12, [null, 'panic'], 2, [false, true], [10 / 7, -10]]);
    assert.deepEqual(e.decision()?.seats, [0]);
  });

  it('writes one object a line, with counters only where they are not calm, and reads it back', () => {
    const e = training({
      turn: 3,
      dogs: [{ id: 2, owner: 1, x: 0, y: 0, scare: 'indignant', scareTurns: 1 }],
      sheep: [
        { x: 9, y: 3, fear: 1, fearDir: 'up', chain: [1] },
        { x: 9, y: 4, heading: 'right', fearDir: 'left' },
      ],
    });
    const text = smartdog.tooling!.position!.write(e.state as never).position!;
    assert.equal(
      text,
      '{"turn":3,\n"dogs":[\n  {"id":2,"owner":1,"x":0,"y":0,"scare":"indignant","scareTurns":1}\n],\n' +
        '"sheep":[\n  {"x":9,"y":3,"heading":"down","fear":1,"fearDir":"up","chain":[1]},\n  {"x":9,"y":4,"heading":"right","fearDir":"left"}\n],\n"out":[]}\n',
    );
    assert.equal(fingerprint(training(JSON.parse(text) as object).state), fingerprint(e.state));
  });
});
