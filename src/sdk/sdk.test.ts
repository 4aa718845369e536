import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { describe, it } from 'node:test';
import { request } from 'undici';
import { PassThrough } from 'node:stream';
import { runCli } from '../../test/run-cli.js';
import { serveHttp, serveStdio, SILENT } from './serve.js';

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

  it("a handler that returns SILENT writes nothing for that message (lighthouses' results)", async () => {
    const input = new PassThrough();
    const output = new PassThrough();
    let out = '';
    output.on('data', (d: Buffer) => (out += d));
    const done = serveStdio((m: { turn?: number; success?: boolean }) => ('success' in m ? SILENT : { move: m.turn }), input, output);
    input.end('{"turn":1}\n{"success":true}\n{"turn":2}\n{"success":false,"message":"Delta must be 1 cell away"}\n');
    await done;
    assert.equal(out, '{"move":1}\n{"move":2}\n');
  });

  it("every game's message and answer types drive a real match over stdio without a fault", async () => {
    for (const [game, bot, other, ...set] of [
      ['lighthouses', 'lighthouses-bot.ts', 'random'],
      ['paint', 'paint-bot.ts', 'random'],
      ['tron', 'tron-bot.ts', 'stupid', '--set', 'width=20', '--set', 'height=12'],
      ['battleship', 'battleship-bot.ts', 'random'],
      ['connect4', 'column-bot.ts', 'random'],
    ]) {
      const r = await runCli(['play', game!, `stdio:node --import tsx test/fixtures/sdk/${bot}`, other!, ...set, '--seed', '3', '--json']);
      assert.equal(r.code, 0, r.stderr);
      const result = JSON.parse(r.stdout) as { players: { fault: unknown }[] };
      assert.equal(result.players[0]!.fault, null, `${game}: ${JSON.stringify(result.players[0]!.fault)}`);
    }
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
