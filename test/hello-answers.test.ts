import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { runMatch } from '../src/arena/run-match.js';
import { resultLine, verifyReplay, type Replay } from '../src/core/replay.js';
import { getGame } from '../src/games/index.js';
import { runCli } from './run-cli.js';

/** The hello-modes fixture: a tic-tac-toe stdio bot that plays the first empty cell at once, its hello as `mode` says. */
const bot = (mode: string) => `stdio:node test/fixtures/bots/hello-modes.mjs ${mode}`;

/**
 * A tic-tac-toe match of that bot (X) against the seeded random bot, with a long turn deadline. The hello's is short
 * for the bots that must miss it (silent, late: a slow start only makes them later) and long for `bad`, which
 * answers at once: a cold node start on a loaded machine must not turn its not-json into a timeout.
 */
const match = (mode: string) =>
  runMatch({
    game: 'tictactoe',
    seed: 5,
    seats: [{ bot: bot(mode) }, { bot: 'random' }],
    timeouts: { initMs: mode === 'bad' ? 10_000 : 300, turnMs: 8000 },
    transcripts: true,
  });

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
    assert.ok(
      notes.some((n) => /^no answer came to the hello: this line has a turn answer's shape/.test(n)),
      notes.join('\n'),
    );
  });

  it('a hello answered after its deadline is still paid for the hello, never taken for turn 1', async () => {
    const { replay } = await match('late');
    const turn1 = replay.turns.find((t) => t.phase === 'play' && t.turn === 1)!;
    assert.equal(turn1.moves[0]!.action, '0-0');
    const notes = replay.transcripts![0]!.filter((e) => e.dir === 'note').map((e) => e.text);
    assert.ok(
      notes.some((n) => n === 'dropped a late answer (its deadline had passed): {"name":"late"}'),
      notes.join('\n'),
    );
  });
});

describe('botsarena hellos: a failure the rules ignore is a note, not a fault', () => {
  it('a bot whose hello answer is not JSON has no fault: the result, the replay and the result line show a note at turn 0', async () => {
    const { replay } = await match('bad');
    // Before: faults[0] was {turn: 0, kind: "not-json", …} although the rules ignore the hello.
    assert.equal(replay.result.faults[0], null);
    assert.deepEqual({ ...replay.result.notes![0]!, detail: '' }, { turn: 0, kind: 'not-json', detail: '' });
    assert.equal(replay.result.notes![1], null);
    const line = resultLine(replay);
    assert.equal(line.players[0]!.fault, null);
    assert.equal(line.players[0]!.note?.kind, 'not-json');
    verifyReplay(getGame('tictactoe'), replay);
  });

  it("a replay written before notes (the hello's fault among the faults) still verifies; a forged one does not", async () => {
    const { replay } = await match('bad');
    const { notes, ...rest } = replay.result;
    const old: Replay = { ...replay, result: { ...rest, faults: [notes![0]!, null] } };
    verifyReplay(getGame('tictactoe'), old);
    const forged: Replay = { ...replay, result: { ...replay.result, faults: [notes![0]!, null] } };
    assert.throws(() => verifyReplay(getGame('tictactoe'), forged), /the result differs: recorded faults/);
  });

  it("play --json and the table show the hello's failure as a note", async () => {
    const args = ['play', 'tictactoe', bot('silent'), 'random', '--seed', '5', '--init-timeout', '300'];
    const json = await runCli([...args, '--json']);
    assert.equal(json.code, 0, json.stderr);
    const player = JSON.parse(json.stdout).players[0];
    assert.equal(player.fault, null);
    assert.equal(player.note.turn, 0);
    assert.equal(player.note.kind, 'timeout');
    const text = await runCli(args);
    assert.equal(text.code, 0, text.stderr);
    assert.match(text.stdout, /note \(ignored by the rules\)/);
    assert.match(text.stdout, /turn 0: timeout: no answer within 300 ms/);
  });
});
