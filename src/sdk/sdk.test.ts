import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { describe, it } from 'node:test';
import { request } from 'undici';
import { serveHttp } from './serve.js';

describe('sdk', () => {
  it('serveStdio answers each line in order, and a throwing handler answers {} with the error on stderr', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'test/fixtures/sdk/column-bot.ts'], { stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d));
    child.stderr.on('data', (d: Buffer) => (err += d));
    child.stdin.end('{"action":"init"}\n{"action":"play-turn"}\n{"boom":true}\n{"action":"play-turn"}\n');
    const code = await new Promise((resolve) => child.on('close', resolve));
    assert.equal(code, 0);
    assert.equal(out, '{"name":"column"}\n{"play":3}\n{}\n{"play":3}\n');
    assert.match(err, /bot error: Error: asked to fail/);
  });

  it('serveHttp answers POSTed JSON, and 400 with a sentence for a body that is not JSON', async () => {
    const bot = await serveHttp((m: { n: number }) => ({ echo: m.n }));
    try {
      const ok = await request(bot.url, { method: 'POST', body: '{"n":4}' });
      assert.equal(await ok.body.text(), '{"echo":4}');
      const bad = await request(bot.url, { method: 'POST', body: 'nope' });
      assert.equal(bad.statusCode, 400);
      assert.match(await bad.body.text(), /must be one JSON message/);
    } finally {
      await bot.close();
    }
  });
});
