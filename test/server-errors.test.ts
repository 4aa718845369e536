// The API's errors in one style (issue 37): one code per kind of refusal ("bad-request" for every 400, never
// Fastify's FST_ERR_… names or a second "invalid-request"), and plain sentences: a choice among values names the
// values and what was sent, a name's rule is said in words (not its regular expression), an empty body is called
// empty.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import { startServer, type RunningServer } from '../src/server/serve.js';

const quiet = () => new Writable({ write: (_c, _e, cb) => cb() });

describe('API errors in one style', () => {
  let dir: string;
  let server: RunningServer;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'botarena-errors-'));
    server = await startServer({ port: 0, host: '127.0.0.1', database: join(dir, 'db.sqlite'), logStream: quiet(), gateway: false, ladder: false });
  });
  after(async () => {
    await server?.close(2000);
    rmSync(dir, { recursive: true, force: true });
  });

  /** Sends a request; resolves with the status and the error the API answered. */
  async function refusal(path: string, init: RequestInit = {}): Promise<{ status: number; code: string; message: string }> {
    const res = await fetch(`${server.url}${path}`, init);
    const body = (await res.json()) as { error: { status: number; code: string; message: string } };
    assert.equal(body.error.status, res.status);
    return { status: res.status, code: body.error.code, message: body.error.message };
  }
  const json = (body: string): RequestInit => ({ method: 'POST', headers: { 'content-type': 'application/json' }, body });

  it('an empty JSON body, a broken one, a missing field, a wrong type: 400 bad-request, each said plainly', async () => {
    const empty = await refusal('/api/bots', json(''));
    assert.deepEqual([empty.status, empty.code], [400, 'bad-request']);
    assert.match(empty.message, /^the request body is empty, and this endpoint takes a JSON body/);
    assert.doesNotMatch(empty.message, /FST_/);
    const broken = await refusal('/api/bots', json('{"game":'));
    assert.deepEqual([broken.status, broken.code], [400, 'bad-request']);
    assert.match(broken.message, /not valid JSON/);
    const missing = await refusal('/api/matches', json('{}'));
    assert.deepEqual([missing.code, missing.message], ['bad-request', 'body: the field "game" is missing']);
    const type = await refusal('/api/matches', json('{"game":"tron","seats":"random"}'));
    assert.equal(type.code, 'bad-request');
    assert.match(type.message, /^body\.seats: must be an array, got "random"/);
  });

  it('a choice among values names them and what was sent, once (not "must be equal to constant" per choice)', async () => {
    const r = await refusal('/api/leaderboards/tron?system=glicko');
    assert.deepEqual([r.status, r.code], [400, 'bad-request']);
    assert.equal(r.message, 'querystring.system: must be one of elo, openskill, got "glicko"');
  });

  it("a bot's name says its rule in words, not the schema's regular expression", async () => {
    const r = await refusal('/api/bots', json(JSON.stringify({ game: 'tictactoe', name: '-dash first', endpoint: 'https://example.org/' })));
    assert.deepEqual([r.status, r.code], [400, 'bad-request']);
    assert.equal(r.message, 'body.name: must start with a letter or a digit and hold only letters, digits, spaces and . _ + -, got "-dash first"');
    assert.doesNotMatch(r.message, /\^|\[|\$/);
  });

  it('a body of another media type: 415 unsupported-media-type, naming what is taken', async () => {
    const r = await refusal('/api/matches', { method: 'POST', headers: { 'content-type': 'application/xml' }, body: '<match/>' });
    assert.deepEqual([r.status, r.code], [415, 'unsupported-media-type']);
    assert.match(r.message, /takes a JSON body/);
  });
});
