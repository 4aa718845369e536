import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { Writable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import { startServer, type RunningServer } from '../src/server/serve.js';
import { ROOT } from './run-cli.js';
import { apiClient, until } from './server.kit.js';

// HTTP bots on an arena server: the Node example bot registered by its URL plays the ladder; a server open to
// the internet refuses bot URLs at private addresses; a live match streams as server-sent events while it plays.

const dir = mkdtempSync(join(tmpdir(), 'botarena-server-http-'));
const quiet = () => (process.env.SERVER_LOG ? process.stderr : new Writable({ write: (_c, _e, cb) => cb() }));
let local: RunningServer;
let open: RunningServer;
let bot: ChildProcess;
let botUrl = '';
const api = apiClient(() => local.url);
const openApi = apiClient(() => open.url);

before(async () => {
  bot = spawn(process.execPath, ['examples/connect4-node-http/bot.mjs', '--port', '0'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
  const [line] = (await once(createInterface({ input: bot.stdout! }), 'line')) as [string];
  botUrl = /listening on (http:\S+)/.exec(line)![1]!;
  // The example bot listens on 127.0.0.1: this server is told it may call private addresses.
  local = await startServer({
    port: 0,
    host: '127.0.0.1',
    database: join(dir, 'local.sqlite'),
    logStream: quiet(),
    allowCommands: true,
    allowPrivateBots: true,
    gateway: false,
  });
  // As an arena on the internet runs: bots only at public addresses (the default when not on 127.0.0.1 only).
  open = await startServer({
    port: 0,
    host: '127.0.0.1',
    database: join(dir, 'open.sqlite'),
    logStream: quiet(),
    allowPrivateBots: false,
    ladder: false,
    gateway: false,
  });
});
after(async () => {
  bot.kill();
  await Promise.all([local.close(2000), open.close(2000)]);
  rmSync(dir, { recursive: true, force: true });
});

describe('botarena serve with HTTP bots', () => {
  it('registers the Node example bot by its URL; it passes the check and plays rated ladder matches', async () => {
    const r = await api('POST', '/api/bots', { game: 'connect4', name: 'node-c4', endpoint: botUrl, owner: 'me@example.org', description: 'the example' });
    assert.equal(r.status, 201, JSON.stringify(r.body));
    const id = (r.body!.bot as { id: string }).id;
    const checked = await until('the check', async () => {
      const b = await api('GET', `/api/bots/${id}`);
      return b.body!.status !== 'checking' ? b.body : null;
    });
    assert.equal(checked.status, 'active', String(checked.statusReason));
    const checks = (checked.doctor as { checks: { name: string; status: string }[] }).checks;
    assert.ok(
      checks.some((c) => /keep-alive/.test(c.name) && c.status === 'pass'),
      'the HTTP checks ran',
    );
    const played = await until(
      'two rated ladder matches',
      async () => {
        const m = await api('GET', `/api/matches?bot=${id}&status=finished&kind=ladder`);
        const items = m.body!.items as { rated: boolean; seats: { botId: string; fault: unknown }[] }[];
        return items.length >= 2 ? items : null;
      },
      60_000,
    );
    assert.ok(
      played.every((m) => m.rated && m.seats.every((s) => s.botId !== id || s.fault === null)),
      'rated, and the example bot never faults',
    );
  });

  it('refuses bot URLs at loopback, private, link-local and metadata addresses, and names that do not resolve, on a public server', async () => {
    for (const [url, what] of [
      [botUrl, /127\.0\.0\.1/],
      ['http://localhost:9/', /loopback|127\.0\.0\.1|::1/],
      ['http://10.1.2.3/', /10\.1\.2\.3/],
      ['http://169.254.169.254/latest/', /169\.254\.169\.254/],
      ['http://[::1]:8080/', /::1/],
    ] as const) {
      const r = await openApi('POST', '/api/bots', { game: 'connect4', name: 'sneaky', endpoint: url });
      assert.equal(r.status, 403, `${url}: ${JSON.stringify(r.body)}`);
      assert.match(r.body!.error!.message, what, url);
      assert.match(r.body!.error!.message, /only calls public addresses/, url);
    }
    const unknown = await openApi('POST', '/api/bots', { game: 'connect4', name: 'nowhere', endpoint: 'https://nowhere.invalid/' });
    assert.equal(unknown.status, 400);
    assert.match(unknown.body!.error!.message, /the name nowhere\.invalid cannot be resolved/);
    const list = await openApi('GET', '/api/bots?game=connect4');
    assert.ok(!JSON.stringify(list.body).includes('sneaky'), 'nothing was registered');
  });

  it('limits registrations and match requests per client address, with a 429 that says when to retry', async () => {
    const limited = await startServer({
      port: 0,
      host: '127.0.0.1',
      database: join(dir, 'limited.sqlite'),
      logStream: quiet(),
      // Its bot URLs (bots.example.org) do not resolve: without the address check the limits are what is tested.
      allowPrivateBots: true,
      ladder: false,
      gateway: false,
      limits: { registrations: 2, matches: 2 },
    });
    const call = apiClient(() => limited.url);
    try {
      for (const i of [1, 2])
        assert.equal((await call('POST', '/api/bots', { game: 'connect4', name: `b${i}`, endpoint: 'https://bots.example.org/' })).status, 201);
      const third = await call('POST', '/api/bots', { game: 'connect4', name: 'b3', endpoint: 'https://bots.example.org/' });
      assert.equal(third.status, 429);
      assert.match(third.body!.error!.message, /retry in \d+ (seconds?|minutes?)|try again/i);
      for (const _ of [1, 2]) assert.equal((await call('POST', '/api/matches', { game: 'connect4', seats: ['random', 'random'] })).status, 201);
      assert.equal((await call('POST', '/api/matches', { game: 'connect4', seats: ['random', 'random'] })).status, 429);
      assert.equal((await call('GET', '/api/leaderboards/connect4')).status, 200, 'reading is not limited');
    } finally {
      await limited.close(2000);
    }
  });

  it('streams a match while it plays: the events arrive before it ends, then the result', async () => {
    const r = await api('POST', '/api/bots', {
      game: 'tictactoe',
      name: 'slow',
      endpoint: `stdio:python3 ${join(ROOT, 'test/fixtures/tournament/ttt-pace.py')} 0.3`,
    });
    assert.equal(r.status, 201);
    const id = (r.body!.bot as { id: string }).id;
    await until('the check', async () => (await api('GET', `/api/bots/${id}`)).body!.status === 'active', 60_000);
    const feed = new AbortController();
    const feedText = readFeed(feed.signal);
    try {
      const m = await api('POST', '/api/matches', { game: 'tictactoe', seats: ['slow', 'random'], test: true });
      assert.equal(m.status, 201, JSON.stringify(m.body));
      const matchId = m.body!.id as string;
      const res = await fetch(`${local.url}/api/matches/${matchId}/events`);
      assert.equal(res.headers.get('content-type')?.split(';')[0], 'text/event-stream');
      const reader = res.body!.getReader();
      const arrivals: { at: number; text: string }[] = [];
      let text = '';
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        text += Buffer.from(value).toString();
        arrivals.push({ at: Date.now(), text });
      }
      assert.match(text, /^event: started\n/);
      assert.match(text, /event: ended\ndata: \{.*"result"/);
      const stepsBeforeEnd = arrivals.filter((a) => /event: step/.test(a.text) && !/event: ended/.test(a.text));
      assert.ok(stepsBeforeEnd.length >= 1, 'steps arrived while the match was still playing');
      // A viewer told the match ended finds it recorded (the end is announced after the store has it).
      const done = await api('GET', `/api/matches/${matchId}`);
      assert.equal(done.body!.status, 'finished');
      assert.ok(Date.parse(done.body!.finishedAt as string) >= stepsBeforeEnd[0]!.at - 50, 'the first step came before the match finished');
      // The global feed told of its start and its end, and no step of it.
      const global = await until('the feed to show the end', async () => {
        const t = await feedText.text();
        return t.includes(`"type":"ended","matchId":"${matchId}"`) ? t : null;
      });
      assert.match(global, new RegExp(`event: started\ndata: \\{"type":"started","matchId":"${matchId}"`));
      assert.ok(!global.includes('event: step'));
    } finally {
      feed.abort(); // a failed check must not leave the feed open: the server's close would wait for it
    }
  });
});

/** Reads the global feed (GET /api/events) in the background until `signal` aborts; `text()` is what came so far. */
function readFeed(signal: AbortSignal): { text(): Promise<string> } {
  let text = '';
  void fetch(`${local.url}/api/events`, { signal })
    .then(async (res) => {
      for await (const chunk of res.body!) text += Buffer.from(chunk as Uint8Array).toString();
    })
    .catch(() => {});
  return { text: async () => text };
}
