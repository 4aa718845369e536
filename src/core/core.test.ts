import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { resolveConfig } from './config.js';
import { UsageError } from './errors.js';
import { defineGame, ranksFromScores, type GameDefinition } from './game.js';
import { chainFingerprint, fingerprint, hex, mixInt, mixInts, mixList, mixValue } from './hash.js';
import { deriveSeed, rngCreate, rngInt, rngShuffle } from './rng.js';
import { ENGINE_VERSION } from './version.js';

describe('seeded RNG', () => {
  it('gives the same sequence for the same seed and a different one for another seed', () => {
    const draw = (seed: number) => {
      const s = rngCreate(seed);
      return Array.from({ length: 20 }, () => rngInt(s, 0, 1000));
    };
    assert.deepEqual(draw(42), draw(42));
    assert.notDeepEqual(draw(42), draw(43));
  });

  it('resumes exactly from a serialised state', () => {
    const s = rngCreate(7);
    for (let i = 0; i < 5; i++) rngInt(s, 1, 99);
    const saved = JSON.parse(JSON.stringify(s));
    const a = Array.from({ length: 10 }, () => rngInt(s, 1, 99));
    const b = Array.from({ length: 10 }, () => rngInt(saved, 1, 99));
    assert.deepEqual(a, b);
  });

  it('stays within bounds and covers them', () => {
    const s = rngCreate(1);
    const seen = new Set<number>();
    for (let i = 0; i < 2000; i++) {
      const v = rngInt(s, 1, 6);
      assert.ok(v >= 1 && v <= 6);
      seen.add(v);
    }
    assert.equal(seen.size, 6);
    assert.deepEqual([...rngShuffle(rngCreate(3), [1, 2, 3, 4, 5])].sort(), [1, 2, 3, 4, 5]);
  });

  it('shuffles exactly as Fisher–Yates with one rngInt per swap, and leaves the generator where that would', () => {
    for (const [seed, n] of [
      [3, 5],
      [7, 1],
      [11, 3600],
      [0xffffffff, 97],
    ] as const) {
      const items = Array.from({ length: n }, (_, i) => i);
      const a = rngCreate(seed);
      const shuffled = rngShuffle(a, items);
      const b = rngCreate(seed);
      const expected = items.slice();
      for (let i = expected.length - 1; i > 0; i--) {
        const j = rngInt(b, 0, i);
        [expected[i], expected[j]] = [expected[j]!, expected[i]!];
      }
      assert.deepEqual(shuffled, expected, `seed ${seed}, ${n} items`);
      assert.deepEqual(a, b);
      assert.deepEqual(
        items,
        Array.from({ length: n }, (_, i) => i),
        'the input is not changed',
      );
    }
  });

  it('derives distinct per-seat seeds', () => {
    assert.notEqual(deriveSeed(5, 'a:0'), deriveSeed(5, 'a:1'));
    assert.equal(deriveSeed(5, 'a:0'), deriveSeed(5, 'a:0'));
  });
});

describe('config', () => {
  const spec = {
    width: { type: 'int', default: 10, min: 1, max: 100, description: 'grid width' },
    fast: { type: 'bool', default: false, description: 'x' },
    mode: { type: 'string', default: 'a', choices: ['a', 'b'], description: 'y' },
  } as const;

  it('fills defaults and parses --set strings', () => {
    assert.deepEqual(resolveConfig('g', spec), { width: 10, fast: false, mode: 'a' });
    assert.deepEqual(resolveConfig('g', spec, { width: '12', fast: 'true', mode: 'b' }), { width: 12, fast: true, mode: 'b' });
  });

  it('names the key and what was expected on a bad value', () => {
    assert.throws(
      () => resolveConfig('g', spec, { width: '0' }),
      (e: Error) => e instanceof UsageError && /config "width" of g must be an integer in 1..100, got "0"/.test(e.message),
    );
    assert.throws(() => resolveConfig('g', spec, { width: '1.5' }), /must be an integer/);
    assert.throws(() => resolveConfig('g', spec, { mode: 'c' }), /must be one of a, b/);
    assert.throws(() => resolveConfig('g', spec, { nope: '1' }), /unknown config key "nope" for g; known keys: width, fast, mode/);
    assert.throws(() => resolveConfig('g', {}, { nope: '1' }), /this game has no config keys/);
  });
});

describe('results and fingerprints', () => {
  it('ranks equal scores together', () => {
    assert.deepEqual(ranksFromScores([3, 5, 3, 1]), [2, 1, 2, 4]);
  });

  it('fingerprints change with the value', () => {
    assert.equal(fingerprint({ a: [1, 2] }), fingerprint({ a: [1, 2] }));
    assert.notEqual(fingerprint({ a: [1, 2] }), fingerprint({ a: [2, 1] }));
  });

  it('writes a fingerprint as 8 hex digits, signed or not', () => {
    assert.equal(hex(0), '00000000');
    assert.equal(hex(-1), 'ffffffff');
    assert.equal(hex(0xdeadbeef | 0), 'deadbeef');
    assert.equal(hex(0xabcd), '0000abcd');
    assert.equal(hex(0xdeadbeef), 'deadbeef'); // unsigned, as parseInt gives it back
    const rng = rngCreate(5);
    for (let i = 0; i < 1000; i++) {
      const h = rngInt(rng, -0x80000000, 0x7fffffff);
      assert.equal(hex(h), (h >>> 0).toString(16).padStart(8, '0'));
    }
  });

  it('mixing changes one by one gives the chain of their list', () => {
    const pairs = [
      [3, 4],
      [-5, 6],
    ];
    const list = [7, 0, pairs, [12, 1, 13, 0], -1, 22, [{ slot: 1, detail: 'x' }], 'text', 0.5, null];
    let h = mixInt(mixInt(99, 7), 0);
    h = mixList(h, pairs.length);
    for (const p of pairs) h = mixInts(h, p);
    h = mixInts(h, [12, 1, 13, 0]);
    h = mixInt(mixInt(h, -1), 22);
    for (const v of list.slice(6)) h = mixValue(h, v);
    assert.equal(h | 0, chainFingerprint(99, list));
    // One integer more, less or changed is another chain.
    assert.notEqual(chainFingerprint(99, list), chainFingerprint(99, [...list, 0]));
    assert.notEqual(mixInts(1, [1, 2]), mixInts(1, [1, 2, 0]));
    assert.notEqual(mixInts(1, [1, 2]), mixInts(1, [2, 1]));
    assert.equal(mixInts(1, [1, 2, 9], 2), mixInts(1, [1, 2]));
  });

  it('the engine version matches package.json', () => {
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
    assert.equal(ENGINE_VERSION, pkg.version);
  });
});

describe('defineGame', () => {
  const game = (): GameDefinition<{ n: number }, number, number, number> => ({
    id: 'count',
    title: 'Count',
    summary: 'counts',
    players: { min: 1, max: 1 },
    config: {},
    timeouts: { initMs: 10, turnMs: 10 },
    bots: {},
    rules: {
      setup: () => 0,
      next: (s) => (s < 3 ? { phase: 'play', seats: [0], turn: s + 1 } : null),
      parseAnswer: () => ({ ok: true, action: 1 }),
      apply: (s) => s + 1,
      outcome: () => ({ ranks: [1], scores: null, reason: 'counted' }),
    },
    wire: { view: (s) => s },
    presentation: { render: String },
  });

  it('takes a definition in its groups', () => {
    assert.equal(defineGame(game()).rules.apply(1, []), 2);
  });

  it('names the group of a member written at the top level, as definitions were before the groups', () => {
    const flat = { ...game(), apply: (s: number) => s + 2 };
    assert.throws(() => defineGame(flat), /^Error: game count: "apply" belongs in the "rules" group \(rules: \{ apply, … \}\)$/);
    const legacy = { ...game(), replayConfigDefaults: { n: 1 } };
    assert.throws(() => defineGame(legacy), /"replayConfigDefaults" belongs in the "replay" group \(replay: \{ configDefaults, … \}\)/);
  });

  it('says which group is missing', () => {
    const { wire: _, ...noWire } = game();
    assert.throws(() => defineGame(noWire as never), /game count: the "wire" group is missing/);
  });
});
