// The time rules from the command line and the server (issue 38): `play` and `tournament` take --first-ms,
// --bank-ms and --strikes and `play` shows what each seat used; `serve` gives them to its ladder, on-demand
// and test matches (strikes only in games that have a pass). Real bots that sleep on purpose, the built CLI,
// a real server on 127.0.0.1 with a SQLite file.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import { startServer, type RunningServer } from '../src/server/serve.js';
import { runCli } from './run-cli.js';
import { apiClient, until } from './server.kit.js';

const slowX = 'stdio:python3 test/fixtures/runner/slow-once.py 250 2';
const steadyO = 'stdio:python3 test/fixtures/runner/slow-once.py 0 0';
/** A lighthouses bot that passes, sleeping 400 ms on its first two turns: two timeouts at a 200 ms deadline. */
const sleepyPasser = 'stdio:python3 test/fixtures/runner/slow-passer.py 400 1,2';

describe('time rules on the command line', () => {
  it('play --bank-ms: the bot 50 ms late once wins, and the output says how much of its bank it used', async () => {
    const r = await runCli([
      'play',
      'tictactoe',
      slowX,
      steadyO,
      '--seed',
      '1',
      '--timeout',
      '200',
      '--bank-ms',
      '1000',
      '--name',
      '0=slow',
      '--name',
      '1=steady',
    ]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /Winner: slow \(slot 0\)/);
    assert.match(r.stdout, /time rules: turn 200 ms, bank 1000 ms a seat/);
    const used = Number(/seat 0 \(slow\) used (\d+) ms of its 1000 ms bank/.exec(r.stdout)?.[1]);
    assert.ok(used >= 50 && used < 500, r.stdout);
    const lost = await runCli(['play', 'tictactoe', slowX, steadyO, '--seed', '1', '--timeout', '200', '--name', '0=slow', '--name', '1=steady']);
    assert.match(lost.stdout, /Winner: steady \(slot 1\)/);
    assert.match(lost.stdout, /turn 3: timeout: no answer within 200 ms/);
    assert.doesNotMatch(lost.stdout, /time rules/, 'a match without time rules prints what it always printed');
  });

  it('play --strikes: strikes counted and shown, the replay marks them and verifies; --json counts them', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'botarena-strikes-'));
    try {
      const file = join(dir, 'm.json');
      const args = [
        'play',
        'lighthouses',
        sleepyPasser,
        'random',
        '--seed',
        '1',
        '--timeout',
        '200',
        '--set',
        'rounds=4',
        '--name',
        '0=sleepy',
        '--strikes',
        '1',
      ];
      const r = await runCli([...args, '--replay', file]);
      assert.equal(r.code, 0, r.stderr);
      assert.match(r.stdout, /time rules: turn 200 ms, 1 strike a seat/);
      assert.match(r.stdout, /seat 0 \(sleepy\) 1 strike of 1/);
      assert.match(r.stdout, /seat 1 \(random\) 0 strikes of 1/);
      assert.match(r.stdout, /turn \d+: timeout: no answer within 200 ms/, 'the timeout after the strike is a fault');
      const replay = JSON.parse(readFileSync(file, 'utf8')) as { timeouts: { strikes?: number }; turns: { moves: { slot: number; strike?: boolean }[] }[] };
      assert.equal(replay.timeouts.strikes, 1);
      assert.equal(replay.turns.flatMap((t) => t.moves.filter((m) => m.strike)).length, 1);
      const verified = await runCli(['replay', 'verify', file]);
      assert.equal(verified.code, 0, verified.stderr);
      const json = await runCli([...args, '--json']);
      const players = (JSON.parse(json.stdout) as { players: { strikes?: number; fault: { kind: string } | null }[] }).players;
      assert.deepEqual(
        players.map((p) => [p.strikes, p.fault?.kind ?? null]),
        [
          [1, 'timeout'],
          [0, null],
        ],
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses strikes for a game without a pass, and bad values, before any match', async () => {
    const play = await runCli(['play', 'tictactoe', 'random', 'random', '--strikes', '1']);
    assert.equal(play.code, 2);
    assert.match(play.stderr, /tictactoe has no pass: .*leave out strikes \(--strikes\) for tictactoe/);
    const tour = await runCli(['tournament', 'connect4', 'random', 'random', '--strikes', '2']);
    assert.equal(tour.code, 2);
    assert.match(tour.stderr, /connect4 has no pass/);
    const bad = await runCli(['play', 'tictactoe', 'random', 'random', '--bank-ms', '-3']);
    assert.notEqual(bad.code, 0);
    assert.match(bad.stderr, /--bank-ms/);
    const huge = await runCli(['play', 'paint', 'random', 'random', '--strikes', '100000']);
    assert.notEqual(huge.code, 0);
    assert.match(huge.stderr, /--strikes/);
  });

  it('tournament --bank-ms/--strikes: every match has the rules, and the results count the strikes', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'botarena-tour-time-'));
    try {
      const r = await runCli([
        'tournament',
        'lighthouses',
        'stdio:python3 test/fixtures/runner/slow-passer.py 400 1',
        'random',
        '--games',
        '1',
        '--seed',
        '2',
        '--timeout',
        '200',
        '--set',
        'rounds=3',
        '--strikes',
        '1',
        '--bank-ms',
        '0',
        '--concurrency',
        '1',
        '--out',
        dir,
      ]);
      assert.equal(r.code, 0, r.stderr);
      const spec = JSON.parse(readFileSync(join(dir, 'tournament.json'), 'utf8')) as { timeouts: object };
      assert.deepEqual(spec.timeouts, { strikes: 1, bankMs: 0, turnMs: 200 });
      const lines = readFileSync(join(dir, 'results.jsonl'), 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as { seats: number[]; players: { strikes: number; fault: unknown }[] });
      const passer = lines.map((l) => l.players[l.seats.indexOf(0)]!);
      assert.ok(
        passer.every((p) => p.strikes === 1 && p.fault === null),
        JSON.stringify(passer),
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('time rules on the server', () => {
  let dir: string;
  let server: RunningServer;
  const api = apiClient(() => server.url);

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'botarena-time-server-'));
    server = await startServer({
      port: 0,
      host: '127.0.0.1',
      database: join(dir, 'a.sqlite'),
      logStream: new Writable({ write: (_c, _e, cb) => cb() }),
      ladder: false,
      gateway: false,
      timeouts: { firstMs: 3000, bankMs: 1500, strikes: 2 },
    });
  });
  after(async () => {
    await server?.close(2000);
    rmSync(dir, { recursive: true, force: true });
  });

  const played = async (game: string, seats: string[]) => {
    const created = await api('POST', '/api/matches', { game, seats });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const id = created.body!.id as string;
    await until(`the ${game} match to end`, async () => ((await api('GET', `/api/matches/${id}`)).body!.status === 'finished' ? true : null));
    return (await api('GET', `/api/matches/${id}/replay`)).body as { timeouts: Record<string, unknown> };
  };

  it("gives its matches the server's time rules; strikes only to a game that has a pass", async () => {
    const lighthouses = await played('lighthouses', ['random', 'random']);
    assert.deepEqual(lighthouses.timeouts, { initMs: 2000, turnMs: 500, firstMs: 3000, bankMs: 1500, strikes: 2 });
    const ttt = await played('tictactoe', ['random', 'minimax']);
    assert.deepEqual(ttt.timeouts, { initMs: 10000, turnMs: 10000, firstMs: 3000, bankMs: 1500 }, 'tic-tac-toe has no pass: no strikes');
  });
});
