import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { isGone } from '../../test/processes.js';
import { MatchCancelledError, runMatch, type MatchEvent } from './run-match.js';
import { sumGame } from './test-game.js';

const sleepy = (delay: number, ...extra: string[]) => `stdio:node test/fixtures/runner/sleepy-bot.mjs ${delay} ${extra.join(' ')}`;

describe('match runner', () => {
  it('asks simultaneous seats in parallel: two slow bots take about as long as one', async () => {
    const time = async (bots: string[]) => {
      const t0 = performance.now();
      const { replay } = await runMatch({ game: sumGame, seats: bots.map((bot) => ({ bot })), seed: 1, config: { turns: 3 } });
      assert.deepEqual(replay.result.faults, bots.map(() => null));
      return performance.now() - t0;
    };
    const one = await time([sleepy(250), 'one']);
    const two = await time([sleepy(250), sleepy(250)]);
    // Sequential asking would make `two` about twice `one`.
    assert.ok(two < one * 1.5, `two slow seats took ${two.toFixed(0)} ms vs ${one.toFixed(0)} ms for one`);
  });

  it('a bot that never answers costs only its own deadline, and the others keep playing', async () => {
    const { replay, timing } = await runMatch({
      game: sumGame,
      seats: [{ bot: sleepy(60_000) }, { bot: 'one' }],
      seed: 2,
      config: { turns: 2 },
      timeouts: { turnMs: 300 },
    });
    assert.deepEqual(replay.result.scores, [0, 2]);
    assert.equal(replay.result.faults[0]?.kind, 'timeout');
    assert.equal(replay.result.faults[0]?.turn, 2, 'the latest fault is kept in the result');
    assert.equal(replay.turns[0]!.moves[0]!.fault?.kind, 'timeout');
    assert.equal(replay.turns[1]!.moves[0]!.fault?.kind, 'timeout');
    assert.ok(timing[0]!.worstMs! >= 290);
  });

  it('turns a bad answer and a throwing built-in bot into faults with reasons', async () => {
    const { replay } = await runMatch({ game: sumGame, seats: [{ bot: 'stdio:echo hello' }, { bot: 'boom' }, { bot: 'one' }], seed: 3, config: { turns: 1 } });
    const [a, b] = replay.result.faults;
    assert.ok(a && ['not-json', 'crash'].includes(a.kind), JSON.stringify(a));
    assert.equal(b?.kind, 'crash');
    assert.match(b!.detail, /kaboom/);
    assert.deepEqual(replay.result.ranks, [2, 2, 1]);
  });

  it('emits started, a frame per step, faults and finished, in order', async () => {
    const events: MatchEvent['type'][] = [];
    await runMatch({ game: sumGame, seats: [{ bot: 'one' }, { bot: 'boom' }], seed: 4, config: { turns: 2 }, onEvent: (e) => e.type !== 'message' && events.push(e.type) });
    assert.deepEqual(events, ['started', 'fault', 'frame', 'fault', 'frame', 'finished']);
  });

  it('cancels promptly and leaves no bot process behind, even one that ignores SIGTERM', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'botarena-runner-'));
    const pidfile = join(dir, 'pid');
    const controller = new AbortController();
    const match = runMatch({ game: sumGame, seats: [{ bot: sleepy(60_000, pidfile, 'ignore-term') }], seed: 5, timeouts: { turnMs: 30_000 }, signal: controller.signal });
    // Cancel once the bot is up and ignoring SIGTERM (a fixed delay raced its start-up on a loaded machine).
    for (let i = 0; i < 200 && !existsSync(pidfile); i++) await new Promise((r) => setTimeout(r, 50));
    const pid = Number(readFileSync(pidfile, 'utf8'));
    const t0 = performance.now();
    controller.abort();
    await assert.rejects(match, MatchCancelledError);
    assert.ok(performance.now() - t0 < 10_000, 'cancellation took too long');
    assert.ok(isGone(pid), `bot process ${pid} is still alive after the match was cancelled`);
  });

  it('keeps transcripts of every message when asked', async () => {
    const { replay } = await runMatch({ game: sumGame, seats: [{ bot: sleepy(0) }, { bot: 'one' }], seed: 6, config: { turns: 1 }, transcripts: true });
    const [remote, local] = replay.transcripts!;
    assert.ok(remote!.some((e) => e.dir === 'send' && e.text === '{"turn":1,"you":0,"totals":[0,0]}'), JSON.stringify(remote));
    assert.ok(remote!.some((e) => e.dir === 'recv' && e.text === '{"n":1}'));
    assert.deepEqual(local!.map((e) => e.dir), ['send', 'recv']);
  });

  it('rejects a wrong number of bots and a bad config before starting anything', async () => {
    await assert.rejects(runMatch({ game: sumGame, seats: [], seed: 1 }), /played by 1 to 8 bots, got 0/);
    await assert.rejects(runMatch({ game: sumGame, seats: [{ bot: 'one' }], config: { turns: 'x' } }), /config "turns" of sum-test must be an integer/);
    await assert.rejects(runMatch({ game: sumGame, seats: [{ bot: 'nobot' }] }), /has no built-in bot "nobot"; its built-in bots are: one, boom/);
  });
});

describe('match runner cleanup', () => {
  it('stops every bot when the rules themselves throw', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'botarena-runner-'));
    const pidfile = join(dir, 'pid');
    const broken = { ...sumGame, apply: () => { throw new Error('rules bug'); } };
    await assert.rejects(runMatch({ game: broken, seats: [{ bot: sleepy(0, pidfile, 'ignore-term') }], seed: 1 }), /rules bug/);
    assert.ok(isGone(Number(readFileSync(pidfile, 'utf8'))), 'the bot outlived a crashed match');
  });
});
