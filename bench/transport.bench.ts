import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { sumGame } from '../src/arena/sum-game.kit.js';
import { createTransport, parseBotSpec, DEFAULT_MAX_ANSWER_BYTES, DEFAULT_MAX_STDERR_BYTES, type AskMessage, type BotTransport } from '../src/bots/index.js';
import { percentile } from './stats.js';

const MESSAGE = JSON.stringify({
  'game-id': '1',
  action: 'play-turn',
  game: 'tictactoe',
  players: 2,
  board: { '0-0': '', '0-1': 'X' },
  you: 'O',
  'player-index': 1,
});

function open(spec: string): BotTransport {
  return createTransport(parseBotSpec(spec, sumGame), {
    game: sumGame,
    slot: 0,
    players: 1,
    config: {},
    seed: 1,
    name: 'echo',
    log: () => {},
    maxAnswerBytes: DEFAULT_MAX_ANSWER_BYTES,
    maxStderrBytes: DEFAULT_MAX_STDERR_BYTES,
  });
}

async function measure(t: BotTransport, rounds: number): Promise<number[]> {
  await t.start();
  const msg: AskMessage = { phase: 'play', turn: 1, view: JSON.parse(MESSAGE), text: MESSAGE, contentType: 'application/json' };
  for (let i = 0; i < Math.min(1000, rounds); i++) await t.ask(msg, 5000); // warm-up (JIT, connection)
  const times: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const t0 = performance.now();
    const r = await t.ask(msg, 5000);
    times.push((performance.now() - t0) * 1000);
    if (r.kind === 'fault') throw new Error(`bench bot failed: ${r.fault.detail}`);
  }
  await t.close();
  return times;
}

/** Round-trip time per message against a trivial echo bot, per transport: median and p99 in µs. */
export async function benchTransports(): Promise<(string | number)[][]> {
  const rows: (string | number)[][] = [['transport (echo bot, 1 message in flight)', 'rounds', 'median µs', 'p99 µs']];
  const row = (name: string, times: number[]) => rows.push([name, times.length, percentile(times, 50).toFixed(1), percentile(times, 99).toFixed(1)]);
  row('builtin (in-process)', await measure(open('one'), 20000));
  row('stdio (node echo of stdin chunks)', await measure(open('stdio:node bench/echo-bot.mjs'), 5000));
  for (const [label, flag] of [
    ['http keep-alive (node:http echo server)', '--http'],
    ['http keep-alive (minimal raw HTTP echo)', '--raw-http'],
  ] as const) {
    const server = spawn(process.execPath, ['bench/echo-bot.mjs', flag, '0'], { stdio: ['ignore', 'pipe', 'inherit'] });
    try {
      const [port] = (await once(createInterface({ input: server.stdout! }), 'line')) as [string];
      row(label, await measure(open(`http://127.0.0.1:${port}/`), 5000));
    } finally {
      server.kill();
    }
  }
  row('exec (sh printf, one process per message)', await measure(open('exec:printf %s'), 300));
  return rows;
}
