// Issue 36, part 1, end to end on a real server (in-process queue, real SQLite file, real sandboxed processes):
// a Python lighthouses bot uploaded as a file and a Node paint bot uploaded as a .tar.gz with a vendored module
// pass their check and play ladder matches; a broken new version is refused and the old one keeps playing; a bot
// that tries the network, reads outside its folder or fills /tmp is bounded by the sandbox.
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import { readUpload } from '../src/registry/upload/intake.js';
import { uploadSpec } from '../src/registry/upload/languages.js';
import { startServer, type RunningServer } from '../src/server/serve.js';
import { openStore } from '../src/store/index.js';
import { tarGz, zipBytes } from './archives.kit.js';
import { ROOT, runCli } from './run-cli.js';
import { apiClient, until } from './server.kit.js';

const quiet = () => new Writable({ write: (_c, _e, cb) => cb() });
const LIGHTHOUSES_BOT = readFileSync('examples/lighthouses-python/bot.py', 'utf8');
const PAINT_BOT = readFileSync('examples/paint-node/bot.mjs', 'utf8');

type Json = Record<string, unknown>;

/** The Node paint bot as a folder whose code is a vendored module: main.mjs imports it from node_modules/. */
const paintArchive = () =>
  tarGz([
    { path: 'paint-bot/', type: 'Directory' },
    { path: 'paint-bot/main.mjs', data: "import 'greedy-paint';\n" },
    { path: 'paint-bot/node_modules/greedy-paint/package.json', data: JSON.stringify({ name: 'greedy-paint', main: 'index.mjs' }) },
    { path: 'paint-bot/node_modules/greedy-paint/index.mjs', data: PAINT_BOT },
  ]);

/**
 * A lighthouses bot that first probes its sandbox and crashes if any probe gets through (the network, a file
 * outside its folder, more /tmp than its cap), then plays as the example: it passes its check only when all were
 * stopped. With `--probe-only` it prints what got through instead (run outside the sandbox, everything does).
 */
const prober = (port: number, outside: string[]) => `
import os, socket, sys
def probes():
    leaks = []
    try:
        socket.create_connection(("127.0.0.1", ${port}), timeout=2).close()
        leaks.append("network")
    except OSError:
        pass
    for path in ${JSON.stringify(outside)}:
        try:
            open(path, "rb").read(1)
            leaks.append("read " + path)
        except OSError:
            pass
    written = 0
    try:
        with open("/tmp/fill", "wb") as f:
            while written < 100:
                f.write(b"x" * (1 << 20))
                f.flush()
                written += 1
    except OSError:
        pass
    if written >= 100:
        leaks.append("tmp %d MiB" % written)
    try:
        os.remove("/tmp/fill")
    except OSError:
        pass
    return leaks
if "--probe-only" in sys.argv:
    print(",".join(probes()))
    sys.exit(0)
leaks = probes()
if leaks:
    print("LEAK " + ",".join(leaks), file=sys.stderr, flush=True)
    sys.exit(3)
print("the sandbox held: no network, nothing outside, /tmp capped", file=sys.stderr, flush=True)
`;

describe('uploaded bots on a real server', () => {
  let dir: string;
  let server: RunningServer;
  const api = apiClient(() => server.url);

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'botarena-uploads-'));
    server = await startServer({
      port: 0,
      host: '127.0.0.1',
      database: join(dir, 'arena.sqlite'),
      logStream: quiet(),
      gateway: false,
      concurrency: 2,
      perBotPerHour: 3600,
      ladderBurst: 20,
      uploads: { languages: ['python3', 'node'], cacheDir: join(dir, 'cache') },
    });
  });
  after(async () => {
    await server?.close(2000);
    rmSync(dir, { recursive: true, force: true });
  });

  /** Posts a multipart form to the server. */
  const form = async (method: string, path: string, fields: Record<string, string>, file: { name: string; bytes: Buffer | string }, token?: string) => {
    const body = new FormData();
    for (const [k, v] of Object.entries(fields)) body.set(k, v);
    body.set('code', new Blob([typeof file.bytes === 'string' ? file.bytes : new Uint8Array(file.bytes)]), file.name);
    const res = await fetch(server.url + path, { method, body, headers: token ? { authorization: `Bearer ${token}` } : {} });
    return { status: res.status, body: (await res.json()) as Json & { error?: { message: string } } };
  };

  const versionSettled = (botId: string, n: number) =>
    until(
      `version ${n} of ${botId} checked`,
      async () => {
        const list = (await api('GET', `/api/bots/${botId}/versions`)).body as unknown as Json[];
        const v = list.find((x) => x.version === n);
        return v && v.state !== 'checking' ? v : null;
      },
      90_000,
    );

  const finishedLadder = async (botId: string): Promise<Json[]> => {
    const page = (await api('GET', `/api/matches?bot=${botId}&status=finished&kind=ladder&limit=100`)).body as { items: Json[] };
    return page.items;
  };

  let pyBot: string;
  let pyToken: string;
  let pySpec: string;

  it('a Python lighthouses bot uploaded as one file and a Node paint bot as a .tar.gz with a vendored module pass their check and play ladder matches', async () => {
    const py = await form('POST', '/api/bots', { game: 'lighthouses', name: 'py-lights' }, { name: 'bot.py', bytes: LIGHTHOUSES_BOT });
    assert.equal(py.status, 201, JSON.stringify(py.body));
    pyBot = (py.body.bot as Json).id as string;
    pyToken = py.body.token as string;
    assert.equal((py.body.version as Json).state, 'checking');
    const node = await form('POST', '/api/bots', { game: 'paint', name: 'node-paint' }, { name: 'paint-bot.tar.gz', bytes: paintArchive() });
    assert.equal(node.status, 201, JSON.stringify(node.body));
    const nodeBot = (node.body.bot as Json).id as string;

    const v1 = await versionSettled(pyBot, 1);
    assert.equal(v1.state, 'active', JSON.stringify(v1.report));
    assert.equal(v1.language, 'python3');
    pySpec = v1.spec as string;
    assert.match(pySpec, /^upload:python3:[0-9a-f]{64} entry=bot\.py$/);
    const n1 = await versionSettled(nodeBot, 1);
    assert.equal(n1.state, 'active', JSON.stringify(n1.report));
    assert.match(n1.spec as string, /^upload:node:[0-9a-f]{64} entry=main\.mjs$/, 'the entry found by convention in the archive, its top folder taken off');

    // Both play ladder matches (against the built-in bots), their seats running the uploaded code.
    for (const id of [pyBot, nodeBot]) {
      const played = await until(`ladder matches of ${id}`, async () => ((await finishedLadder(id)).length >= 2 ? finishedLadder(id) : null), 120_000);
      const m = (await api('GET', `/api/matches/${played[0]!.id as string}`)).body as Json;
      const seat = (m.seats as Json[]).find((s) => s.botId === id)!;
      assert.equal(seat.fault, null, `the uploaded bot played without a fault: ${JSON.stringify(seat)}`);
    }
    const bot = (await api('GET', `/api/bots/${pyBot}`)).body as Json;
    assert.equal(bot.version, 1);
    assert.equal(bot.status, 'active');
    const board = (await api('GET', '/api/leaderboards/lighthouses')).body as unknown as Json[];
    assert.equal(board.find((r) => r.botId === pyBot)?.version, 1, 'the leaderboard shows the version that plays');
  });

  it('a broken new version is refused with its report, and the old one keeps playing', async () => {
    assert.ok(pyBot, 'runs after the first test');
    const denied = await form('PUT', `/api/bots/${pyBot}/code`, {}, { name: 'bot.py', bytes: 'print("hello")\n' }, 'bat_not-the-token');
    assert.equal(denied.status, 403);
    const broken = await form('PUT', `/api/bots/${pyBot}/code`, {}, { name: 'bot.py', bytes: 'import sys\nsys.exit("this version is broken")\n' }, pyToken);
    assert.equal(broken.status, 202, JSON.stringify(broken.body));
    assert.equal((broken.body.version as Json).version, 2);
    const v2 = await versionSettled(pyBot, 2);
    assert.equal(v2.state, 'refused');
    assert.match(JSON.stringify(v2.report), /the doctor check failed/);
    const bot = (await api('GET', `/api/bots/${pyBot}`)).body as Json;
    assert.equal(bot.version, 1, 'the active version stays');
    assert.equal(bot.status, 'active');
    // Ladder matches after the refusal still seat version 1.
    const before = (await finishedLadder(pyBot)).length;
    const after = await until(
      'a ladder match after the refusal',
      async () => {
        const list = await finishedLadder(pyBot);
        return list.length > before ? list : null;
      },
      120_000,
    );
    const m = (await api('GET', `/api/matches/${after[0]!.id as string}`)).body as Json;
    assert.ok(JSON.stringify(m).includes(pySpec.split(' ')[0]!) || (m.seats as Json[]).some((s) => s.botId === pyBot));
    const replay = await fetch(`${server.url}/api/matches/${after[0]!.id as string}/replay`).then((r) => r.text());
    assert.ok(replay.includes(pySpec), 'the replay names the version that played');
  });

  it('a bot that tries the network, reads outside its folder or fills /tmp is stopped by the sandbox (and would not be outside it)', async () => {
    const outside = [join(dir, 'arena.sqlite'), join(dir, 'cache', pySpec.split(':')[2]!.split(' ')[0]!, 'bot.py'), join(process.cwd(), 'package.json')];
    const port = Number(new URL(server.url).port);
    const code = `${prober(port, outside)}\n${LIGHTHOUSES_BOT}`;
    // Outside the sandbox, every probe gets through: the probes do detect what they look for.
    const unconfined = execFileSync('python3', ['-c', code.replace('if __name__ == "__main__":\n    main()', ''), '--probe-only'], { encoding: 'utf8' }).trim();
    assert.deepEqual(unconfined.split(','), ['network', ...outside.map((p) => `read ${p}`), 'tmp 100 MiB']);
    const up = await form('POST', '/api/bots', { game: 'lighthouses', name: 'prober' }, { name: 'bot.py', bytes: code });
    assert.equal(up.status, 201, JSON.stringify(up.body));
    const v = await versionSettled((up.body.bot as Json).id as string, 1);
    assert.equal(v.state, 'active', `every probe was stopped, so it played its check: ${JSON.stringify(v.report).slice(0, 2000)}`);
  });

  it('botarena submit registers a folder as a new bot (its token printed once, kept in the token file) and adds a version with the token', async () => {
    const folder = join(dir, 'paint-cli');
    mkdirSync(join(folder, 'node_modules', 'greedy-paint'), { recursive: true });
    writeFileSync(join(folder, 'index.mjs'), "import 'greedy-paint';\n");
    writeFileSync(join(folder, 'node_modules', 'greedy-paint', 'package.json'), JSON.stringify({ name: 'greedy-paint', main: 'index.mjs' }));
    writeFileSync(join(folder, 'node_modules', 'greedy-paint', 'index.mjs'), PAINT_BOT);
    const tokenFile = join(dir, 'paint-cli.token');
    const first = await runCli(['submit', 'paint', folder, '--server', server.url, '--token-file', tokenFile], {
      timeoutMs: 120_000,
      env: { BOTARENA_TOKEN: '' },
    });
    assert.equal(first.code, 0, first.stderr);
    assert.match(first.stdout, /registered paint bot "paint-cli" \(([0-9a-f-]{36})\) from paint-cli\.tar\.gz\nowner token \(shown once, keep it\): bat_\S+/);
    assert.match(first.stdout, /version 1 passed its check: it plays now/);
    assert.equal(statSync(tokenFile).mode & 0o777, 0o600);
    // With the token: a new version of the same bot (found by its name), checked before it plays.
    writeFileSync(join(folder, 'index.mjs'), "import 'greedy-paint';\n// version 2\n");
    const second = await runCli(['submit', 'paint', folder, '--server', server.url, '--token-file', tokenFile], { timeoutMs: 120_000 });
    assert.equal(second.code, 0, second.stderr);
    assert.match(second.stdout, /uploaded version 2 of bot [0-9a-f-]{36}/);
    assert.match(second.stdout, /version 2 passed its check: it plays now/);
    // A broken version: refused, said, and a non-zero exit.
    writeFileSync(join(folder, 'index.mjs'), 'process.exit(1);\n');
    const broken = await runCli(['submit', 'paint', folder, '--server', server.url, '--token-file', tokenFile], { timeoutMs: 120_000 });
    assert.notEqual(broken.code, 0);
    assert.match(broken.stderr, /version 3 was refused: the doctor check failed/);
    const id = /\(([0-9a-f-]{36})\)/.exec(first.stdout)![1]!;
    assert.equal(((await api('GET', `/api/bots/${id}`)).body as Json).version, 2);
  });

  it('a .zip whose botarena.json gives the run command passes its check and runs that command', async () => {
    const zip = zipBytes([
      { name: 'botarena.json', data: JSON.stringify({ language: 'python3', run: 'python3 -u src/play.py --quiet' }) },
      { name: 'src/play.py', data: LIGHTHOUSES_BOT, deflate: true },
    ]);
    const up = await form('POST', '/api/bots', { game: 'lighthouses', name: 'zipped' }, { name: 'bot.zip', bytes: zip });
    assert.equal(up.status, 201, JSON.stringify(up.body));
    const v = await versionSettled((up.body.bot as Json).id as string, 1);
    assert.equal(v.state, 'active', JSON.stringify(v.report).slice(0, 1500));
    assert.match(v.spec as string, /^upload:python3:[0-9a-f]{64} run=python3 -u src\/play\.py --quiet$/);
  });

  it('refuses hostile or unusable uploads with a message saying what is expected', async () => {
    const bomb = tarGz([
      { path: 'bot.py', data: 'x' },
      { path: 'passwd', type: 'SymbolicLink', linkpath: '/etc/passwd' },
    ]);
    const link = await form('POST', '/api/bots', { game: 'lighthouses', name: 'linker' }, { name: 'bot.tar.gz', bytes: bomb });
    assert.equal(link.status, 400);
    assert.match(link.body.error!.message, /code: entry "passwd" is a symbolic link/);
    const big = await form('POST', '/api/bots', { game: 'lighthouses', name: 'big' }, { name: 'bot.py', bytes: Buffer.alloc(11 * 1024 * 1024, 0x20) });
    assert.equal(big.status, 413);
    assert.match(big.body.error!.message, /the upload is over 10 MiB; at most 10 MiB/);
    const ruby = await form('POST', '/api/bots', { game: 'lighthouses', name: 'rb', language: 'ruby' }, { name: 'bot.rb', bytes: 'puts 1' });
    assert.equal(ruby.status, 400);
    assert.match(ruby.body.error!.message, /language "ruby" is not enabled on this server; the languages here: python3, node/);
    const typed = await api('POST', '/api/bots', { game: 'lighthouses', name: 'typed', endpoint: pySpec });
    assert.equal(typed.status, 400, 'an upload: spec is never typed by a person');
  });

  it('hostile multipart bodies are refused at their caps, saying what an upload is', async () => {
    const send = async (body: FormData | string, headers: Record<string, string> = {}, method = 'POST', path = '/api/bots') => {
      const res = await fetch(server.url + path, { method, body, headers });
      return { status: res.status, message: ((await res.json()) as { error: { message: string } }).error?.message ?? '' };
    };
    const twoFiles = new FormData();
    twoFiles.set('game', 'lighthouses');
    twoFiles.append('code', new Blob(['print(1)']), 'bot.py');
    twoFiles.append('code', new Blob(['print(2)']), 'main.py');
    assert.deepEqual(await send(twoFiles), { status: 413, message: 'send one file, the part "code" (a file, a .tar.gz or a .zip)' });
    const otherFile = new FormData();
    otherFile.set('source', new Blob(['x']), 'bot.py');
    assert.match((await send(otherFile)).message, /the file part is named "source"; send the bot's code as the part "code"/);
    const unknown = new FormData();
    unknown.set('endpoint', 'http://evil.example/');
    assert.match((await send(unknown)).message, /unknown field "endpoint"; an upload's fields are code \(the file\), game, name/);
    const longField = new FormData();
    longField.set('description', 'x'.repeat(100_000));
    longField.set('code', new Blob(['print(1)']), 'bot.py');
    assert.equal((await send(longField)).status, 400);
    const noFile = new FormData();
    noFile.set('game', 'lighthouses');
    noFile.set('name', 'nofile');
    assert.match((await send(noFile)).message, /no file: send the bot's code as the multipart part "code"/);
    const manyFields = new FormData();
    for (let i = 0; i < 50; i++) manyFields.append('name', 'n');
    assert.equal((await send(manyFields)).status, 413);
    // A body cut short in the middle of its file.
    const cut = '--b\r\ncontent-disposition: form-data; name="code"; filename="bot.py"\r\n\r\nprint(1)';
    assert.equal((await send(cut, { 'content-type': 'multipart/form-data; boundary=b' })).status, 400);
    // The code of another's bot needs its token; without multipart, PUT says what to send.
    assert.equal((await send(new FormData(), {}, 'PUT', `/api/bots/${pyBot}/code`)).status, 401);
    assert.match(
      (await send('{}', { 'content-type': 'application/json', authorization: `Bearer ${pyToken}` }, 'PUT', `/api/bots/${pyBot}/code`)).message,
      /send multipart\/form-data with the file "code"/,
    );
  });
});

describe('a server started without --uploads', () => {
  let dir: string;
  let server: RunningServer;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'botarena-no-uploads-'));
    server = await startServer({ port: 0, host: '127.0.0.1', database: join(dir, 'a.sqlite'), logStream: quiet(), gateway: false, ladder: false });
  });
  after(async () => {
    await server?.close(2000);
    rmSync(dir, { recursive: true, force: true });
  });

  it('refuses uploaded code, saying how the operator enables it', async () => {
    const body = new FormData();
    body.set('game', 'lighthouses');
    body.set('name', 'py');
    body.set('code', new Blob([LIGHTHOUSES_BOT]), 'bot.py');
    const res = await fetch(`${server.url}/api/bots`, { method: 'POST', body });
    assert.equal(res.status, 403);
    assert.match(
      ((await res.json()) as { error: { message: string } }).error.message,
      /this server takes no uploaded code: .*--uploads LANGUAGES \(e\.g\. --uploads python3,node\)/,
    );
  });
});

describe('a version whose check was cut off', () => {
  it('is checked again when the server starts', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'botarena-resume-check-'));
    const database = join(dir, 'a.sqlite');
    try {
      // What a server killed mid-check leaves: a bot and its version 1, both checking.
      const store = await openStore(database);
      const pkg = await readUpload('bot.py', Buffer.from(LIGHTHOUSES_BOT));
      const bot = await store.createBot({
        game: 'lighthouses',
        name: 'cut-off',
        endpoint: uploadSpec(pkg.sha256, { language: 'python3', entry: 'bot.py' }),
        tokenHash: 'x',
        capacity: 1,
      });
      await store.addBotVersion(bot.id, { sha256: pkg.sha256, code: pkg.bytes, expanded: pkg.expandedBytes, language: 'python3', spec: bot.endpoint });
      await store.close();
      const server = await startServer({
        port: 0,
        host: '127.0.0.1',
        database,
        logStream: quiet(),
        gateway: false,
        ladder: false,
        uploads: { languages: ['python3'], cacheDir: join(dir, 'cache') },
      });
      try {
        const api = apiClient(() => server.url);
        const b = await until(
          'the version checked again',
          async () => {
            const got = (await api('GET', `/api/bots/${bot.id}`)).body as Json;
            return got.version === 1 ? got : null;
          },
          60_000,
        );
        assert.equal(b.status, 'active');
      } finally {
        await server.close(2000);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('botarena serve --uploads as a user starts it (no --upload-cache, run from its own folder)', () => {
  it('checks an upload sent with botarena submit, in the default ./data/uploads cache', async () => {
    // Found by hand: the default cache folder was relative, and the sandbox walked its parents up to "/" for
    // ever (dirname of "data" is "."), so the first check held the server's thread at 100 % CPU and every
    // request after it timed out. The tests above give an absolute --upload-cache.
    const dir = mkdtempSync(join(tmpdir(), 'botarena-serve-uploads-'));
    const serve = spawn(process.execPath, [join(ROOT, 'bin/botarena'), 'serve', '--port', '0', '--no-gateway', '--no-ladder', '--uploads', 'python3'], {
      cwd: dir,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    serve.stdout.on('data', (d: Buffer) => (out += d));
    serve.stderr.on('data', (d: Buffer) => (out += d));
    try {
      const url = await until('the server to listen', async () => /botarena server at (http:\/\/[\d.:]+)/.exec(out)?.[1] ?? null, 20_000);
      writeFileSync(join(dir, 'bot.py'), readFileSync(join(ROOT, 'examples/tictactoe-python/bot.py')));
      const run = await runCli(['submit', 'tictactoe', join(dir, 'bot.py'), '--server', url, '--name', 'default-cache', '--token-file', join(dir, 'tok')], {
        timeoutMs: 90_000,
      });
      assert.equal(run.code, 0, `${run.stdout}\n${run.stderr}\n${out.slice(-2000)}`);
      assert.match(run.stdout + run.stderr, /version 1 passed its check/);
      assert.ok(existsSync(join(dir, 'data', 'uploads')), 'the cache is ./data/uploads of the folder the server runs in');
      const health = await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(10_000) });
      assert.equal(health.status, 200, 'the server still answers');
    } finally {
      serve.kill('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
