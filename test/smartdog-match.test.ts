import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { runMatch } from '../src/arena/run-match.js';
import { verifyReplay } from '../src/core/replay.js';
import { jsonResult } from '../src/cli/play-match.js';
import { getGame } from '../src/games/index.js';
import type { SmartDogState } from '../src/games/smartdog/state.js';
import { livePidsWith } from './processes.js';

const dog = (mode: string, marker: string) => ({ bot: `stdio:node test/fixtures/smartdog/dog.mjs ${mode} x 0 duet ${marker}`, name: mode });

describe('smart-dog matches through the runner (stdio and built-in seats)', () => {
  it('applies each line at once, answers warnings and errors at once, and replays exactly', async () => {
    const marker = `sd-${process.pid}-a`;
    const play = () =>
      runMatch({
        game: 'smartdog',
        seed: 3,
        config: { map: 'meadow', options: '{"turnsLimit":6}' },
        transcripts: true,
        seats: [dog('noisy', marker), { bot: 'herder' }, { bot: 'random' }],
      });
    const { replay } = await play();
    assert.equal(replay.turns.length, 6);
    const sent = replay.transcripts![0]!.filter((e) => e.dir === 'send').map((e) => e.text);
    assert.match(sent[0]!, /^start "you":1,"rows":\d+,"cols":\d+,"players":3,/);
    assert.ok(sent.includes('warning 999999 Unknown id'));
    assert.ok(sent.includes('error Unknown command: hello(world)'));
    assert.match(sent[sent.length - 1]!, /^finished "youWin":(true|false)/);
    const first = replay.turns[0]!.moves[0]!.action as { lines: [number, string][] };
    assert.deepEqual(first.lines.map(([, t]) => t).slice(-3), ['do 999999 move up', 'hello world', 'end']);
    verifyReplay(getGame('smartdog'), replay);
    assert.deepEqual(livePidsWith(marker), []);
  });

  it('stdio and built-in seats are applied in a rotating seat order: the same seed plays the same game', async () => {
    // (A bot that writes after its `end`, like the noisy one, races the next turn's view: not this one.)
    const marker = `sd-${process.pid}-e`;
    const play = () =>
      runMatch({
        game: 'smartdog',
        seed: 3,
        config: { map: 'meadow', options: '{"turnsLimit":8}' },
        seats: [dog('ok', marker), { bot: 'herder' }, { bot: 'random' }],
      });
    const [a, b] = [await play(), await play()];
    assert.deepEqual(
      b.replay.turns.map((t) => t.hash),
      a.replay.turns.map((t) => t.hash),
    );
    const firsts = a.replay.turns.map((t) => t.moves.flatMap((m) => ((m.action as { lines: [number, string][] }).lines[0]?.[0] === 0 ? [m.slot] : [])));
    assert.deepEqual(firsts.slice(0, 4), [[0], [1], [2], [0]], 'the first seat applied rotates with the turn');
  });

  it('a bot that vanishes is out for good (scores −10, never asked again), and the others play on', async () => {
    const marker = `sd-${process.pid}-b`;
    const { replay, state } = await runMatch({
      game: 'smartdog',
      seed: 1,
      config: { map: 'meadow', options: '{"turnsLimit":8}' },
      seats: [dog('vanish', marker), { bot: 'herder' }],
    });
    assert.equal(replay.result.faults[0]!.kind, 'crash');
    assert.equal(replay.result.faults[0]!.turn, 3);
    assert.deepEqual(
      replay.turns.slice(3).map((t) => t.moves.map((m) => m.slot)),
      Array.from({ length: 5 }, () => [1]),
    );
    assert.equal((state as SmartDogState).scores[0], -10);
    assert.deepEqual(replay.result.ranks, [2, 1]);
    verifyReplay(getGame('smartdog'), replay);
  });

  it('with leave=abort a vanishing bot ends the game for everyone with no winner, as the reference did', async () => {
    const marker = `sd-${process.pid}-d`;
    const { replay } = await runMatch({
      game: 'smartdog',
      seed: 1,
      transcripts: true,
      config: { map: 'meadow', options: '{"turnsLimit":8}', leave: 'abort' },
      seats: [dog('vanish', marker), { bot: 'herder' }],
    });
    assert.equal(replay.turns.length, 3);
    assert.deepEqual(replay.result.ranks, [1, 1]);
    assert.equal(replay.result.winner, null);
    assert.match(replay.result.reason, /^stopped: player 1 disconnected; nobody wins/);
    const last = replay.transcripts![1]!.filter((e) => e.dir === 'send').pop()!.text;
    assert.equal(last, 'finished "youWin":false,"error":"player 1 disconnected"');
    verifyReplay(getGame('smartdog'), replay);
  });

  it('a turn deadline (waitForTurn) puts a slow bot out, keeping the lines it sent in time', async () => {
    const marker = `sd-${process.pid}-c`;
    const { replay } = await runMatch({
      game: 'smartdog',
      seed: 1,
      config: { map: 'meadow', options: '{"turnsLimit":4,"waitForTurn":700}' },
      seats: [dog('slow', marker), { bot: 'random' }],
    });
    assert.equal(replay.result.faults[0]!.kind, 'timeout');
    assert.match(replay.result.faults[0]!.detail, /no answer within 700 ms/);
    assert.equal(replay.result.faults[0]!.turn, 2);
    verifyReplay(getGame('smartdog'), replay);
  });

  it('a stdio seat gets finished, then its input closes, and it exits by itself; a TCP-style join first line is ignored', async () => {
    const marker = `sd-${process.pid}-f`;
    const { replay } = await runMatch({
      game: 'smartdog',
      seed: 2,
      transcripts: true,
      config: { map: 'meadow', options: '{"turnsLimit":3}' },
      seats: [{ bot: `stdio:node test/fixtures/smartdog/dog.mjs ok --join 0 duet ${marker}`, name: 'joiner' }, { bot: 'herder' }],
    });
    const log = replay.transcripts![0]!;
    assert.ok(
      log.some((e) => e.dir === 'note' && e.text.startsWith('ignored the first line "join ok duet": a join greeting')),
      'the join line is noted as ignored',
    );
    assert.ok(!log.some((e) => e.dir === 'send' && e.text.startsWith('error')), 'the join line is not answered with an error');
    assert.equal(replay.result.faults[0], null);
    const stderr = log
      .filter((e) => e.dir === 'stderr')
      .map((e) => e.text)
      .join('');
    assert.match(stderr, /finished "youWin":(true|false)[^\n]*\ninput closed\n$/, 'the bot read finished, then saw its input close');
    assert.ok(
      log.some((e) => e.dir === 'note' && e.text.startsWith('process exited with code 0')),
      'it exited by itself, unsignalled',
    );
    assert.deepEqual(livePidsWith(marker), []);
  });

  it('nobody wins when nobody scores above −10: the result, --json, the replay and finished agree', async () => {
    // One player whose dog barks its only penned sheep off the pen: −10, so no winner (not "winner 0").
    const { replay } = await runMatch({
      game: 'smartdog',
      seed: 1,
      transcripts: true,
      config: { map: '{"turnsLimit":1}\n@o.\n', options: '' },
      seats: [{ bot: 'stdio:node test/fixtures/smartdog/dog.mjs bark', name: 'barker' }],
    });
    assert.deepEqual(replay.result.scores, [-10]);
    assert.equal(replay.result.winner, null);
    assert.equal(replay.result.draw, false);
    assert.match(replay.result.reason, /^nobody wins/);
    const json = jsonResult(replay);
    assert.equal(json.winner, null);
    assert.equal(json.draw, false);
    const last = replay.transcripts![0]!.filter((e) => e.dir === 'send').pop()!.text;
    assert.equal(last, 'finished "youWin":false');
    verifyReplay(getGame('smartdog'), replay);
  });

  it('a part with no sheep is played: every score 0, the lowest id wins the tie', async () => {
    const { replay } = await runMatch({
      game: 'smartdog',
      seed: 1,
      config: { map: '{"turnsLimit":3}\n@..\n...\n' },
      seats: [{ bot: 'random' }, { bot: 'random' }],
    });
    assert.equal(replay.turns.length, 3);
    assert.deepEqual(replay.result.scores, [0, 0]);
    assert.equal(replay.result.winner, 0);
    assert.deepEqual(replay.result.ranks, [1, 2]);
    verifyReplay(getGame('smartdog'), replay);
  });
});
