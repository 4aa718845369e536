import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { after, describe, it } from 'node:test';
import { newJob } from '../src/arena/match-job.js';
import { startServer } from '../src/server/serve.js';
import { openStore } from '../src/store/index.js';
import { ROOT } from './run-cli.js';
import { apiClient, until } from './server.kit.js';

// An arena server killed with kill -9 in the middle of its ladder, then started again on the same SQLite file:
// the matches it left running are aborted with the reason, the ladder goes on, nothing finished is lost and
// nothing is rated twice; the ELO changes are the spec's, computed here by hand.

const dir = mkdtempSync(join(tmpdir(), 'botarena-restart-'));
const database = join(dir, 'arena.sqlite');
const children = new Set<ChildProcess>();
after(() => {
  for (const c of children) c.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

/** `botarena serve` as an organiser starts it, on a port of the system's choosing; resolves with its URL. */
function serve(): Promise<{ child: ChildProcess; url: string; log: () => string }> {
  const child = spawn(
    process.execPath,
    ['bin/botarena', 'serve', '--port', '0', '--database', database, '--allow-commands', '--concurrency', '2', '--ladder-burst', '1000', '--no-gateway'],
    { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  children.add(child);
  let out = '';
  child.stderr!.on('data', (d: Buffer) => (out += d));
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (d: Buffer) => {
      out += d;
      const m = /botarena server at (http:\/\/[\d.:]+)/.exec(out);
      if (m) resolve({ child, url: m[1]!, log: () => out });
    });
    child.on('exit', (code) => reject(new Error(`the server exited (${code}) before listening:\n${out}`)));
  });
}

let base = '';
const api = apiClient(() => base);
type Seat = { botId: string; rank: number | null };
type Match = { id: string; status: string; rated: boolean; abortReason: string | null; seats: Seat[] };

async function matchesOf(botId: string, status: string): Promise<Match[]> {
  const all: Match[] = [];
  let cursor: string | null = null;
  do {
    const page = await api('GET', `/api/matches?bot=${botId}&status=${status}&limit=100${cursor ? `&cursor=${cursor}` : ''}`);
    all.push(...(page.body!.items as Match[]));
    cursor = page.body!.next as string | null;
  } while (cursor);
  return all;
}

const K = (r: number) => (r < 1000 ? 80 : r < 2000 ? 50 : r <= 2400 ? 30 : 20);

describe('botarena serve after kill -9', () => {
  it('aborts what was running, plays on, loses nothing and rates nothing twice', async () => {
    let server = await serve();
    base = server.url;
    const reg = await api('POST', '/api/bots', {
      game: 'tictactoe',
      name: 'pace',
      endpoint: `stdio:python3 ${join(ROOT, 'test/fixtures/tournament/ttt-pace.py')} 0.1`,
    });
    assert.equal(reg.status, 201, JSON.stringify(reg.body));
    const botId = (reg.body!.bot as { id: string }).id;
    await until(
      'two finished ladder matches and one running',
      async () => (await matchesOf(botId, 'finished')).length >= 2 && (await matchesOf(botId, 'running')).length >= 1,
      60_000,
    );
    server.child.kill('SIGKILL');
    await new Promise((r) => server.child.once('exit', r));
    const finishedBefore = (await openFinished()).length;

    server = await serve();
    base = server.url;
    assert.match(server.log(), /match\(es\) left running by the last run were marked aborted/);
    const aborted = await matchesOf(botId, 'aborted');
    assert.ok(aborted.length >= 1);
    for (const m of aborted) assert.equal(m.abortReason, 'the server stopped while the match was running');
    const finished = await until(
      'two more finished matches',
      async () => {
        const f = await matchesOf(botId, 'finished');
        return f.length >= finishedBefore + 2 ? f : null;
      },
      60_000,
    );
    assert.equal((await matchesOf(botId, 'running')).length + (await matchesOf(botId, 'queued')).length <= 2, true);

    // Rated exactly once each: one history entry per finished rated match, none for an aborted one.
    const history = (await api('GET', `/api/bots/${botId}/ratings`)).body!.elo as { matchId: string; before: number; after: number }[];
    const rated = finished.filter((m) => m.rated);
    // A match may finish between the two reads: compare on the matches both saw.
    const seen = new Set(history.map((h) => h.matchId));
    assert.equal(seen.size, history.length, 'no match is rated twice');
    for (const m of rated) assert.ok(seen.has(m.id), `finished match ${m.id} has its rating change`);
    for (const m of aborted) assert.ok(!seen.has(m.id), `aborted match ${m.id} is not rated`);
    const board = (await api('GET', '/api/leaderboards/tictactoe')).body as unknown as { botId: string; games: number }[];
    assert.ok(board.find((r) => r.botId === botId)!.games >= rated.length);

    // Each ELO change is the spec's: r' = r + K(r)(S − E), from both bots' ratings before the match.
    const byId = new Map(rated.map((m) => [m.id, m]));
    let previous = 1500;
    let checked = 0;
    for (const h of history) {
      assert.equal(h.before, previous, 'each match starts from the rating the previous one left');
      previous = h.after;
      const m = byId.get(h.matchId);
      if (!m) continue;
      const mine = m.seats.find((s) => s.botId === botId)!;
      const other = m.seats.find((s) => s.botId !== botId)!;
      const theirs = ((await api('GET', `/api/bots/${other.botId}/ratings`)).body!.elo as { matchId: string; before: number }[]).find(
        (x) => x.matchId === m.id,
      )!;
      const S = mine.rank! < other.rank! ? 1 : mine.rank === other.rank ? 0.5 : 0;
      const E = 1 / (1 + 10 ** ((theirs.before - h.before) / 400));
      assert.ok(Math.abs(h.after - (h.before + K(h.before) * (S - E))) < 1e-9, `ELO of match ${m.id}: ${h.before} → ${h.after}`);
      checked++;
    }
    assert.ok(checked >= 4, `${checked} ELO changes checked`);
    server.child.kill('SIGTERM');
    await new Promise((r) => server.child.once('exit', r));
  });

  it('plays a match the last run queued but never started, from its stored job (a gateway game is aborted instead)', async () => {
    const store = await openStore(database);
    const pace = (await store.getBotByName('tictactoe', 'pace'))!;
    const minimax = (await store.getBotByName('tictactoe', 'minimax'))!;
    const job = newJob({
      matchId: crypto.randomUUID(),
      game: 'tictactoe',
      seed: 7,
      config: {},
      seats: [
        { bot: pace.endpoint, name: pace.name },
        { bot: 'minimax', name: 'minimax' },
      ],
      timeouts: {},
      transcripts: true,
    });
    await store.createMatch({ id: job.matchId, game: 'tictactoe', kind: 'challenge', rated: false, seed: 7, config: {}, job, seats: [pace.id, minimax.id] });
    // A smart-dog gateway game caught between its creation and its start: its bots called in, and are gone.
    const dog = await store.createBot({ game: 'smartdog', name: 'dog', endpoint: 'tcp-gateway:dog', description: '', status: 'active', capacity: 1 });
    const tcpJob = newJob({ matchId: crypto.randomUUID(), game: 'smartdog', seed: 1, config: {}, seats: [{ bot: 'tcp', name: 'dog' }], timeouts: {} });
    await store.createMatch({ id: tcpJob.matchId, game: 'smartdog', kind: 'ladder', rated: true, seed: 1, config: {}, job: tcpJob, seats: [dog.id] });
    await store.close();
    const quiet = new Writable({ write: (_c, _e, cb) => cb() });
    const server = await startServer({ port: 0, host: '127.0.0.1', database, allowCommands: true, ladder: false, logStream: quiet, gateway: false });
    base = server.url;
    try {
      const m = await until('the queued match to finish', async () => {
        const r = await api('GET', `/api/matches/${job.matchId}`);
        return r.body!.status === 'finished' ? r.body : null;
      });
      assert.equal(m.seed, 7);
      const tcp = (await api('GET', `/api/matches/${tcpJob.matchId}`)).body!;
      assert.equal(tcp.status, 'aborted');
      assert.equal(tcp.abortReason, 'its bots connected in over TCP for it: it cannot be started again');
      assert.equal((m.result as { players: unknown[] }).players.length, 2);
    } finally {
      await server.close(2000);
    }
  });
});

async function openFinished() {
  const store = await openStore(database);
  try {
    return (await store.listMatches({ status: 'finished', limit: 100 })).items;
  } finally {
    await store.close();
  }
}
