import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { after, describe, it } from 'node:test';
import { LANGUAGES, starterDir, starterInfo, type StarterTransport } from '../src/cli/new-command.js';
import { getGame } from '../src/games/index.js';
import { ROOT, runCli, startCli, type CliRun } from './run-cli.js';

// Every starter `botarena new` writes, generated as a user would, its tiny test run, then played in a real
// match against a built-in bot (the starter's seat must end without a fault) and checked by `botarena doctor`
// (every check must pass).

const MATRIX: [string, StarterTransport][] = [
  ...['tictactoe', 'connect4', 'tron', 'battleship', 'lighthouses', 'paint', 'smartdog'].map((g): [string, StarterTransport] => [g, 'stdio']),
  ...['tictactoe', 'connect4', 'tron', 'battleship'].map((g): [string, StarterTransport] => [g, 'http']),
  ['smartdog', 'tcp'],
];

const tmp = mkdtempSync(join(tmpdir(), 'botarena-starters-'));
after(() => rmSync(tmp, { recursive: true, force: true }));

/** Runs a shell command from the repository root; resolves with its exit code and output. */
function sh(command: string, timeoutMs = 60_000): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const child = spawn('/bin/sh', ['-c', command], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d));
    child.stderr.on('data', (d: Buffer) => (out += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('close', (code) => (clearTimeout(timer), resolve({ code, out })));
  });
}

/** A port nobody listens on now. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

interface Result {
  players: { name: string; fault: { kind: string; detail: string } | null }[];
}

/** A smaller grid for Tron, whose games on 100×100 last a thousand laps and more. */
const SMALLER: Record<string, string[]> = { tron: ['--set', 'width=30', '--set', 'height=20'] };

interface Doctor {
  ok: boolean;
  checks: { name: string; status: string; detail: string }[];
}

/**
 * Plays the starter (its run command) in seat 0 against the game's first built-in bot, and has `botarena doctor`
 * check it; returns the match's --json result and the doctor's report.
 */
async function playStarter(game: string, transport: StarterTransport, source: string, dir: string): Promise<{ result: Result; doctor: Doctor }> {
  const builtin = Object.keys(getGame(game).bots)[0]!;
  const extra = SMALLER[game] ?? [];
  // The start-up deadline is the game's (lighthouses: 2 s), but a TypeScript starter starts through tsx, which
  // takes over a second when the suite's other files (a browser among them) load both cores: the starters are
  // checked here for what they answer, so their first answer gets 20 s (the doctor's start-up warning with it).
  const startUp = ['--init-timeout', '20000'];
  const port = await freePort();
  const { run } = starterInfo(source, dir, port);
  const json = <T>(r: CliRun, what: string): T => {
    assert.ok(r.code === 0 || (what === 'doctor' && r.code === 1), `${what}: exit ${r.code}\n${r.stderr}`);
    return JSON.parse(r.stdout) as T;
  };
  if (transport === 'stdio') {
    const [match, doctor] = [
      await runCli(['play', game, `stdio:${run}`, builtin, ...extra, ...startUp, '--seed', '1', '--json']),
      await runCli(['doctor', game, `stdio:${run}`, ...startUp, '--json']),
    ];
    return { result: json(match, 'play'), doctor: json(doctor, 'doctor') };
  }
  if (transport === 'http') {
    const bot = spawn('/bin/sh', ['-c', `exec ${run}`], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    bot.stderr.resume(); // its debug lines: read, or a full pipe would stop the bot
    try {
      await new Promise<void>((resolve, reject) => {
        let out = '';
        bot.stdout.on('data', (d: Buffer) => ((out += d), /listening on http:/.test(out) && resolve()));
        bot.on('close', (code) => reject(new Error(`the bot exited (${code}) before it listened: ${out}`)));
      });
      const url = `http://127.0.0.1:${port}/`;
      const [match, doctor] = [
        await runCli(['play', game, url, builtin, ...extra, ...startUp, '--seed', '1', '--json']),
        await runCli(['doctor', game, url, ...startUp, '--json']),
      ];
      return { result: json(match, 'play'), doctor: json(doctor, 'doctor') };
    } finally {
      bot.kill();
    }
  }
  // tcp: the arena listens, then the bot connects and joins (once for the match, once for the doctor).
  const connectIn = async (args: string[]): Promise<CliRun> => {
    // The bot connects once, at start: it starts when the arena says it listens (a loaded machine can take
    // more than the 1.5 s this used to wait, and the bot then found nothing to connect to).
    const arena = startCli([...args, '--port', String(port), '--init-timeout', '30000'], /waiting for 1 bot.* to connect/);
    await arena.ready;
    const bot = sh(run, 120_000);
    const r = await arena.done;
    await bot;
    return r;
  };
  const match = await connectIn(['play', game, 'tcp', builtin, '--seed', '1', '--json']);
  const doctor = await connectIn(['doctor', game, 'tcp', '--json']);
  return { result: json(match, 'play'), doctor: json(doctor, 'doctor') };
}

describe('botarena new: every starter, generated, tested and played', () => {
  for (const lang of LANGUAGES) {
    for (const [game, transport] of MATRIX) {
      it(`${lang} ${game} over ${transport}`, async () => {
        const source = starterDir(lang, game, transport);
        assert.ok(source, `starters/${lang}/${game}-${transport} is missing`);
        const dir = join(tmp, `${lang}-${game}-${transport}`);
        const made = await runCli(['new', game, dir, '--lang', lang, '--transport', transport]);
        assert.equal(made.code, 0, made.stderr);
        assert.match(made.stdout, new RegExp(`wrote a ${lang} ${game} bot \\(${transport}\\)`));
        assert.match(made.stdout, new RegExp(`^check it: bin/botarena doctor ${game} `, 'm')); // botarena is not on the PATH in a clone
        assert.ok(!existsSync(join(dir, 'starter.json')), 'starter.json stays in the package');
        const readme = readFileSync(join(dir, 'README.md'), 'utf8');
        assert.doesNotMatch(readme, /\{\{dir\}\}/);
        assert.match(readme, new RegExp(`botarena play ${game} `));
        const test = await sh(starterInfo(source, dir).test);
        assert.equal(test.code, 0, `the starter's own test failed:\n${test.out}`);
        const { result, doctor } = await playStarter(game, transport, source, dir);
        assert.equal(result.players[0]!.fault, null, `the starter faulted: ${JSON.stringify(result.players[0]!.fault)}`);
        const failed = doctor.checks.filter((c) => c.status !== 'pass');
        assert.deepEqual(failed, [], 'botarena doctor passes every check');
        assert.ok(doctor.ok && doctor.checks.length >= 5, `doctor ran its checks: ${doctor.checks.map((c) => c.name).join(', ')}`);
      });
    }
  }

  it("a smart-dog tcp starter's printed command connects to the port `play` and `doctor` listen on", async () => {
    // They listen on 3002 when no --port is given (their --help says so); the starter used to print --port 8000.
    for (const command of ['play', 'doctor']) assert.match((await runCli([command, '--help'])).stdout, /--port <n>\s+[^(]*\(default\s+3002\)/);
    for (const lang of LANGUAGES) {
      const made = await runCli(['new', 'smartdog', join(tmp, `port-${lang}`), '--lang', lang]);
      assert.equal(made.code, 0, made.stderr);
      assert.match(made.stdout, /^then, in another terminal: .* --port 3002$/m, `${lang}: ${made.stdout}`);
    }
  });

  it('a TypeScript starter written outside the clone runs there with the commands it prints', async () => {
    // A user in another folder, with no botarena on the PATH and no tsx of their own: the printed commands used
    // to be `botarena …` (not found) and `node --import tsx …` ("Cannot find package 'tsx'").
    const away = mkdtempSync(join(tmp, 'away-'));
    const bin = join(ROOT, 'bin', 'botarena');
    const PATH = dirname(process.execPath) + ':/usr/bin:/bin';
    const inAway = (command: string) => sh(`cd '${away}' && PATH='${PATH}' && ${command}`, 120_000);
    const made = await inAway(`node '${bin}' new tron T --lang ts`);
    assert.equal(made.code, 0, made.out);
    const line = (label: string) => new RegExp(`^${label}: +(.*)$`, 'm').exec(made.out)?.[1] ?? assert.fail(`no "${label}:" line in\n${made.out}`);
    assert.equal(resolve(away, line('play it').split(' ')[0]!), bin, 'the play command is the path of bin/botarena');
    const test = await inAway(line('test it'));
    assert.equal(test.code, 0, `the printed test command failed:\n${test.out}`);
    const play = await inAway(`${line('play it')} --set width=20 --set height=12 --init-timeout 20000 --json`);
    assert.equal(play.code, 0, `the printed play command failed:\n${play.out}`);
    const result = JSON.parse(play.out) as Result;
    assert.equal(result.players[0]!.fault, null, `the starter faulted: ${JSON.stringify(result.players[0]!.fault)}`);
  });

  it('an HTTP starter whose port is taken, and a TCP starter with nobody to connect to, say so in one line', async () => {
    // They used to end in a Python traceback or a Node stack trace.
    const holder = createServer();
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
    const taken = (holder.address() as { port: number }).port;
    const nobody = await freePort();
    try {
      for (const lang of LANGUAGES) {
        for (const [game, transport, port, expected] of [
          [
            'tron',
            'http',
            taken,
            `cannot listen on 127.0.0.1:${taken}: the port is taken (is this bot already running?): stop what holds it, or pick another port with --port N`,
          ],
          ['smartdog', 'tcp', nobody, `cannot talk to the server at 127.0.0.1:${nobody}: `],
        ] as const) {
          const dir = join(tmp, `busy-${lang}-${transport}`);
          assert.equal((await runCli(['new', game, dir, '--lang', lang, '--transport', transport])).code, 0);
          const run = await sh(starterInfo(starterDir(lang, game, transport)!, dir, port).run, 60_000);
          assert.equal(run.code, 1, `${lang} ${transport}: ${run.out}`);
          const lines = run.out.trimEnd().split('\n');
          assert.equal(lines.length, 1, `${lang} ${transport}: one line, not a trace:\n${run.out}`);
          assert.ok(lines[0]!.includes(expected), `${lang} ${transport}: ${run.out}`);
        }
      }
    } finally {
      holder.close();
    }
  });

  it('refuses a folder that is not empty, a transport with no starter, and an unknown language', async () => {
    const taken = await runCli(['new', 'tron', ROOT, '--lang', 'python']);
    assert.equal(taken.code, 2);
    assert.match(taken.stderr, /already exists and is not an empty folder: name a new folder \(nothing was written\)/);
    const http = await runCli(['new', 'paint', join(tmp, 'x'), '--transport', 'http']);
    assert.equal(http.code, 2);
    assert.match(http.stderr, /there is no python starter of paint over http; paint in python: --transport stdio/);
    const cobol = await runCli(['new', 'tron', join(tmp, 'y'), '--lang', 'cobol']);
    assert.equal(cobol.code, 2);
    assert.match(cobol.stderr, /Allowed choices are python, node, ts/);
  });
});
