import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { runMatch } from '../src/arena/run-match.js';

/** The hello-modes fixture: a tic-tac-toe stdio bot that plays the first empty cell at once, its hello as `mode` says. */
const bot = (mode: string) => `stdio:node test/fixtures/bots/hello-modes.mjs ${mode}`;

/** A tic-tac-toe match of that bot (X) against the seeded random bot, with a short hello deadline and a long turn one. */
const match = (mode: string) =>
  runMatch({ game: 'tictactoe', seed: 5, seats: [{ bot: bot(mode) }, { bot: 'random' }], timeouts: { initMs: 300, turnMs: 8000 }, transcripts: true });

describe('botsarena hellos over stdio: strict pairing never costs an honest answer', () => {
  it('a bot silent at the hello that answers turn 1 at once plays turn 1 (its answer is not taken for the late hello)', async () => {
    const t0 = performance.now();
    const { replay } = await match('silent');
    const turn1 = replay.turns.find((t) => t.phase === 'play' && t.turn === 1)!;
    // Before the fix: {"play":"0-0"} was dropped as "the late init answer" and X lost turn 1 by timeout after 8 s.
    assert.deepEqual({ action: turn1.moves[0]!.action, fault: turn1.moves[0]!.fault }, { action: '0-0', fault: undefined });
    assert.ok(!/forfeited/.test(replay.result.reason), replay.result.reason);
    assert.ok(performance.now() - t0 < 6000, `the match took ${(performance.now() - t0).toFixed(0)} ms: a turn waited for its deadline`);
    const notes = replay.transcripts![0]!.filter((e) => e.dir === 'note').map((e) => e.text);
    assert.ok(notes.some((n) => /^no answer came to the hello: this line has a turn answer's shape/.test(n)), notes.join('\n'));
  });

  it('a hello answered after its deadline is still paid for the hello, never taken for turn 1', async () => {
    const { replay } = await match('late');
    const turn1 = replay.turns.find((t) => t.phase === 'play' && t.turn === 1)!;
    assert.equal(turn1.moves[0]!.action, '0-0');
    const notes = replay.transcripts![0]!.filter((e) => e.dir === 'note').map((e) => e.text);
    assert.ok(notes.some((n) => n === 'dropped a late answer (its deadline had passed): {"name":"late"}'), notes.join('\n'));
  });
});
