import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { openStore } from '../src/store/index.js';
import { testPostgres, type TestPostgres } from '../src/store/pg.kit.js';
import { killAll, startQueueServer, startWorkerProcess, type ClusterPlace } from './cluster.kit.js';
import { livePidsWith } from './processes.js';
import { testRedis, type TestRedis } from './redis.kit.js';
import { ROOT } from './run-cli.js';
import { apiClient, until } from './server.kit.js';

// SIGTERM to `botarena serve` or `botarena worker` while stdio bots play (issue 32): the matches under way get
// their grace (10 s) and those that end within it are recorded; those that outlast it are cancelled (the server
// marks them aborted, a worker hands them back to the queue); the process exits 0, and no bot process is left.
// Two matches at once, of real Python bots that take their time (test/fixtures/tournament/ttt-pace.py):
//   quick: 0.5 s a move against `random`: at most 5 moves, over in ~2.5 s, well inside the grace;
//   long:  4 s a move on both seats: at least 5 moves (20 s), twice the grace (a move stays far from the 10 s turn limit).
// Each bot's command line carries a marker, so the test sees its processes start and end.

const dir = mkdtempSync(join(tmpdir(), 'botarena-drain-'));
const children = new Set<ChildProcess>();
after(() => {
  for (const c of children) c.kill('SIGKILL');
  killAll();
  rmSync(dir, { recursive: true, force: true });
});

const pace = (seconds: number, marker: string) => `stdio:python3 ${join(ROOT, 'test/fixtures/tournament/ttt-pace.py')} ${seconds} ${marker}`;

/** The slow bots, made in the store before the arena starts (no doctor check to wait for), with their markers. */
async function makeBots(database: string) {
  const markers = { quick: `drain-quick-${randomUUID()}`, long: `drain-long-${randomUUID()}` };
  const store = await openStore(database);
  try {
    await store.createBot({ game: 'tictactoe', name: 'quick', endpoint: pace(0.5, markers.quick), status: 'active' });
    await store.createBot({ game: 'tictactoe', name: 'long', endpoint: pace(4, markers.long), status: 'active', capacity: 2 });
  } finally {
    await store.close();
  }
  return markers;
}

/**
 * Starts the long match, then the quick one, each once its bots run (a bot process with its marker): when the
 * signal comes, the process has started bots and both matches are under way. Returns their ids.
 */
async function startBoth(base: string, markers: { quick: string; long: string }): Promise<{ quick: string; long: string }> {
  const api = apiClient(() => base);
  const start = async (seats: string[], marker: string) => {
    const r = await api('POST', '/api/matches', { game: 'tictactoe', seats });
    assert.equal(r.status, 201, JSON.stringify(r.body));
    await until(`the bot ${marker} to run`, async () => livePidsWith(marker).length > 0, 30_000);
    return r.body!.id as string;
  };
  const long = await start(['long', 'long'], markers.long);
  const quick = await start(['quick', 'random'], markers.quick);
  return { quick, long };
}

/** A process's command line, its arguments joined by spaces ('' once it is gone). */
function cmdlineOf(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ');
  } catch {
    return '';
  }
}

/** Sends SIGTERM and waits (60 s at most) for the process to exit: its exit code and signal, and how long it took. */
async function terminate(child: ChildProcess): Promise<{ code: number | null; signal: NodeJS.Signals | null; ms: number }> {
  const t0 = performance.now();
  const exited = new Promise<[number | null, NodeJS.Signals | null]>((resolve) => child.once('exit', (code, signal) => resolve([code, signal])));
  child.kill('SIGTERM');
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error('still running 60 s after SIGTERM')), 60_000)));
  try {
    const [code, signal] = await Promise.race([exited, limit]);
    return { code, signal, ms: performance.now() - t0 };
  } finally {
    clearTimeout(timer);
  }
}

/** No process of either bot is left (SIGKILL may take a moment to be carried out on a loaded machine). */
async function noBotLeft(markers: { quick: string; long: string }): Promise<void> {
  await until('every bot process to be gone', async () => livePidsWith(markers.quick).length + livePidsWith(markers.long).length === 0, 10_000).catch(() => {
    assert.fail(`bot processes left running after the arena exited: ${[...livePidsWith(markers.quick), ...livePidsWith(markers.long)].join(', ')}`);
  });
}

describe('SIGTERM drains the matches under way', () => {
  it('botarena serve: the match that ends within the grace is recorded, the one that outlasts it is aborted, exit 0, no bot left', async () => {
    const database = join(dir, 'serve.sqlite');
    const markers = await makeBots(database);
    const child = spawn(process.execPath, ['bin/botarena', 'serve', '--port', '0', '--database', database, '--allow-commands', '--no-ladder', '--no-gateway'], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.add(child);
    let out = '';
    child.stderr!.on('data', (d: Buffer) => (out += d));
    const base = await new Promise<string>((resolve, reject) => {
      child.stdout!.on('data', (d: Buffer) => {
        out += d;
        const m = /botarena server at (http:\/\/[\d.:]+)/.exec(out);
        if (m) resolve(m[1]!);
      });
      child.once('exit', (code) => reject(new Error(`the server exited (${code}) before listening:\n${out}`)));
    });
    const ids = await startBoth(base, markers);

    const stopped = await terminate(child);
    assert.deepEqual([stopped.code, stopped.signal], [0, null], `the server exits 0 after its grace, not killed by the signal:\n${out}`);
    assert.match(out, /SIGTERM: finishing the matches under way \(10 s at most\)/);
    await noBotLeft(markers);
    const store = await openStore(database);
    try {
      const quick = (await store.getMatch(ids.quick))!;
      assert.equal(quick.status, 'finished', `the quick match ends within the grace and is recorded (${quick.abortReason ?? ''})`);
      assert.equal(quick.result!.players.length, 2);
      const long = (await store.getMatch(ids.long))!;
      assert.deepEqual([long.status, long.abortReason], ['aborted', 'the server stopped before the match ended']);
    } finally {
      await store.close();
    }
  });
});

describe('SIGTERM to botarena play', () => {
  // Not a server: nothing to drain. It stops at once (the usual exit by SIGTERM) and its bots go with it; Ctrl-C
  // cancels the match and exits 130 (test/cli.test.ts).
  it('stops at once, killed by the signal, and leaves no bot behind', async () => {
    const marker = `drain-play-${randomUUID()}`;
    const child = spawn(process.execPath, ['bin/botarena', 'play', 'tictactoe', pace(4, marker), 'random'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    children.add(child);
    // The marker is in the CLI's own argv too: wait for the bot's process (its script and the marker, not the
    // CLI), so the signal comes once a bot runs (it used to land before any bot had started).
    const bot = () => livePidsWith(marker).filter((pid) => pid !== child.pid && cmdlineOf(pid).includes('ttt-pace.py'));
    await until('the bot to run', async () => bot().length > 0, 30_000);
    const started = bot();
    const stopped = await terminate(child);
    // Killed by the signal: what a shell reports as exit 143.
    assert.deepEqual([stopped.code, stopped.signal], [null, 'SIGTERM']);
    assert.ok(stopped.ms < 10_000, `it took ${stopped.ms.toFixed(0)} ms to stop`);
    await until('the bot to be gone', async () => livePidsWith(marker).length === 0, 10_000).catch(() => {
      assert.fail(`bot processes left running after play exited: ${livePidsWith(marker).join(', ')} (the bot was ${started.join(', ')})`);
    });
  });
});

const pg = await testPostgres();
const redis = await testRedis();
const missing = 'missing' in pg ? `Postgres: ${pg.missing}` : 'missing' in redis ? `Redis: ${redis.missing}` : null;

describe('SIGTERM drains the matches under way (queue mode)', () => {
  if (missing) {
    it('runs on a real Postgres and Redis', (t) => {
      if (process.env.BOTARENA_CI) assert.fail(`CI must run the queue tests: ${missing}`);
      t.skip(missing);
    });
    return;
  }
  const db = pg as TestPostgres;
  const rd = redis as TestRedis;
  after(async () => {
    killAll();
    await rd.stop();
    await db.stop();
  });

  it('botarena worker: the match that ends within the grace is recorded, the one that outlasts it goes back to the queue, exit 0, no bot left', async () => {
    const at: ClusterPlace = { database: await db.newDatabase(), redis: rd.url, prefix: `t${randomBytes(4).toString('hex')}` };
    const markers = await makeBots(at.database);
    const server = await startQueueServer(at, ['--no-ladder']);
    const worker = await startWorkerProcess(at, 'draining', ['--concurrency', '2']);
    try {
      const ids = await startBoth(server.url, markers);
      const stopped = await terminate(worker.child);
      assert.deepEqual([stopped.code, stopped.signal], [0, null], `the worker exits 0 after its grace, not killed by the signal:\n${worker.log()}`);
      assert.match(worker.log(), /SIGTERM: finishing the matches under way \(10 s at most; the rest go back to the queue\)/);
      await noBotLeft(markers);
      const store = await openStore(at.database);
      try {
        const quick = (await store.getMatch(ids.quick))!;
        assert.deepEqual(
          [quick.status, quick.worker, quick.tries],
          ['finished', 'draining', 1],
          `the quick match ends within the grace, played once (${quick.abortReason ?? ''})`,
        );
        const long = (await store.getMatch(ids.long))!;
        assert.deepEqual(
          [long.status, long.worker, long.tries],
          ['queued', null, 1],
          'the long match is not aborted: it goes back to the queue for another worker',
        );
      } finally {
        await store.close();
      }
    } finally {
      await server.stop();
    }
  });
});
