// The web app's files as a browser gets them (issue 37): compressed when the browser takes it (the app's script
// was sent raw, 254 KB, when 86 KB gzipped would do), cached by their hashed names, and the API's event streams
// left uncompressed (a compressed stream would hold its events back until a buffer fills).
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'node:http';
import { Writable } from 'node:stream';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { after, before, describe, it } from 'node:test';
import { startServer, type RunningServer } from '../src/server/serve.js';
import { WEB_DIR } from '../src/server/web.js';

const quiet = () => new Writable({ write: (_c, _e, cb) => cb() });

/** GET `url` with `headers`; resolves with the status, the headers and the body's bytes (or the first of them, for a stream). */
function get(url: string, headers: Record<string, string>, firstChunk = false): Promise<{ status: number; headers: Record<string, unknown>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers }, (res) => {
      const parts: Buffer[] = [];
      res.on('data', (d: Buffer) => {
        parts.push(d);
        if (firstChunk) {
          req.destroy();
          resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(parts) });
        }
      });
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(parts) }));
    });
    req.on('error', (err) => (firstChunk ? undefined : reject(err)));
    req.end();
  });
}

describe("the web app's files", () => {
  let dir: string;
  let server: RunningServer;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'botarena-assets-'));
    server = await startServer({ port: 0, host: '127.0.0.1', database: join(dir, 'db.sqlite'), logStream: quiet(), gateway: false, ladder: false });
  });
  after(async () => {
    await server?.close(2000);
    rmSync(dir, { recursive: true, force: true });
  });

  it('sends the app script compressed (brotli or gzip, as the browser asks), the same bytes once inflated, and raw to a client that takes neither', async () => {
    const script = readdirSync(join(WEB_DIR, 'assets')).find((f) => f.endsWith('.js'));
    assert.ok(script, `a built script in ${WEB_DIR}/assets (npm run build)`);
    const url = `${server.url}/assets/${script}`;
    const raw = await get(url, {});
    assert.equal(raw.status, 200);
    assert.equal(raw.headers['content-encoding'], undefined);
    const br = await get(url, { 'accept-encoding': 'gzip, deflate, br' });
    assert.equal(br.headers['content-encoding'], 'br');
    assert.ok(brotliDecompressSync(br.body).equals(raw.body), 'brotli inflates to the script');
    assert.ok(br.body.length < raw.body.length / 2, `brotli: ${br.body.length} bytes against ${raw.body.length}`);
    const gz = await get(url, { 'accept-encoding': 'gzip' });
    assert.equal(gz.headers['content-encoding'], 'gzip');
    assert.ok(gunzipSync(gz.body).equals(raw.body), 'gzip inflates to the script');
    assert.match(String(br.headers['cache-control']), /immutable/);
    const page = await get(`${server.url}/`, { 'accept-encoding': 'gzip' });
    assert.equal(page.status, 200);
    assert.match(String(page.headers['cache-control']), /no-cache/);
  });

  it("leaves the API's event stream uncompressed, whatever the client accepts", async () => {
    const feed = await get(`${server.url}/api/events`, { 'accept-encoding': 'gzip, br', accept: 'text/event-stream' }, true);
    assert.equal(feed.status, 200);
    assert.equal(feed.headers['content-encoding'], undefined);
    assert.match(String(feed.headers['content-type']), /text\/event-stream/);
  });
});
