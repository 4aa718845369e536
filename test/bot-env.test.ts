import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it, type TestContext } from 'node:test';
import { ROOT, runCli } from './run-cli.js';
import { redisMissing, testRedis } from './redis.kit.js';
import { apiClient, until } from './server.kit.js';

// Issue 34, part 5: a bot process never gets the arena's environment (a bot printed BOTARENA_ADMIN_TOKEN and
// DATABASE_URL). Real bot processes (test/fixtures/bots/env-ttt.mjs tells what environment it was given), run
// by the built CLI (play, doctor, tournament) and by a real `botarena serve --allow-commands` on 127.0.0.1.

const BOT = 'test/fixtures/bots/env-ttt.mjs';
const tmp = mkdtempSync(join(tmpdir(), 'botarena-bot-env-'));
after(() => rmSync(tmp, { recursive: true, force: true }));

/** The arena's secrets, as an operator's shell holds them: none may reach a bot. */
const SECRETS = {
  BOTARENA_ADMIN_TOKEN: `admin-${randomBytes(8).toString('hex')}`,
  DATABASE_URL: `postgres://arena:pw-${randomBytes(6).toString('hex')}@db.internal/arena`,
  SECRET_X: `x-${randomBytes(8).toString('hex')}`,
};
/** What a bot may find in its environment without the operator naming it (the shell adds PWD and the like). */
const ALLOWED = /^(PATH|HOME|LANG|LANGUAGE|LC_[A-Z_]+|TZ|TMPDIR|BOTARENA_BOT|PWD|OLDPWD|SHLVL|_)$/;

interface Told {
  pid: number;
  env: Record<string, string>;
  homeWritable: boolean;
}

let dirs = 0;
/** A fresh folder for the bots of one run to write what they were given in. */
function outDir(): string {
  const dir = join(tmp, `run-${++dirs}`);
  rmSync(dir, { recursive: true, force: true });
  return mkdtempSync(`${dir}-`);
}

/** What every bot process of a run said it was given (one file per process). */
function toldIn(dir: string): Told[] {
  return readdirSync(dir)
    .filter((f) => /^env-\d+\.json$/.test(f))
    .map((f) => JSON.parse(readFileSync(join(dir, f), 'utf8')) as Told);
}

/** No secret, by name or by value, and nothing outside the allow-list but `passed`. */
function assertClean(told: Told[], passed: string[] = []): void {
  assert.ok(told.length > 0, 'the bot ran and told its environment');
  for (const t of told) {
    const text = JSON.stringify(t.env);
    for (const [name, value] of Object.entries(SECRETS)) {
      if (passed.includes(name)) continue;
      assert.ok(!(name in t.env), `${name} reached the bot (pid ${t.pid})`);
      assert.ok(!text.includes(value), `the value of ${name} reached the bot (pid ${t.pid})`);
    }
    const stray = Object.keys(t.env).filter((k) => !ALLOWED.test(k) && !passed.includes(k));
    assert.deepEqual(stray, [], `only the allow-list reaches the bot; it also got ${stray.join(', ')}`);
    assert.equal(t.env.PATH, process.env.PATH, 'PATH reaches the bot as the arena has it');
  }
}

const arenaEnv = { ...SECRETS, LANG: 'C.UTF-8', TZ: 'Europe/Paris' };

describe('the environment of bot processes', () => {
  it('play: a stdio and an exec bot get PATH, LANG, TZ and the user HOME, and none of the arena secrets', async () => {
    const dir = outDir();
    const r = await runCli(['play', 'tictactoe', `stdio:node ${BOT} ${dir}`, `exec:node ${BOT} ${dir}`, '--seed', '1'], { env: arenaEnv });
    assert.equal(r.code, 0, r.stderr);
    const told = toldIn(dir);
    assert.ok(told.length >= 4, `one stdio process and an exec process per message, got ${told.length}`);
    assertClean(told);
    for (const t of told) {
      assert.equal(t.env.LANG, 'C.UTF-8');
      assert.equal(t.env.TZ, 'Europe/Paris');
      // A bot author running their own bots: their own HOME, as their shell has it.
      assert.equal(t.env.HOME, process.env.HOME);
    }
  });

  it('play and replay refeed --bot-env: NAME passes the arena value, NAME=VALUE sets it; the rest stays out', async () => {
    const dir = outDir();
    const replay = join(dir, 'match.json');
    const r = await runCli(
      [
        'play',
        'tictactoe',
        `stdio:node ${BOT} ${dir}`,
        'random',
        '--seed',
        '2',
        '--replay',
        replay,
        '--bot-env',
        'SECRET_X',
        '--bot-env',
        'MODEL=weights=v2.bin',
      ],
      { env: arenaEnv },
    );
    assert.equal(r.code, 0, r.stderr);
    const told = toldIn(dir);
    assertClean(told, ['SECRET_X', 'MODEL']);
    assert.equal(told[0]!.env.SECRET_X, SECRETS.SECRET_X);
    assert.equal(told[0]!.env.MODEL, 'weights=v2.bin');
    const again = outDir();
    const refeed = await runCli(['replay', 'refeed', replay, '--slot', '0', `stdio:node ${BOT} ${again}`, '--bot-env', 'WHO=refeed'], { env: arenaEnv });
    assert.equal(refeed.code, 0, refeed.stdout + refeed.stderr);
    const reTold = toldIn(again);
    assertClean(reTold, ['WHO']);
    assert.equal(reTold[0]!.env.WHO, 'refeed');
  });

  it('--bot-env refuses a name that is not set, not a name, or the arena own mark, saying what is expected', async () => {
    const unset = await runCli(['play', 'tictactoe', 'random', 'random', '--bot-env', 'NOT_SET_ANYWHERE_34'], { env: arenaEnv });
    assert.equal(unset.code, 2);
    assert.match(unset.stderr, /NOT_SET_ANYWHERE_34 is not set in this environment; give NOT_SET_ANYWHERE_34=VALUE/);
    const bad = await runCli(['play', 'tictactoe', 'random', 'random', '--bot-env', '1X=y']);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /expected NAME=VALUE or NAME/);
    const mark = await runCli(['play', 'tictactoe', 'random', 'random', '--bot-env', 'BOTARENA_BOT=1']);
    assert.equal(mark.code, 2);
    assert.match(mark.stderr, /the arena sets BOTARENA_BOT itself/);
  });

  it('doctor and tournament (bots in match threads): the same allow-list, and --bot-env', async () => {
    const dir = outDir();
    const doctor = await runCli(['doctor', 'tictactoe', `stdio:node ${BOT} ${dir}`, '--bot-env', 'WHO=doctor'], { env: arenaEnv });
    assert.equal(doctor.code, 0, doctor.stdout + doctor.stderr);
    let told = toldIn(dir);
    assertClean(told, ['WHO']);
    assert.ok(told.every((t) => t.env.WHO === 'doctor'));
    const dir2 = outDir();
    const t = await runCli(
      ['tournament', 'tictactoe', `stdio:node ${BOT} ${dir2}`, 'random', '--games', '2', '--concurrency', '2', '--seed', '3', '--bot-env', 'WHO=tournament'],
      { env: arenaEnv },
    );
    assert.equal(t.code, 0, t.stderr);
    told = toldIn(dir2);
    assert.equal(told.length, 2, 'one process per match');
    assertClean(told, ['WHO']);
    assert.ok(told.every((x) => x.env.WHO === 'tournament' && x.env.HOME === process.env.HOME));
  });

  it('play --sandbox: HOME and TMPDIR are the sandbox private /tmp, and the secrets stay out', async (t: TestContext) => {
    if (!['/usr/bin/bwrap', '/bin/bwrap'].some((p) => existsSync(p))) {
      if (process.env.BOTARENA_CI) assert.fail('bubblewrap is not installed, and CI must run the sandbox tests');
      return t.skip('bubblewrap is not installed (apt-get install bubblewrap)');
    }
    const r = await runCli(['play', 'tictactoe', `stdio:node ${BOT} ${tmp}`, 'random', '--seed', '4', '--sandbox', '--log'], {
      env: { ...arenaEnv, TMPDIR: '/var/tmp' },
    });
    assert.equal(r.code, 0, r.stderr);
    // Under the sandbox the files are read-only: the bot's stderr (printed by --log) says what it got.
    const line = /env: (\{.*\})$/m.exec(r.stderr);
    assert.ok(line, r.stderr);
    const told = JSON.parse(line[1]!) as Told;
    assertClean([told]);
    assert.equal(told.env.HOME, '/tmp');
    assert.equal(told.env.TMPDIR, '/tmp');
    assert.ok(told.homeWritable, 'the bot may write in its HOME');
  });

  it('serve --allow-commands: the bots it checks and plays get PATH, --bot-env and a private HOME each (removed after), never the server secrets', async () => {
    const dir = outDir();
    const database = join(tmp, 'arena.sqlite');
    // Unsandboxed (the sandbox's HOME is its /tmp, and its files are read-only: test/sandbox-limits.test.ts).
    const args = [
      'serve',
      '--port',
      '0',
      '--host',
      '127.0.0.1',
      '--allow-commands',
      '--unsandboxed-commands',
      '--no-ladder',
      '--no-gateway',
      '--concurrency',
      '1',
    ];
    // DATABASE_URL is the server's own database here: the server uses it, the bots must not see it.
    const server = startArena([...args, '--bot-env', 'SECRET_Y', '--bot-env', 'WHO=server'], { DATABASE_URL: database, SECRET_Y: 'y-passed-on-purpose' });
    try {
      const url = await server.url();
      assert.ok(existsSync(database), 'the server opened the database DATABASE_URL names');
      const api = apiClient(() => url);
      const botId = await registered(api, dir);
      const checked = toldIn(dir).length;
      assert.ok(checked >= 1, 'the doctor check ran the bot');
      await played(api, botId);
      const told = toldIn(dir);
      assert.ok(told.length > checked, 'the match ran the bot too');
      assertClean(told, ['SECRET_Y', 'WHO']);
      for (const t of told) {
        assert.equal(t.env.WHO, 'server');
        assert.equal(t.env.SECRET_Y, 'y-passed-on-purpose');
      }
      await assertPrivateHomes(told);
    } finally {
      await server.stop();
    }
  });

  it('worker --allow-commands: the bots a worker plays get its --bot-env and a private HOME, never its secrets', async (t: TestContext) => {
    const redis = await testRedis();
    if ('missing' in redis) return redisMissing(redis.missing, t);
    const dir = outDir();
    const database = join(tmp, 'queue.sqlite');
    const queue = ['--queue', redis.url, '--redis-prefix', `env${randomBytes(4).toString('hex')}`];
    const server = startArena([
      'serve',
      '--port',
      '0',
      '--host',
      '127.0.0.1',
      '--database',
      database,
      ...queue,
      '--allow-commands',
      '--unsandboxed-commands',
      '--no-ladder',
      '--no-gateway',
    ]);
    let worker: ReturnType<typeof startArena> | null = null;
    try {
      const url = await server.url();
      worker = startArena([
        'worker',
        ...queue,
        '--database',
        database,
        '--allow-commands',
        '--unsandboxed-commands',
        '--name',
        'envworker',
        '--bot-env',
        'WHO=worker',
      ]);
      await worker.ready(/takes matches from/);
      const api = apiClient(() => url);
      const botId = await registered(api, dir);
      const checked = toldIn(dir).map((x) => x.pid);
      const match = await played(api, botId);
      assert.equal(match.worker, 'envworker', 'the worker played the match');
      const told = toldIn(dir).filter((x) => !checked.includes(x.pid));
      assert.ok(told.length >= 1, 'the match ran the bot');
      assertClean(told, ['WHO']);
      assert.ok(told.every((x) => x.env.WHO === 'worker'));
      await assertPrivateHomes(told);
    } finally {
      await worker?.stop();
      await server.stop();
      await redis.stop();
    }
  });
});

/** Registers the env bot (writing into `dir`) and waits for its doctor check to activate it; resolves with its id. */
async function registered(api: ReturnType<typeof apiClient>, dir: string): Promise<string> {
  const reg = await api('POST', '/api/bots', { game: 'tictactoe', name: 'envbot', endpoint: `stdio:node ${BOT} ${dir}` });
  assert.equal(reg.status, 201, JSON.stringify(reg.body));
  const botId = (reg.body!.bot as { id: string }).id;
  const bot = await until('the check', async () => {
    const b = await api('GET', `/api/bots/${botId}`);
    return b.body!.status !== 'checking' ? b.body : null;
  });
  assert.equal(bot.status, 'active', String(bot.statusReason));
  return botId;
}

/** Plays an on-demand match of the bot against a built-in one; resolves with the finished match. */
async function played(api: ReturnType<typeof apiClient>, botId: string): Promise<Record<string, unknown>> {
  const created = await api('POST', '/api/matches', { game: 'tictactoe', seats: [botId, 'random'], seed: 5 });
  assert.ok(created.status === 201 || created.status === 202, JSON.stringify(created.body));
  const matchId = created.body!.id as string;
  return until('the match to finish', async () => {
    const m = (await api('GET', `/api/matches/${matchId}`)).body!;
    assert.ok(m.status !== 'aborted', String(m.abortReason));
    return m.status === 'finished' ? m : null;
  });
}

/** Each process had a HOME of its own (not the arena's) in the temporary folder, it could write in, and it is gone now. */
async function assertPrivateHomes(told: Told[]): Promise<void> {
  const homes = told.map((t) => t.env.HOME!);
  for (const t of told) {
    assert.ok(t.env.HOME && t.env.HOME !== process.env.HOME, `a HOME of its own, not the arena's (${t.env.HOME})`);
    assert.ok(t.env.HOME.startsWith(join(tmpdir(), 'botarena-home-')), t.env.HOME);
    assert.ok(t.homeWritable, 'the bot may write in its HOME');
  }
  assert.equal(new Set(homes).size, homes.length, 'each bot process has a HOME of its own');
  await until('the private HOMEs to be removed', async () => homes.every((h) => !existsSync(h)), 10_000);
}

/**
 * `botarena ARGS` (serve or worker) started as an operator would, with the arena's secrets in its environment
 * (and `env`); `url()` resolves once a server listens, `ready(re)` once its output matches, `stop()` on SIGTERM.
 */
function startArena(args: string[], env: Record<string, string> = {}) {
  const child = spawn(process.execPath, ['bin/botarena', ...args], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, ...arenaEnv, ...env },
  });
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
    ready,
    url: async () => (await ready(/botarena server at (http:\/\/[\d.:]+)/))[1]!,
    stop: async () => {
      child.kill('SIGTERM');
      await closed;
    },
  };
}
