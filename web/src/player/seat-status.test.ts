import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MatchCancelledError, runMatch } from '../../../src/arena/run-match.js';
import type { Replay } from '../../../src/core/replay.js';
import type { LiveEvents } from '../../../src/live/events.js';
import { timelineOf } from '../timeline.js';
import { seatStatus, timingText } from './seat-status.js';

// What the web player's seat table says of each seat, on replays that real bots made (issue 32's review:
// it rebuilt each seat's fault as its latest of any step, and read no notes and no `stopped`).

/** The status of every seat at the last step, and at step `index`. */
function statuses(replay: Replay, index?: number) {
  const t = timelineOf(replay);
  return seatStatus(t, index ?? t.records.length);
}

describe("the web player: each seat's status", () => {
  it('a tic-tac-toe bot silent at the hello (which the rules ignore) that wins shows "won", with the note, at every step', async () => {
    const { replay } = await runMatch({
      game: 'tictactoe',
      seats: [{ bot: 'stdio:node test/fixtures/bots/hello-modes.mjs silent' }, { bot: 'random' }],
      seed: 1,
      timeouts: { initMs: 1000 },
    });
    assert.equal(replay.result.winner, 0, 'the silent bot wins this seed');
    const [silent] = statuses(replay);
    assert.equal(silent!.fault, null);
    assert.match(silent!.text, /^won/);
    assert.deepEqual({ kind: silent!.note?.kind, turn: silent!.note?.turn }, { kind: 'timeout', turn: 0 });
    // Mid-match too: the hello's timeout is a note, not a fault.
    const mid = statuses(replay, 2)[0]!;
    assert.equal(mid.fault, null);
    assert.equal(mid.note?.kind, 'timeout');
    assert.equal(mid.text, 'playing');
  });

  it('a lighthouses bot whose slow turn its strikes forgave shows the strike used, not a fault', async () => {
    const { replay } = await runMatch({
      game: 'lighthouses',
      seats: [{ bot: 'stdio:python3 test/fixtures/runner/slow-passer.py 400 2' }, { bot: 'random' }],
      seed: 5,
      config: { map: 'cross', rounds: 4 },
      timeouts: { initMs: 5000, turnMs: 150, strikes: 2 },
    });
    const at = replay.turns.findIndex((r) => r.moves.some((m) => m.slot === 0 && m.strike));
    assert.ok(at > 0, 'its second turn was a strike');
    const before = statuses(replay, at)[0]!;
    assert.equal(before.strikes, 0);
    const [slow] = statuses(replay, at + 1);
    assert.equal(slow!.strikes, 1);
    assert.equal(slow!.fault, null, 'a forgiven timeout is not its fault');
    assert.deepEqual(slow!.move, { action: null, fault: slow!.move!.fault, strike: true });
    assert.equal(slow!.move!.fault?.kind, 'timeout');
    // Its late line then answers the next turn too late, as the original's pairing has it: strikes as the replay marks them.
    const marked = replay.turns.flatMap((r) => r.moves).filter((m) => m.slot === 0 && m.strike).length;
    const end = statuses(replay)[0]!;
    assert.ok(marked >= 1 && marked <= 2, `${marked} strikes marked, of 2 allowed`);
    assert.equal(end.strikes, marked);
  });

  it('a lighthouses bot that exits on round 3 of 12 shows its crash on round 3, at the end and at any step after it', async () => {
    const { replay } = await runMatch({
      game: 'lighthouses',
      seats: [{ bot: 'stdio:node test/fixtures/lighthouses/fickle.mjs crash' }, { bot: 'random' }],
      seed: 5,
      config: { map: 'cross', rounds: 12 },
    });
    assert.equal(replay.result.faults[0]?.turn, 3);
    const last = replay.turns.at(-1)!.turn;
    assert.ok(last > 5, `${last} turns`);
    for (const index of [undefined, replay.turns.length - 1, replay.turns.findIndex((r) => r.turn === 5) + 1]) {
      const [fickle] = statuses(replay, index);
      assert.deepEqual({ kind: fickle!.fault?.kind, turn: fickle!.fault?.turn }, { kind: 'crash', turn: 3 }, `after step ${index ?? 'last'}`);
      assert.match(fickle!.fault!.detail, /before answering/);
    }
  });

  it("a paint match that ended as an error (a failed ready handshake) shows no winner: the error, and the faulty seat's fault", async () => {
    // It used to show [["won", null], ["rank 2", "bad-answer"]] (issue 32, second review, item 4).
    const unready = `stdio:while read line; do echo '{"ready":1}'; done`;
    const { replay } = await runMatch({ game: 'paint', seats: [{ bot: 'painter' }, { bot: unready }], seed: 1, timeouts: { initMs: 10_000 } });
    assert.equal(replay.result.error, 'unresponsive players: bob (slot 1)');
    assert.deepEqual(
      statuses(replay).map((s) => [s.text, s.fault?.kind ?? null]),
      [
        ['error: no game played', null],
        ['error: no game played', 'bad-answer'],
      ],
    );
  });

  it('a match stopped with Ctrl-C (a replay marked stopped) shows "stopped", not ["won", "won"]', async () => {
    // The match is cancelled once its third step is played: the replay has those steps, marked stopped.
    const abort = new AbortController();
    const live: LiveEvents = {
      publish: (_id, audience, event) => void (audience === 'public' && event.type === 'step' && event.index >= 2 && abort.abort()),
      subscribe: () => () => {},
      history: () => Promise.resolve(null),
      close: () => Promise.resolve(),
    };
    const err = await runMatch({ game: 'connect4', seats: [{ bot: 'random' }, { bot: 'random' }], seed: 3 }, { signal: abort.signal, live }).then(
      () => assert.fail('the match was not cancelled'),
      (e: unknown) => e,
    );
    assert.ok(err instanceof MatchCancelledError && err.replay, String(err));
    const replay = err.replay;
    assert.ok(replay.stopped);
    assert.deepEqual(
      statuses(replay).map((s) => s.text),
      ['stopped', 'stopped'],
    );
    assert.equal(timelineOf(replay).stopped, replay.stopped);
  });
});

describe("the web player's seat table: where an answer's time went (issue 38)", () => {
  it("a stdio bot's CPU time beside its wall time, with its median; built-in bots have none", async () => {
    const { replay } = await runMatch({
      game: 'tictactoe',
      seats: [{ bot: 'stdio:node test/fixtures/bots/spin-ttt.mjs 30' }, { bot: 'random' }],
      seed: 3,
      timeouts: { initMs: 20_000, turnMs: 20_000 },
    });
    const [spin, random] = statuses(replay, replay.turns.length - 1);
    const shown = spin!.lastCpuMs ?? statuses(replay, replay.turns.length)[0]!.lastCpuMs;
    assert.ok(shown !== null && shown >= 15, `the spinning bot's CPU time at a step it answered: ${shown}`);
    assert.ok(spin!.medianCpuMs! >= 15 && spin!.medianCpuMs! < 60, `median ${spin!.medianCpuMs}`);
    assert.match(timingText(spin!), /^ · CPU (–|\d+\.\d) \(median \d+\.\d\)$/);
    assert.equal(random!.medianCpuMs, null);
    assert.equal(timingText(random!), '');
  });
});
