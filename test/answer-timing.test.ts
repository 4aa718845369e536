// Where an answer's time went (issue 38): a bot program's CPU time and an HTTP bot's connect and first byte, in
// the replay (timing data, never part of what `replay verify` compares), the match's per-seat timing and `play`.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { pathToFileURL } from 'node:url';
import { replayHtml } from '../src/arena/replay-html.js';
import { runMatch } from '../src/arena/run-match.js';
import { sumGame } from '../src/arena/sum-game.kit.js';
import { HttpTransport } from '../src/bots/http-transport.js';
import type { DoctorReport } from '../src/arena/doctor-report.js';
import type { AskMessage } from '../src/bots/transport.js';
import { matchSummary } from '../src/cli/format.js';
import type { Replay } from '../src/core/replay.js';
import { verifyReplay } from '../src/core/replay-verify.js';
import { runCli } from './run-cli.js';
import { browserSkip, launchBrowser, newPage } from './web.kit.js';

describe("an answer's CPU time in the replay, the match's timing and play's summary", () => {
  it('a spinning and a sleeping stdio bot: their CPU time per move, medians apart, and the replay verifies whatever the timings say', async () => {
    const { replay, timing } = await runMatch(
      {
        game: sumGame.id,
        seats: [{ bot: 'stdio:node test/fixtures/bots/cpu-bot.mjs spin 120' }, { bot: 'stdio:node test/fixtures/bots/cpu-bot.mjs sleep 120' }],
        config: { turns: 3 },
        seed: 7,
        timeouts: { initMs: 20_000, turnMs: 20_000 },
      },
      { game: sumGame },
    );
    const moves = replay.turns.flatMap((t) => t.moves);
    assert.ok(
      moves.every((m) => typeof m.cpuMs === 'number' && typeof m.ms === 'number'),
      JSON.stringify(moves),
    );
    // The first answers carry node's start; the medians are the answers themselves.
    assert.ok(timing[0]!.medianCpuMs! >= 100 && timing[0]!.worstCpuMs! >= timing[0]!.medianCpuMs!, JSON.stringify(timing[0]));
    assert.ok(timing[1]!.medianCpuMs! < 20, JSON.stringify(timing[1]));
    assert.ok(timing[1]!.medianMs! >= 115, `the sleeper waited ${timing[1]!.medianMs} ms`);
    assert.match(matchSummary(sumGame, replay, timing), /answers +median +worst +cpu median +cpu worst +fault/);

    // Timing data is never what a replay's check compares: other CPU times, or none (a replay from before), verify alike.
    verifyReplay(sumGame, replay);
    const other = structuredClone(replay) as Replay;
    for (const t of other.turns) for (const m of t.moves) m.cpuMs = 99_999;
    verifyReplay(sumGame, other);
    const old = structuredClone(replay) as Replay;
    for (const t of old.turns) for (const m of t.moves) delete m.cpuMs;
    verifyReplay(sumGame, old);
    const bad = structuredClone(replay) as Replay;
    bad.turns[1]!.moves[0]!.action = 9;
    assert.throws(() => verifyReplay(sumGame, bad), /differs/);
  });

  it('`botarena play` prints the CPU columns and writes the CPU times in the replay, which `replay verify` passes', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'botarena-cpu-'));
    try {
      const file = join(dir, 'm.json');
      const run = await runCli(
        ['play', 'tictactoe', 'stdio:node test/fixtures/bots/spin-ttt.mjs 40', 'stdio:node test/fixtures/bots/spin-ttt.mjs 0', '--seed', '3', '--replay', file],
        { timeoutMs: 60_000 },
      );
      assert.equal(run.code, 0, run.stderr);
      assert.match(run.stdout, /answers +median +worst +cpu median +cpu worst +fault/);
      const row = run.stdout.split('\n').find((l) => l.includes('spin-ttt.mjs 40 '))!;
      const cpuMedian = /([\d.]+)ms +([\d.]+)ms +([\d.]+)ms +([\d.]+)ms +-$/.exec(row);
      assert.ok(cpuMedian && Number(cpuMedian[3]) >= 25 && Number(cpuMedian[3]) < 60, `seat 0 spends 40 ms of CPU per answer: ${row}`);
      const replay = JSON.parse(readFileSync(file, 'utf8')) as Replay;
      assert.ok(replay.turns.filter((t) => t.phase === 'play').every((t) => t.moves.every((m) => typeof m.cpuMs === 'number')));
      const verified = await runCli(['replay', 'verify', file]);
      assert.equal(verified.code, 0, verified.stderr + verified.stdout);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('`botarena play --sandbox-deadline cpu` and `--pause-between-turns`', () => {
  it('a bot that sleeps past the deadline is not timed out when it is judged on CPU time, and is on the wall', async () => {
    const sleeper = 'stdio:node test/fixtures/bots/spin-ttt.mjs sleep 400';
    const args = ['play', 'tictactoe', sleeper, 'random', '--seed', '2', '--timeout', '250', '--init-timeout', '20000', '--sandbox', '--json'];
    const onCpu = await runCli([...args, '--sandbox-deadline', 'cpu'], { timeoutMs: 120_000 });
    assert.equal(onCpu.code, 0, onCpu.stderr);
    const result = JSON.parse(onCpu.stdout) as { players: { fault: unknown }[] };
    assert.equal(result.players[0]!.fault, null, onCpu.stdout);
    const onWall = await runCli(args, { timeoutMs: 120_000 });
    assert.match(onWall.stdout, /"kind":"timeout","detail":"no answer within 250 ms/);
    const alone = await runCli(['play', 'tictactoe', sleeper, 'random', '--sandbox-deadline', 'cpu']);
    assert.equal(alone.code, 2);
    assert.match(alone.stderr, /--sandbox-deadline goes with --sandbox/);
    const bad = await runCli(['play', 'tictactoe', sleeper, 'random', '--sandbox', '--sandbox-deadline', 'cpus']);
    assert.match(bad.stderr, /--sandbox-deadline: expected wall \(the time the arena waits\) or cpu \(the CPU time the bot spends\), got cpus/);
  });

  it('a match of bots stopped between their turns plays to its end as without', async () => {
    const bots = ['stdio:node test/fixtures/bots/spin-ttt.mjs 5', 'stdio:node test/fixtures/bots/spin-ttt.mjs 0'];
    const paused = await runCli(['play', 'tictactoe', ...bots, '--seed', '4', '--json', '--pause-between-turns'], { timeoutMs: 60_000 });
    const free = await runCli(['play', 'tictactoe', ...bots, '--seed', '4', '--json'], { timeoutMs: 60_000 });
    assert.equal(paused.code, 0, paused.stderr);
    const strip = (out: string) => {
      const r = JSON.parse(out) as Record<string, unknown>;
      delete r.durationMs;
      return r;
    };
    assert.deepEqual(strip(paused.stdout), strip(free.stdout));
  });
});

describe('serve and worker: --sandbox-deadline and --pause-between-turns reach the sandbox of commands and uploads', () => {
  it('the sandbox a server runs command bots in, and the one of its uploads, carry both', async () => {
    const { commandsSandbox } = await import('../src/cli/commands-sandbox.js');
    const { uploadSetup } = await import('../src/cli/upload-flags.js');
    const o = { allowCommands: true, sandboxDeadline: 'cpu' as const, pauseBetweenTurns: true, uploads: 'python3' };
    const sandbox = commandsSandbox('serve', o, '/tmp/botarena-test.sqlite');
    assert.equal(sandbox?.deadline, 'cpu');
    assert.equal(sandbox?.pauseBetweenTurns, true);
    const uploads = uploadSetup(o, sandbox)!;
    assert.deepEqual([uploads.sandbox?.deadline, uploads.sandbox?.pauseBetweenTurns], ['cpu', true]);
    // Uploads without command bots: still paused.
    assert.equal(uploadSetup({ uploads: 'python3', pauseBetweenTurns: true }, undefined)!.sandbox?.pauseBetweenTurns, true);
  });
});

describe("an HTTP bot's connect time and first byte apart from the rest", () => {
  it('connecting counts once (then the connection is kept), the first byte after the bot thinks, the body after it', async () => {
    const server = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        // Thinks 150 ms before the headers, then sends its body over 120 ms more.
        setTimeout(() => {
          res.writeHead(200, { 'content-type': 'application/json' });
          res.write('{"n":');
          setTimeout(() => res.end('1}'), 120);
        }, 150);
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
    const http = new HttpTransport(url, { slot: 0, name: 'h', log: () => {}, maxAnswerBytes: 1 << 20, maxStderrBytes: 1 << 16 });
    const msg: AskMessage = { phase: 'play', turn: 1, view: null, text: '{}', contentType: 'application/json' };
    try {
      await http.start();
      const first = await http.ask(msg, 10_000);
      const second = await http.ask(msg, 10_000);
      for (const r of [first, second]) {
        assert.equal(r.kind, 'text', JSON.stringify(r));
        // Lower bounds only (a timer never fires early; a loaded machine may deliver the first chunk late, which
        // shortens the gap after it, so the gap itself is not bounded): the headers after the 150 ms of thought,
        // the whole answer after the 120 ms more of its body, and the first byte before the end.
        assert.ok(r.firstByteMs! >= 145 && r.firstByteMs! < r.ms, `first byte ${r.firstByteMs} ms of ${r.ms}`);
        assert.ok(r.ms >= 150 + 115, `the whole answer took ${r.ms} ms, its body included`);
      }
      assert.ok(first.connectMs! > 0 && first.connectMs! < first.firstByteMs!, `connected in ${first.connectMs} ms`);
      assert.equal(second.connectMs, 0, 'the kept-alive connection was used again');
    } finally {
      await http.close();
      server.close();
    }
  });
});

describe("doctor's report: where a bot's answer time went", () => {
  it('a stdio bot: its CPU time beside its answer time; an HTTP bot: its first byte and connecting', async () => {
    const stdio = await runCli(
      ['doctor', 'tictactoe', 'stdio:node test/fixtures/bots/spin-ttt.mjs 30', '--json', '--timeout', '20000', '--init-timeout', '20000'],
      {
        timeoutMs: 120_000,
      },
    );
    const report = JSON.parse(stdio.stdout) as DoctorReport;
    assert.ok(report.latency?.cpu && report.latency.cpu.p50Ms >= 15 && report.latency.cpu.p50Ms < 80, JSON.stringify(report.latency));
    const time = report.checks.find((c) => c.name === 'answer time')!;
    assert.match(time.detail, /^p50 .*, p99 .* over \d+ answers; CPU time p50 \d+(\.\d)? ms, p99 \d+(\.\d)? ms \(the deadline is 20000 ms\)$/);

    // An HTTP tic-tac-toe bot that thinks 60 ms before its headers.
    const server = createServer((req, res) => {
      let body = '';
      req.on('data', (d: Buffer) => (body += d));
      req.on('end', () => {
        const m = JSON.parse(body) as { action: string; board?: Record<string, string> };
        const answer = m.action === 'init' ? { name: 'h' } : { play: Object.keys(m.board!).find((c) => m.board![c] === '') };
        setTimeout(() => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer)), 60);
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
      const http = await runCli(['doctor', 'tictactoe', url, '--json'], { timeoutMs: 120_000 });
      const r = JSON.parse(http.stdout) as DoctorReport;
      assert.ok(r.latency?.http && r.latency.http.firstByteP50Ms >= 55 && r.latency.cpu === undefined, JSON.stringify(r.latency));
      assert.match(r.checks.find((c) => c.name === 'answer time')!.detail, /; first byte p50 \d+(\.\d)? ms, p99 \d+(\.\d)? ms, connecting at most /);
    } finally {
      server.close();
    }
  });
});

describe("the web page's seat table in Chromium: a seat's CPU time beside its answer time", { skip: browserSkip() }, () => {
  it("the offline player of a match with a spinning stdio bot shows its CPU time and median; a built-in bot's cell has none", async () => {
    const { replay } = await runMatch({
      game: 'tictactoe',
      seats: [{ bot: 'stdio:node test/fixtures/bots/spin-ttt.mjs 30' }, { bot: 'random' }],
      seed: 3,
      timeouts: { initMs: 20_000, turnMs: 20_000 },
    });
    const dir = mkdtempSync(join(tmpdir(), 'botarena-cpu-web-'));
    const b = await launchBrowser();
    try {
      const file = join(dir, 'm.html');
      writeFileSync(file, replayHtml(replay));
      const { page, errors } = await newPage(b.browser);
      await page.goto(pathToFileURL(file).href);
      await page.waitForFunction(() => 'botarena' in window, null, { timeout: 10_000 });
      await page.locator('.player').focus();
      await page.keyboard.press('End');
      // The last step is seat 0's (it wins this seed): its answer time, then its CPU time with the median so far.
      const cell = (await page.getByTestId('ms-0').textContent()) ?? '';
      assert.match(cell, /^\d+\.\d \(median \d+\.\d\) · CPU \d+\.\d \(median (\d+\.\d)\)$/);
      assert.ok(Number(/median (\d+\.\d)\)$/.exec(cell)![1]) >= 15, cell);
      assert.doesNotMatch((await page.getByTestId('ms-1').textContent()) ?? '', /CPU/);
      assert.deepEqual(errors, []);
    } finally {
      await b.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
