import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { describe, it } from 'node:test';
import { runMatch } from '../src/arena/run-match.js';
import { verifyReplay } from '../src/core/replay.js';
import { getGame } from '../src/games/index.js';
import { livePidsWith } from './processes.js';

describe('a Tron match between real bots', () => {
  it('runs Python and Node stdio bots, an HTTP bot, a slow one and a garbage one in one match', async () => {
    const server = spawn(process.execPath, ['test/fixtures/tron/straight.mjs', '--http'], { stdio: ['ignore', 'pipe', 'inherit'] });
    try {
      const [port] = (await once(createInterface({ input: server.stdout! }), 'line')) as [string];
      const marker = `tron-${process.pid}`;
      const { replay } = await runMatch({
        game: 'tron',
        seed: 2024,
        // A Python start-up under load can exceed a second: the init deadline gives it that margin, the turns stay short.
        timeouts: { initMs: 4000, turnMs: 1500 },
        seats: [
          { bot: `stdio:python3 test/fixtures/tron/straight.py ${marker}` },
          { bot: `stdio:node test/fixtures/tron/straight.mjs ${marker}` },
          { bot: `http://127.0.0.1:${port}/` },
          { bot: `stdio:node test/fixtures/runner/sleepy-bot.mjs 60000 '' x ${marker}`, name: 'sleepy' },
          { bot: `stdio:while read line; do echo garbage; done # ${marker}`, name: 'garbage' },
          { bot: 'voronoi' },
        ],
      });
      const f = replay.result.faults;
      assert.equal(f[3]?.kind, 'timeout');
      assert.equal(f[3]?.turn, 1);
      assert.equal(f[4]?.kind, 'not-json');
      assert.match(f[4]!.detail, /answer is not JSON: "garbage"/);
      assert.equal(f[4]?.turn, 1);
      for (const slot of [0, 1, 2, 5]) assert.equal(f[slot], null, `slot ${slot} faulted`);
      const ranks = replay.result.ranks;
      for (const good of [0, 1, 2, 5]) assert.ok(ranks[good]! < ranks[3]! && ranks[good]! < ranks[4]!, `ranks ${ranks}`);
      assert.ok(replay.turns.length > 20);
      verifyReplay(getGame('tron'), replay);
      assert.deepEqual(livePidsWith(marker), [], 'a bot process outlived the match');
    } finally {
      server.kill();
    }
  });
});

describe('Tron results', () => {
  it('a first place shared by the last two bots, dying in the same lap after another, is a draw', async () => {
    // 5×3, chosen starts: A dies on lap 3, then B and C both on lap 5.
    const { replay } = await runMatch({ game: 'tron', seed: 1, config: { width: 5, height: 3, starts: '0,0;4,0;0,1' }, seats: [{ bot: 'stupid' }, { bot: 'stupid' }, { bot: 'stupid' }] });
    assert.deepEqual(replay.result.ranks, [3, 1, 1]);
    assert.equal(replay.result.winner, null);
    assert.equal(replay.result.draw, true);
    verifyReplay(getGame('tron'), replay);
  });
});
