import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { closeSync, openSync, readdirSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createInterface } from 'node:readline';
import { after, before, describe, it } from 'node:test';
import { ROOT } from './run-cli.js';
import { apiClient, until } from './server.kit.js';

// A full disk, really full: `botarena serve` runs (a child process) with its SQLite file on a 8 MiB tmpfs of its
// own, made by bubblewrap; the test fills that tmpfs with a file, plays a rated match whose finish then finds no
// room, asks for writes (a match, a registration), and frees the space again.

const ADMIN = 'admin-token-for-the-disk-full-test';
const bwrapWorks = spawnSync('bwrap', ['--bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--tmpfs', '/data', 'true']).status === 0;

/** The pids of a process's descendants (bwrap → its child → node). */
function descendants(pid: number): number[] {
  const out: number[] = [];
  for (const task of readdirSync(`/proc/${pid}/task`)) {
    for (const c of readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').split(' ').filter(Boolean).map(Number)) out.push(c, ...descendants(c));
  }
  return out;
}

/** Fills the file system at `dir` with one file until it has no byte left; returns the file's path. */
function fill(dir: string): string {
  const file = `${dir}/filler`;
  const fd = openSync(file, 'w');
  const chunk = Buffer.alloc(64 * 1024, 7);
  try {
    for (;;) writeSync(fd, chunk);
  } catch (err) {
    assert.equal((err as NodeJS.ErrnoException).code, 'ENOSPC');
  }
  // The last few bytes a 64 KiB write could not take.
  try {
    for (;;) writeSync(fd, chunk, 0, 512);
  } catch {
    /* full */
  }
  closeSync(fd);
  return file;
}

/** An arena server under bwrap on a tmpfs of its own: its output, the URL it said last, its node process. */
interface Arena {
  proc: ChildProcess;
  log: string;
  /** the server process (node) inside bwrap, 0 while none runs */
  node(): number;
  /** the tmpfs, seen from here through the server's /proc/PID/root (it is in bwrap's mount namespace) */
  data(): string;
}

const SERVE = ['bin/botarena', 'serve', '--port', '0', '--no-gateway', '--no-ladder', '--allow-private-bots', '--database', '/data/arena.sqlite'];

/**
 * Starts `botarena serve` under bwrap with /data an 8 MiB tmpfs; `thenAgain`: when that server stops, a second
 * one starts on the same tmpfs (the same database), once /data/filler is gone (a restart after space is freed).
 */
async function startArena(thenAgain = false): Promise<Arena> {
  const serve = [process.execPath, ...SERVE].map((a) => `'${a}'`).join(' ');
  const command = thenAgain ? ['sh', '-c', `${serve}; while [ -e /data/filler ]; do sleep 0.1; done; exec ${serve}`] : [process.execPath, ...SERVE];
  const proc = spawn(
    'bwrap',
    ['--die-with-parent', '--bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--size', String(8 * 1024 * 1024), '--tmpfs', '/data', ...command],
    { cwd: ROOT, env: { ...process.env, BOTARENA_ADMIN_TOKEN: ADMIN } },
  );
  const arena: Arena = {
    proc,
    log: '',
    node: () =>
      descendants(proc.pid!).find((p) => {
        try {
          const argv = readFileSync(`/proc/${p}/cmdline`, 'utf8').split('\0');
          return argv[0] === process.execPath && argv[1] === 'bin/botarena';
        } catch {
          return false;
        }
      }) ?? 0,
    data: () => `/proc/${arena.node()}/root/data`,
  };
  arenas.push(arena);
  proc.stdout!.on('data', (d: Buffer) => (arena.log += d));
  proc.stderr!.on('data', (d: Buffer) => (arena.log += d));
  await until('the server to listen', async () => urlOf(arena), 30_000);
  assert.ok(arena.node(), 'the server process inside bwrap');
  return arena;
}

/** The URL the arena's server said it listens at, the last one (a second server says its own). */
const urlOf = (a: Arena) => [...a.log.matchAll(/botarena server at (http:\/\/[\d.:]+)/g)].at(-1)?.[1];

/** Stops the arena: SIGTERM to its server (bwrap does not pass it on), then bwrap ends with it. */
async function stopArena(a: Arena): Promise<void> {
  if (a.proc.exitCode !== null || a.proc.signalCode !== null) return;
  const closed = once(a.proc, 'close');
  const node = a.node();
  if (node) process.kill(node, 'SIGTERM');
  const killer = setTimeout(() => a.proc.kill('SIGKILL'), 20_000);
  await closed;
  clearTimeout(killer);
}

const arenas: Arena[] = [];
let arena: Arena;
let base = '';
let bot: ChildProcess;
let proxy: Server;
let proxyUrl = '';
/** while set, the bot's answers wait (the match stays under way) */
let hold: Promise<void> | null = null;
let release = () => {};
let asked = 0;
const api = apiClient(() => base);

before(
  async () => {
    if (!bwrapWorks) return;
    // The connect4 example bot, behind a proxy that can hold its answers.
    bot = spawn(process.execPath, ['examples/connect4-node-http/bot.mjs', '--port', '0'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
    const [line] = (await once(createInterface({ input: bot.stdout! }), 'line')) as [string];
    const botUrl = new URL(/listening on (http:\S+)/.exec(line)![1]!);
    proxy = createServer((req, res) => {
      const body: Buffer[] = [];
      req.on('data', (d: Buffer) => body.push(d));
      req.on('end', () => {
        asked++;
        void (hold ?? Promise.resolve()).then(() => {
          const out = request({ host: botUrl.hostname, port: botUrl.port, path: req.url, method: req.method, headers: req.headers }, (r) => {
            res.writeHead(r.statusCode ?? 502, r.headers);
            r.pipe(res);
          });
          out.on('error', () => res.destroy());
          out.end(Buffer.concat(body));
        });
      });
    });
    proxy.listen(0, '127.0.0.1');
    await once(proxy, 'listening');
    proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}/`;

    arena = await startArena();
    base = urlOf(arena)!;
  },
  { timeout: 60_000 },
);

after(
  async () => {
    if (process.env.SERVER_LOG) for (const a of arenas) console.error(a.log);
    release();
    for (const a of arenas) await stopArena(a);
    bot?.kill();
    proxy?.close();
  },
  { timeout: 30_000 },
);

const lines = (re: RegExp, a = arena) => a.log.split('\n').filter((l) => re.test(l));

describe('botarena serve on a full disk', { skip: bwrapWorks ? false : 'bubblewrap (bwrap) cannot make a tmpfs here' }, () => {
  it(
    'answers 503 "disk full" with Retry-After, keeps nothing half-written, and writes the finished match once there is room',
    { timeout: 120_000 },
    async () => {
      const reg = await api('POST', '/api/bots', { game: 'connect4', name: 'held', endpoint: proxyUrl });
      assert.equal(reg.status, 201, JSON.stringify(reg.body));
      const heldId = (reg.body!.bot as { id: string }).id;
      await until('the bot to pass its check', async () => (await api('GET', `/api/bots/${heldId}`)).body?.status === 'active');
      const builtins = (await api('GET', '/api/bots?game=connect4')).body as unknown as { id: string; name: string; builtin: boolean }[];
      const opponent = builtins.find((b) => b.builtin)!;

      // A rated match (the admin's), its bot's answers held: it is under way when the disk fills.
      hold = new Promise((resolve) => (release = resolve));
      const before = asked;
      const started = await fetch(`${base}/api/matches`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${ADMIN}` },
        body: JSON.stringify({ game: 'connect4', seats: [heldId, opponent.id], rated: true }),
      });
      assert.equal(started.status, 201);
      const matchId = ((await started.json()) as { id: string }).id;
      await until('the match to ask the held bot', async () => asked > before);
      const matchesBefore = (await api('GET', '/api/matches?limit=100')).body!.items as unknown[];

      const filler = fill(arena.data());
      try {
        // Writes that start something: a 503 saying the disk is full, when to retry, and nothing kept.
        const ask = await fetch(`${base}/api/matches`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ game: 'connect4', seats: [opponent.id, opponent.id] }),
        });
        const answer = (await ask.json()) as { error: { status: number; code: string; message: string } };
        assert.equal(ask.status, 503, JSON.stringify(answer));
        assert.equal(answer.error.code, 'disk-full');
        assert.match(answer.error.message, /disk is full.*retry later/);
        assert.ok(Number(ask.headers.get('retry-after')) > 0, 'Retry-After says when to try again');
        const registered = await api('POST', '/api/bots', { game: 'connect4', name: 'newcomer', endpoint: proxyUrl });
        assert.equal(registered.status, 503, JSON.stringify(registered.body));
        assert.match(registered.body!.error!.message, /disk is full/);

        // The held match ends now; its finish finds no room and waits (retried), the match still running.
        release();
        hold = null;
        await until('the finish to wait for room', async () => lines(/result \(replay, seats, ratings\) cannot be written now/).length > 0, 30_000);
        await new Promise((r) => setTimeout(r, 6000)); // a few retries
        assert.equal((await api('GET', `/api/matches/${matchId}`)).body!.status, 'running');
      } finally {
        rmSync(filler);
      }

      // Room again: the finish lands (the next retry, at most 10 s later), its ratings applied once.
      const done = await until('the match to be finished', async () => {
        const m = (await api('GET', `/api/matches/${matchId}`)).body!;
        return m.status !== 'running' && m;
      });
      assert.equal(done.status, 'finished', JSON.stringify(done));
      const history = (await api('GET', `/api/bots/${heldId}/ratings`)).body as { elo: { matchId: string }[]; openskill: { matchId: string }[] };
      assert.deepEqual(
        history.elo.map((h) => h.matchId),
        [matchId],
        'one ELO change, for this match',
      );
      assert.deepEqual(
        history.openskill.map((h) => h.matchId),
        [matchId],
      );
      const rated = (await api('GET', `/api/bots/${heldId}`)).body as { ratings?: { games: number }[] };
      for (const r of rated.ratings ?? []) assert.equal(r.games, 1, JSON.stringify(rated));
      // Nothing of the refused writes was kept: no new match, no "newcomer" bot.
      assert.equal(((await api('GET', '/api/matches?limit=100')).body!.items as unknown[]).length, matchesBefore.length);
      assert.equal(((await api('GET', '/api/bots?game=connect4')).body as unknown as { name: string }[]).filter((b) => b.name === 'newcomer').length, 0);
      // And the store writes: a new match plays.
      const again = await api('POST', '/api/matches', { game: 'connect4', seats: [opponent.id, opponent.id] });
      assert.equal(again.status, 201, JSON.stringify(again.body));
      await until('the new match to finish', async () => (await api('GET', `/api/matches/${(again.body as { id: string }).id}`)).body!.status === 'finished');

      // The log said it once, and once that it writes again; no SQLite error, no stack trace.
      assert.equal(lines(/the arena's disk is full \(SQLite/).length, 1, arena.log);
      assert.equal(lines(/the store writes again/).length, 1, arena.log);
      assert.equal(lines(/was written after waiting/).length, 1, arena.log);
      assert.deepEqual(lines(/cannot rollback|SQLITE_ERROR/), []);
      assert.deepEqual(lines(/"stack"/), []);
      assert.deepEqual(lines(/"level":50/), [], 'no error line (the 503s are said once, by the store)');
    },
  );

  it(
    'a server stopped while a finish waits for room leaves the match as a stop does: the next start marks it aborted, never rated',
    { timeout: 120_000 },
    async () => {
      const a = await startArena(true);
      const call = apiClient(() => urlOf(a)!);
      const reg = await call('POST', '/api/bots', { game: 'connect4', name: 'held', endpoint: proxyUrl });
      assert.equal(reg.status, 201, JSON.stringify(reg.body));
      const heldId = (reg.body!.bot as { id: string }).id;
      await until('the bot to pass its check', async () => (await call('GET', `/api/bots/${heldId}`)).body?.status === 'active');
      const opponent = ((await call('GET', '/api/bots?game=connect4')).body as unknown as { id: string; builtin: boolean }[]).find((b) => b.builtin)!;
      hold = new Promise((resolve) => (release = resolve));
      const before = asked;
      const started = await fetch(`${urlOf(a)}/api/matches`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${ADMIN}` },
        body: JSON.stringify({ game: 'connect4', seats: [heldId, opponent.id], rated: true }),
      });
      const matchId = ((await started.json()) as { id: string }).id;
      await until('the match to ask the held bot', async () => asked > before);
      const first = a.node();
      // The shell that starts the second server stays in bwrap's namespace: the tmpfs is reached through it.
      const sh = descendants(a.proc.pid!).find((p) => readFileSync(`/proc/${p}/cmdline`, 'utf8').startsWith('sh\0'))!;
      assert.ok(sh, 'the shell inside bwrap');
      const filler = fill(`/proc/${sh}/root/data`);
      release();
      hold = null;
      await until('the finish to wait for room', async () => lines(/result \(replay, seats, ratings\) cannot be written now/, a).length > 0, 30_000);

      // Stopped (SIGTERM) with the disk still full: the grace passes, nothing can be written, the server exits.
      process.kill(first, 'SIGTERM');
      await until('the first server to stop', async () => a.node() !== first, 40_000);
      assert.match(a.log, /could not be written before the arena stopped.*it could not be marked aborted either: it stays running/);
      rmSync(filler);
      await until('the second server to listen', async () => [...a.log.matchAll(/botarena server at/g)].length === 2, 30_000);

      const m = (await call('GET', `/api/matches/${matchId}`)).body!;
      assert.equal(m.status, 'aborted', JSON.stringify(m));
      assert.match(String(m.abortReason), /the server stopped while the match was running/);
      const history = (await call('GET', `/api/bots/${heldId}/ratings`)).body as { elo: unknown[]; openskill: unknown[] };
      assert.deepEqual(history, { elo: [], openskill: [] }, 'never rated');
    },
  );
});
