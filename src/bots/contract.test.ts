import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createTcpServer, connect, type AddressInfo, type Socket } from 'node:net';
import { describe, it, type TestContext } from 'node:test';
import { livePidsWith } from '../../test/processes.js';
import { sumGame } from '../arena/sum-game.kit.js';
import { BuiltinTransport } from './builtin-transport.js';
import { ExecTransport } from './exec-transport.js';
import { HttpTransport } from './http-transport.js';
import { StdioTransport } from './stdio-transport.js';
import { TcpTransport } from './tcp-transport.js';
import type { AskMessage, BotTransport, Reply, SeatContext, TranscriptSink } from './transport.js';

type Mode =
  'echo' | 'slow' | 'never' | 'crash-mid-game' | 'exit-at-start' | 'garbage' | 'huge' | 'twice' | 'stderr-only' | 'partial' | 'ignore-term' | 'python';

interface Seat {
  transport: BotTransport;
  log: { dir: string; text: string }[];
  /** checks nothing the seat started is still running */
  assertCleanedUp(): void;
}

interface Harness {
  name: string;
  /** modes this transport cannot have, with the reason shown as a skip */
  unsupported: Partial<Record<Mode, string>>;
  open(mode: Mode): Promise<Seat>;
}

function context(log: TranscriptSink, game = sumGame as SeatContext['game']): SeatContext {
  return { game, slot: 0, players: 1, config: {}, seed: 1, name: 'bot', log, maxAnswerBytes: 1024 * 1024, maxStderrBytes: 64 * 1024 };
}

/** stdio and exec share the fixture programs; a unique marker argument finds their processes in /proc. */
function processHarness(name: 'stdio' | 'exec'): Harness {
  return {
    name,
    unsupported: {},
    async open(mode) {
      const marker = `marker-${randomUUID()}`;
      const command = mode === 'python' ? `python3 test/fixtures/bots/echo.py ${marker}` : `node test/fixtures/bots/bot.mjs ${mode} ${marker}`;
      const log: Seat['log'] = [];
      const ctx = context((dir, text) => log.push({ dir, text }));
      const transport = name === 'stdio' ? new StdioTransport(command, ctx) : new ExecTransport(command, ctx);
      await transport.start();
      return { transport, log, assertCleanedUp: () => assert.deepEqual(livePidsWith(marker), [], `a ${mode} bot process is still running`) };
    },
  };
}

/** The same behaviours as a real HTTP server on 127.0.0.1. */
const httpHarness: Harness = {
  name: 'http',
  unsupported: {
    twice: 'one HTTP request has one response body',
    'stderr-only': 'an HTTP bot has no stderr',
    python: 'the Python fixture speaks stdio and exec',
  },
  async open(mode) {
    let requests = 0;
    const sockets = new Set<import('node:net').Socket>();
    const server = createServer((req: IncomingMessage, res: ServerResponse) => {
      let body = '';
      req.on('data', (d: Buffer) => (body += d));
      req.on('end', () => {
        requests++;
        const n = JSON.parse(body).n as number;
        const answer = JSON.stringify({ echo: n });
        switch (mode) {
          case 'echo':
          case 'ignore-term':
            return res.end(answer);
          case 'slow':
            return setTimeout(() => res.end(answer), 700);
          case 'never':
            return;
          case 'crash-mid-game':
            return n >= 3 ? req.socket.destroy() : res.end(answer);
          case 'garbage':
            res.statusCode = 500; // the status is ignored: the body is the answer
            return res.end('this is not json');
          case 'huge': {
            const block = Buffer.alloc(1 << 20, 'x');
            let left = 50;
            const write = () => {
              while (left-- > 0) if (!res.write(block)) return res.once('drain', write);
              res.end();
            };
            return write();
          }
          case 'partial':
            res.write(answer.slice(0, 5));
            return setTimeout(() => res.end(answer.slice(5)), 50);
        }
      });
    });
    server.on('connection', (s) => {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
    });
    server.keepAliveTimeout = 60_000;
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const { port } = server.address() as AddressInfo;
    if (mode === 'exit-at-start') server.close(); // nobody listens any more: connection refused
    const log: Seat['log'] = [];
    const transport = new HttpTransport(
      `http://127.0.0.1:${port}/bot`,
      context((dir, text) => log.push({ dir, text })),
    );
    await transport.start();
    const realClose = transport.close.bind(transport);
    transport.close = async () => {
      await realClose();
      for (const s of sockets) s.destroy();
      server.close();
    };
    return { transport, log, assertCleanedUp: () => assert.ok(requests >= 0) };
  },
};

/**
 * A bot that connected in over TCP: a real socket pair on 127.0.0.1, the arena's end in a TcpTransport and
 * the bot's end driven here, mode by mode.
 */
const tcpHarness: Harness = {
  name: 'tcp',
  unsupported: {
    'stderr-only': 'a TCP bot has no stderr',
    python: 'the Python fixture speaks stdio and exec',
  },
  async open(mode) {
    const server = createTcpServer();
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const accepted = once(server, 'connection') as Promise<[Socket]>;
    const bot = connect((server.address() as AddressInfo).port, '127.0.0.1');
    await once(bot, 'connect');
    const [socket] = await accepted;
    server.close();
    bot.on('error', () => {});
    let buffered = '';
    bot.on('data', (chunk: Buffer) => {
      buffered += chunk.toString();
      for (let i = buffered.indexOf('\n'); i >= 0; i = buffered.indexOf('\n')) {
        const line = buffered.slice(0, i);
        buffered = buffered.slice(i + 1);
        const n = JSON.parse(line).n as number;
        const answer = JSON.stringify({ echo: n });
        switch (mode) {
          case 'echo':
          case 'ignore-term':
            bot.write(answer + '\n');
            break;
          case 'slow':
            setTimeout(() => bot.writable && bot.write(answer + '\n'), 700);
            break;
          case 'crash-mid-game':
            if (n >= 3) bot.destroy();
            else bot.write(answer + '\n');
            break;
          case 'garbage':
            bot.write('this is not json\n');
            break;
          case 'huge': {
            const block = Buffer.alloc(1 << 20, 'x');
            let left = 50;
            const write = () => {
              while (left-- > 0 && bot.writable) if (!bot.write(block)) return bot.once('drain', write);
            };
            write();
            break;
          }
          case 'twice':
            bot.write(`${answer}\n{"echo":"extra"}\n`);
            break;
          case 'partial':
            bot.write(answer.slice(0, 5));
            setTimeout(() => bot.write(answer.slice(5) + '\n'), 50);
            break;
        }
      }
    });
    if (mode === 'exit-at-start') bot.end(); // gone before the first message
    const log: Seat['log'] = [];
    const transport = new TcpTransport(
      socket,
      context((dir, text) => log.push({ dir, text })),
    );
    await transport.start();
    const realClose = transport.close.bind(transport);
    transport.close = async () => {
      await realClose();
      if (mode !== 'ignore-term') bot.destroy();
    };
    return {
      transport,
      log,
      assertCleanedUp: () => {
        assert.ok(socket.destroyed, 'the arena side of the connection is closed');
        bot.destroy();
      },
    };
  },
};

/** A game whose built-in bots behave as the modes say, for the built-in transport. */
const modeGame = {
  ...sumGame,
  bots: Object.fromEntries(
    (['echo', 'slow', 'never', 'crash-mid-game', 'garbage', 'ignore-term'] as Mode[]).map((mode) => [
      mode,
      {
        description: mode,
        create: () => ({
          act(view: unknown) {
            const n = (view as { n: number }).n;
            if (mode === 'slow') return new Promise((resolve) => setTimeout(() => resolve({ echo: n }), 700));
            if (mode === 'never') return new Promise(() => {});
            if (mode === 'crash-mid-game' && n >= 3) throw new Error(`boom on message ${n}`);
            if (mode === 'garbage') return 'this is not json';
            return { echo: n };
          },
        }),
      },
    ]),
  ),
} as SeatContext['game'];

/** A built-in bot in this process: it exchanges objects, so the byte-level modes do not apply. */
const builtinHarness: Harness = {
  name: 'builtin',
  unsupported: {
    python: 'a built-in bot is part of the game, in this process',
    huge: 'a built-in bot returns an object, not bytes: there is no size to cap',
    twice: 'a function returns once',
    'stderr-only': 'a built-in bot has no stderr',
    partial: 'an object arrives whole',
  },
  async open(mode) {
    const log: Seat['log'] = [];
    // A bot the game does not have stands for one that is gone before the first message.
    const transport = new BuiltinTransport(
      mode === 'exit-at-start' ? 'missing' : mode,
      context((dir, text) => log.push({ dir, text }), modeGame),
    );
    await transport.start();
    return { transport, log, assertCleanedUp: () => {} };
  },
};

/** People answer at a terminal, with no deadline: none of the scenarios can be played without one. */
const humanHarness: Harness = {
  name: 'human',
  unsupported: {},
  open: () => Promise.reject(new Error('not used')),
};
const HUMAN_SKIP = 'a person answers at a terminal with no deadline; tested by the CLI tests with a scripted terminal';

const msg = (n: number): AskMessage => ({ phase: 'play', turn: n, view: { n }, text: JSON.stringify({ n }), contentType: 'application/json' });
/** The answer as text: a byte transport's as it came, an in-process bot's value as JSON. */
const text = (r: Reply) =>
  r.kind === 'text' ? r.text : r.kind === 'value' ? JSON.stringify(r.value) : assert.fail(`expected an answer, got ${JSON.stringify(r)}`);
const fault = (r: Reply, kind: string) => {
  assert.equal(r.kind, 'fault', `expected a ${kind} fault, got ${JSON.stringify(r).slice(0, 300)}`);
  assert.equal(r.kind === 'fault' && r.fault.kind, kind, JSON.stringify(r));
  return r.kind === 'fault' ? r.fault.detail : '';
};

const scenarios: [Mode, string, (seat: Seat, harness: string) => Promise<void>][] = [
  [
    'echo',
    'pairs every answer with its message over a long conversation',
    async ({ transport }) => {
      for (let n = 1; n <= 6; n++) assert.equal(text(await transport.ask(msg(n), 5000)), `{"echo":${n}}`);
    },
  ],
  [
    'python',
    'carries a Python bot',
    async ({ transport }) => {
      for (let n = 1; n <= 3; n++) assert.equal(text(await transport.ask(msg(n), 5000)), `{"echo": ${n}}`);
    },
  ],
  [
    'slow',
    'times a slow bot out, and never takes its late answer for the next one',
    async ({ transport }) => {
      fault(await transport.ask(msg(1), 300), 'timeout');
      await new Promise((r) => setTimeout(r, 900)); // the late answer to 1 arrives meanwhile
      assert.equal(text(await transport.ask(msg(2), 3000)), '{"echo":2}');
    },
  ],
  [
    'never',
    'times out a bot that never answers, at the deadline',
    async ({ transport }) => {
      const r = await transport.ask(msg(1), 300);
      assert.match(fault(r, 'timeout'), /no answer within 300 ms/);
      assert.ok(r.ms >= 290 && r.ms < 3000, `timeout after ${r.ms} ms`);
    },
  ],
  [
    'crash-mid-game',
    'reports a crash mid-game with its exit code and last stderr',
    async ({ transport }, h) => {
      assert.equal(text(await transport.ask(msg(1), 5000)), '{"echo":1}');
      assert.equal(text(await transport.ask(msg(2), 5000)), '{"echo":2}');
      const r = await transport.ask(msg(3), 5000);
      if (h === 'http') assert.match(fault(r, 'transport'), /at http:\/\/127\.0\.0\.1/);
      else if (h === 'tcp') assert.match(fault(r, 'transport'), /the bot disconnected/);
      else if (h === 'builtin') assert.match(fault(r, 'crash'), /built-in bot "crash-mid-game" threw: boom on message 3/);
      else assert.match(fault(r, 'crash'), /exited with code 1.*boom on message 3/);
      assert.ok(r.ms < 4000, 'the crash should be reported at once, not at the deadline');
    },
  ],
  [
    'exit-at-start',
    'reports a bot that is gone before the first message, promptly',
    async ({ transport }, h) => {
      const r = await transport.ask(msg(1), 8000);
      if (h === 'http') assert.match(fault(r, 'transport'), /connection refused at http:\/\/127\.0\.0\.1:\d+\/bot/);
      else if (h === 'tcp') assert.match(fault(r, 'transport'), /the bot disconnected/);
      else if (h === 'builtin') assert.match(fault(r, 'transport'), /has no built-in bot "missing"/);
      else assert.match(fault(r, 'crash'), /exited with code 3.*cannot start: missing model file/);
      assert.ok(r.ms < 5000, `took ${r.ms} ms`);
    },
  ],
  [
    'garbage',
    "returns garbage verbatim (judging it is the rules' job)",
    async ({ transport }, h) => {
      assert.equal(text(await transport.ask(msg(1), 5000)), h === 'builtin' ? '"this is not json"' : 'this is not json');
    },
  ],
  [
    'huge',
    'cuts off a 50 MB answer with too-large, without waiting for all of it',
    async ({ transport }, h) => {
      const before = process.memoryUsage().rss;
      const r = await transport.ask(msg(1), 20_000);
      // A connected-in bot's line that never ends leaves the stream unreadable: the connection is dropped.
      assert.match(fault(r, h === 'tcp' ? 'transport' : 'too-large'), /exceeded 1048576 bytes/);
      assert.ok(process.memoryUsage().rss - before < 40 * 2 ** 20, 'the answer must not be buffered whole');
    },
  ],
  [
    'twice',
    'takes the first of two answers and drops the extra one',
    async ({ transport, log }, h) => {
      const first = text(await transport.ask(msg(1), 5000));
      if (h === 'exec') {
        assert.equal(first, '{"echo":1}\n{"echo":"extra"}'); // one process, one stdout: both lines, which is not JSON
        return;
      }
      assert.equal(first, '{"echo":1}');
      await new Promise((r) => setTimeout(r, 50));
      assert.equal(text(await transport.ask(msg(2), 5000)), '{"echo":2}');
      assert.ok(
        log.some((e) => e.dir === 'note' && e.text.includes('dropped a line')),
        'the extra line is noted in the log',
      );
    },
  ],
  [
    'stderr-only',
    'times out a bot that answers on stderr, quoting the stderr',
    async ({ transport, log }, h) => {
      const r = await transport.ask(msg(1), 500);
      if (h === 'exec') {
        assert.equal(text(r), ''); // the process ended with nothing on stdout: an empty answer, which is not JSON
        assert.ok(log.some((e) => e.dir === 'stderr' && e.text.includes('{"echo":1}')));
        return;
      }
      assert.match(fault(r, 'timeout'), /last stderr: "\{\\"echo\\":1\}"/);
      assert.ok(log.some((e) => e.dir === 'stderr' && e.text.includes('{"echo":1}')));
    },
  ],
  [
    'partial',
    'assembles an answer written in pieces',
    async ({ transport }) => {
      assert.equal(text(await transport.ask(msg(1), 5000)), '{"echo":1}');
      assert.equal(text(await transport.ask(msg(2), 5000)), '{"echo":2}');
    },
  ],
  [
    'ignore-term',
    'shuts down a bot that ignores SIGTERM (or holds its connection open)',
    async ({ transport }) => {
      assert.equal(text(await transport.ask(msg(1), 5000)), '{"echo":1}');
      const t0 = performance.now();
      await transport.close();
      assert.ok(performance.now() - t0 < 5000, 'close() must not wait for the bot');
    },
  ],
];

for (const harness of [processHarness('stdio'), processHarness('exec'), httpHarness, tcpHarness, builtinHarness, humanHarness]) {
  describe(`${harness.name} transport contract`, () => {
    for (const [mode, title, run] of scenarios) {
      it(`${mode}: ${title}`, async (t: TestContext) => {
        const skip = harness.name === 'human' ? HUMAN_SKIP : harness.unsupported[mode];
        if (skip) return t.skip(skip);
        const seat = await harness.open(mode);
        try {
          await run(seat, harness.name);
        } finally {
          await seat.transport.close();
          await seat.transport.close(); // idempotent
        }
        seat.assertCleanedUp();
        const after = await seat.transport.ask(msg(99), 1000);
        assert.equal(after.kind, 'fault', 'a closed seat answers nothing');
      });
    }
  });
}

describe('http transport specifics', () => {
  it('does not follow redirects: the 3xx body is the answer and the target is never asked', async () => {
    let targetHits = 0;
    const server = createServer((req, res) => {
      if (req.url === '/elsewhere') {
        targetHits++;
        return res.end('{"echo":"followed"}');
      }
      res.writeHead(302, { location: '/elsewhere' });
      res.end('{"echo":1}');
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const log: { dir: string; text: string }[] = [];
    const t = new HttpTransport(
      `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
      context((dir, text) => log.push({ dir, text })),
    );
    try {
      await t.start();
      assert.equal(text(await t.ask(msg(1), 3000)), '{"echo":1}');
      assert.equal(targetHits, 0);
      assert.ok(log.some((e) => e.dir === 'note' && /HTTP 302 \(redirect to \/elsewhere not followed\)/.test(e.text)));
    } finally {
      await t.close();
      server.close();
    }
  });
});
