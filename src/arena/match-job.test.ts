import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { JOB_LIMITS, newJob, parseMatchJob } from './match-job.js';

const good = {
  matchId: 'm-1',
  game: 'tictactoe',
  config: { board: '3x3', turns: 4, fast: true },
  seed: 7,
  seats: [{ bot: 'random' }, { bot: 'stdio:python3 bot.py', name: 'Mine' }],
  timeouts: { turnMs: 500 },
};

describe('match job', () => {
  it("fills defaults: a recorded random seed, the seed as match id, the game's deadlines", () => {
    const job = newJob({ game: 'tictactoe', seats: [{ bot: 'random' }, { bot: 'minimax' }] });
    assert.ok(Number.isInteger(job.seed) && job.seed >= 0 && job.seed <= 0xffffffff);
    assert.equal(job.matchId, String(job.seed));
    assert.deepEqual(job.timeouts, {});
    assert.deepEqual(JSON.parse(JSON.stringify(job)), job, 'a job is plain JSON');
  });

  it('reads a good job and keeps only its own fields', () => {
    assert.deepEqual(parseMatchJob({ ...good, extra: 'x', seats: [{ bot: 'random', junk: 1 }, good.seats[1]] }), {
      ...good,
      seats: [{ bot: 'random' }, good.seats[1]],
    });
  });

  const bad: [string, unknown, RegExp][] = [
    ['not an object', [1, 2], /"\(job\)" must be a JSON object/],
    ['a match id with a slash', { ...good, matchId: '../etc' }, /"matchId" must be 1 to 128 letters/],
    ['a huge match id', { ...good, matchId: 'x'.repeat(10_000) }, /"matchId" must be.*\(10002 characters\)/],
    ['an unknown-shaped game', { ...good, game: 'Tic Tac' }, /"game" must be a game id/],
    ['a float seed', { ...good, seed: 1.5 }, /"seed" must be an integer in 0..4294967295, got 1.5/],
    ['a negative seed', { ...good, seed: -1 }, /"seed" must be an integer/],
    ['a nested config value', { ...good, config: { deep: { a: { b: 1 } } } }, /"config.deep" must be a number, a boolean or a string/],
    ['too many config keys', { ...good, config: Object.fromEntries(Array.from({ length: 100 }, (_, i) => [`k${i}`, 1])) }, /"config" has 100 keys; at most 64/],
    ['a config string of 2 MB', { ...good, config: { map: 'x'.repeat(2 << 20) } }, /"config.map" must be .* at most 1048576 characters/],
    ['seats not an array', { ...good, seats: 'random' }, /"seats" must be an array/],
    ['too many seats', { ...good, seats: Array.from({ length: 1000 }, () => ({ bot: 'random' })) }, /"seats" must be an array of at most 64 seats/],
    ['a seat without a bot', { ...good, seats: [{ name: 'x' }] }, /"seats\[0\].bot" must be a bot spec/],
    ['a huge bot spec', { ...good, seats: [{ bot: 'stdio:' + 'a'.repeat(100_000) }] }, /"seats\[0\].bot" must be a bot spec of 1 to 4096 characters/],
    ['an empty name', { ...good, seats: [{ bot: 'random', name: ' ' }] }, /"seats\[0\].name" must be a name/],
    ['a deadline of a week', { ...good, timeouts: { turnMs: 7 * 86_400_000 } }, /"timeouts.turnMs" must be a whole number of ms from 1 to 3600000/],
    ['a string deadline', { ...good, timeouts: { initMs: '100' } }, /"timeouts.initMs" must be a whole number/],
    ['a first-answer allowance of 0 ms', { ...good, timeouts: { firstMs: 0 } }, /"timeouts.firstMs" must be a whole number of ms from 1 to 3600000, got 0/],
    ['a negative bank', { ...good, timeouts: { bankMs: -5 } }, /"timeouts.bankMs" must be a whole number of ms from 0 to 3600000, got -5/],
    ['a bank of a year', { ...good, timeouts: { bankMs: 365 * 86_400_000 } }, /"timeouts.bankMs" must be a whole number of ms from 0 to 3600000/],
    ['a bank as a string', { ...good, timeouts: { bankMs: '1000' } }, /"timeouts.bankMs" must be a whole number/],
    ['half a strike', { ...good, timeouts: { strikes: 1.5 } }, /"timeouts.strikes" must be a whole number of forgiven timeouts from 0 to 1000, got 1.5/],
    ['a million strikes', { ...good, timeouts: { strikes: 1e6 } }, /"timeouts.strikes" must be .* from 0 to 1000, got 1000000/],
    ['strikes as an array', { ...good, timeouts: { strikes: [1] } }, /"timeouts.strikes" must be a whole number/],
    [
      'an unknown time rule',
      { ...good, timeouts: { bankMS: 1000 } },
      /"timeouts.bankMS" is not a time rule: expected initMs, turnMs, firstMs, bankMs or strikes/,
    ],
    ['a huge unknown time rule', { ...good, timeouts: { ['x'.repeat(100_000)]: 1 } }, /is not a time rule/],
    ['transcripts as a string', { ...good, transcripts: 'yes' }, /"transcripts" must be true or false/],
    ['a malformed fork origin', { ...good, forkedFrom: { matchId: 'a' } }, /"forkedFrom" must be \{matchId, seed, turn, fingerprint\}/],
  ];
  for (const [what, value, message] of bad) {
    it(`refuses ${what}, naming the field, quickly and with a short message`, () => {
      const t0 = performance.now();
      assert.throws(
        () => parseMatchJob(value),
        (err: Error) => {
          assert.match(err.message, message);
          assert.ok(err.message.length < 400, `message of ${err.message.length} characters`);
          return err.name === 'UsageError';
        },
      );
      assert.ok(performance.now() - t0 < 500);
    });
  }

  it('reads the time rules (first-answer allowance, bank, strikes), and a bank or strikes of 0', () => {
    const timeouts = { turnMs: 100, firstMs: 2000, bankMs: 0, strikes: 0 };
    assert.deepEqual(parseMatchJob({ ...good, timeouts }).timeouts, timeouts);
    assert.deepEqual(parseMatchJob({ ...good, timeouts: { bankMs: 1000, strikes: 3 } }).timeouts, { bankMs: 1000, strikes: 3 });
  });

  it('refuses a 10 000-deep value without a stack overflow', () => {
    let deep: unknown = 1;
    for (let i = 0; i < 10_000; i++) deep = { a: deep };
    assert.throws(() => parseMatchJob({ ...good, config: { deep } }), /"config.deep" must be a number/);
    assert.throws(() => parseMatchJob({ ...good, forkedFrom: deep }), /"forkedFrom" must be/);
  });

  it('has limits a queue can rely on', () => {
    assert.ok(JOB_LIMITS.seats >= 8 && JOB_LIMITS.deadlineMs >= 300_000);
  });
});
