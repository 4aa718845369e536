import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer as createHttpServer } from 'node:http';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ROOT, runCli } from './run-cli.js';
import { until } from './server.kit.js';

// `botarena contest create|list|show|enter|freeze|start|results|archive`, the organiser's commands, run from the
// built CLI (`npm run build` first) against a real `botarena serve` process with an admin token: a contest of
// tic-tac-toe on two maps from a definition file, three built-in and command bots entered, frozen, its final
// started and followed to its end, its results printed (standings with score ± interval, the pairwise matrix, each
// map, faults) and its archive downloaded. Its errors: no server, a server that is down, no token, a wrong token,
// a definition that is not JSON or has a bad key (named). On the old code `botarena contest` is no command.

const ADMIN = 'admin-token-of-the-contest-cli-test-0123456789';
const dir = mkdtempSync(join(tmpdir(), 'botarena-contest-cli-'));
const children = new Set<ChildProcess>();
process.on('exit', () => {
  for (const c of children) c.kill('SIGKILL');
});

/** `botarena serve` with the admin token, on a free port; resolves with its URL once it listens. */
function serve(): Promise<{ url: string; log: () => string }> {
  const child = spawn(
    process.execPath,
    ['bin/botarena', 'serve', '--port', '0', '--no-gateway', '--no-ladder', '--allow-commands', '--unsandboxed-commands', '--database', join(dir, 'db.sqlite')],
    { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, BOTARENA_ADMIN_TOKEN: ADMIN } },
  );
  children.add(child);
  let out = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`serve did not start within 20 s:\n${out}`)), 20_000);
    const look = (d: Buffer) => {
      out += d;
      const m = /botarena server at (http:\/\/[\d.:]+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve({ url: m[1]!, log: () => out });
      }
    };
    child.stdout!.on('data', look);
    child.stderr!.on('data', look);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`serve exited (${code}) before it listened:\n${out}`));
    });
  });
}

/** The definition of the test's contest: tic-tac-toe on the empty board and on one opened in the centre. */
const definition = (o: Record<string, unknown> = {}) => ({
  id: 'club-cup',
  name: 'Club cup',
  game: 'tictactoe',
  configs: [
    { label: 'empty', config: {} },
    { label: 'centre', config: { board: '.../.X./...' } },
  ],
  format: 'double-round-robin',
  gamesPerPairing: 2,
  timeRules: { turnMs: 5000 },
  seed: 7,
  opensAt: '2026-01-01T00:00:00Z',
  closesAt: '2099-01-01T00:00:00Z',
  ...o,
});

after(() => {
  for (const c of children) c.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

describe('botarena contest, before any server answers', () => {
  it('says which server is missing, which one is down, and which token is missing', async () => {
    const def = join(dir, 'def.json');
    writeFileSync(def, JSON.stringify(definition()));
    // A port nobody listens on (taken, then let go): a server that is down.
    const free = createServer();
    await new Promise<void>((r) => free.listen(0, '127.0.0.1', r));
    const port = (free.address() as AddressInfo).port;
    await new Promise((r) => free.close(r));
    const downUrl = `http://127.0.0.1:${port}`;
    const env = { BOTARENA_SERVER: '', BOTARENA_ADMIN_TOKEN: '', BOTARENA_TOKEN: '' };
    const none = await runCli(['contest', 'list'], { env });
    assert.equal(none.code, 2, none.stderr);
    assert.match(none.stderr, /which server\? give --server URL/);
    const down = await runCli(['contest', 'show', 'club-cup', '--server', downUrl], { env });
    assert.equal(down.code, 2, down.stderr);
    assert.match(
      down.stderr,
      new RegExp(`cannot reach the server at http://127\\.0\\.0\\.1:${port} \\(ECONNREFUSED\\): is it running, and is --server right\\?`),
    );
    const bad = await runCli(['contest', 'list', '--server', 'ftp://x'], { env });
    assert.match(bad.stderr, /--server ftp:\/\/x: give the server's http\(s\):\/\/ URL/);
    const token = await runCli(['contest', 'create', def, '--server', downUrl], { env });
    assert.equal(token.code, 2);
    assert.match(token.stderr, /creating a contest needs the server's admin token: give --admin-token TOKEN, or set \$BOTARENA_ADMIN_TOKEN/);
    const enter = await runCli(['contest', 'enter', 'club-cup', 'random', '--server', downUrl], { env });
    assert.match(enter.stderr, /entering a bot needs its owner token/);
    writeFileSync(join(dir, 'broken.json'), '{"id": "x",');
    const notJson = await runCli(['contest', 'create', join(dir, 'broken.json'), '--server', downUrl, '--admin-token', 'x'], { env });
    assert.equal(notJson.code, 2);
    assert.match(notJson.stderr, /broken\.json: not JSON \(.*\); a definition is a JSON object, see docs\/contests\.md/);
    const missing = await runCli(['contest', 'create', join(dir, 'nothing.json'), '--server', downUrl, '--admin-token', 'x'], { env });
    assert.match(missing.stderr, /nothing\.json: no such file/);
  });
});

describe('botarena contest against a server that is not a Botarena server', () => {
  it('says the answer is not JSON, not a contest, or too long, instead of crashing', async () => {
    // A web server that answers HTML for the list, and JSON of another shape for a contest.
    const web = createHttpServer((req, res) => {
      if (req.url === '/api/contests') res.writeHead(200, { 'content-type': 'text/html' }).end('<html>a blog</html>');
      else if (req.url === '/api/contests/endless') {
        // An answer that never ends: the CLI stops reading at its cap.
        res.writeHead(200, { 'content-type': 'application/json' });
        const chunk = Buffer.alloc(1 << 20, 0x20);
        const more = () => {
          while (!res.destroyed && res.write(chunk));
          if (!res.destroyed) res.once('drain', more);
        };
        res.on('close', () => res.destroy());
        more();
      } else res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ id: 1, hello: 'world' }));
    });
    await new Promise<void>((r) => web.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(web.address() as AddressInfo).port}`;
    try {
      const list = await runCli(['contest', 'list', '--server', url]);
      assert.equal(list.code, 2, list.stderr);
      assert.match(list.stderr, /\/api\/contests answered 200 with something that is not JSON: is --server a Botarena server\?/);
      const show = await runCli(['contest', 'show', 'x', '--server', url]);
      assert.equal(show.code, 2, show.stderr);
      assert.match(show.stderr, /answered with JSON that is not a contest as this botarena reads it \(\{"id":1,"hello":"world"\}…\)/);
      const endless = await runCli(['contest', 'show', 'endless', '--server', url], { timeoutMs: 30_000 });
      assert.equal(endless.code, 2, endless.stderr);
      assert.match(endless.stderr, /\/api\/contests\/endless answered more than 64 MiB: not read further/);
      const results = await runCli(['contest', 'results', 'x', '--server', url]);
      assert.equal(results.code, 2, results.stderr);
      assert.match(results.stderr, /not the contest's results/);
    } finally {
      web.close();
    }
  });
});

describe('botarena contest against a real server', () => {
  let server: { url: string; log: () => string };
  const cli = (args: string[], env: Record<string, string> = {}) => runCli(['contest', ...args, '--server', server.url], { env, timeoutMs: 120_000 });
  const admin = (args: string[]) => cli([...args, '--admin-token', ADMIN]);
  before(async () => {
    server = await serve();
  });

  it('refuses a wrong admin token and a bad definition, naming the key', async () => {
    const def = join(dir, 'def.json');
    writeFileSync(def, JSON.stringify(definition()));
    const wrong = await cli(['create', def, '--admin-token', 'not-the-token']);
    assert.equal(wrong.code, 2, wrong.stderr);
    assert.match(wrong.stderr, /the server refused it \(40[13]\): .*\(is it the admin token the server was started with/);
    writeFileSync(join(dir, 'bad.json'), JSON.stringify(definition({ gamesPerPairing: 0 })));
    const bad = await admin(['create', join(dir, 'bad.json')]);
    assert.equal(bad.code, 2, bad.stderr);
    assert.match(bad.stderr, /the server refused it \(400\): .*"gamesPerPairing" must be a whole number from 1 to 100, got 0/);
    writeFileSync(join(dir, 'bad-map.json'), JSON.stringify(definition({ configs: [{ label: 'big', config: { board: 'XXXX' } }] })));
    const badMap = await admin(['create', join(dir, 'bad-map.json')]);
    assert.equal(badMap.code, 2, badMap.stderr);
    assert.match(badMap.stderr, /"configs\[0\]\.config"/);
    const list = await cli(['list']);
    assert.equal(list.code, 0, list.stderr);
    assert.match(list.stdout, /no contest/);
  });

  it('creates a contest, enters bots, freezes it, plays its final, prints its results and downloads its archive', async () => {
    const def = join(dir, 'def.json');
    writeFileSync(def, JSON.stringify(definition()));
    const created = await admin(['create', def]);
    assert.equal(created.code, 0, created.stderr);
    assert.match(created.stdout, /created contest club-cup: Club cup/);
    assert.match(created.stdout, /maps: empty, centre \(board=\.\.\.\/\.X\.\/\.\.\.\)/);
    assert.match(created.stdout, new RegExp(`its page: ${server.url}/#/contests/club-cup`));
    const again = await admin(['create', def]);
    assert.equal(again.code, 2);
    assert.match(again.stderr, /the server refused it \(409\)/);

    // Two built-in bots, entered with the admin token; a third is a command bot registered with its owner token.
    for (const bot of ['random', 'minimax']) {
      const r = await admin(['enter', 'club-cup', bot]);
      assert.equal(r.code, 0, r.stderr);
      assert.match(r.stdout, new RegExp(`${bot} \\(.*\\) entered Club cup \\(club-cup\\)`));
    }
    const reg = await fetch(`${server.url}/api/bots`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ game: 'tictactoe', name: 'pybot', endpoint: `stdio:python3 ${join(ROOT, 'examples/tictactoe-python/bot.py')}` }),
    });
    assert.equal(reg.status, 201, await reg.clone().text());
    const { bot, token } = (await reg.json()) as { bot: { id: string }; token: string };
    await until('the command bot to pass its check', async () => {
      const b = (await (await fetch(`${server.url}/api/bots/${bot.id}`)).json()) as { status: string };
      return b.status === 'active';
    });
    const notOwner = await cli(['enter', 'club-cup', bot.id, '--token', 'someone-else']);
    assert.equal(notOwner.code, 2);
    assert.match(notOwner.stderr, /the server refused it \(40[13]\): .*\(give the bot's owner token/);
    writeFileSync(join(dir, 'tok'), `${token}\n`);
    const entered = await cli(['enter', 'club-cup', bot.id, '--token-file', join(dir, 'tok')]);
    assert.equal(entered.code, 0, entered.stderr);
    assert.match(entered.stdout, /pybot .* entered Club cup \(club-cup\): 3 entrant\(s\)/);

    const show = await cli(['show', 'club-cup']);
    assert.equal(show.code, 0, show.stderr);
    assert.match(show.stdout, /status: entry/);
    assert.match(show.stdout, /entrants: 3/);
    assert.match(show.stdout, /final: not started \(entries open\)/);

    const frozen = await admin(['freeze', 'club-cup']);
    assert.equal(frozen.code, 0, frozen.stderr);
    assert.match(frozen.stdout, /frozen club-cup: 3 entrant\(s\)/);
    assert.match(frozen.stdout, /status: frozen/);
    const early = await cli(['archive', 'club-cup', '-o', join(dir, 'early.tar.gz')]);
    assert.equal(early.code, 2);
    assert.match(early.stderr, /the server refused it \(409\): contest club-cup is frozen: its archive is made once the final is over/);
    assert.ok(!existsSync(join(dir, 'early.tar.gz')) && !existsSync(join(dir, 'early.tar.gz.part')), 'no file is left');
    const late = await admin(['enter', 'club-cup', 'random']);
    assert.equal(late.code, 2, 'no entry after the freeze');

    const started = await admin(['start', 'club-cup', '--wait']);
    assert.equal(started.code, 0, `${started.stderr}\n${server.log().slice(-3000)}`);
    // Double round robin of 3 entrants: 3 pairings × 2 games × 2 (sides) × 2 maps = 24 matches.
    assert.match(started.stdout, /final: 24\/24 matches over \[#{30}\] 100%, done/);
    assert.match(started.stdout, /final results: 24 match\(es\) counted/);

    const list = await cli(['list']);
    assert.match(list.stdout, /club-cup\s+Club cup\s+tictactoe\s+double-round-robin\s+done\s+3\s+24\/24/);

    const results = await cli(['results', 'club-cup', '--matches']);
    assert.equal(results.code, 0, results.stderr);
    const out = results.stdout;
    assert.match(out, /^final results: 24 match\(es\) counted/);
    assert.match(out, /standings \(score: points per game, with its 95 % bootstrap interval over games\):/);
    assert.match(out, /place\s+entrant\s+games\s+W\s+D\s+L\s+points\s+score/);
    // minimax never loses at tic-tac-toe (nor does the example bot): random is last.
    assert.match(out, /\n3\s+random\s+16\s/);
    assert.match(out, /\n[12]\s+minimax\s+16\s+\d+\s+\d+\s+0\s+[\d.]+\s+0\.\d{3} ±0\.\d{3} \[0\.\d{3}, [01]\.\d{3}\]/);
    assert.match(out, /pairwise \(the row's points against the column \/ games\):/);
    assert.match(out, /\nminimax(\s+([\d.]+\/8|-)){3}\n/);
    assert.match(out, /map empty:/);
    assert.match(out, /map centre:/);
    assert.match(out, /faults: none/);
    assert.match(out, /matches:\n.*key\s+map\s+seats\s+status\s+result\s+page/);
    assert.equal((out.match(new RegExp(`${server.url.replace(/[.]/g, '\\.')}/#/matches/`, 'g')) ?? []).length, 24, 'a link to every match');
    const json = await cli(['results', 'club-cup', '--json']);
    const parsed = JSON.parse(json.stdout) as { final: boolean; results: { standings: unknown[] } };
    assert.equal(parsed.final, true);
    assert.equal(parsed.results.standings.length, 3);

    const file = join(dir, 'cup.tar.gz');
    const archived = await cli(['archive', 'club-cup', '-o', file]);
    assert.equal(archived.code, 0, archived.stderr);
    assert.match(archived.stdout, new RegExp(`wrote ${file.replace(/[.]/g, '\\.')} \\(\\d+ KiB\\); check it with: botarena contest verify`));
    assert.ok(existsSync(file));
    const bytes = readFileSync(file);
    assert.deepEqual([...bytes.subarray(0, 2)], [0x1f, 0x8b], 'a gzip file');
    assert.ok(!existsSync(`${file}.part`));
    // What the organiser publishes, anyone checks without the server.
    const verified = await runCli(['contest', 'verify', file], { timeoutMs: 120_000 });
    assert.equal(verified.code, 0, verified.stderr);
    assert.match(verified.stdout, /verifies/);
  });

  it("counts a bot's faults per entrant: a bot that answers prose loses its game by a not-json fault", async () => {
    writeFileSync(join(dir, 'prose.py'), 'import sys\nfor line in sys.stdin:\n    print("I think the best move is the centre", flush=True)\n');
    const reg = await fetch(`${server.url}/api/bots`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ game: 'tictactoe', name: 'prose', endpoint: `stdio:python3 ${join(dir, 'prose.py')}` }),
    });
    assert.equal(reg.status, 201);
    const { token } = (await reg.json()) as { token: string };
    writeFileSync(
      join(dir, 'faults.json'),
      JSON.stringify(
        definition({ id: 'faults-cup', name: 'Faults cup', format: 'round-robin', gamesPerPairing: 1, configs: [{ label: 'empty', config: {} }] }),
      ),
    );
    assert.equal((await admin(['create', join(dir, 'faults.json')])).code, 0);
    // Its check failed (it is paused on the ladder), but it may enter: the final is where it loses.
    const entered = await cli(['enter', 'faults-cup', 'prose'], { BOTARENA_TOKEN: token });
    assert.equal(entered.code, 0, entered.stderr);
    assert.equal((await admin(['enter', 'faults-cup', 'random'])).code, 0);
    const run = await admin(['start', 'faults-cup', '--wait']);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /final: 1\/1 matches over/);
    assert.match(run.stdout, /\n1\s+random\s+1\s+1\s+0\s+0\s+1\s+1\.000 ±0\.000/);
    assert.match(run.stdout, /faults:\nentrant\s+faults\nprose\s+not-json ×1\n/);
  });

  it('an unknown contest is a 404 in words', async () => {
    const r = await cli(['show', 'no-such-contest']);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /the server refused it \(404\): /);
  });
});
