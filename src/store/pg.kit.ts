import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { accessSync, chownSync, constants, existsSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import pg from 'pg';
import { redactUrl } from './open.js';

// A real Postgres for tests. BOTARENA_TEST_DATABASE_URL, when set, is a server to make databases on (one per
// call, dropped at the end); otherwise a private throwaway cluster is made with the machine's initdb and
// started on a free 127.0.0.1 port, its socket and files in a temp folder that is deleted afterwards. Root
// cannot run initdb or postgres: they then run as the `postgres` user when there is one, else `nobody`.

/** A Postgres to test on: fresh databases, and the end of it all. */
export interface TestPostgres {
  /** where it comes from, for test names */
  source: string;
  /** a new empty database: its postgres:// URL */
  newDatabase(): Promise<string>;
  /** drops the databases made (or stops the private cluster and deletes its folder) */
  stop(): Promise<void>;
  /**
   * The private cluster only (not BOTARENA_TEST_DATABASE_URL's server): `pause` stops the server (a fast
   * shutdown: clients are cut off, new ones refused), `resume` starts it again on the same port with its data.
   */
  outage?: { pause(): Promise<void>; resume(): Promise<void> };
}

/** Why no Postgres could be had (the tests then skip, or fail under CI). */
export interface NoPostgres {
  missing: string;
}

const ENV_URL = 'BOTARENA_TEST_DATABASE_URL';

/** A Postgres for this test file, or why there is none. */
export async function testPostgres(): Promise<TestPostgres | NoPostgres> {
  const url = process.env[ENV_URL]?.trim();
  if (url) return onServer(url, `${ENV_URL} (${redactUrl(url)})`, async () => {});
  const bin = findPostgresBin();
  if (!bin)
    return {
      missing:
        'no PostgreSQL server on this machine (initdb and postgres are neither on PATH nor in /usr/lib/postgresql/*/bin): apt-get install postgresql, or set BOTARENA_TEST_DATABASE_URL',
    };
  const runAs = process.getuid?.() === 0 ? unprivilegedUser() : null;
  if (process.getuid?.() === 0 && !runAs)
    return { missing: 'running as root, and neither a `postgres` nor a `nobody` user exists to run the PostgreSQL server as (initdb refuses root)' };
  if (runAs && !onPath('setpriv'))
    return { missing: 'running as root, and setpriv (util-linux) is not here to run the PostgreSQL server as an unprivileged user' };
  const cluster = await startCluster(bin, runAs);
  return { ...(await onServer(cluster.url, `a private PostgreSQL cluster (${bin})`, cluster.stop)), outage: { pause: cluster.pause, resume: cluster.resume } };
}

/** Databases made on a server through one admin connection, dropped at the end. */
async function onServer(adminUrl: string, source: string, stopServer: () => Promise<void>): Promise<TestPostgres> {
  // A server stopped for a while (outage.pause) cuts the admin connection: it is made again when next needed.
  let broken = false;
  const connectAdmin = async () => {
    const client = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: 10_000 });
    client.on('error', () => void (broken = true));
    client.on('end', () => void (broken = true));
    await client.connect();
    broken = false;
    return client;
  };
  let admin: pg.Client;
  const query = async (sql: string) => {
    if (broken) {
      await admin.end().catch(() => {});
      admin = await connectAdmin();
    }
    return admin.query(sql);
  };
  try {
    admin = await connectAdmin();
  } catch (err) {
    await stopServer();
    throw new Error(`cannot reach the test Postgres at ${redactUrl(adminUrl)}: ${(err as Error).message}`, { cause: err });
  }
  const made: string[] = [];
  return {
    source,
    async newDatabase() {
      const name = `botarena_test_${process.pid}_${made.length}_${randomBytes(3).toString('hex')}`;
      await query(`CREATE DATABASE "${name}"`); // a name we made: no user input in this statement
      made.push(name);
      const u = new URL(adminUrl);
      u.pathname = `/${name}`;
      return u.toString();
    },
    async stop() {
      for (const name of made) {
        await query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`).catch(() => query(`DROP DATABASE IF EXISTS "${name}"`).catch(() => {}));
      }
      await admin.end().catch(() => {});
      await stopServer();
    },
  };
}

function onPath(cmd: string): string | null {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    const p = join(dir, cmd);
    try {
      accessSync(p, constants.X_OK);
      return p;
    } catch {
      // not here
    }
  }
  return null;
}

/** The folder holding initdb and postgres: PATH first, then Debian's /usr/lib/postgresql/<version>/bin, newest first. */
export function findPostgresBin(): string | null {
  const fromPath = onPath('initdb');
  const candidates = fromPath ? [dirname(realpathSync(fromPath))] : [];
  const debian = '/usr/lib/postgresql';
  if (existsSync(debian)) {
    const versions = readdirSync(debian)
      .filter((v) => /^\d+$/.test(v))
      .sort((a, b) => Number(b) - Number(a));
    candidates.push(...versions.map((v) => join(debian, v, 'bin')));
  }
  return candidates.find((dir) => existsSync(join(dir, 'initdb')) && existsSync(join(dir, 'postgres'))) ?? null;
}

/** The user a root process runs the server as: `postgres`, else `nobody`. */
function unprivilegedUser(): { uid: number; gid: number; name: string } | null {
  const passwd = readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .map((l) => l.split(':'));
  for (const name of ['postgres', 'nobody']) {
    const e = passwd.find((f) => f[0] === name);
    if (e && Number(e[2]) !== 0) return { name, uid: Number(e[2]), gid: Number(e[3]) };
  }
  return null;
}

/** A TCP port free on 127.0.0.1 now (for a server a test starts). */
export const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
    s.on('error', reject);
  });

const live = new Set<{ child: ChildProcess; dir: string }>();
process.on('exit', () => {
  // The test process ends without its `after` (a crash, a timeout): leave no server or folder behind.
  for (const c of live) {
    c.child.kill('SIGQUIT');
    rmSync(c.dir, { recursive: true, force: true });
  }
});

/** A private cluster: its URL, and how to stop it for good, or for a while (same port, same data). */
interface Cluster {
  url: string;
  stop: () => Promise<void>;
  pause: () => Promise<void>;
  resume: () => Promise<void>;
}

async function startCluster(bin: string, runAs: { uid: number; gid: number } | null): Promise<Cluster> {
  // The server's user must reach the folder: as root, under /tmp whatever TMPDIR says.
  const dir = mkdtempSync(join(runAs ? '/tmp' : tmpdir(), 'botarena-pg-'));
  if (runAs) chownSync(dir, runAs.uid, runAs.gid);
  const as = (cmd: string, args: string[]): [string, string[]] =>
    runAs ? ['setpriv', [`--reuid=${runAs.uid}`, `--regid=${runAs.gid}`, '--clear-groups', '--', cmd, ...args]] : [cmd, args];
  const env = { ...process.env, LC_ALL: 'C', LANG: 'C', HOME: dir, PGDATA: '' };
  const data = join(dir, 'data');
  const init = spawnSync(...as(join(bin, 'initdb'), ['-D', data, '-U', 'postgres', '-A', 'trust', '-E', 'UTF8', '--locale=C', '--no-sync']), {
    env,
    encoding: 'utf8',
    timeout: 60_000,
  });
  if (init.status !== 0) {
    rmSync(dir, { recursive: true, force: true });
    throw new Error(`initdb failed (${init.error?.message ?? `exit ${init.status}`}): ${(init.stderr || init.stdout || '').slice(-2000)}`);
  }
  // One run of the server on `port` (the first, or a restart on the same port and data after `pause`).
  const launch = async (port: number) => {
    // Durability is of no use to a throwaway cluster: no fsync makes it start and write fast.
    const args = [
      '-D',
      data,
      '-p',
      String(port),
      '-h',
      '127.0.0.1',
      '-k',
      dir,
      '-c',
      'fsync=off',
      '-c',
      'synchronous_commit=off',
      '-c',
      'full_page_writes=off',
    ];
    const child = spawn(...as(join(bin, 'postgres'), args), { env, stdio: ['ignore', 'ignore', 'pipe'] });
    const entry = { child, dir };
    live.add(entry);
    let log = '';
    child.stderr!.on('data', (d: Buffer) => void (log = (log + d.toString()).slice(-4000)));
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
    const up = await waitReady(url, exited);
    const halt = async () => {
      live.delete(entry);
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGINT'); // fast shutdown: clients are cut off, no checkpoint wait worth having here
        const timer = setTimeout(() => child.kill('SIGQUIT'), 5000);
        await exited;
        clearTimeout(timer);
      }
    };
    return { url, up, halt, log: () => log };
  };
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    let run = await launch(port);
    if (run.up) {
      const { url } = run;
      return {
        url,
        stop: async () => (await run.halt(), rmSync(dir, { recursive: true, force: true })),
        pause: () => run.halt(),
        resume: async () => {
          run = await launch(port);
          if (!run.up) throw new Error(`the private PostgreSQL server did not start again on port ${port}: ${run.log().trim() || 'no output'}`);
        },
      };
    }
    await run.halt();
    if (!/could not bind|address already in use/i.test(run.log()) || attempt >= 3) {
      rmSync(dir, { recursive: true, force: true });
      throw new Error(`the private PostgreSQL server did not start: ${run.log().trim() || 'no output'}`);
    }
  }
}

/** Whether the server at `url` answers within 30 s (false as soon as it exits). */
async function waitReady(url: string, exited: Promise<void>): Promise<boolean> {
  let gone = false;
  void exited.then(() => (gone = true));
  const until = Date.now() + 30_000;
  while (!gone && Date.now() < until) {
    const c = new pg.Client({ connectionString: url, connectionTimeoutMillis: 1000 });
    try {
      await c.connect();
      await c.end();
      return true;
    } catch {
      await c.end().catch(() => {});
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  return false;
}
