import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import { startServer, type RunningServer } from '../src/server/serve.js';
import { ROOT } from './run-cli.js';
import { apiClient, until } from './server.kit.js';

// `botarena connect` end to end: a real server on 127.0.0.1 (its ladder on), the real CLI as a child process
// linking a `connect:` bot and playing it with a stdio tic-tac-toe bot in Python (test/fixtures/connect/ttt.py).
// Ladder matches and a test match are played over the link; killing the CLI mid-match ends that match by the
// fault rule (a transport fault for the linked seat) and the bot shows as away; starting it again resumes play.

const dir = mkdtempSync(join(tmpdir(), 'botarena-server-connect-'));
const quiet = () => (process.env.SERVER_LOG ? process.stderr : new Writable({ write: (_c, _e, cb) => cb() }));
let server: RunningServer;
const api = apiClient(() => server.url);
const children: ChildProcess[] = [];

before(async () => {
  server = await startServer({
    port: 0,
    host: '127.0.0.1',
    database: join(dir, 'connect.sqlite'),
    logStream: quiet(),
    gateway: false,
    // Two ladder matches at once, then one a minute: the ladder plays, and leaves the bot's capacity free after.
    perBotPerHour: 120,
    ladderBurst: 2,
    links: { pingMs: 1000 },
  });
});
after(async () => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  await server.close(500);
  rmSync(dir, { recursive: true, force: true });
});

/** Starts `botarena connect` for a bot; its stdout lines are collected, `linked` resolves when it says it is linked. */
function connect(botId: string, tokenFile: string, delaySeconds: number) {
  const child = spawn(
    process.execPath,
    ['bin/botarena', 'connect', server.url, '--bot-id', botId, '--token-file', tokenFile, `stdio:python3 test/fixtures/connect/ttt.py ${delaySeconds}`],
    { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  children.push(child);
  let out = '';
  let err = '';
  child.stdout!.on('data', (d: Buffer) => (out += d));
  child.stderr!.on('data', (d: Buffer) => (err += d));
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  return {
    child,
    exited,
    lines: () => out.split('\n').filter(Boolean),
    stderr: () => err,
    linked: () => until(`botarena connect to say it is linked (stdout: ${out}; stderr: ${err})`, async () => /linked as /.test(out)),
  };
}

interface MatchBody {
  id: string;
  kind: string;
  status: string;
  seats: { botId: string | null; name: string; rank: number | null; fault: { kind: string; detail: string } | null }[];
}

const botOf = async (id: string) => (await api('GET', `/api/bots/${id}`)).body as { status: string; statusReason: string | null };
const matchesOf = async (botId: string, status: string) =>
  ((await api('GET', `/api/matches?bot=${botId}&status=${status}&limit=100`)).body as unknown as { items: MatchBody[] }).items;

describe('botarena connect: a bot on its author machine plays a server over one outbound link', () => {
  it('registers away, plays ladder and test matches once linked, ends a match by the fault rule when killed, resumes when started again', async () => {
    const reg = await api('POST', '/api/bots', { game: 'tictactoe', name: 'linked-py', endpoint: 'connect:', capacity: 2 });
    assert.equal(reg.status, 201, JSON.stringify(reg.body));
    const bot = reg.body!.bot as { id: string; status: string; statusReason: string };
    assert.equal(bot.status, 'away');
    assert.match(bot.statusReason, /botarena connect/);
    const tokenFile = join(dir, 'token');
    writeFileSync(tokenFile, `${reg.body!.token as string}\n`);

    // Away: no test match, and the ladder leaves it alone.
    const early = await api('POST', '/api/matches', { game: 'tictactoe', seats: [bot.id, 'random'], test: true });
    assert.equal(early.status, 409, JSON.stringify(early.body));
    assert.match(early.body!.error!.message, /linked-py is away: .*botarena connect/);

    // Linked: active, and the ladder seats it (two matches, then its pace).
    const first = connect(bot.id, tokenFile, 0);
    await first.linked();
    await until('the bot active', async () => (await botOf(bot.id)).status === 'active');
    const ladder = await until('two ladder matches played over the link', async () => {
      const done = (await matchesOf(bot.id, 'finished')).filter((m) => m.kind === 'ladder');
      return done.length >= 2 ? done : null;
    });
    for (const m of ladder) {
      const mine = m.seats.find((s) => s.botId === bot.id)!;
      assert.equal(mine.fault, null, `ladder match ${m.id}: ${JSON.stringify(mine)}`);
    }
    await until('the CLI printing each ladder match start and end', async () =>
      ladder.every(
        (m) => first.lines().some((l) => l.includes(`match ${m.id} started: tictactoe`)) && first.lines().some((l) => l.includes(`match ${m.id} ended: `)),
      ),
    );

    // A test match once the ladder's burst is over (its capacity is free).
    const test = await until('a test match accepted', async () => {
      const r = await api('POST', '/api/matches', { game: 'tictactoe', seats: [bot.id, 'minimax'], test: true });
      return r.status === 201 ? (r.body as unknown as { id: string }) : null;
    });
    const played = await until('the test match finished', async () => {
      const m = (await api('GET', `/api/matches/${test.id}`)).body as unknown as MatchBody;
      return m.status === 'finished' ? m : null;
    });
    assert.equal(played.seats[0]!.fault, null, JSON.stringify(played.seats[0]));
    await until('the CLI printing the test match result', async () =>
      first.lines().some((l) => new RegExp(`match ${test.id} ended: (won|lost|draw) \\(rank \\d of 2`).test(l)),
    );

    // Killed mid-match (each move takes 0.4 s): the match ends by the fault rule, the bot is away.
    first.child.kill('SIGKILL');
    await first.exited;
    const slow = connect(bot.id, tokenFile, 0.4);
    await slow.linked();
    const mid = await until('a test match accepted', async () => {
      const r = await api('POST', '/api/matches', { game: 'tictactoe', seats: [bot.id, 'random'], test: true });
      return r.status === 201 ? (r.body as unknown as { id: string }) : null;
    });
    await until('the match under way with a move played', async () => slow.lines().some((l) => l.includes(`match ${mid.id} started`)));
    await new Promise((r) => setTimeout(r, 600));
    slow.child.kill('SIGKILL');
    const ended = await until('the match ended', async () => {
      const m = (await api('GET', `/api/matches/${mid.id}`)).body as unknown as MatchBody;
      return m.status === 'finished' ? m : null;
    });
    const mine = ended.seats[0]!;
    assert.equal(mine.fault?.kind, 'transport', JSON.stringify(mine));
    assert.match(mine.fault!.detail, /the link to the bot's machine was lost/);
    assert.equal(mine.rank, 2, 'the faulting seat loses (tic-tac-toe: a fault loses)');
    const away = await until('the bot away', async () => {
      const b = await botOf(bot.id);
      return b.status === 'away' ? b : null;
    });
    assert.match(away.statusReason!, /not connected.*its last link ended/);
    const board = (await api('GET', '/api/leaderboards/tictactoe')).body as unknown as { items?: unknown[] } | unknown[];
    const rows = (Array.isArray(board) ? board : (board.items ?? [])) as { botId: string; status: string }[];
    assert.equal(rows.find((r) => r.botId === bot.id)?.status, 'away', 'the leaderboard shows it away');

    // Started again: linked, active, and it plays.
    const again = connect(bot.id, tokenFile, 0);
    await again.linked();
    await until('the bot active again', async () => (await botOf(bot.id)).status === 'active');
    const resumed = await until('a test match accepted', async () => {
      const r = await api('POST', '/api/matches', { game: 'tictactoe', seats: ['random', bot.id], test: true });
      return r.status === 201 ? (r.body as unknown as { id: string }) : null;
    });
    const replayed = await until('the match after the restart finished', async () => {
      const m = (await api('GET', `/api/matches/${resumed.id}`)).body as unknown as MatchBody;
      return m.status === 'finished' ? m : null;
    });
    assert.equal(replayed.seats[1]!.fault, null);

    // Ctrl-C: the CLI closes the link and exits; the bot is away again.
    again.child.kill('SIGINT');
    assert.equal(await again.exited, 0, again.stderr());
    await until('the bot away after Ctrl-C', async () => (await botOf(bot.id)).status === 'away');
  });
});
