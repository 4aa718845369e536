import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { runMatch } from '../src/arena/run-match.js';
import { verifyReplay } from '../src/core/replay.js';
import { getGame } from '../src/games/index.js';
import { livePidsWith } from './processes.js';
import { runCli } from './run-cli.js';

describe('paint matches between real bots', () => {
  it('plays the Python and Node examples, a late bot that catches up through the turns_left nonce, and a built-in', async () => {
    const marker = `paint-${process.pid}`;
    const turns = 12;
    // turns_left 9: 1500 ms of thought for a 1000 ms deadline; 6: no turns_left; 4: the answer twice.
    const { replay } = await runMatch({
      game: 'paint',
      seed: 99,
      config: { width: 10, height: 8, turns },
      timeouts: { initMs: 5000, turnMs: 1000 },
      transcripts: true,
      seats: [
        { bot: `stdio:python3 examples/paint-python/bot.py ${marker}` },
        { bot: `stdio:node examples/paint-node/bot.mjs ${marker}` },
        { bot: `stdio:node test/fixtures/paint/late.mjs 9 1500 6 4 ${marker}`, name: 'late' },
        { bot: 'painter' },
      ],
    });
    const play = replay.turns.filter((t) => t.phase === 'play');
    assert.equal(play.length, turns);
    const faultOn = (slot: number, turnsLeft: number) => play[turns - turnsLeft]!.moves.find((m) => m.slot === slot)!.fault;
    for (const slot of [0, 1, 3]) for (let t = turns; t >= 1; t--) assert.equal(faultOn(slot, t), undefined, `slot ${slot}, turns_left ${t}`);
    assert.equal(faultOn(2, 9)?.kind, 'timeout');
    assert.equal(faultOn(2, 8), undefined, 'the late bot caught up on the next turn');
    assert.equal(faultOn(2, 6)?.kind, 'bad-answer');
    assert.match(faultOn(2, 6)!.detail, /no "turns_left": copy it from the state \(6\)/);
    for (const t of [12, 11, 10, 7, 5, 4, 3, 2, 1]) assert.equal(faultOn(2, t), undefined, `late bot, turns_left ${t}`);
    const notes = replay.transcripts![2]!.filter((e) => e.dir === 'note').map((e) => e.text);
    assert.ok(
      notes.some((n) => n.includes('skipped a line (turns_left 9 is not the current 8)')),
      notes.join('\n'),
    );
    assert.ok(
      notes.some((n) => /turns_left":4/.test(n)),
      `the repeated answer is dropped or skipped: ${notes.join('\n')}`,
    );
    assert.deepEqual(replay.result.ranks.length, 4);
    verifyReplay(getGame('paint'), replay);
    assert.deepEqual(livePidsWith(marker), [], 'a bot process outlived the match');
  });

  it("reads each direction part as the reference's Integer() does, and a two-character string as two parts", async () => {
    // What the original engine (makeorbreak-io/mob-ai-engine-ruby, lib/multipaint_engine/position.rb) does with
    // each: `raise if list.size != 2`, then `Integer(list[0]), Integer(list[1])`. Each was also run through
    // its ActionSerializer.load (Ruby 3.1): "walk 1,0" or "refused (ArgumentError)" as noted.
    const cases: [string, [number, number] | null][] = [
      ['["0x1", "0"]', [1, 0]],
      ['["0b1", "0o1"]', [1, 1]],
      ['["0_1", "-01"]', [1, -1]],
      ['["+0x1", "-0b1"]', [1, -1]],
      ['["0", "0d1"]', [0, 1]],
      ['"01"', [0, 1]],
      ['"10"', [1, 0]],
      ['"00"', null], // [0, 0]: not a direction
      ['"-1"', null], // Integer("-") raises
      ['["08", "1"]', null], // 8 is not an octal digit
      ['["0x_1", "1"]', null],
      ['["1_0", "0"]', null], // 10
      ['"1"', null], // size 1
    ];
    const dir = mkdtempSync(join(tmpdir(), 'paint-dirs-'));
    const file = join(dir, 'directions.txt');
    writeFileSync(file, cases.map(([text]) => text).join('\n') + '\n');
    const { replay } = await runMatch({
      game: 'paint',
      seed: 1,
      config: { width: 12, height: 12, turns: cases.length },
      timeouts: { initMs: 5000, turnMs: 5000 },
      seats: [{ bot: `stdio:python3 test/fixtures/paint/directions.py ${file}` }, { bot: 'painter' }],
    });
    const mine = replay.turns.filter((t) => t.phase === 'play').map((t) => t.moves.find((m) => m.slot === 0)!);
    assert.deepEqual(
      mine.map((m) => (m.fault ? null : (m.action as { direction: [number, number] }).direction)),
      cases.map(([, read]) => read),
    );
    assert.equal(mine[8]!.fault!.detail, '"direction" "-1": "-" is not an integer');
    assert.equal(mine[9]!.fault!.detail, '"direction" ["08","1"]: "08" is not an integer');
  });

  it('a bot that does not answer {"ready":true} ends the match as an error before any turn, named in the result', async () => {
    const marker = `paint-ready-${process.pid}`;
    const { replay } = await runMatch({
      game: 'paint',
      seed: 1,
      config: { board: '10x10' },
      // Both answer at once: a long hello deadline costs nothing, and a cold node start on a loaded machine needs it.
      timeouts: { initMs: 10_000 },
      seats: [{ bot: `stdio:node examples/paint-node/bot.mjs ${marker}` }, { bot: `stdio:while read line; do echo '{"ready":"yes"}'; done # ${marker}` }],
    });
    assert.deepEqual(
      replay.turns.map((t) => t.phase),
      ['init'],
    );
    assert.deepEqual(replay.result.ranks, [1, 2]);
    assert.equal(
      replay.result.reason,
      'error: unresponsive players: bob (bad-answer: expected {"ready":true} to the hello, got {"ready":"yes"}); no turn was played',
    );
    assert.deepEqual(
      { winner: replay.result.winner, draw: replay.result.draw, error: replay.result.error },
      { winner: null, draw: false, error: 'unresponsive players: bob (slot 1)' },
    );
    verifyReplay(getGame('paint'), replay);
    // Written before the slot was named (issue 32's review): still verifies.
    verifyReplay(getGame('paint'), { ...replay, result: { ...replay.result, error: 'unresponsive players: bob' } });
    assert.deepEqual(livePidsWith(marker), []);
  });

  // The spec: the first line must be {"ready":true}, within the hello's deadline; if any player fails, no
  // turn is played and the match ends as an error naming the unresponsive players (the reference answered
  // {"error":"unresponsive_players","players":[ids]}).
  // The hello's deadline: long for the bots that answer at once (a slow start must not turn a bad answer into a
  // timeout), short for the silent one, which waits it out.
  for (const [how, bot, initMs] of [
    ['answers something else first', `stdio:while read line; do echo '{"hello":1}'; echo '{"ready":true}'; done`, '10000'],
    ['answers {"ready":1}', `stdio:while read line; do echo '{"ready":1}'; done`, '10000'],
    ['is silent', `stdio:while read line; do :; done`, '500'],
  ]) {
    it(`play --json: a board player that ${how} at the hello is named by its id, nobody wins, and play exits 1`, async () => {
      const r = await runCli(['play', 'paint', 'painter', bot!, 'painter', '--seed', '1', '--init-timeout', initMs!, '--json']);
      assert.equal(r.code, 1, r.stderr);
      const result = JSON.parse(r.stdout) as {
        winner: unknown;
        draw: boolean;
        error: string;
        reason: string;
        players: { rank: number; fault: { turn: number } | null }[];
      };
      // The player entries carry slots, not ids: the error names both (issue 32 review).
      assert.deepEqual(
        { winner: result.winner, draw: result.draw, error: result.error },
        { winner: null, draw: false, error: 'unresponsive players: bob (slot 1)' },
      );
      assert.match(result.reason, /^error: unresponsive players: bob \(/);
      assert.deepEqual(
        result.players.map((p) => p.rank),
        [1, 3, 1],
      );
      assert.equal(result.players[1]!.fault?.turn, 0);
      assert.match(r.stderr, /the match ended as an error: unresponsive players: bob \(slot 1\)/);
    });
  }

  it('play: the headline of a match that ended as an error says "error" once', async () => {
    const r = await runCli(['play', 'paint', 'painter', `stdio:while read line; do echo '{"ready":1}'; done`, '--seed', '1', '--init-timeout', '10000']);
    assert.equal(r.code, 1, r.stderr);
    assert.match(
      r.stdout,
      /^Error — unresponsive players: bob \(bad-answer: expected \{"ready":true\} to the hello, got \{"ready":1\}\); no turn was played$/m,
    );
    assert.doesNotMatch(r.stdout, /error: unresponsive/i);
  });

  it('runs the examples the way their READMEs say, and a board given as a file', async () => {
    for (const bot of ['stdio:python3 examples/paint-python/bot.py', 'stdio:node examples/paint-node/bot.mjs']) {
      const r = await runCli(['play', 'paint', bot, 'random', '--seed', '3', '--json']);
      assert.equal(r.code, 0, r.stderr);
      const result = JSON.parse(r.stdout) as { players: { fault: unknown; rank: number }[] };
      assert.deepEqual(
        result.players.map((p) => p.fault),
        [null, null],
        bot,
      );
      assert.equal(result.players[0]!.rank, 1, `${bot} lost to random`);
    }
    const file = await runCli(['play', 'paint', 'painter', 'random', '--set', 'board=test/fixtures/paint/board-3x6.json', '--seed', '1']);
    assert.equal(file.code, 0, file.stderr);
    assert.match(file.stdout, /turn 20 of 20, 6×3/);
    assert.match(file.stdout, /A ann at .* · B ben at /);
  });
});
