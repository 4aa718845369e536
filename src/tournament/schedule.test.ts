import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { rngCreate, rngInt } from '../core/rng.js';
import { allTogether, gauntlet, knockoutFirstRound, pairKey, roundRobin, swissPairs, type Scheduled } from './schedule.js';

/** How often each bot sits in each seat. */
function seatCounts(matches: Scheduled[], bots: number, seats: number): number[][] {
  const c = Array.from({ length: bots }, () => Array(seats).fill(0) as number[]);
  for (const m of matches) m.seats.forEach((b, s) => c[b]![s]!++);
  return c;
}

describe('tournament schedules', () => {
  it('round-robin: every pair meets as often, each bot first in half its games, each pair of games on one seed', () => {
    const matches = roundRobin(4, 4, 7);
    assert.equal(matches.length, 6 * 4);
    const perPair = new Map<string, Scheduled[]>();
    for (const m of matches) perPair.set(pairKey(m.seats[0]!, m.seats[1]!), [...(perPair.get(pairKey(m.seats[0]!, m.seats[1]!)) ?? []), m]);
    assert.equal(perPair.size, 6);
    for (const [key, ms] of perPair) {
      assert.equal(ms.length, 4, key);
      const [a] = key.split('-').map(Number) as [number];
      assert.equal(ms.filter((m) => m.seats[0] === a).length, 2, `${key}: seats swapped within each pair`);
      assert.equal(ms[0]!.seed, ms[1]!.seed, 'a pair of games shares its seed');
      assert.notEqual(ms[0]!.seed, ms[2]!.seed, 'the next pair gets another');
    }
    assert.deepEqual(seatCounts(matches, 4, 2), Array(4).fill([6, 6]));
    assert.deepEqual(roundRobin(4, 4, 7), matches, 'the same spec, the same schedule');
    assert.notDeepEqual(
      roundRobin(4, 4, 8).map((m) => m.seed),
      matches.map((m) => m.seed),
    );
  });

  it('gauntlet: the first bot meets each other one, seats balanced', () => {
    const matches = gauntlet(5, 2, 1);
    assert.equal(matches.length, 8);
    assert.ok(matches.every((m) => m.seats.includes(0)));
    assert.deepEqual(seatCounts(matches, 5, 2)[0], [4, 4]);
  });

  it('all the bots at once: every bot in every seat once per cycle; a cycle shares its seed', () => {
    const matches = allTogether(4, 10, 3);
    assert.equal(matches.length, 12, 'rounded up to whole cycles of 4');
    assert.deepEqual(seatCounts(matches, 4, 4), Array(4).fill([3, 3, 3, 3]));
    for (let c = 0; c < 3; c++) {
      const cycle = matches.slice(c * 4, c * 4 + 4);
      assert.equal(new Set(cycle.map((m) => m.seed)).size, 1);
      assert.deepEqual(seatCounts(cycle, 4, 4), Array(4).fill([1, 1, 1, 1]));
    }
    assert.deepEqual(matches[0]!.seats, [0, 1, 2, 3], 'the first cycle keeps the given order');
  });

  it('Swiss: backtracks rather than repeat a pair (greedy pairing would repeat 4-5 here)', () => {
    const { pairs, bye } = swissPairs([5, 4, 3, 2, 1, 0], new Set(['4-5']), new Set());
    assert.equal(bye, null);
    assert.ok(!pairs.some(([a, b]) => pairKey(a, b) === '4-5'), JSON.stringify(pairs));
    assert.deepEqual(pairs[0], [0, 1], 'the leaders still meet');
  });

  it('Swiss: never repeats a pair while a pairing without repeats exists (random tournaments)', () => {
    const rng = rngCreate(11);
    for (let trial = 0; trial < 300; trial++) {
      const n = rngInt(rng, 3, 9);
      const points = Array(n).fill(0) as number[];
      const met = new Set<string>();
      const byes = new Set<number>();
      for (let round = 0; round < n - 1; round++) {
        const { pairs, bye } = swissPairs(points, met, byes);
        const players = pairs.flat().concat(bye === null ? [] : [bye]);
        assert.equal(new Set(players).size, n, 'everybody plays or has the bye, once');
        if (bye !== null) {
          assert.ok(!byes.has(bye) || byes.size >= n, 'nobody gets a second bye while another has had none');
          byes.add(bye);
        }
        const repeats = pairs.filter(([a, b]) => met.has(pairKey(a, b)));
        if (repeats.length) assert.ok(!perfectWithoutRepeat(pairs.flat(), met), `round ${round} of ${n}: a repeat although a pairing without one existed`);
        for (const [a, b] of pairs) {
          met.add(pairKey(a, b));
          const r = rngInt(rng, 0, 2);
          points[a]! += r / 2;
          points[b]! += 1 - r / 2;
        }
      }
    }
  });

  it('Swiss: an odd bot out gets the bye, the lowest-placed first', () => {
    const { bye } = swissPairs([3, 2, 1, 0, 0.5], new Set(), new Set());
    assert.equal(bye, 3);
    assert.equal(swissPairs([3, 2, 1, 0, 0.5], new Set(), new Set([3])).bye, 4);
  });

  it('knockout: a bracket of the next power of two, byes to the best seeds, 1 and 2 apart', () => {
    assert.deepEqual(knockoutFirstRound(4), [
      [0, 3],
      [1, 2],
    ]);
    assert.deepEqual(knockoutFirstRound(5), [
      [0, null],
      [3, 4],
      [1, null],
      [2, null],
    ]);
    assert.deepEqual(knockoutFirstRound(8), [
      [0, 7],
      [3, 4],
      [1, 6],
      [2, 5],
    ]);
  });
});

/** Whether these bots can all be paired with no pair in `met` (exhaustive; small n). */
function perfectWithoutRepeat(bots: number[], met: Set<string>): boolean {
  if (!bots.length) return true;
  const [a, ...rest] = bots as [number, ...number[]];
  return rest.some((b, i) => !met.has(pairKey(a, b)) && perfectWithoutRepeat([...rest.slice(0, i), ...rest.slice(i + 1)], met));
}
