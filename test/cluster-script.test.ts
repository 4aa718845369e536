import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { after, it } from 'node:test';
import { findPostgresBin, freePort } from '../src/store/pg.kit.js';
import { findRedisServer } from './redis.kit.js';
import { ROOT } from './run-cli.js';
import { apiClient, until } from './server.kit.js';

// `npm run cluster` as a person tries it: Redis and Postgres from the machine's packages, a server and two
// workers; a match is played by a worker; Ctrl-C (SIGINT) stops everything, leaving no process behind.

const dir = mkdtempSync('/tmp/botarena-cluster-');
chmodSync(dir, 0o755); // as root, Postgres runs as the postgres user, which must reach its folder
after(() => rmSync(dir, { recursive: true, force: true }));

const leftovers = () =>
  spawnSync('pgrep', ['-af', dir], { encoding: 'utf8' })
    .stdout.split('\n')
    .filter((l) => l.trim() && !l.includes('pgrep'));

it('npm run cluster starts Redis, Postgres, a server and two workers; a worker plays a match; Ctrl-C stops them all', async (t) => {
  const missing = !findRedisServer() ? 'redis-server' : !findPostgresBin() ? 'PostgreSQL' : null;
  if (missing) {
    if (process.env.BOTARENA_CI) assert.fail(`CI must run the cluster script test: ${missing} is missing`);
    return t.skip(`${missing} is not installed`);
  }
  const redisPort = await freePort();
  const env = { ...process.env };
  delete env.DATABASE_URL;
  const child = spawn(process.execPath, ['scripts/cluster.mjs', '--port', '0', '--redis-port', String(redisPort), '--data', dir], {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d));
  child.stderr.on('data', (d: Buffer) => (out += d));
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  try {
    const url = await until('the cluster to be ready', async () => /\[cluster\] ready: (http:\/\/[\d.:]+)/.exec(out)?.[1], 60_000).catch((err: Error) =>
      assert.fail(`${err.message}\n${out.slice(-3000)}`),
    );
    assert.match(out, /database postgres:\/\/postgres@127\.0\.0\.1:\d+\/botarena/);
    await until('two workers', async () => /worker-1 takes matches/.test(out) && /worker-2 takes matches/.test(out), 20_000);
    const api = apiClient(() => url);
    const created = await api('POST', '/api/matches', { game: 'connect4', seats: ['random', 'minimax'] });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const m = await until('the match to finish', async () => {
      const r = (await api('GET', `/api/matches/${created.body!.id as string}`)).body!;
      return r.status === 'finished' ? r : null;
    });
    assert.match(String(m.worker), /^worker-[12]$/);
  } finally {
    child.kill('SIGINT');
    assert.equal(await exited, 0, out.slice(-3000));
  }
  assert.match(out, /\[cluster\] stopping/);
  await until('no process of the cluster left', async () => leftovers().length === 0, 10_000).catch(() =>
    assert.fail(`left running:\n${leftovers().join('\n')}`),
  );
});

it('botarena worker and serve refuse a --queue that is not a Redis URL, saying what was expected', async () => {
  const { runCli } = await import('./run-cli.js');
  const worker = await runCli(['worker', '--queue', 'http://127.0.0.1:6379']);
  assert.equal(worker.code, 2, worker.stderr);
  assert.match(worker.stderr, /--queue: expected a redis:\/\/ or rediss:\/\/ URL, got http:\/\/…/);
  const serve = await runCli(['serve', '--queue', 'not a url', '--port', '0', '--no-gateway']);
  assert.equal(serve.code, 2, serve.stderr);
  assert.match(serve.stderr, /--queue: "not a url" is not a URL; expected redis:\/\/HOST:PORT/);
  const none = await runCli(['worker']);
  assert.equal(none.code, 2, none.stderr);
  assert.match(none.stderr, /required option '--queue <redis-url>' not specified/);
});
