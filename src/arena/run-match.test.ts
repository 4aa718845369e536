import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { isGone } from '../../test/processes.js';
import type { AnyGame } from '../core/game.js';
import { LocalLiveEvents } from '../live/local.js';
import type { LiveEvent } from '../live/events.js';
import type { JobRequest } from './match-job.js';
import { MatchCancelledError, runMatch, type RunOptions } from './run-match.js';
import { deadlineFor } from './seat.js';
import { sumGame } from './sum-game.kit.js';

/** Runs a match of the test game, which is not in the registry: its definition comes beside the job. */
const play = (job: Omit<JobRequest, 'game'>, opts: RunOptions & { game?: AnyGame } = {}) => runMatch({ game: 'sum-test', ...job }, { game: sumGame, ...opts });

const sleepy = (delay: number, ...extra: string[]) => `stdio:node test/fixtures/runner/sleepy-bot.mjs ${delay} ${extra.join(' ')}`;

describe('match runner', () => {
  it('asks simultaneous seats in parallel: two slow bots take about as long as one', async () => {
    const time = async (bots: string[]) => {
      const t0 = performance.now();
      const { replay } = await play({ seats: bots.map((bot) => ({ bot })), seed: 1, config: { turns: 3 } });
      assert.deepEqual(
        replay.result.faults,
        bots.map(() => null),
      );
      return performance.now() - t0;
    };
    const one = await time([sleepy(250), 'one']);
    const two = await time([sleepy(250), sleepy(250)]);
    // Sequential asking would make `two` about twice `one`.
    assert.ok(two < one * 1.5, `two slow seats took ${two.toFixed(0)} ms vs ${one.toFixed(0)} ms for one`);
  });

  it('a bot that never answers costs only its own deadline, and the others keep playing', async () => {
    const { replay, timing } = await play({
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
    // A timeout is no answer: it is counted apart, and its time is not an answer time.
    assert.deepEqual(timing[0], { answers: 0, faults: 2, medianMs: null, worstMs: null, medianCpuMs: null, worstCpuMs: null });
  });

  it('turns a bad answer and a throwing built-in bot into faults with reasons', async () => {
    const { replay } = await play({ seats: [{ bot: 'stdio:echo hello' }, { bot: 'boom' }, { bot: 'one' }], seed: 3, config: { turns: 1 } });
    const [a, b] = replay.result.faults;
    assert.ok(a && ['not-json', 'crash'].includes(a.kind), JSON.stringify(a));
    assert.equal(b?.kind, 'crash');
    assert.match(b!.detail, /kaboom/);
    assert.deepEqual(replay.result.ranks, [2, 2, 1]);
  });

  it("publishes started, a step per step and ended to the full audience, and each bot's messages to its own seat only", async () => {
    const live = new LocalLiveEvents();
    const full: LiveEvent[] = [];
    const seat0: LiveEvent[] = [];
    const seat1: LiveEvent[] = [];
    live.subscribe('m4', 'full', (e) => void full.push(e));
    live.subscribe('m4', { seat: 0 }, (e) => void seat0.push(e));
    live.subscribe('m4', { seat: 1 }, (e) => void seat1.push(e));
    const { replay } = await play({ matchId: 'm4', seats: [{ bot: sleepy(0) }, { bot: 'boom' }], seed: 4, config: { turns: 2 } }, { live });
    await new Promise((r) => setImmediate(r));
    assert.deepEqual(
      full.map((e) => e.type),
      ['started', 'step', 'step', 'ended'],
    );
    const started = full[0] as Extract<LiveEvent, { type: 'started' }>;
    const { turns: _t, result: _r, durationMs: _d, transcripts: _x, ...header } = replay;
    assert.deepEqual(started.header, header, 'started carries the replay header');
    assert.deepEqual(
      full.filter((e) => e.type === 'step').map((e) => (e as Extract<LiveEvent, { type: 'step' }>).record),
      replay.turns,
      'steps carry the records',
    );
    assert.deepEqual(JSON.parse(JSON.stringify(full)), full, 'events are plain JSON');
    assert.ok(seat0.length > 0 && seat0.every((e) => e.type === 'message' && e.slot === 0), "the stdio bot's messages go to its seat");
    assert.ok(seat1.every((e) => e.type === 'message' && e.slot === 1));
    assert.ok(
      seat1.some((e) => e.type === 'message' && /kaboom/.test(e.entry.text)),
      "the built-in bot's crash is noted to its seat",
    );
    assert.ok(!full.some((e) => e.type === 'message'), 'raw messages never reach the full audience');
  });

  it("marks each log line with its step: lighthouses' result of a command, sent after the step is applied, is that step's", async () => {
    const { replay } = await runMatch({
      game: 'lighthouses',
      seats: [{ bot: 'stdio:python3 test/fixtures/runner/slow-passer.py 0 0' }, { bot: 'random' }],
      seed: 3,
      config: { map: 'cross', rounds: 3 },
      transcripts: true,
    });
    const log = replay.transcripts![0]!;
    assert.ok(
      log.every((e) => Number.isInteger(e.step) && e.step! < replay.turns.length),
      'every line has a step of the match',
    );
    const results = log.map((e, i) => ({ e, prev: log[i - 1] })).filter(({ e }) => e.dir === 'send' && e.text.includes('"success"'));
    assert.ok(results.length >= 3, `${results.length} results sent`);
    for (const { e, prev } of results) {
      assert.equal(prev?.dir, 'recv', 'a result follows the command it answers');
      assert.equal(e.step, prev!.step, `the result "${e.text}" is in the step of its command`);
      assert.ok(
        replay.turns[e.step!]!.moves.some((m) => m.slot === 0),
        'a step where the bot moved',
      );
    }
  });

  it('a listener that throws, or never finishes, does not touch the match', async () => {
    const lines: string[] = [];
    const live = new LocalLiveEvents({ log: (l) => lines.push(l) });
    live.subscribe('m7', 'full', () => {
      throw new Error('viewer bug');
    });
    live.subscribe('m7', 'public', () => new Promise(() => {}));
    const quiet = await play({ matchId: 'm7', seats: [{ bot: 'one' }, { bot: 'one' }], seed: 7, config: { turns: 6 } });
    const loud = await play({ matchId: 'm7', seats: [{ bot: 'one' }, { bot: 'one' }], seed: 7, config: { turns: 6 } }, { live });
    assert.deepEqual(
      loud.replay.turns.map((t) => t.hash),
      quiet.replay.turns.map((t) => t.hash),
    );
    assert.deepEqual(loud.replay.result, quiet.replay.result);
    await new Promise((r) => setTimeout(r, 20));
    assert.ok(
      lines.some((l) => /listener of match:m7:full threw on "started": viewer bug/.test(l)),
      lines.join('\n'),
    );
  });

  it('runs a job that went through JSON exactly as the job itself', async () => {
    const job = {
      matchId: 'j1',
      game: 'sum-test',
      config: { turns: 4 },
      seed: 99,
      seats: [{ bot: 'one' }, { bot: 'boom', name: 'B' }],
      timeouts: { turnMs: 500 },
    };
    const a = await runMatch(job, { game: sumGame });
    const b = await runMatch(JSON.parse(JSON.stringify(job)), { game: sumGame });
    // Answer times differ from run to run; everything else is the same.
    const strip = ({ durationMs: _d, turns, ...r }: typeof a.replay) => ({
      ...r,
      turns: turns.map((t) => ({ ...t, moves: t.moves.map(({ ms: _ms, ...m }) => m) })),
    });
    assert.deepEqual(strip(b.replay), strip(a.replay));
    assert.equal(a.replay.seats[1]!.name, 'B');
    assert.deepEqual(a.replay.timeouts, { initMs: 1000, turnMs: 500, turnSet: true });
  });

  it('refuses a connect-in seat that has no connection, naming the seat; and tcp seats in a game without a lobby', async () => {
    const withLobby = { ...sumGame, wire: { ...sumGame.wire, lobby: { read: () => null, waiting: 'wait', noSuchHub: 'no' } } } as AnyGame;
    await assert.rejects(
      play({ seats: [{ bot: 'one' }, { bot: 'tcp' }] }, { game: withLobby }),
      /seat 1 is "tcp": that bot connects in, so it must connect before the match starts/,
    );
    await assert.rejects(play({ seats: [{ bot: 'one' }, { bot: 'tcp' }] }), /sum-test bots cannot connect in over tcp/);
  });

  it('cancels promptly and leaves no bot process behind, even one that ignores SIGTERM', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'botarena-runner-'));
    const pidfile = join(dir, 'pid');
    const controller = new AbortController();
    const match = play({ seats: [{ bot: sleepy(60_000, pidfile, 'ignore-term') }], seed: 5, timeouts: { turnMs: 30_000 } }, { signal: controller.signal });
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
    const { replay } = await play({ seats: [{ bot: sleepy(0) }, { bot: 'one' }], seed: 6, config: { turns: 1 }, transcripts: true });
    const [remote, local] = replay.transcripts!;
    assert.ok(
      remote!.some((e) => e.dir === 'send' && e.text === '{"turn":1,"you":0,"totals":[0,0]}'),
      JSON.stringify(remote),
    );
    assert.ok(remote!.some((e) => e.dir === 'recv' && e.text === '{"n":1}'));
    assert.deepEqual(
      local!.map((e) => e.dir),
      ['send', 'recv'],
    );
  });

  it('rejects a wrong number of bots and a bad config before starting anything', async () => {
    await assert.rejects(play({ seats: [], seed: 1 }), /played by 1 to 8 bots, got 0/);
    await assert.rejects(play({ seats: [{ bot: 'one' }], config: { turns: 'x' } }), /config "turns" of sum-test must be an integer/);
    await assert.rejects(play({ seats: [{ bot: 'nobot' }] }), /has no built-in bot "nobot"; its built-in bots are: one, boom/);
  });
});

describe('match runner cleanup', () => {
  it('stops every bot when the rules themselves throw', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'botarena-runner-'));
    const pidfile = join(dir, 'pid');
    const broken = {
      ...sumGame,
      rules: {
        ...sumGame.rules,
        apply: () => {
          throw new Error('rules bug');
        },
      },
    };
    await assert.rejects(play({ seats: [{ bot: sleepy(0, pidfile, 'ignore-term') }], seed: 1 }, { game: broken }), /rules bug/);
    assert.ok(isGone(Number(readFileSync(pidfile, 'utf8'))), 'the bot outlived a crashed match');
  });

  it('never asks a timer for more than it can count (2³¹−1 ms): a huge step deadline is clamped, not turned into 1 ms', () => {
    assert.equal(deadlineFor({ phase: 'play', deadlineMs: 5_000_000_000 }, { initMs: 10, turnMs: 10 }), 2 ** 31 - 1);
    assert.equal(deadlineFor({ phase: 'init' }, { initMs: 3_000_000_000, turnMs: 10 }), 2 ** 31 - 1);
    assert.equal(deadlineFor({ phase: 'play', deadlineMs: 700 }, { initMs: 10, turnMs: 10 }), 700);
  });
});
