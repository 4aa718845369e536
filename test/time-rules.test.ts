import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { describe, it } from 'node:test';
import { runMatch } from '../src/arena/run-match.js';
import { sumGame } from '../src/arena/sum-game.kit.js';
import { defineGame } from '../src/core/game.js';
import { verifyReplay, type Replay } from '../src/core/replay.js';
import { assertReplayShape } from '../src/core/replay-shape.js';
import { getGame } from '../src/games/index.js';
import type { SmartDogState } from '../src/games/smartdog/state.js';

// Time rules (issue 38): a first-answer allowance, a time bank, strikes. Real child-process bots that sleep
// on purpose; the deadlines are set so that the figures are bounds, not races (a 250 ms sleep against a 200
// ms deadline overruns it by 50 ms however loaded the machine is, and a bank of 1000 ms covers it many times).

/** X: plays the first free cell, sleeping `ms` first on its own turns `turns`; O: the same bot, never slow. */
const ttt = (ms: number, turns: string) => [
  { bot: `stdio:python3 test/fixtures/runner/slow-once.py ${ms} ${turns}`, name: 'slow' },
  { bot: 'stdio:python3 test/fixtures/runner/slow-once.py 0 0', name: 'steady' },
];

/** A copy of a replay, edited. */
const edited = (replay: Replay, edit: (r: Replay) => void): Replay => {
  const copy = structuredClone(replay);
  edit(copy);
  return copy;
};

const bwrap = ['/usr/bin/bwrap', '/bin/bwrap'].some((p) => existsSync(p));

describe('time rules', () => {
  it('with deadlines judged on CPU time (--sandbox-deadline cpu), a slow wait costs the bank nothing; on wall time it does', async (t) => {
    if (!bwrap) {
      if (process.env.BOTARENA_CI) assert.fail('bubblewrap is not installed, and CI must run the sandbox tests (apt-get install bubblewrap)');
      return t.skip('bubblewrap is not installed (apt-get install bubblewrap)');
    }
    // X sleeps 400 ms on its second turn against a 200 ms deadline: asleep, it uses no CPU.
    const play = (deadline: 'cpu' | 'wall') =>
      runMatch({ game: 'tictactoe', seed: 1, seats: ttt(400, '2'), timeouts: { turnMs: 200, bankMs: 1000 } }, { sandbox: { deadline } });
    const onCpu = await play('cpu');
    assert.deepEqual(onCpu.replay.result.faults, [null, null]);
    assert.ok(onCpu.timing[0]!.clock!.bankLeftMs! > 900, `judged on CPU, the sleep drew nothing: ${onCpu.timing[0]!.clock!.bankLeftMs} ms left`);
    assert.ok(onCpu.timing[0]!.worstMs! >= 390, 'it did wait 400 ms');
    const onWall = await play('wall');
    assert.deepEqual(onWall.replay.result.faults, [null, null]);
    assert.ok(onWall.timing[0]!.clock!.bankLeftMs! <= 800, `judged on wall time, the bank paid for the wait: ${onWall.timing[0]!.clock!.bankLeftMs} ms left`);
  });

  it('a bot that overruns its deadline once by 50 ms loses without a bank and survives with one, its bank drawn from', async () => {
    // Both bots play the first free cell: X wins on move 7, unless it forfeits before.
    const without = await runMatch({ game: 'tictactoe', seed: 1, seats: ttt(250, '2'), timeouts: { turnMs: 200 } });
    assert.equal(without.replay.result.faults[0]?.kind, 'timeout');
    assert.equal(without.replay.result.winner, 1, 'without a bank, the late answer forfeits');

    const withBank = await runMatch({ game: 'tictactoe', seed: 1, seats: ttt(250, '2'), timeouts: { turnMs: 200, bankMs: 1000 } });
    const { replay, timing } = withBank;
    assert.deepEqual(replay.result.faults, [null, null]);
    assert.equal(replay.result.winner, 0, 'with a bank, it plays on and wins');
    assert.deepEqual(replay.timeouts, { initMs: 10000, turnMs: 200, turnSet: true, bankMs: 1000 });
    const clock = timing[0]!.clock!;
    assert.equal(clock.bankMs, 1000);
    assert.ok(clock.bankLeftMs! <= 950 && clock.bankLeftMs! > 500, `X overran by at least 50 ms once: ${clock.bankLeftMs} ms left`);
    assert.ok(timing[1]!.clock!.bankLeftMs! > 900, 'O never overran');
    assert.ok(timing[0]!.worstMs! > 200, 'the late answer was accepted');
    verifyReplay(getGame('tictactoe'), replay);
  });

  it('a bank that an answer outlasts is spent, and the answer is a timeout at the turn deadline plus the bank', async () => {
    const { replay, timing } = await runMatch({ game: 'tictactoe', seed: 1, seats: ttt(900, '1'), timeouts: { turnMs: 200, bankMs: 300 } });
    assert.equal(replay.result.faults[0]?.kind, 'timeout');
    assert.match(replay.result.faults[0]!.detail, /no answer within 500 ms/);
    assert.equal(timing[0]!.clock!.bankLeftMs, 0);
  });

  it("a first-answer allowance gives each seat's first turn a longer deadline, and only the first", async () => {
    const first = await runMatch({ game: 'tictactoe', seed: 1, seats: ttt(250, '1'), timeouts: { turnMs: 200, firstMs: 1000 } });
    assert.deepEqual(first.replay.result.faults, [null, null]);
    assert.equal(first.replay.result.winner, 0);
    assert.equal(first.replay.timeouts.firstMs, 1000);
    assert.equal(first.timing[0]!.clock, undefined, 'no bank, no strikes: nothing more in the timing');
    const none = await runMatch({ game: 'tictactoe', seed: 1, seats: ttt(250, '1'), timeouts: { turnMs: 200 } });
    assert.equal(none.replay.result.faults[0]?.kind, 'timeout');
    const second = await runMatch({ game: 'tictactoe', seed: 1, seats: ttt(250, '2'), timeouts: { turnMs: 200, firstMs: 1000 } });
    assert.equal(second.replay.result.faults[0]?.kind, 'timeout', 'the second turn has the turn deadline');
    assert.equal(second.replay.result.faults[0]?.turn, 3);
  });

  it('a match without time rules has the header and timing it always had', async () => {
    const { replay, timing } = await runMatch({ game: 'tictactoe', seed: 1, seats: [{ bot: 'random' }, { bot: 'random' }], timeouts: { turnMs: 500 } });
    assert.deepEqual(replay.timeouts, { initMs: 10000, turnMs: 500, turnSet: true });
    assert.deepEqual(Object.keys(timing[0]!), ['answers', 'faults', 'medianMs', 'worstMs', 'medianCpuMs', 'worstCpuMs'], 'no clock without time rules');
    assert.ok(replay.turns.every((t) => t.moves.every((m) => !('strike' in m))));
  });

  it('strikes forgive the first N timeouts of a seat as passes; the next is a fault; the replay verifies', async () => {
    const passing = defineGame({ ...sumGame, rules: { ...sumGame.rules, pass: () => 0 } });
    const { replay, timing } = await runMatch(
      {
        game: 'sum-test',
        seed: 4,
        config: { turns: 4 },
        seats: [{ bot: 'stdio:node test/fixtures/runner/sleepy-bot.mjs 60000' }, { bot: 'one' }],
        timeouts: { turnMs: 150, strikes: 2 },
      },
      { game: passing },
    );
    const marks = replay.turns.map((t) => [t.moves[0]!.fault?.kind, t.moves[0]!.strike]);
    assert.deepEqual(marks, [
      ['timeout', true],
      ['timeout', true],
      ['timeout', undefined],
      ['timeout', undefined],
    ]);
    assert.equal(replay.result.faults[0]?.turn, 4);
    assert.deepEqual(timing[0], {
      answers: 0,
      faults: 2,
      medianMs: null,
      worstMs: null,
      medianCpuMs: null,
      worstCpuMs: null,
      clock: { strikes: 2, strikesAllowed: 2 },
    });
    verifyReplay(passing, replay);
    // Forged: more strikes than the header allows, or a strike that is not a timeout.
    assert.throws(
      () =>
        verifyReplay(
          passing,
          edited(replay, (r) => (r.turns[2]!.moves[0]!.strike = true)),
        ),
      /turn 3 .*marked a strike, but it would be strike 3, and the header's time rules allow 2/,
    );
    assert.throws(
      () =>
        verifyReplay(
          passing,
          edited(replay, (r) => (r.timeouts.strikes = 1)),
        ),
      /turn 2 .*marked a strike, but it would be strike 2, and the header's time rules allow 1/,
    );
    assert.throws(
      () =>
        verifyReplay(
          passing,
          edited(replay, (r) => (r.turns[0]!.moves[0]!.fault = { kind: 'crash', detail: 'x' })),
        ),
      /turn 1 .*marked a strike, but only a turn's timeout may be forgiven/,
    );
    // A replay file's time rules and marks are checked for their shape before anything reads them.
    assertReplayShape(JSON.parse(JSON.stringify(replay)));
    assert.throws(() => assertReplayShape(edited(replay, (r) => ((r.turns[0]!.moves[0] as { strike: unknown }).strike = 'yes'))), /strike/);
    assert.throws(() => assertReplayShape(edited(replay, (r) => (r.timeouts.strikes = -1))), /strikes/);
    assert.throws(() => assertReplayShape(edited(replay, (r) => (r.timeouts.bankMs = 1e12))), /bankMs/);
  });

  it('a smart-dog player whose turn times out stays in the game with a strike, and is out for good without one', async () => {
    const play = (strikes?: number) =>
      runMatch({
        game: 'smartdog',
        seed: 1,
        config: { map: 'meadow', options: '{"turnsLimit":4,"waitForTurn":700}' },
        seats: [{ bot: `stdio:node test/fixtures/smartdog/dog.mjs slow x 0 duet tr-${process.pid}`, name: 'slow' }, { bot: 'random' }],
        timeouts: strikes === undefined ? {} : { strikes },
      });
    const out = await play();
    assert.equal(out.replay.result.faults[0]?.kind, 'timeout');
    assert.equal((out.state as SmartDogState).out[0], true);

    // Its turn-2 'end' comes 800 ms late, during turn 3 or after it (smart-dog's lines carry no turn number):
    // one or two of its turns time out, each forgiven.
    const { replay, state, timing } = await play(3);
    assert.deepEqual(replay.result.faults, [null, null]);
    assert.equal((state as SmartDogState).out[0], false, 'the slow player is still in');
    const struck = replay.turns[1]!.moves.find((m) => m.slot === 0)!;
    assert.equal(struck.strike, true);
    assert.equal(struck.fault?.kind, 'timeout');
    const strikes = replay.turns.filter((t) => t.moves.some((m) => m.slot === 0 && m.strike)).length;
    assert.ok(strikes >= 1 && strikes <= 2, `${strikes} strikes`);
    assert.deepEqual(timing[0]!.clock, { strikes, strikesAllowed: 3 });
    verifyReplay(getGame('smartdog'), replay);
    // The strike is what kept it in: without the mark, the replay does not reproduce.
    assert.throws(() =>
      verifyReplay(
        getGame('smartdog'),
        edited(replay, (r) => delete r.turns[1]!.moves.find((m) => m.slot === 0)!.strike),
      ),
    );
  });

  it('a paint timeout forgiven is no action that turn, not a fault; the replay verifies', async () => {
    // turns_left 5: 1500 ms of thought for a 1000 ms deadline (the next answer, at once, catches up).
    const { replay, timing } = await runMatch({
      game: 'paint',
      seed: 99,
      config: { width: 10, height: 8, turns: 8 },
      timeouts: { initMs: 5000, turnMs: 1000, strikes: 3 },
      seats: [{ bot: `stdio:node test/fixtures/paint/late.mjs 5 1500 -1 -1 tr-paint-${process.pid}`, name: 'late' }, { bot: 'painter' }],
    });
    assert.deepEqual(replay.result.faults, [null, null]);
    const struck = replay.turns.flatMap((t) => t.moves.filter((m) => m.strike));
    assert.ok(struck.length >= 1 && struck.every((m) => m.slot === 0 && m.fault?.kind === 'timeout'), JSON.stringify(struck));
    assert.equal(timing[0]!.clock!.strikes, struck.length);
    assert.equal(timing[0]!.faults, 0);
    verifyReplay(getGame('paint'), replay);
  });

  it('refuses strikes in a game that has no pass, saying why', async () => {
    await assert.rejects(
      runMatch({ game: 'tictactoe', seed: 1, seats: [{ bot: 'random' }, { bot: 'random' }], timeouts: { strikes: 1 } }),
      /tictactoe has no pass: .*a timeout is a fault.*leave out strikes/,
    );
  });
});
