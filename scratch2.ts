import { spawn } from 'node:child_process';
import { EventEmitter, once } from 'node:events';
import { createInterface } from 'node:readline';
import { Agent, request } from 'undici';
const server = spawn(process.execPath, ['bench/echo-bot.mjs', '--raw-http', '0'], { stdio: ['ignore', 'pipe', 'inherit'] });
const [port] = (await once(createInterface({ input: server.stdout! }), 'line')) as [string];
const url = new URL(`http://127.0.0.1:${port}/`);
const body = JSON.stringify({ 'game-id': '1', action: 'play-turn', game: 'tictactoe', players: 2, board: { '0-0': '', '0-1': 'X' }, you: 'O', 'player-index': 1 });
const agent = new Agent({ connections: 1, pipelining: 1, keepAliveTimeout: 30000 });
type Kind = 'none' | 'abort' | 'ee' | 'dispatch';
async function one(kind: Kind) {
  if (kind === 'dispatch') {
    return new Promise<void>((resolve, reject) => {
      const chunks: Buffer[] = [];
      agent.dispatch({ origin: url.origin, path: '/', method: 'POST', body, headers: { 'content-type': 'application/json' } }, {
        onConnect() {}, onHeaders() { return true; }, onData(c: Buffer) { chunks.push(c); return true; }, onComplete() { Buffer.concat(chunks).toString(); resolve(); }, onError(e: Error) { reject(e); },
      } as never);
    });
  }
  const signal = kind === 'abort' ? new AbortController().signal : kind === 'ee' ? new EventEmitter() : undefined;
  const timer = setTimeout(() => {}, 5000);
  const res = await request(url, { method: 'POST', body, headers: { 'content-type': 'application/json' }, dispatcher: agent, signal });
  await res.body.text();
  clearTimeout(timer);
}
async function run(kind: Kind) {
  const times: number[] = [];
  for (let i = 0; i < 3000; i++) { const t0 = performance.now(); await one(kind); times.push((performance.now() - t0) * 1000); }
  times.sort((a, b) => a - b);
  return times[times.length >> 1]!.toFixed(0);
}
for (const k of ['none', 'abort', 'ee', 'dispatch'] as Kind[]) await run(k);
for (let r = 0; r < 3; r++) console.log((['none', 'abort', 'ee', 'dispatch'] as Kind[]).map((k) => k).join(' '), await run('none'), await run('abort'), await run('ee'), await run('dispatch'));
server.kill(); process.exit(0);
