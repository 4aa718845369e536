// Test matches of a bot given by its URL (the test page's "enter your bot's URL"): played once, never rated, its
// seat holds no bot, and the one who started the match reads every log with the match's viewer token.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import { startServer, type RunningServer } from '../src/server/serve.js';
import { apiClient, until } from './server.kit.js';

const quiet = () => new Writable({ write: (_c, _e, cb) => cb() });

describe('test matches of a bot given by its URL', () => {
  let dir: string;
  let local: RunningServer;
  let open: RunningServer;
  let bot: ChildProcess;
  let url: string;
  const api = apiClient(() => local.url);
  const publicApi = apiClient(() => open.url);

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'botarena-test-matches-'));
    local = await startServer({
      port: 0,
      host: '127.0.0.1',
      database: join(dir, 'local.sqlite'),
      logStream: quiet(),
      ladder: false,
      gateway: false,
      adminToken: 'admin-secret-0123456789',
      allowPrivateBots: true, // the test bots listen on 127.0.0.1
    });
    open = await startServer({
      port: 0,
      host: '127.0.0.1',
      database: join(dir, 'open.sqlite'),
      logStream: quiet(),
      ladder: false,
      gateway: false,
      allowPrivateBots: false,
    });
    bot = spawn(process.execPath, ['test/fixtures/broken-http-bot.mjs'], { stdio: ['ignore', 'pipe', 'inherit'] });
    const port = await new Promise<number>((resolve) => bot.stdout!.once('data', (d: Buffer) => resolve(Number(String(d).trim()))));
    url = `http://127.0.0.1:${port}/`;
  });
  after(async () => {
    bot?.kill('SIGKILL');
    await local?.close(2000);
    await open?.close(2000);
    rmSync(dir, { recursive: true, force: true });
  });

  it('plays the URL against a built-in bot; the fault, and the exact bytes the bot sent, are in the log for the viewer token', async () => {
    const created = await api('POST', '/api/matches', { game: 'tictactoe', test: true, seats: [url, 'minimax'] });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const viewer = created.body!.viewerToken as string;
    assert.match(viewer, /^viewer_/);
    const id = created.body!.id as string;
    const m = await until('the test match to end', async () => {
      const r = await api('GET', `/api/matches/${id}`);
      return r.body!.status === 'finished' ? r.body! : null;
    });
    const seats = m.seats as { botId: string | null; name: string; fault: { kind: string; detail: string } | null }[];
    assert.equal(seats[0]!.botId, null);
    assert.equal(seats[0]!.name, `${new URL(url).host} (test)`);
    assert.equal(seats[0]!.fault?.kind, 'not-json');
    assert.equal(m.rated, false);
    const log = await api('GET', `/api/matches/${id}/logs/0`, undefined, viewer);
    assert.equal(log.status, 200, JSON.stringify(log.body));
    const entries = log.body as unknown as { dir: string; text: string }[];
    assert.ok(
      entries.some((e) => e.dir === 'recv' && e.text === 'I think the best move is the centre'),
      'the raw answer is in the log',
    );
    assert.ok(
      entries.some((e) => e.dir === 'send' && e.text.includes('"action":"play-turn"')),
      'the message sent is in the log',
    );
    // The viewer reads the other seat's log too; nobody else does without a token of their own.
    assert.equal((await api('GET', `/api/matches/${id}/logs/1`, undefined, viewer)).status, 200);
    const none = await api('GET', `/api/matches/${id}/logs/0`);
    assert.equal(none.status, 401);
    assert.match(none.body!.error!.message, /viewerToken/);
    assert.equal((await api('GET', `/api/matches/${id}/logs/0`, undefined, 'viewer_not-the-token')).status, 403);
    assert.equal((await api('GET', `/api/matches/${id}/logs/0`, undefined, 'admin-secret-0123456789')).status, 200);
    // The match's offline player downloads as one HTML file with the replay inside.
    const html = await fetch(`${local.url}/api/matches/${id}/replay.html`);
    assert.equal(html.status, 200);
    assert.match(html.headers.get('content-type') ?? '', /^text\/html/);
    assert.match(html.headers.get('content-disposition') ?? '', /attachment; filename="tictactoe-.*\.html"/);
    const page = await html.text();
    const embedded = /<script type="application\/json" id="replay">(.*?)<\/script>/s.exec(page)?.[1];
    assert.ok(embedded, 'the replay is in the page');
    const shown = JSON.parse(embedded) as { matchId: string; transcripts?: unknown };
    assert.equal(shown.matchId, id);
    assert.equal(shown.transcripts, undefined, 'the raw messages stay out of the shared file');
    // It left no bot behind: the bot list has no guest.
    const bots = (await api('GET', '/api/bots?game=tictactoe')).body as unknown as { name: string }[];
    assert.ok(!bots.some((b) => b.name.includes('(test)')));
  });

  it('a URL seat is for test matches only, is checked like a registration, and a huge one is refused', async () => {
    const challenge = await api('POST', '/api/matches', { game: 'tictactoe', seats: [url, 'minimax'] });
    assert.equal(challenge.status, 400);
    assert.match(challenge.body!.error!.message, /seats\[0\]: a bot given by its URL plays test matches only/);
    const refused = await publicApi('POST', '/api/matches', { game: 'tictactoe', test: true, seats: ['minimax', url] });
    assert.equal(refused.status, 403);
    assert.match(refused.body!.error!.message, /^seats\[1\]: .*(loopback|private)/);
    const huge = await api('POST', '/api/matches', { game: 'tictactoe', test: true, seats: [`http://example.org/${'a'.repeat(2100)}`, 'minimax'] });
    assert.equal(huge.status, 400);
    assert.match(huge.body!.error!.message, /seats/);
    const scheme = await api('POST', '/api/matches', { game: 'tictactoe', test: true, seats: ['ftp://example.org/', 'minimax'] });
    assert.equal(scheme.status, 400);
  });
});
