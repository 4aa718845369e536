#!/usr/bin/env node
// `npm run cluster`: Botarena's queue mode on one machine, to try it: Redis (Debian's redis-server) and
// Postgres (Debian's postgresql, or DATABASE_URL) when installed, one `botarena serve --queue` and two
// `botarena worker`s. Ctrl-C stops them all (matches under way get 10 s), Redis and Postgres last.
//
//   npm run cluster -- [--port 8080] [--workers 2] [--redis-port 6380] [--data DIR] [any botarena serve option…]
//
// Their data stays in DIR (default ./data/cluster; as root /var/tmp/botarena-cluster, which the postgres
// user can reach) for the next run. Without Postgres the arena uses a SQLite file there (fine on one machine;
// workers on other machines need Postgres).

import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdirSync, readdirSync, readFileSync, realpathSync } from 'node:fs';
import { createServer } from 'node:net';
import { delimiter, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const BIN = join(ROOT, 'bin', 'botarena');

function usage(message) {
  process.stderr.write(
    `npm run cluster: ${message}\nusage: npm run cluster -- [--port 8080] [--workers 2] [--redis-port 6380] [--data DIR] [botarena serve options…]\n`,
  );
  process.exit(2);
}

// ——— options ———
const opts = {
  port: '8080',
  workers: 2,
  redisPort: 6380,
  data: process.getuid?.() === 0 ? '/var/tmp/botarena-cluster' : join(process.cwd(), 'data', 'cluster'),
};
const serveArgs = [];
const argv = process.argv.slice(2);
for (let i = 0; i < argv.length; i++) {
  const a = argv[i];
  const value = () => (i + 1 < argv.length ? argv[++i] : usage(`${a} needs a value`));
  if (a === '--port') opts.port = value();
  else if (a === '--workers') opts.workers = Number(value());
  else if (a === '--redis-port') opts.redisPort = Number(value());
  else if (a === '--data') opts.data = resolve(value());
  else if (a === '--help' || a === '-h') usage('starts Redis, Postgres (when installed), a server and workers');
  else serveArgs.push(a);
}
if (!Number.isInteger(opts.workers) || opts.workers < 1 || opts.workers > 64) usage('--workers: expected 1 to 64');
if (!Number.isInteger(opts.redisPort) || opts.redisPort < 1 || opts.redisPort > 65535) usage('--redis-port: expected a port number');
if (!existsSync(join(ROOT, 'dist', 'cli-bundle', 'main.cjs'))) usage('botarena is not built: run npm install (or npm run build) first');

// ——— processes ———
const children = [];
let stopping = false;
const say = (line) => process.stdout.write(`[cluster] ${line}\n`);

/** Starts a process whose output lines go to ours, each behind its name. */
function run(name, cmd, args, extra = {}) {
  // Each in a process group of its own: Ctrl-C reaches this script only, which stops them in order
  // (the workers before Redis and Postgres, not all at once).
  const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'], detached: true, ...extra });
  const entry = { name, child, exited: new Promise((r) => child.once('exit', (code, signal) => r({ code, signal }))) };
  children.push(entry);
  for (const stream of [child.stdout, child.stderr]) {
    let rest = '';
    stream.on('data', (d) => {
      const lines = (rest + d.toString()).split('\n');
      rest = lines.pop();
      for (const l of lines) process.stdout.write(`[${name}] ${l}\n`);
    });
  }
  child.on('error', (err) => say(`${name} could not start: ${err.message}`));
  // A worker that dies is only reported (kill one to watch its match move to another); the rest are needed.
  void entry.exited.then(({ code, signal }) => {
    if (stopping) return;
    if (name.startsWith('worker')) say(`${name} exited (${signal ?? code}); the others go on`);
    else {
      say(`${name} exited (${signal ?? code}): stopping the rest`);
      void stopAll(1);
    }
  });
  return entry;
}

function onPath(cmd) {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) if (dir && existsSync(join(dir, cmd))) return join(dir, cmd);
  return null;
}

function postgresBin() {
  const candidates = [];
  const fromPath = onPath('initdb');
  if (fromPath) candidates.push(dirname(realpathSync(fromPath)));
  if (existsSync('/usr/lib/postgresql'))
    candidates.push(
      ...readdirSync('/usr/lib/postgresql')
        .filter((v) => /^\d+$/.test(v))
        .sort((a, b) => b - a)
        .map((v) => join('/usr/lib/postgresql', v, 'bin')),
    );
  return candidates.find((d) => existsSync(join(d, 'initdb')) && existsSync(join(d, 'postgres'))) ?? null;
}

const freePort = () =>
  new Promise((done, fail) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => done(port));
    });
    s.on('error', fail);
  });

async function waitFor(what, check, ms = 30_000) {
  const t0 = Date.now();
  while (!(await check())) {
    if (Date.now() - t0 > ms) throw new Error(`${what} did not come up within ${ms / 1000} s`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function startRedis() {
  const bin = onPath('redis-server') ?? (existsSync('/usr/bin/redis-server') ? '/usr/bin/redis-server' : null);
  if (!bin) throw new Error('redis-server is not installed: apt-get install redis-server (Debian), then run this again');
  const dir = join(opts.data, 'redis');
  mkdirSync(dir, { recursive: true });
  // Append-only file: a restart of the cluster keeps the queue.
  run('redis', bin, ['--port', String(opts.redisPort), '--bind', '127.0.0.1', '--dir', dir, '--appendonly', 'yes', '--save', '']);
  const { Redis } = await import('ioredis');
  await waitFor('redis-server', async () => {
    const r = new Redis({ port: opts.redisPort, host: '127.0.0.1', lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
    r.on('error', () => {});
    try {
      await r.connect();
      return (await r.ping()) === 'PONG';
    } catch {
      return false;
    } finally {
      r.disconnect();
    }
  });
  return `redis://127.0.0.1:${opts.redisPort}`;
}

async function startPostgres() {
  if (process.env.DATABASE_URL) return process.env.DATABASE_URL;
  const bin = postgresBin();
  if (!bin) return null;
  const dir = join(opts.data, 'postgres');
  const data = join(dir, 'data');
  mkdirSync(dir, { recursive: true });
  // initdb and postgres refuse root: as root they run as the postgres user.
  let as = (cmd, args) => [cmd, args];
  if (process.getuid?.() === 0) {
    const entry = readFileSync('/etc/passwd', 'utf8')
      .split('\n')
      .map((l) => l.split(':'))
      .find((f) => f[0] === 'postgres');
    if (!entry) throw new Error('running as root and there is no postgres user to run PostgreSQL as: run as another user, or set DATABASE_URL');
    chownSync(dir, Number(entry[2]), Number(entry[3]));
    chmodSync(opts.data, 0o755); // the postgres user goes through it to its own folder
    as = (cmd, args) => ['setpriv', [`--reuid=${entry[2]}`, `--regid=${entry[3]}`, '--clear-groups', '--', cmd, ...args]];
  }
  const env = { ...process.env, LC_ALL: 'C', LANG: 'C', PGDATA: '' };
  if (!existsSync(join(data, 'PG_VERSION'))) {
    say(`making a PostgreSQL cluster in ${data}`);
    const init = spawnSync(...as(join(bin, 'initdb'), ['-D', data, '-U', 'postgres', '-A', 'trust', '-E', 'UTF8', '--locale=C']), { env, encoding: 'utf8' });
    if (init.status !== 0) throw new Error(`initdb failed: ${(init.stderr || init.stdout || init.error?.message || '').slice(-1500)}`);
  }
  const port = await freePort();
  run('postgres', ...as(join(bin, 'postgres'), ['-D', data, '-p', String(port), '-h', '127.0.0.1', '-k', dir]), { env });
  const pg = (await import('pg')).default;
  const admin = `postgres://postgres@127.0.0.1:${port}/postgres`;
  await waitFor('postgres', async () => {
    const c = new pg.Client({ connectionString: admin, connectionTimeoutMillis: 1000 });
    try {
      await c.connect();
      const have = await c.query("SELECT 1 FROM pg_database WHERE datname = 'botarena'");
      if (!have.rowCount) await c.query('CREATE DATABASE botarena');
      return true;
    } catch {
      return false;
    } finally {
      await c.end().catch(() => {});
    }
  });
  return `postgres://postgres@127.0.0.1:${port}/botarena`;
}

async function stopAll(code) {
  if (stopping) return;
  stopping = true;
  say('stopping: the server and workers first (matches under way get 10 s), then Redis and Postgres');
  const apps = children.filter((c) => c.name === 'server' || c.name.startsWith('worker'));
  const stores = children.filter((c) => !apps.includes(c));
  for (const c of apps) c.child.kill('SIGTERM');
  await Promise.all(apps.map((c) => Promise.race([c.exited, new Promise((r) => setTimeout(r, 15_000))])));
  for (const c of apps) c.child.kill('SIGKILL');
  for (const c of stores) c.child.kill(c.name === 'postgres' ? 'SIGINT' : 'SIGTERM');
  await Promise.all(stores.map((c) => Promise.race([c.exited, new Promise((r) => setTimeout(r, 10_000))])));
  for (const c of stores) c.child.kill('SIGKILL');
  process.exit(code);
}
process.on('SIGINT', () => void stopAll(0));
process.on('SIGTERM', () => void stopAll(0));

try {
  const redis = await startRedis();
  const database = (await startPostgres()) ?? join(opts.data, 'botarena.sqlite');
  say(`Redis at ${redis}; database ${database.startsWith('postgres') ? database : `${database} (SQLite: PostgreSQL is not installed)`}`);
  const server = run('server', process.execPath, [BIN, 'serve', '--port', opts.port, '--queue', redis, '--database', database, ...serveArgs]);
  let serverUrl = null;
  server.child.stdout.on('data', (d) => {
    const m = /botarena server at (http:\/\/[^\s"]+)/.exec(d.toString());
    if (m && !serverUrl) {
      serverUrl = m[1];
      // Workers run bots as the server lets them: the same --allow-commands / --allow-private-bots.
      const pass = serveArgs.filter((a) => a === '--allow-commands' || a === '--allow-private-bots');
      for (let i = 1; i <= opts.workers; i++)
        run(`worker-${i}`, process.execPath, [BIN, 'worker', '--queue', redis, '--database', database, '--name', `worker-${i}`, ...pass]);
      say(`ready: ${serverUrl} (web app), ${serverUrl}/docs (API); ${opts.workers} workers; Ctrl-C stops everything`);
    }
  });
} catch (err) {
  say(err.message);
  await stopAll(1);
}
