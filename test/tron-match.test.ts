import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { after, describe, it } from 'node:test';
import { runMatch } from '../src/arena/run-match.js';
import { verifyReplay, type TranscriptEntry } from '../src/core/replay.js';
import { getGame } from '../src/games/index.js';
import type { TronState } from '../src/games/tron/rules.js';
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

/**
 * A stdio bot that knows the grid only from its messages: the longest free straight line inside
 * `width`×`height` (100×100 when the message has no size), the grid it saw written to stderr.
 */
const SIZED_BOT = `import { createInterface } from 'node:readline';
const DIRS = [['x+', 1, 0], ['x-', -1, 0], ['y+', 0, 1], ['y-', 0, -1]];
createInterface({ input: process.stdin }).on('line', (line) => {
  const m = JSON.parse(line);
  const w = m.width ?? 100;
  const h = m.height ?? 100;
  console.error('grid ' + w + 'x' + h + ' (' + m.action + ')');
  if (m.action === 'init') return console.log(JSON.stringify({ name: 'sized' }));
  const taken = new Set(m.board.flat().map(([x, y]) => x + ',' + y));
  const [hx, hy] = m.board[m['player-index']][0];
  let best = 'x+';
  let run = -1;
  for (const [name, dx, dy] of DIRS) {
    let n = 0;
    for (let x = hx + dx, y = hy + dy; x >= 0 && y >= 0 && x < w && y < h && !taken.has(x + ',' + y); x += dx, y += dy) n++;
    if (n > run) [best, run] = [name, n];
  }
  console.log(JSON.stringify({ play: best }));
});
`;

describe('a Tron bot reads the grid size from its messages', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tron-sized-'));
  const botFile = join(dir, 'sized.mjs');
  writeFileSync(botFile, SIZED_BOT);
  after(() => rmSync(dir, { recursive: true, force: true }));
  const sent = (t: TranscriptEntry[]) => t.filter((e) => e.dir === 'send').map((e) => e.text);
  /** The bot's stderr, line by line. */
  const stderr = (t: TranscriptEntry[]) =>
    t
      .filter((e) => e.dir === 'stderr')
      .map((e) => e.text)
      .join('')
      .split('\n')
      .filter(Boolean);

  it('on 30×20 the hello and every lap carry "width":30,"height":20, and a stdio bot using them never leaves the grid', async () => {
    const marker = `tron-sized-${process.pid}`;
    for (const seed of [1, 2, 3]) {
      const { replay, state } = await runMatch({
        game: 'tron',
        seed,
        config: { width: 30, height: 20 },
        timeouts: { initMs: 4000, turnMs: 1500 },
        transcripts: true,
        seats: [{ bot: `stdio:node ${botFile} ${marker}`, name: 'sized' }, { bot: 'stupid' }],
      });
      const messages = sent(replay.transcripts![0]!);
      assert.match(messages[0]!, /^\{"game-id":"[^"]*","action":"init","game":"tron","board":"","width":30,"height":20,"players":2,"player-index":0\}$/);
      const laps = messages.slice(1);
      assert.ok(laps.length > 15, `seed ${seed}: only ${laps.length} laps`);
      for (const m of laps)
        assert.match(m, /^\{"game-id":"[^"]*","action":"play-turn","game":"tron","board":\[.*\],"width":30,"height":20,"player-index":0,"players":2\}$/);
      assert.deepEqual(stderr(replay.transcripts![0]!), ['grid 30x20 (init)', ...laps.map(() => 'grid 30x20 (play-turn)')], 'the bot read the size every time');
      assert.equal(replay.result.faults[0], null);
      const death = (state as TronState).death[0];
      if (death) assert.match(death.cause, /^(hit its own trail|hit the trail of slot 1|head-on with slot 1) at /, `seed ${seed}`);
      assert.doesNotMatch(replay.result.reason, /left the grid/);
      verifyReplay(getGame('tron'), replay);
    }
    assert.deepEqual(livePidsWith(marker), [], 'a bot process outlived the match');
  });

  it('on the original 100×100 grid the messages carry no size, as botsarena sent them', async () => {
    const marker = `tron-unsized-${process.pid}`;
    const { replay } = await runMatch({
      game: 'tron',
      seed: 5,
      timeouts: { initMs: 4000, turnMs: 1500 },
      transcripts: true,
      seats: [
        { bot: `stdio:node ${botFile} ${marker}`, name: 'sized' },
        { bot: `stdio:while read line; do echo garbage; done # ${marker}`, name: 'garbage' },
      ],
    });
    const messages = sent(replay.transcripts![0]!);
    assert.equal(messages.length, 2, 'the hello and lap 1 (the garbage bot dies on it)');
    assert.match(messages[0]!, /^\{"game-id":"[^"]*","action":"init","game":"tron","board":"","players":2,"player-index":0\}$/);
    assert.match(
      messages[1]!,
      /^\{"game-id":"[^"]*","action":"play-turn","game":"tron","board":\[\[\[\d+,\d+\]\],\[\[\d+,\d+\]\]\],"player-index":0,"players":2\}$/,
    );
    assert.equal(sent(replay.transcripts![1]!)[1], messages[1]!.replace('"player-index":0', '"player-index":1'));
    assert.deepEqual(stderr(replay.transcripts![0]!), ['grid 100x100 (init)', 'grid 100x100 (play-turn)']);
    assert.deepEqual(replay.result.ranks, [1, 2]);
    assert.deepEqual(livePidsWith(marker), [], 'a bot process outlived the match');
  });
});

describe('Tron results', () => {
  it('built-in bots on a 30×20 grid play as they did before the messages carried its size', async () => {
    // Figures from the code before issue 15's change (the built-in bots read the size from the config).
    const { replay } = await runMatch({
      game: 'tron',
      seed: 2,
      config: { width: 30, height: 20 },
      seats: [{ bot: 'random' }, { bot: 'stupid' }, { bot: 'voronoi' }],
    });
    assert.equal(replay.turns.length, 214);
    assert.deepEqual(replay.result.ranks, [3, 2, 1]);
    assert.equal(
      replay.result.reason,
      'C survives after 211 laps; died: A on lap 52 (hit the trail of slot 2 at 1,10); B on lap 211 (hit the trail of slot 2 at 6,15)',
    );
  });

  it('a first place shared by the last two bots, dying in the same lap after another, is a draw', async () => {
    // 5×3, chosen starts: A dies on lap 3, then B and C both on lap 5.
    const { replay } = await runMatch({
      game: 'tron',
      seed: 1,
      config: { width: 5, height: 3, starts: '0,0;4,0;0,1' },
      seats: [{ bot: 'stupid' }, { bot: 'stupid' }, { bot: 'stupid' }],
    });
    assert.deepEqual(replay.result.ranks, [3, 1, 1]);
    assert.equal(replay.result.winner, null);
    assert.equal(replay.result.draw, true);
    verifyReplay(getGame('tron'), replay);
  });
});
