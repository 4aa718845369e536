// Issue 36, part 1, on a real worker: `botarena serve --queue … --uploads` and a `botarena worker --uploads` (real
// processes, a real Redis, the server's SQLite file): an uploaded Python bot passes its check on the server and
// its ladder matches are played on the worker, which fetched the version from the store into its own cache.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it, type TestContext } from 'node:test';
import { redisMissing, testRedis } from './redis.kit.js';
import { ROOT } from './run-cli.js';
import { apiClient, until } from './server.kit.js';

const tmp = mkdtempSync(join(tmpdir(), 'botarena-worker-uploads-'));
after(() => rmSync(tmp, { recursive: true, force: true }));

function start(args: string[]) {
  const child = spawn(process.execPath, ['bin/botarena', ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d));
  child.stderr.on('data', (d: Buffer) => (out += d));
  const closed = new Promise((resolve) => child.on('close', resolve));
  const ready = async (re: RegExp) => {
    const m = await until(`${args[0]} to start`, async () => re.exec(out) ?? (child.exitCode !== null ? 'gone' : null), 30_000);
    assert.notEqual(m, 'gone', `${args[0]} stopped before it was ready:\n${out}`);
    return m as RegExpExecArray;
  };
  return {
    ready,
    out: () => out,
    stop: async () => {
      child.kill('SIGTERM');
      await closed;
    },
  };
}

describe('uploaded code on a real worker', () => {
  it('a worker without --uploads passes the uploaded bot’s matches on; a worker with python3 fetches the version from the store into its cache and plays them, sandboxed', async (t: TestContext) => {
    const redis = await testRedis();
    if ('missing' in redis) return redisMissing(redis.missing, t);
    const database = join(tmp, 'arena.sqlite');
    const queue = ['--queue', redis.url, '--redis-prefix', `up${randomBytes(4).toString('hex')}`];
    const server = start([
      'serve',
      '--port',
      '0',
      '--database',
      database,
      ...queue,
      '--no-gateway',
      '--per-bot-per-hour',
      '3600',
      '--uploads',
      'python3,node',
      '--upload-cache',
      join(tmp, 'server-cache'),
    ]);
    const workerCache = join(tmp, 'worker-cache');
    let worker: ReturnType<typeof start> | null = null;
    // A worker that runs no uploaded code, alone at first: it takes the uploaded bot's matches and passes them on.
    const plain = start(['worker', ...queue, '--database', database, '--name', 'plain']);
    try {
      const url = (await server.ready(/botarena server at (http:\/\/[\d.:]+)/))[1]!;
      await plain.ready(/takes matches from/);
      const api = apiClient(() => url);
      const body = new FormData();
      body.set('game', 'lighthouses');
      body.set('name', 'py-on-worker');
      body.set('code', new Blob([readFileSync('examples/lighthouses-python/bot.py')]), 'bot.py');
      const res = await fetch(`${url}/api/bots`, { method: 'POST', body });
      assert.equal(res.status, 201);
      const created = (await res.json()) as { bot: { id: string }; version: { sha256: string } };
      const id = created.bot.id;
      await until(
        'the version to pass its check (on the server)',
        async () => ((await api('GET', `/api/bots/${id}`)).body?.version === 1 ? true : null),
        90_000,
      );
      // The ladder's first match of the bot: the plain worker cannot play it and nobody else can yet, so it waits.
      await until('the plain worker to say nobody can play it', async () => (/no worker running can play match/.test(plain.out()) ? true : null), 60_000);
      assert.match(plain.out(), /is uploaded python3 code and this process runs no uploaded code/);
      worker = start(['worker', ...queue, '--database', database, '--name', 'upworker', '--uploads', 'python3', '--upload-cache', workerCache]);
      await worker.ready(/takes matches from/);
      const played = await until(
        'a ladder match of the uploaded bot played on the worker',
        async () => {
          const page = (await api('GET', `/api/matches?bot=${id}&status=finished&kind=ladder`)).body as { items: { id: string; worker: string | null }[] };
          return page.items.find((m) => m.worker === 'upworker') ?? null;
        },
        120_000,
      );
      const m = (await api('GET', `/api/matches/${played.id}`)).body as { seats: { botId: string | null; fault: unknown }[] };
      assert.equal(m.seats.find((s) => s.botId === id)!.fault, null, 'the uploaded bot played its match on the worker without a fault');
      assert.ok(existsSync(join(workerCache, created.version.sha256, 'bot.py')), 'the worker placed the version in its own cache');
      // Every match of the bot went to the worker that runs Python uploads; none was aborted for the plain one.
      const mine = (await api('GET', `/api/matches?bot=${id}&limit=100`)).body as { items: { id: string; status: string; worker: string | null }[] };
      assert.deepEqual(
        mine.items.filter((x) => x.status === 'aborted' || (x.status === 'finished' && x.worker !== 'upworker')).map((x) => `${x.id} ${x.status} ${x.worker}`),
        [],
      );
    } finally {
      await plain.stop();
      await worker?.stop();
      await server.stop();
      await redis.stop();
    }
  });
});
