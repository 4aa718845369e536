import assert from 'node:assert/strict';
import { copyFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer } from 'node:net';
import { describe, it, type TestContext } from 'node:test';
import { runMatch } from '../src/arena/run-match.js';
import { livePidsWith } from './processes.js';
import { runCli } from './run-cli.js';

const bwrap = ['/usr/bin/bwrap', '/bin/bwrap'].some((p) => existsSync(p));

/** Under CI (.ci/run installs bubblewrap) a missing sandbox is a failure; elsewhere the tests say why they skip. */
function needSandbox(t: TestContext): boolean {
  if (bwrap) return true;
  if (process.env.BOTARENA_CI) assert.fail('bubblewrap is not installed, and CI must run the sandbox tests (apt-get install bubblewrap)');
  t.skip('bubblewrap is not installed (apt-get install bubblewrap)');
  return false;
}

describe('--sandbox: untrusted bot programs under bubblewrap', () => {
  it('a bot cannot reach the network, write outside its own /tmp, fork without limit, or leave a process behind', async (t) => {
    if (!needSandbox(t)) return;
    let connections = 0;
    const server = createServer((s) => (connections++, s.destroy())).listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
    const port = (server.address() as { port: number }).port;
    const marker = `sandbox-${process.pid}`;
    try {
      const { replay } = await runMatch(
        {
          game: 'tictactoe',
          seed: 2,
          transcripts: true,
          timeouts: { initMs: 5000 },
          seats: [{ bot: `stdio:node test/fixtures/zoo/prisoner.mjs ${port} ${marker}` }, { bot: 'random' }],
        },
        { sandbox: { processes: 32 } },
      );
      const stderr = replay
        .transcripts![0]!.filter((e) => e.dir === 'stderr')
        .map((e) => e.text)
        .join('');
      assert.equal(replay.result.faults[0], null, stderr);
      assert.match(stderr, /write \/.*\/escaped-sandbox-\d+: refused EROFS/);
      assert.ok(!existsSync(`escaped-${marker}`), 'nothing was written in the working folder');
      assert.match(stderr, /write \/tmp\/inside-sandbox-\d+: written/, 'its own /tmp is writable');
      assert.ok(!existsSync(`/tmp/inside-${marker}`), "and private: the file is not in the machine's /tmp");
      assert.match(stderr, /connect: refused E[A-Z]+/);
      assert.equal(connections, 0, 'no connection reached the machine');
      const fork = /fork 300: (\d+) started, (\d+) refused/.exec(stderr);
      assert.ok(fork, stderr);
      assert.ok(Number(fork[1]) < 32 && Number(fork[2]) > 250, `the process limit held: ${fork[0]}`);
      assert.deepEqual(livePidsWith(marker), [], 'nothing the bot started outlived the match');
    } finally {
      server.close();
    }
  });

  it('the CLI says what to fix: a missing folder to bind, the sandbox flags without --sandbox', async () => {
    const bind = await runCli(['play', 'tictactoe', 'random', 'random', '--sandbox', '--sandbox-bind', '/no/such/folder']);
    assert.equal(bind.code, 2, bind.stderr);
    assert.match(bind.stderr, bwrap ? /--sandbox-bind \/no\/such\/folder: no such folder/ : /--sandbox needs bwrap \(Debian package bubblewrap/);
    const alone = await runCli(['play', 'tictactoe', 'random', 'random', '--sandbox-memory', '100']);
    assert.equal(alone.code, 2, alone.stderr);
    assert.match(alone.stderr, /--sandbox-memory goes with --sandbox/);
  });

  it('a bot outside the working folder that the sandbox cannot see is told about --sandbox-bind', async (t) => {
    if (!needSandbox(t)) return;
    // The fault said "No such file or directory" alone, as if the file were missing.
    const away = mkdtempSync(join(tmpdir(), 'botarena-away-'));
    try {
      copyFileSync('test/fixtures/cli/first-empty.py', join(away, 'bot.py'));
      const bot = `stdio:python3 ${join(away, 'bot.py')}`;
      const hidden = await runCli(['play', 'tictactoe', bot, 'random', '--sandbox', '--init-timeout', '5000', '--json']);
      assert.equal(hidden.code, 0, hidden.stderr);
      const fault = (JSON.parse(hidden.stdout) as { players: { fault: { detail: string } | null }[] }).players[0]!.fault;
      assert.match(
        fault?.detail ?? '',
        /No such file or directory.*; under --sandbox a bot sees only the system, the working folder \(.*\) and the folders given with --sandbox-bind DIR$/,
      );
      // The text tells the hint once, in the fault (it was in the headline and the hello's note too).
      const text = await runCli(['play', 'tictactoe', bot, 'random', '--sandbox', '--init-timeout', '5000']);
      assert.equal(text.code, 0, text.stderr);
      assert.equal(text.stdout.split('--sandbox-bind DIR').length - 1, 1, text.stdout);
      assert.match(text.stdout, /^0 .* turn 1: crash: .*--sandbox-bind DIR +turn 0: crash: .*No such file or directory"$/m);
      const bound = await runCli(['play', 'tictactoe', bot, 'random', '--sandbox', '--sandbox-bind', away, '--init-timeout', '5000', '--json']);
      assert.equal(bound.code, 0, bound.stderr);
      assert.equal((JSON.parse(bound.stdout) as { players: { fault: unknown }[] }).players[0]!.fault, null, 'with --sandbox-bind it runs');
    } finally {
      rmSync(away, { recursive: true, force: true });
    }
  });

  it('plays a match in the sandbox from the CLI, with exec bots too', async (t) => {
    if (!needSandbox(t)) return;
    const r = await runCli([
      'play',
      'tictactoe',
      'stdio:python3 test/fixtures/cli/first-empty.py',
      'exec:node test/fixtures/zoo/hostile.mjs silent',
      '--sandbox',
      '--timeout',
      '500',
      '--init-timeout',
      '500',
      '--json',
    ]);
    assert.equal(r.code, 0, r.stderr);
    const j = JSON.parse(r.stdout);
    assert.equal(j.players[0].fault, null);
    assert.equal(j.winner, 0);
  });
});
