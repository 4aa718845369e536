import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import { createInterface } from 'node:readline';
import { after, before, describe, it } from 'node:test';
import { ROOT, runCli, withConnectingClient } from './run-cli.js';

// `botarena doctor` against a zoo of tic-tac-toe bots with one flaw each (test/fixtures/doctor/ttt.py MODE):
// each must get the right ✘ with its fix, and a sound bot all ✔; then every example bot, all ✔.

interface Check {
  name: string;
  status: 'pass' | 'fail' | 'warn' | 'skip';
  detail: string;
  fix?: string;
}
interface Report {
  ok: boolean;
  checks: Check[];
  coldStartMs: number | null;
  latency: { answers: number; p50Ms: number; p99Ms: number; deadlineMs: number } | null;
  canned: { bots: string[]; seats: number[] };
}

/** Deadlines for the checks that are about timeouts: the zoo's silent, unflushed and slow bots miss them. */
const FAST = ['--timeout', '1000', '--init-timeout', '1000'];

/**
 * Deadlines for every other check, scaled to this machine as it is when the tests start: `doctor` warns of a
 * start or answers over half a deadline, and on a loaded machine (both cores busy) the zoo bot's Python
 * takes 550-620 ms to start, which warned against FAST's 1000 ms. 20 times the start measured here leaves
 * a margin of 10 to the warning, and never less than the game's own 10 s deadline does.
 */
let ROOMY: string[] = [];
before(async () => {
  const ms = Math.max(10_000, Math.ceil(20 * (await zooStartMs())));
  ROOMY = ['--timeout', String(ms), '--init-timeout', String(ms)];
});

/** How long the zoo's sound bot takes from its start to its answer to a hello, now. */
async function zooStartMs(): Promise<number> {
  const t0 = performance.now();
  const bot = spawn('python3', ['test/fixtures/doctor/ttt.py', 'good'], { cwd: ROOT, stdio: ['pipe', 'pipe', 'inherit'] });
  bot.stdin!.end('{"action":"init"}\n');
  await once(createInterface({ input: bot.stdout! }), 'line');
  const ms = performance.now() - t0;
  bot.kill();
  return ms;
}

async function doctor(
  game: string,
  bot: string,
  extra: string[] = ROOMY,
  env?: Record<string, string>,
): Promise<{ code: number | null; report: Report; stderr: string }> {
  const r = await runCli(['doctor', game, bot, '--json', ...extra], { timeoutMs: 120_000, env });
  assert.ok(r.code === 0 || r.code === 1, `exit ${r.code}: ${r.stderr}`);
  return { code: r.code, report: JSON.parse(r.stdout) as Report, stderr: r.stderr };
}

const zoo = (mode: string, env = '') => `stdio:${env}python3 test/fixtures/doctor/ttt.py ${mode}`;

function check(report: Report, name: RegExp): Check {
  const c = report.checks.find((x) => name.test(x.name));
  assert.ok(c, `no check named ${name} in ${report.checks.map((x) => x.name).join(', ')}`);
  return c;
}

/** The failed checks' names. */
function failed(report: Report): string[] {
  return report.checks.filter((c) => c.status === 'fail').map((c) => c.name);
}

describe('botarena doctor: a zoo of broken bots, each told what to fix', { concurrency: 3 }, () => {
  it('a sound bot passes every check and the command exits 0', async () => {
    const { code, report } = await doctor('tictactoe', zoo('good'));
    assert.equal(code, 0);
    assert.ok(report.ok);
    assert.deepEqual(
      report.checks.filter((c) => c.status !== 'pass'),
      [],
    );
    assert.deepEqual(report.canned.seats, [0, 1], 'fed from both seats');
    for (const name of [/starts/, /hello/, /first turn/, /mid-game/, /late in the game/, /flushes/, /stdout/, /one answer/, /exits/, /answer time/])
      check(report, name);
    assert.ok(report.coldStartMs! > 0 && report.latency!.answers >= 4);
  });

  it('silent: no answer to the hello (ignored by the rules: a warning) nor to its first turn, and the feed stops there', async () => {
    const { code, report } = await doctor('tictactoe', zoo('silent'), FAST);
    assert.equal(code, 1);
    const c = check(report, /^starts/);
    assert.equal(c.status, 'warn');
    assert.match(c.detail, /seat 0, turn 0 \(hello\): timeout: no answer within 1000 ms; the rules of tictactoe ignore a hello's answer and its faults/);
    assert.match(c.detail, /the message was: \{"game-id":"doctor-1","action":"init"/);
    const t = check(report, /first turn/);
    assert.equal(t.status, 'fail');
    assert.match(t.detail, /seat 0, turn 1: timeout: no answer within 1000 ms/);
    assert.match(
      t.fix!,
      /no answer came at all, not in 2000 ms past the deadline with its input open, nor when its input was closed: it seems stuck, not slow/,
    );
    assert.match(t.fix!, /read one line from stdin per message and write one line back/);
    assert.deepEqual(report.canned.seats, [0], 'not fed a second time');
    assert.equal(check(report, /exits/).status, 'skip');
  });

  it('a fault at the hello that the rules ignore is a warning, and its turns are judged: silent at the hello, or an exec bot that exits 1 there', async () => {
    // Issue 32: the botsarena rules ignore the hello (the original Go tic-tac-toe bot panics at init, then plays
    // and wins), so `play` lets such a bot win; the doctor used to fail it at its first message.
    const silent = await doctor('tictactoe', 'stdio:node test/fixtures/bots/hello-modes.mjs silent', ['--init-timeout', '1000', '--timeout', ROOMY[1]!]);
    const panic = await doctor('tictactoe', 'exec:python3 test/fixtures/doctor/ttt-exec-panic.py');
    for (const [{ code, report }, what] of [
      [silent, /timeout: no answer within 1000 ms/],
      [panic, /crash: process exited with code 1; last stderr: "panic: runtime error: index out of range"/],
    ] as const) {
      assert.equal(code, 0, JSON.stringify(report.checks));
      assert.deepEqual(failed(report), []);
      assert.deepEqual(report.canned.seats, [0, 1], 'fed from both seats');
      for (const [name, seat] of [
        [/^starts/, 0],
        [/hello/, 1],
      ] as const) {
        const c = check(report, name);
        assert.equal(c.status, 'warn');
        assert.match(
          c.detail,
          new RegExp(
            `^seat ${seat}, turn 0 \\(hello\\): ${what.source}; the rules of tictactoe ignore a hello's answer and its faults, so the match goes on and its turns are judged`,
          ),
        );
      }
      for (const name of [/first turn/, /mid-game/, /late in the game/, /exits/]) assert.equal(check(report, name).status, 'pass', name.source);
      assert.ok(report.latency!.answers >= 4);
    }
  });

  it('slow: the answer comes after the deadline, and it is told so (not that it does not flush)', async () => {
    const { report } = await doctor('tictactoe', zoo('slow'), ['--timeout', '1000', '--init-timeout', ROOMY[3]!]);
    const c = check(report, /first turn/);
    assert.equal(c.status, 'fail');
    assert.match(c.detail, /timeout: no answer within 1000 ms/);
    assert.match(c.fix!, /its answer came late, \d+ ms after it was asked: it is slow, not stuck; answer sooner/);
    assert.ok(!failed(report).includes('flushes each answer'), failed(report).join());
  });

  it('slow by five times the deadline: still told it is slow, not stuck and not unflushed', async () => {
    // The answer comes 1.5 s after a 300 ms deadline: it is awaited (with its input open) as long as it takes, 2 s at most.
    const { report } = await doctor('tictactoe', zoo('slow'), ['--timeout', '300', '--init-timeout', ROOMY[3]!]);
    const c = check(report, /first turn/);
    assert.match(c.detail, /timeout: no answer within 300 ms/);
    const ms = Number(/came late, (\d+) ms after it was asked: it is slow, not stuck/.exec(c.fix!)?.[1]);
    assert.ok(ms >= 1400, c.fix);
    assert.ok(!failed(report).includes('flushes each answer'), failed(report).join());
  });

  it('slow to start: told to load less before its first answer', async () => {
    const { report } = await doctor('tictactoe', zoo('slow-start'), ['--init-timeout', '300']);
    const c = check(report, /^starts/);
    assert.match(c.detail, /turn 0 \(hello\): timeout: no answer within 300 ms/);
    assert.match(c.fix!, /its answer came late, \d+ ms after it was asked: it is slow, not stuck; answer sooner \(load less before the first answer/);
  });

  it('wrong field: the rules say which field is missing', async () => {
    const { report } = await doctor('tictactoe', zoo('wrong-field'));
    const c = check(report, /first turn/);
    assert.equal(c.status, 'fail');
    assert.match(c.detail, /bad-answer: the answer has no "play" field: \{"move":"0-0"\}/);
    assert.match(c.fix!, /docs\/games\/tictactoe\.md/);
    assert.equal(check(report, /hello/).status, 'pass');
  });

  it('unflushed: its answers come only when its input closes', async () => {
    // This machine's Python may be told to write at once (PYTHONUNBUFFERED): the bot runs without it, as users' do.
    const { report } = await doctor('tictactoe', zoo('unflushed', 'env -u PYTHONUNBUFFERED '), FAST);
    const c = check(report, /flushes/);
    assert.equal(c.status, 'fail');
    assert.match(c.detail, /when its input was closed, it wrote: dropped a late answer .*\{"name": "unflushed"\}/);
    assert.match(c.fix!, /print\(answer, flush=True\)/);
    assert.match(check(report, /^starts/).fix!, /does not flush/);
  });

  it('debug text on stdout: named, with where debug output goes', async () => {
    const { report } = await doctor('tictactoe', zoo('debug'));
    const c = check(report, /stdout/);
    assert.equal(c.status, 'fail');
    assert.match(c.detail, /wrote "thinking about the board\.\.\." on stdout/);
    assert.match(c.fix!, /stderr/);
    assert.ok(!failed(report).includes('one answer per message'), 'the shifted answers are not reported as a second flaw');
  });

  it('crash at the end: the exit code and the error line', async () => {
    const { code, report } = await doctor('tictactoe', zoo('crash-end'));
    assert.equal(code, 1);
    assert.deepEqual(failed(report), ['exits when the match is over']);
    assert.match(check(report, /exits/).detail, /exited with code 1; last stderr: "RuntimeError: the input ended and I did not expect it"/);
  });

  it('illegal move: judged by the rules in that exact position', async () => {
    const { report } = await doctor('tictactoe', zoo('illegal'));
    const c = check(report, /mid-game/);
    assert.equal(c.status, 'fail');
    assert.match(c.detail, /turn 3: illegal-move: cell 0-0 is taken by O/);
    assert.match(c.detail, /"board":\{"0-0":"O"/, 'the position is shown');
    assert.equal(check(report, /first turn/).status, 'pass', '0-0 is free on the first turn');
  });

  it('two answers to each message', async () => {
    const { report } = await doctor('tictactoe', zoo('double'));
    const c = check(report, /one answer per message/);
    assert.equal(c.status, 'fail');
    assert.match(c.detail, /^\d+ lines came when no answer was awaited, the first "\{\\"(name|play)\\": \\"(double|\d-\d)\\"\}"/);
  });

  it('a bot that does not exit when its input ends is stopped, and told', async () => {
    const { report } = await doctor('tictactoe', zoo('linger'));
    const c = check(report, /exits/);
    assert.equal(c.status, 'fail');
    assert.match(c.detail, /still running 500 ms after its input closed, and was stopped \(process killed by signal SIGTERM\)/);
    assert.match(c.fix!, /exit when stdin reaches its end/);
  });

  it('a bot that cannot start: its own error line', async () => {
    const { report } = await doctor('tictactoe', zoo('crash-start'));
    const c = check(report, /^starts/);
    assert.match(c.detail, /crash: process exited with code 1 before answering; last stderr: "crash-start: cannot load my weights file"/);
    const missing = await doctor('tictactoe', 'stdio:./no-such-bot --flag');
    assert.match(check(missing.report, /^starts/).detail, /exited with code 127 \(command not found\?\)/);
  });

  it('an exec bot (one process per message) passes, its exit judged by each answer', async () => {
    const { code, report } = await doctor('tictactoe', 'exec:python3 test/fixtures/doctor/ttt-exec.py');
    assert.deepEqual(
      report.checks.filter((c) => c.status !== 'pass'),
      [],
    );
    assert.equal(code, 0);
    assert.match(check(report, /exits/).detail, /^one process per message: each of its \d+ answers came when its process exited with code 0$/);
  });

  it('Tron: a move into its own trail every lap is flagged with the turn, the move and why it loses; a sound bot is not', async () => {
    const { code, report } = await doctor('tron', 'stdio:python3 test/fixtures/doctor/tron-neck.py');
    const c = check(report, /lose at once/);
    assert.equal(c.status, 'warn');
    assert.match(
      c.detail,
      /^\d+ of its \d+ moves lose at once where another would not; the first: seat 0, turn 1: x\+: it leaves the grid at 100,79 \(x- would not\)\nthe message was: \{"game-id":"doctor-2","action":"play-turn"/,
    );
    const [, losing, moves] = /^(\d+) of its (\d+)/.exec(c.detail)!.map(Number);
    assert.ok(losing! > moves! * 0.9, 'nearly every move: each turns back into its own trail');
    assert.match(c.fix!, /in that position .* it loses there and then/);
    assert.equal(code, 0, 'a warning: a bot that loses is still a bot that plays');
    const sound = await doctor('tron', 'stdio:python3 test/fixtures/tron/straight.py');
    assert.match(check(sound.report, /lose at once/).detail, /^none of its \d+ moves loses at once$/);
  });

  it('hostile: an endless line without a newline costs its answer cap, and says so', async () => {
    const { report } = await doctor('tictactoe', "stdio:head -c 50000000 /dev/zero | tr '\\0' x");
    const c = check(report, /^starts/);
    assert.match(c.detail, /too-large: answer exceeded \d+ bytes without a newline/);
    assert.match(c.fix!, /end it with a newline/);
  });

  it('prints a readable checklist: ✔ and ✘ lines, the fix under each ✘, and the count', async () => {
    const r = await runCli(['doctor', 'tictactoe', zoo('illegal'), ...ROOMY]);
    assert.equal(r.code, 1);
    assert.match(r.stdout, /^tictactoe: fed the canned match random vs minimax \(seed 1, 8 steps\) as seat 0 and seat 1$/m);
    assert.match(r.stdout, /^✔ answers its first turn: 2 answered, all read and legal$/m);
    assert.match(
      r.stdout,
      /^✘ answers turns in mid-game: seat 0, turn 3: illegal-move: cell 0-0 is taken by O; play an empty cell\n {4}the message was: .*\n {4}fix: the move breaks the rules/m,
    );
    assert.match(r.stdout, /^\d+ passed, 2 failed, 0 warnings — see `botarena doctor --log` for every message$/m);
  });

  it('usage errors exit 2 with a message', async () => {
    const game = await runCli(['doctor', 'chess', 'random']);
    assert.equal(game.code, 2);
    assert.match(game.stderr, /unknown game "chess"/);
    const spec = await runCli(['doctor', 'tictactoe', 'ftp://x']);
    assert.equal(spec.code, 2);
  });
});

describe('botarena doctor: HTTP bots', () => {
  const servers: (Server | ChildProcess)[] = [];
  after(() => servers.forEach((s) => ('kill' in s ? s.kill() : s.close())));

  async function serve(handler: Parameters<typeof createServer>[1]): Promise<string> {
    const server = createServer(handler!);
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(server.address() as { port: number }).port}/`;
  }

  it('status, content type and keep-alive are warned about, and do not fail the check-up', async () => {
    const url = await serve((req, res) => {
      let body = '';
      req.on('data', (d: Buffer) => (body += d));
      req.on('end', () => {
        const msg = JSON.parse(body) as { action: string; board: Record<string, string> };
        const answer = msg.action === 'init' ? '{}' : JSON.stringify({ play: Object.keys(msg.board).find((k) => msg.board[k] === '') });
        res.writeHead(500, { connection: 'close' });
        res.end(answer);
      });
    });
    const { code, report } = await doctor('tictactoe', url);
    assert.equal(code, 0, JSON.stringify(report.checks));
    assert.equal(check(report, /HTTP status/).status, 'warn');
    assert.match(check(report, /HTTP status/).detail, /^500: /);
    assert.equal(check(report, /HTTP content type/).status, 'warn');
    const keep = check(report, /keep-alive/);
    assert.equal(keep.status, 'warn');
    assert.match(keep.detail, /each message needs a new connection \(Connection: close\)/);
  });

  it('a URL nobody listens on: start the bot first', async () => {
    const { code, report } = await doctor('connect4', 'http://127.0.0.1:9/');
    assert.equal(code, 1);
    const c = check(report, /^starts/);
    assert.match(c.detail, /transport: connection refused at http:\/\/127\.0\.0\.1:9\//);
    assert.match(c.fix!, /start the bot first/);
  });

  it('checks an HTTPS bot over TLS; a certificate the arena does not trust is named with its fix', async () => {
    const server = spawn(process.execPath, ['test/fixtures/tls/https-bot.mjs'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
    servers.push(server);
    const [line] = (await once(createInterface({ input: server.stdout! }), 'line')) as [string];
    const url = /listening on (https:\S+)/.exec(line)![1]!;
    const trusted = await doctor('tictactoe', url, ROOMY, { NODE_EXTRA_CA_CERTS: 'test/fixtures/tls/cert.pem' });
    assert.deepEqual(
      trusted.report.checks.filter((c) => c.status !== 'pass'),
      [],
    );
    assert.equal(check(trusted.report, /HTTP keep-alive/).status, 'pass');
    const untrusted = await doctor('tictactoe', url);
    assert.equal(untrusted.code, 1);
    const first = untrusted.report.checks.find((c) => c.status === 'fail')!;
    assert.match(first.detail, /self-signed certificate/);
    assert.match(first.fix!, /certificate the arena trusts/);
  });

  it('the Node Connect Four example over HTTP passes every check', async () => {
    const server = spawn(process.execPath, ['examples/connect4-node-http/bot.mjs', '--port', '0'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
    servers.push(server);
    const [line] = (await once(createInterface({ input: server.stdout! }), 'line')) as [string];
    const url = /listening on (http:\S+)/.exec(line)![1]!;
    const { code, report } = await doctor('connect4', url, []);
    assert.equal(code, 0);
    assert.deepEqual(
      report.checks.filter((c) => c.status !== 'pass'),
      [],
    );
    for (const name of [/HTTP status/, /HTTP content type/, /keep-alive/]) check(report, name);
  });
});

describe('botarena doctor: every example bot passes every check', { concurrency: 2 }, () => {
  for (const [game, bot] of [
    ['tictactoe', 'stdio:python3 examples/tictactoe-python/bot.py'],
    ['lighthouses', 'stdio:python3 examples/lighthouses-python/bot.py'],
    ['paint', 'stdio:python3 examples/paint-python/bot.py'],
    ['paint', 'stdio:node examples/paint-node/bot.mjs'],
    ['connect4', 'stdio:node --import tsx examples/connect4-ts-sdk/bot.ts'],
  ]) {
    it(`${game}: ${bot}`, async () => {
      const { code, report } = await doctor(game!, bot!, []);
      assert.deepEqual(
        report.checks.filter((c) => c.status !== 'pass'),
        [],
      );
      assert.equal(code, 0);
    });
  }

  it('smartdog: the Node client, connecting in over TCP', async () => {
    const { run, clientCode } = await withConnectingClient(['doctor', 'smartdog', 'tcp', '--json'], 'examples/smartdog-node/client.mjs');
    const report = JSON.parse(run.stdout) as Report;
    assert.deepEqual(
      report.checks.filter((c) => c.status !== 'pass'),
      [],
    );
    assert.equal(run.code, 0, run.stderr);
    assert.equal(clientCode, 0, 'the client exits by itself after "finished"');
    assert.deepEqual(report.canned.seats, [0], 'a bot that connects in is fed once');
  });
});
