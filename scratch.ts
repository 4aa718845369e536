import { spawn } from 'node:child_process';
import { sumGame } from './src/arena/test-game.js';
import { StdioTransport } from './src/bots/stdio-transport.js';
const msgText = JSON.stringify({ 'game-id': '1', action: 'play-turn', game: 'tictactoe', players: 2, board: { '0-0': '', '0-1': 'X' }, you: 'O', 'player-index': 1 });
async function raw() {
  const child = spawn('/bin/sh', ['-c', 'node bench/echo-bot.mjs'], { stdio: ['pipe', 'pipe', 'pipe'], detached: true });
  let resolve: () => void = () => {};
  child.stdout.on('data', () => resolve());
  const times: number[] = [];
  for (let i = 0; i < 5000; i++) {
    const t0 = performance.now();
    await new Promise<void>((r) => { resolve = r; child.stdin.write(msgText + '\n'); });
    if (i >= 500) times.push((performance.now() - t0) * 1000);
  }
  child.kill();
  return med(times);
}
async function transport() {
  const t = new StdioTransport('node bench/echo-bot.mjs', { game: sumGame, slot: 0, players: 1, config: {}, seed: 1, name: 'x', log: () => {}, maxAnswerBytes: 1 << 20, maxStderrBytes: 1 << 16 });
  await t.start();
  const msg = { phase: 'play', turn: 1, view: null, text: msgText, contentType: 'application/json' };
  const times: number[] = [];
  for (let i = 0; i < 5000; i++) {
    const t0 = performance.now();
    await t.ask(msg, 5000);
    if (i >= 500) times.push((performance.now() - t0) * 1000);
  }
  await t.close();
  return med(times);
}
function med(a: number[]) { a.sort((x, y) => x - y); return a[a.length >> 1]!.toFixed(1); }
for (let k = 0; k < 3; k++) console.log('raw', await raw(), 'transport', await transport());
process.exit(0);
