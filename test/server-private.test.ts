import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import { startServer, type RunningServer } from '../src/server/serve.js';
import { ROOT, runCli } from './run-cli.js';
import { apiClient, until } from './server.kit.js';

// Issue 34, part 4 and part 6's "tokens never appear in logs", as a hostile client would try them against a
// real server on 127.0.0.1: a server calls no private address unless its operator says so; a fault shown to
// anyone quotes at most a short, labelled prefix of what a bot answered (its full text is in the seat's log);
// no token reaches the log, at any level.

const dir = mkdtempSync(join(tmpdir(), 'botarena-private-'));
const quiet = () => new Writable({ write: (_c, _e, cb) => cb() });

/** What an internal service answers, 5 000 bytes each: an environment dump (text) and cloud credentials (JSON). */
const TEXT_HEAD = 'service inventory v2 (internal only) -- environment of db-01 ...'; // 64 characters
const TEXT = `${TEXT_HEAD}TOPSECRET-TEXT-0001\nDB_PASSWORD=TOPSECRET-TEXT-0002\n`.padEnd(5000, '#');
const JSON_BODY = JSON.stringify({
  Code: 'Success',
  LastUpdated: '2026-11-27T00:00:00Z',
  Type: 'AWS-HMAC',
  AccessKeyId: 'ASIATOPSECRETJSON01',
  SecretAccessKey: `TOPSECRET-JSON-0002${'x'.repeat(4800)}`,
});
const MARKER = 'TOPSECRET';
/** Its content type, as long as a header may be, with a secret past the first 64 characters. */
const CONTENT_TYPE = `text/plain; charset=utf-8; profile="internal-inventory-v2"; build=2026.11.27; ${MARKER}-HEADER-0003`;

/** An "internal service" on 127.0.0.1: it answers every POST with the body its path names, and counts them. */
let service: Server;
let serviceUrl = '';
let requests = 0;

before(async () => {
  assert.equal(TEXT_HEAD.length, 64);
  assert.equal(TEXT.length, 5000);
  service = createServer((req, res) => {
    requests++;
    req.resume();
    req.on('end', () => res.writeHead(200, { 'content-type': CONTENT_TYPE }).end(req.url === '/json' ? JSON_BODY : TEXT));
  });
  service.listen(0, '127.0.0.1');
  await once(service, 'listening');
  serviceUrl = `http://127.0.0.1:${(service.address() as AddressInfo).port}`;
});
after(() => {
  service.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('private addresses are off unless the operator turns them on', () => {
  let server: RunningServer;
  const api = apiClient(() => server.url);
  before(async () => {
    // The defaults, listening on 127.0.0.1 as behind a reverse proxy: no allowPrivateBots given.
    server = await startServer({ port: 0, host: '127.0.0.1', database: join(dir, 'default.sqlite'), logStream: quiet(), ladder: false, gateway: false });
  });
  after(() => server.close(2000));

  it('refuses to register a bot at http://127.0.0.1, naming --allow-private-bots, and never calls it', async () => {
    const before = requests;
    for (const endpoint of [`${serviceUrl}/text`, 'http://localhost:9/', 'http://10.0.0.5/', 'http://169.254.169.254/latest/meta-data/']) {
      const r = await api('POST', '/api/bots', { game: 'tictactoe', name: 'inside', endpoint });
      assert.equal(r.status, 403, `${endpoint}: ${JSON.stringify(r.body)}`);
      assert.match(r.body!.error!.message, /only calls public addresses/, endpoint);
      assert.match(r.body!.error!.message, /--allow-private-bots/, `${endpoint}: the refusal names the option that allows it`);
    }
    const test = await api('POST', '/api/matches', { game: 'tictactoe', test: true, seats: [`${serviceUrl}/text`, 'random'] });
    assert.equal(test.status, 403, JSON.stringify(test.body));
    assert.match(test.body!.error!.message, /^seats\[0\]: 127\.0\.0\.1 is a loopback address.*--allow-private-bots/);
    assert.equal(requests, before, 'the internal service was never called');
    const list = await api('GET', '/api/bots?game=tictactoe');
    assert.ok(!JSON.stringify(list.body).includes(serviceUrl), 'nothing was registered');
  });

  it('botarena serve on 127.0.0.1 without the option refuses too; with --allow-private-bots it registers the bot', async () => {
    for (const allow of [false, true]) {
      const args = ['bin/botarena', 'serve', '--port', '0', '--database', join(dir, `cli-${allow}.sqlite`), '--no-ladder', '--no-gateway'];
      const child = spawn(process.execPath, allow ? [...args, '--allow-private-bots'] : args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
      let out = '';
      child.stderr!.on('data', (d: Buffer) => (out += d));
      try {
        const base = await new Promise<string>((resolve, reject) => {
          child.stdout!.on('data', (d: Buffer) => {
            out += d;
            const m = /botarena server at (http:\/\/[\d.:]+)/.exec(out);
            if (m) resolve(m[1]!);
          });
          child.once('exit', (code) => reject(new Error(`the server exited (${code}) before listening:\n${out}`)));
        });
        assert.match(out, new RegExp(`"allowPrivateBots":${allow}`), 'the start line says whether private addresses are allowed');
        const r = await apiClient(() => base)('POST', '/api/bots', { game: 'tictactoe', name: 'inside', endpoint: `${serviceUrl}/text` });
        if (allow) assert.equal(r.status, 201, JSON.stringify(r.body));
        else {
          assert.equal(r.status, 403, JSON.stringify(r.body));
          assert.match(r.body!.error!.message, /127\.0\.0\.1 is a loopback address.*--allow-private-bots/);
        }
      } finally {
        child.kill('SIGTERM');
        if (child.exitCode === null) await once(child, 'exit');
      }
    }
  });
});

describe("a fault shown to anyone quotes a short, labelled prefix of the bot's answer", () => {
  let server: RunningServer;
  const api = apiClient(() => server.url);
  before(async () => {
    // The operator trusts its bot owners and allows private addresses: the server will call the service.
    server = await startServer({
      port: 0,
      host: '127.0.0.1',
      database: join(dir, 'allowed.sqlite'),
      logStream: quiet(),
      ladder: false,
      gateway: false,
      allowPrivateBots: true,
    });
  });
  after(() => server.close(2000));

  /** Plays a test match of the service's `path` against a built-in bot; its public record, replay and events, and the seat's log. */
  async function play(path: string) {
    const created = await api('POST', '/api/matches', { game: 'tictactoe', test: true, seats: [`${serviceUrl}${path}`, 'random'] });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const id = created.body!.id as string;
    const match = await until('the match to end', async () => {
      const r = await api('GET', `/api/matches/${id}`);
      return r.body!.status === 'finished' ? r.body! : null;
    });
    const replay = await (await fetch(`${server.url}/api/matches/${id}/replay`)).text();
    const events = await (await fetch(`${server.url}/api/matches/${id}/events`)).text();
    const page = await (await fetch(`${server.url}/api/matches/${id}/replay.html`)).text();
    const log = await api('GET', `/api/matches/${id}/logs/0`, undefined, created.body!.viewerToken as string);
    assert.equal(log.status, 200);
    const fault = (match.seats as { fault: { kind: string; detail: string } | null }[])[0]!.fault!;
    return { match, fault, replay, events, page, log: JSON.stringify(log.body) };
  }

  it('an answer that is not JSON: "the first 64 of 5000 characters", nothing past them, in the match, its replay and its events', async () => {
    const r = await play('/text');
    assert.equal(r.fault.kind, 'not-json');
    assert.equal(r.fault.detail, `answer is not JSON: ${JSON.stringify(TEXT_HEAD)}… (the first 64 of 5000 characters); expected one JSON object`);
    for (const [what, text] of [
      ['the match', JSON.stringify(r.match)],
      ['the replay', r.replay],
      ['the live events', r.events],
      ['the replay page', r.page],
    ] as const) {
      assert.ok(text.includes('(the first 64 of 5000 characters)'), `${what} shows the labelled prefix`);
      assert.ok(!text.includes(MARKER), `${what} shows nothing of the answer past its first 64 characters`);
    }
    assert.ok(r.log.includes('TOPSECRET-TEXT-0002'), "the seat's log (its owner's, here the viewer token's) has the answer");
    // The replay, faults and all, still verifies.
    const file = join(dir, 'text-replay.json');
    writeFileSync(file, r.replay);
    const verified = await runCli(['replay', 'verify', file]);
    assert.equal(verified.code, 0, verified.stdout + verified.stderr);
  });

  it('a JSON answer (cloud credentials) is quoted to 64 characters at most: no key shows', async () => {
    const r = await play('/json');
    assert.equal(r.fault.kind, 'bad-answer');
    assert.match(r.fault.detail, /^the answer has no "play" field: \{"Code":"Success",.*…$/);
    assert.ok(r.fault.detail.length < 120, r.fault.detail);
    for (const [what, text] of [
      ['the match', JSON.stringify(r.match)],
      ['the replay', r.replay],
      ['the live events', r.events],
    ] as const)
      assert.ok(!text.includes(MARKER) && !text.includes('AccessKeyId'), `${what} shows no credential`);
    assert.ok(r.log.includes('ASIATOPSECRETJSON01'), "the seat's log has the answer");
  });

  it('the check of a bot registered at the service: its public page (status, doctor report) quotes no more', async () => {
    const created = await api('POST', '/api/bots', { game: 'tictactoe', name: 'inventory', endpoint: `${serviceUrl}/text` });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const id = (created.body!.bot as { id: string }).id;
    const bot = await until('the check', async () => {
      const b = await api('GET', `/api/bots/${id}`);
      return b.body!.status !== 'checking' ? b.body! : null;
    });
    assert.equal(bot.status, 'paused');
    const page = JSON.stringify(bot);
    assert.ok(page.includes('(the first 64 of 5000 characters)'), page.slice(0, 2000));
    const checks = (bot.doctor as { checks: { name: string; detail: string }[] }).checks;
    assert.equal(checks.find((c) => c.name === 'HTTP content type')?.detail, `${CONTENT_TYPE.slice(0, 64)}…`, 'the content type is quoted to 64 characters');
    assert.ok(!page.includes(MARKER), 'the public page shows nothing of the answer past 64 characters');
  });
});

describe('tokens never appear in the log, at any level', () => {
  it('a ?token= query value, an Authorization header and an unparsable request are redacted at trace level', async () => {
    let log = '';
    const sink = new Writable({
      write: (c: Buffer, _e, cb) => {
        log += c.toString();
        cb();
      },
    });
    const server = await startServer({
      port: 0,
      host: '127.0.0.1',
      database: join(dir, 'log.sqlite'),
      logStream: sink,
      logLevel: 'trace',
      ladder: false,
      gateway: false,
    });
    const q = 'SECRETQUERYTOKEN1';
    const bearer = 'SECRETBEARERTOKEN2';
    const viewer = 'SECRETVIEWERTOKEN3';
    try {
      const headers = { authorization: `Bearer ${bearer}` };
      await fetch(`${server.url}/api/matches/m1/seats/0/play?token=${q}`, { headers });
      await fetch(`${server.url}/api/matches/m1/logs/0?viewerToken=${viewer}&x=1`, { headers });
      await fetch(`${server.url}/api/bots/b1`, { method: 'PATCH', headers: { ...headers, 'content-type': 'application/json' }, body: '{"status":"paused"}' });
      // A request Node cannot parse: Fastify logs its raw bytes at trace.
      const { port } = new URL(server.url);
      await new Promise<void>((resolve) => {
        const c = connect(Number(port), '127.0.0.1', () =>
          c.write(`GET /x?token=${q} HTTP/1.1\r\nHost: a\r\nAuthorization: Bearer ${bearer}\r\nnot a header\r\n\r\n`),
        );
        c.on('data', () => {});
        c.on('close', () => resolve());
        c.on('error', () => resolve());
      });
    } finally {
      await server.close(1000);
    }
    assert.match(log, /"url":"\/api\/matches\/m1\/seats\/0\/play\?token=\[redacted\]"/, 'the request was logged, its token redacted');
    assert.match(log, /viewerToken=\[redacted\]&x=1/);
    assert.match(log, /"msg":"client error"/, 'the unparsable request was logged');
    for (const secret of [q, bearer, viewer]) {
      assert.ok(!log.includes(secret), `${secret} is not in the log`);
      // nor as the bytes of a logged Buffer
      assert.ok(!log.includes([...Buffer.from(secret)].join(',')), `${secret} is not in the log as bytes`);
    }
  });
});
