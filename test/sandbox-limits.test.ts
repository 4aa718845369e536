import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it, type TestContext } from 'node:test';
import { runMatch } from '../src/arena/run-match.js';
import { sandboxReport } from '../src/bots/sandbox.js';
import { cgroupSupport } from '../src/bots/sandbox-cgroup.js';
import type { Replay } from '../src/core/replay.js';
import { ROOT, runCli } from './run-cli.js';
import { redisMissing, testRedis } from './redis.kit.js';
import { apiClient, until } from './server.kit.js';

// Issue 34, part 5: the sandbox's limits hold for a bot's whole process tree (a cgroup), its /tmp has a size,
// and it sees only the system, its runtime and its own folder, not the machine's other files; `serve
// --allow-commands` runs commands in it unless the operator says --unsandboxed-commands. Real bubblewrap, real
// cgroups, real bot processes (test/fixtures/sandbox/), a real server on 127.0.0.1.

const bwrap = ['/usr/bin/bwrap', '/bin/bwrap'].some((p) => existsSync(p));
const FIX = 'test/fixtures/sandbox';
const tmp = mkdtempSync(join(tmpdir(), 'botarena-sandbox-limits-'));
after(() => rmSync(tmp, { recursive: true, force: true }));

/** Under CI (BOTARENA_CI) a missing sandbox or cgroup is a failure; elsewhere the test says why it skips. */
function need(t: TestContext, cgroups: boolean): boolean {
  let missing = bwrap ? null : 'bubblewrap is not installed (apt-get install bubblewrap)';
  if (!missing && cgroups) {
    const report = sandboxReport();
    if (report.fallback) missing = `the per-bot limits need cgroups: ${report.fallback}`;
  }
  if (!missing) return true;
  if (process.env.BOTARENA_CI) assert.fail(`CI must run the sandbox's tests: ${missing}`);
  t.skip(missing);
  return false;
}

/** The bot's stderr in slot `slot` of a replay with transcripts. */
function stderrOf(replay: Replay, slot: number): string {
  return replay
    .transcripts![slot]!.filter((e) => e.dir === 'stderr')
    .map((e) => e.text)
    .join('');
}

/** This process's bot cgroups still there (their folders, in every hierarchy). */
function ownCgroups(): string[] {
  const parents = new Set(Object.values(cgroupSupport().parents));
  return [...parents].flatMap((p) => readdirSync(p).filter((e) => e.startsWith(`botarena-${process.pid}-`)));
}

describe('the sandbox: limits per bot, a capped /tmp, narrow mounts', () => {
  it('a bot whose 4 children take 300 MB each is killed under a 512 MiB per-bot cap, saying so; its cgroup is gone after', async (t) => {
    if (!need(t, true)) return;
    const { replay } = await runMatch(
      {
        game: 'tictactoe',
        seed: 1,
        transcripts: true,
        timeouts: { initMs: 10_000, turnMs: 15_000 },
        seats: [{ bot: `stdio:python3 ${FIX}/hog.py` }, { bot: 'random' }],
      },
      { sandbox: { memoryMb: 512 } },
    );
    const fault = replay.result.faults[0];
    assert.ok(fault, `the bot was not stopped: ${stderrOf(replay, 0)}`);
    assert.equal(fault.kind, 'crash');
    assert.match(fault.detail, /^killed: out of memory, its processes used more than the sandbox's 512 MiB/);
    assert.doesNotMatch(stderrOf(replay, 0), /the 4 children ended/);
    assert.deepEqual(ownCgroups(), [], 'the bot cgroup is removed when the match is over');
  });

  it('a fork bomb is bounded by the per-bot process cap (--sandbox-processes)', async (t) => {
    if (!need(t, true)) return;
    const r = await runCli(
      ['play', 'tictactoe', `stdio:python3 ${FIX}/bomb.py`, 'random', '--seed', '1', '--sandbox', '--sandbox-processes', '16', '--log', '--timeout', '15000'],
      { timeoutMs: 60_000 },
    );
    assert.equal(r.code, 0, r.stderr);
    const m = /bomb: (\d+) started, (\d+) refused/.exec(r.stderr);
    assert.ok(m, r.stderr);
    // The bot's own processes (bubblewrap's, the shell, python) count too: fewer than 16 forks succeed.
    assert.ok(Number(m[1]) < 16 && Number(m[2]) > 280, m[0]);
  });

  it('writing 200 MiB into its /tmp fails with ENOSPC under the 64 MiB cap (the default), and --sandbox-tmp sets it', async (t) => {
    if (!need(t, false)) return;
    const job = {
      game: 'tictactoe',
      seed: 1,
      transcripts: true,
      timeouts: { initMs: 20_000 },
      seats: [{ bot: `stdio:python3 ${FIX}/tmpfill.py` }, { bot: 'random' }],
    };
    const { replay } = await runMatch(job, { sandbox: {} });
    assert.equal(replay.result.faults[0], null, stderrOf(replay, 0));
    const m = /tmp: wrote (\d+) MiB, stopped by (\w+)/.exec(stderrOf(replay, 0));
    assert.ok(m, stderrOf(replay, 0));
    assert.equal(m[2], 'ENOSPC');
    assert.ok(Number(m[1]) <= 64, m[0]);
    const bigger = await runMatch(job, { sandbox: { tmpMb: 100 } });
    const n = /tmp: wrote (\d+) MiB, stopped by (\w+)/.exec(stderrOf(bigger.replay, 0));
    assert.ok(n && n[2] === 'ENOSPC' && Number(n[1]) > 64 && Number(n[1]) <= 100, n?.[0]);
  });

  it('a bot reads nothing outside the system, its runtime and the working folder, and runs python3 and node', async (t) => {
    if (!need(t, false)) return;
    // A folder outside the working folder and outside /tmp and /home (which the old sandbox emptied): a
    // stand-in for another checkout or a server's database.
    const base = existsSync('/var/tmp') ? '/var/tmp' : tmp;
    const away = mkdtempSync(join(base, 'botarena-away-'));
    // Open to everyone, as a checkout is (mktemp makes it 0700, which alone would keep the bot's uid out).
    chmodSync(away, 0o755);
    try {
      const secret = join(away, 'botarena.sqlite');
      writeFileSync(secret, 'SQLite format 3\0');
      const inside = 'package.json';
      const r = await runCli([
        'play',
        'tictactoe',
        `stdio:python3 ${FIX}/peek.py ${secret} ${inside} /etc/shadow`,
        'random',
        '--sandbox',
        '--log',
        '--init-timeout',
        '20000',
      ]);
      assert.equal(r.code, 0, r.stderr);
      assert.match(r.stderr, new RegExp(`peek ${secret}: FileNotFoundError`), 'the folder is not there at all');
      assert.match(r.stderr, /peek package\.json: read/, 'the working folder is visible');
      assert.match(r.stderr, /peek \/etc\/shadow: (FileNotFoundError|PermissionError)/);
      assert.match(r.stderr, /node: 42/, 'node runs in the sandbox');
      assert.match(r.stderr, /python: 3\.\d+/);
    } finally {
      rmSync(away, { recursive: true, force: true });
    }
  });

  it('serve --allow-commands runs a command bot sandboxed (it cannot read the server database); --unsandboxed-commands turns that off', async (t) => {
    if (!need(t, false)) return;
    const bot = mkdtempSync(join(tmp, 'bot-'));
    for (const f of ['ttt.py', 'spy.py']) writeFileSync(join(bot, f), readFileSync(join(ROOT, FIX, f)));
    for (const [i, extra] of [[], ['--unsandboxed-commands']].entries()) {
      const home = mkdtempSync(join(tmp, 'server-'));
      mkdirSync(join(home, 'data'));
      writeFileSync(join(bot, 'target.txt'), join(home, 'data', 'botarena.sqlite'));
      const server = startServe(['--allow-commands', ...extra], home);
      try {
        const url = await server.url();
        assert.match(server.output(), extra.length ? /^(?!.*commands run sandboxed)/s : /commands run sandboxed/);
        const api = apiClient(() => url);
        const reg = await api('POST', '/api/bots', { game: 'tictactoe', name: `spy${i}`, endpoint: `stdio:python3 ${join(bot, 'spy.py')}` });
        assert.equal(reg.status, 201, JSON.stringify(reg.body));
        const id = (reg.body!.bot as { id: string }).id;
        const checked = await until('the check', async () => {
          const b = (await api('GET', `/api/bots/${id}`)).body!;
          return b.status !== 'checking' ? b : null;
        });
        if (extra.length) {
          assert.equal(checked.status, 'paused', 'unsandboxed, the bot read the database and stopped');
          assert.match(String(checked.statusReason), /spy: read the server's database/);
        } else assert.equal(checked.status, 'active', `sandboxed, the bot saw no database: ${String(checked.statusReason)}`);
      } finally {
        await server.stop();
        rmSync(home, { recursive: true, force: true });
      }
    }
  });

  it('worker --allow-commands plays a command bot sandboxed: it cannot read the database it shares with the server', async (t) => {
    if (!need(t, false)) return;
    const redis = await testRedis();
    if ('missing' in redis) return redisMissing(redis.missing, t);
    const bot = mkdtempSync(join(tmp, 'qbot-'));
    for (const f of ['ttt.py', 'spy.py']) writeFileSync(join(bot, f), readFileSync(join(ROOT, FIX, f)));
    const home = mkdtempSync(join(tmp, 'queue-'));
    const database = join(home, 'data', 'arena.sqlite');
    writeFileSync(join(bot, 'target.txt'), database);
    const queue = ['--queue', redis.url, '--redis-prefix', `sbx${process.pid}`, '--database', database];
    const server = startArena(['serve', '--port', '0', '--host', '127.0.0.1', '--no-ladder', '--no-gateway', '--allow-commands', ...queue], home);
    let worker: ReturnType<typeof startArena> | null = null;
    try {
      const url = await server.url();
      worker = startArena(['worker', '--allow-commands', '--name', 'sbxworker', ...queue], home);
      await worker.ready(/takes matches from/);
      assert.match(worker.output(), /botarena worker: commands run sandboxed/);
      const api = apiClient(() => url);
      const reg = await api('POST', '/api/bots', { game: 'tictactoe', name: 'qspy', endpoint: `stdio:python3 ${join(bot, 'spy.py')}` });
      assert.equal(reg.status, 201, JSON.stringify(reg.body));
      const id = (reg.body!.bot as { id: string }).id;
      const checked = await until('the check', async () => {
        const b = (await api('GET', `/api/bots/${id}`)).body!;
        return b.status !== 'checking' ? b : null;
      });
      assert.equal(checked.status, 'active', String(checked.statusReason));
      const created = await api('POST', '/api/matches', { game: 'tictactoe', seats: [id, 'random'], seed: 5 });
      assert.ok(created.status === 201 || created.status === 202, JSON.stringify(created.body));
      const match = await until('the match to finish', async () => {
        const m = (await api('GET', `/api/matches/${created.body!.id as string}`)).body!;
        assert.notEqual(m.status, 'aborted', String(m.abortReason));
        return m.status === 'finished' ? m : null;
      });
      assert.equal(match.worker, 'sbxworker', 'the worker played it');
      assert.doesNotMatch(JSON.stringify(match), /spy: read the server's database|crash/, 'the bot played, seeing no database');
    } finally {
      await worker?.stop();
      await server.stop();
      await redis.stop();
      rmSync(home, { recursive: true, force: true });
    }
  });

  it('serve: --allow-commands without a usable sandbox is a start-up error naming both ways out; the options are checked', async () => {
    // No bubblewrap in PATH: the server must not start running commands unconfined.
    const r = await runCli(['serve', '--port', '0', '--allow-commands', '--no-ladder', '--no-gateway'], { env: { PATH: '/nonexistent' } });
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, /--allow-commands runs the bots' commands in the sandbox, which cannot run here: .*bwrap.*--unsandboxed-commands/);
    const alone = await runCli(['serve', '--port', '0', '--unsandboxed-commands']);
    assert.equal(alone.code, 2);
    assert.match(alone.stderr, /--unsandboxed-commands goes with --allow-commands/);
    const both = await runCli(['worker', '--queue', 'redis://127.0.0.1:1', '--allow-commands', '--sandbox', '--unsandboxed-commands']);
    assert.equal(both.code, 2);
    assert.match(both.stderr, /--sandbox and --unsandboxed-commands contradict each other/);
    const limit = await runCli(['serve', '--port', '0', '--sandbox-memory', '100']);
    assert.equal(limit.code, 2);
    assert.match(limit.stderr, /--sandbox-memory goes with --allow-commands/);
  });
});

/** `botarena ARGS` (serve or worker) started in `cwd`; `url()` once a server listens, `ready(re)` once its output matches. */
function startArena(args: string[], cwd: string) {
  const child = spawn(process.execPath, [join(ROOT, 'bin/botarena'), ...args], { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d));
  child.stderr.on('data', (d: Buffer) => (out += d));
  const closed = new Promise((resolve) => child.on('close', resolve));
  const ready = async (re: RegExp) => {
    const m = await until(`${args[0]} to start`, async () => re.exec(out) ?? (child.exitCode !== null ? 'gone' : null), 20_000);
    assert.notEqual(m, 'gone', `${args[0]} stopped before it was ready:\n${out}`);
    return m as RegExpExecArray;
  };
  return {
    output: () => out,
    ready,
    url: async () => (await ready(/botarena server at (http:\/\/[\d.:]+)/))[1]!,
    stop: async () => {
      child.kill('SIGTERM');
      await closed;
    },
  };
}

/** `botarena serve` on 127.0.0.1 started in `cwd` (its default database is cwd/data/botarena.sqlite). */
function startServe(args: string[], cwd: string) {
  return startArena(['serve', '--port', '0', '--host', '127.0.0.1', '--no-ladder', '--no-gateway', ...args], cwd);
}
