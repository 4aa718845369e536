import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ladderRng, ladderSeats, pauseReason, pickMatch, SKILL_WINDOW, type LadderBot } from './pick.js';

const bot = (id: string, rating = 1500, recent = 0, running = 0, capacity = 2): LadderBot => ({ id, rating, recent, running, capacity });
const DUEL = { min: 2, max: 2 };
const TRON = { min: 2, max: 12 };

describe('ladder seats', () => {
  it('two for duels; up to four for games of more; never under the minimum', () => {
    assert.equal(ladderSeats(DUEL, 10), 2);
    assert.equal(ladderSeats(TRON, 10), 4);
    assert.equal(ladderSeats(TRON, 3), 3);
    assert.equal(ladderSeats({ min: 2, max: 4 }, 10), 4);
    assert.equal(ladderSeats({ min: 1, max: 4 }, 1), null, 'a ladder match needs two bots even where one may play');
    assert.equal(ladderSeats({ min: 3, max: 6 }, 2), null);
    assert.equal(ladderSeats(DUEL, 1), null);
  });
});

describe('pickMatch', () => {
  it('the bot with the fewest recent matches plays; a newcomer first', () => {
    const bots = [bot('old1', 1600, 12), bot('old2', 1400, 9), bot('new', 1500, 0), bot('old3', 1500, 10)];
    for (let seed = 0; seed < 20; seed++) assert.ok(pickMatch(bots, DUEL, ladderRng(seed))!.includes('new'));
  });

  it('opponents come from the skill window: the nearest-rated bots', () => {
    const bots = [bot('focus', 1500, 0), ...Array.from({ length: 20 }, (_, i) => bot(`b${i}`, 1500 + (i + 1) * 50 * (i % 2 ? 1 : -1), 5))];
    const nearest = [...bots.slice(1)]
      .sort((a, b) => Math.abs(a.rating - 1500) - Math.abs(b.rating - 1500))
      .slice(0, SKILL_WINDOW)
      .map((b) => b.id);
    const met = new Set<string>();
    const rng = ladderRng(1);
    for (let i = 0; i < 200; i++) {
      const seats = pickMatch(bots, DUEL, rng)!;
      met.add(seats.find((s) => s !== 'focus')!);
    }
    assert.deepEqual([...met].sort(), [...nearest].sort(), 'every opponent is one of the 4 nearest, and each of them comes up');
  });

  it('never seats a bot that is at its capacity, nor one bot twice', () => {
    const bots = [bot('busy', 1500, 0, 2, 2), bot('a', 1500, 3), bot('b', 1500, 4), bot('c', 1500, 5, 1, 1)];
    for (let seed = 0; seed < 50; seed++) {
      const seats = pickMatch(bots, DUEL, ladderRng(seed))!;
      assert.deepEqual([...seats].sort(), ['a', 'b']);
    }
    assert.equal(pickMatch([bot('x', 1500, 0, 1, 1), bot('y')], DUEL, ladderRng(0)), null, 'one free bot is not a match');
    const tron = pickMatch([bot('a'), bot('b'), bot('c'), bot('d'), bot('e'), bot('f')], TRON, ladderRng(3))!;
    assert.equal(tron.length, 4);
    assert.equal(new Set(tron).size, 4);
  });

  it('is repeatable from its seed, and shuffles the seats', () => {
    const bots = Array.from({ length: 8 }, (_, i) => bot(`b${i}`, 1500 + i, i));
    assert.deepEqual(pickMatch(bots, TRON, ladderRng(42)), pickMatch(bots, TRON, ladderRng(42)));
    const firsts = new Set<string>();
    for (let seed = 0; seed < 40; seed++) firsts.add(pickMatch(bots, DUEL, ladderRng(seed))![0]!);
    assert.ok(firsts.has('b0') && firsts.size >= 2, 'the bot that needs a match is not always in seat 0');
  });

  it('run as a ladder, spreads the matches evenly over the bots', () => {
    const bots = Array.from({ length: 13 }, (_, i) => bot(`b${i}`, 1200 + i * 50, 0));
    const rng = ladderRng(7);
    for (let m = 0; m < 1000; m++) {
      for (const id of pickMatch(bots, TRON, rng)!) bots.find((b) => b.id === id)!.recent++;
    }
    const counts = bots.map((b) => b.recent);
    assert.equal(
      counts.reduce((a, b) => a + b, 0),
      4000,
    );
    // Drawing opponents blindly from the window gave 278 to 416 (the middle-rated sit in more windows).
    assert.ok(Math.max(...counts) - Math.min(...counts) <= 0.06 * (4000 / 13), `matches per bot: ${counts.join(' ')}`);
  });
});

describe('pauseReason', () => {
  const ok = { fault: null };
  const timeout = { fault: { kind: 'timeout', detail: 'no answer within 10000 ms', turn: 3 } };
  const crash = { fault: { kind: 'crash', detail: 'exited with code 1', turn: 1 } };

  it('pauses a bot whose last 10 matches hold 6 faults, saying how many, of which kinds, and the latest', () => {
    const recent = [crash, timeout, ok, timeout, timeout, ok, timeout, ok, crash, ok];
    assert.equal(
      pauseReason(recent),
      'paused by the ladder: 6 of its last 10 ladder matches ended with its fault (timeout ×4, crash ×2); the latest at turn 1: crash: exited with code 1. Fix the bot (botarena doctor helps), then re-activate it.',
    );
  });

  it('leaves alone a bot with 5 faults in 10, with fewer than 10 matches, or whose old faults are further back', () => {
    assert.equal(pauseReason([timeout, timeout, timeout, timeout, timeout, ok, ok, ok, ok, ok]), null);
    assert.equal(pauseReason([timeout, timeout, timeout, timeout, timeout, timeout, timeout]), null);
    assert.equal(pauseReason([...Array(10).fill(ok), ...Array(10).fill(crash)]), null);
  });
});
