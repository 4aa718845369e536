import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { ROOT, runCli } from './run-cli.js';

// Ctrl-C in `play --replay F` (issue 32): the turns played are kept, in a replay marked stopped.

const tmp = mkdtempSync(join(tmpdir(), 'botarena-stopped-'));
after(() => rmSync(tmp, { recursive: true, force: true }));

describe('play stopped with Ctrl-C', () => {
  it('writes the turns played to --replay, marked stopped: show and verify read it, rate refuses it', async () => {
    const file = join(tmp, 'stopped.json');
    // A bot that thinks 0.3 s a move: the match is still going when a few boards have been shown.
    const child = spawn(
      process.execPath,
      ['bin/botarena', 'play', 'tictactoe', 'stdio:python3 test/fixtures/tournament/ttt-pace.py 0.3', 'random', '--seed', '4', '--watch', '--replay', file],
      { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d));
    child.stderr.on('data', (d: Buffer) => (stderr += d));
    for (const t0 = Date.now(); !/── turn 3 \(play\)/.test(stdout); await new Promise((r) => setTimeout(r, 50))) {
      assert.ok(Date.now() - t0 < 30_000, `no third turn after 30 s: ${stdout} ${stderr}`);
    }
    child.kill('SIGINT');
    const [code] = (await once(child, 'close')) as [number];
    assert.equal(code, 130, stderr);
    assert.match(stderr, /match cancelled on turn \d+; every bot was stopped\nthe \d+ steps played are in .*stopped\.json \(a replay marked stopped\)/);
    assert.ok(existsSync(file), 'the replay was written');
    const replay = JSON.parse(readFileSync(file, 'utf8')) as { stopped: string; turns: unknown[]; result: { winner: null; draw: boolean; reason: string } };
    assert.match(replay.stopped, /^match cancelled on turn \d+$/);
    assert.ok(replay.turns.length >= 3, `${replay.turns.length} steps`);
    assert.equal(replay.result.winner, null);
    assert.equal(replay.result.draw, false);

    const verify = await runCli(['replay', 'verify', file]);
    assert.equal(verify.code, 0, verify.stderr);
    assert.match(verify.stdout, /^ok: tictactoe seed 4, \d+ steps reproduce exactly; stopped before the end: match cancelled on turn \d+\n$/);
    const show = await runCli(['replay', 'show', file]);
    assert.equal(show.code, 0, show.stderr);
    assert.match(show.stdout, /── turn 3 \(play\)[\s\S]*\nstopped before the end: match cancelled on turn \d+\n$/);
    const rate = await runCli(['rate', file]);
    assert.equal(rate.code, 2, rate.stdout);
    assert.match(rate.stderr, /the match was stopped before its end \(match cancelled on turn \d+\), so it has no result to rate/);
  });
});
