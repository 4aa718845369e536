// `botarena contest verify ARCHIVE` on archives of real finals: matches played by the arena's runner between
// built-in bots (tic-tac-toe: fast), planned by the contest's plan, written as the server writes them. The
// archive verifies; one with an edited result, an altered replay, a missing or a repeated match does not, and
// the CLI names each difference; a hostile archive is refused with bounded cost.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { gunzipSync, gzipSync } from 'node:zlib';
import { runMatch } from '../src/arena/run-match.js';
import type { Replay } from '../src/core/replay.js';
import { buildArchive, contestLine, readArchive, replayPath, tarGz, writeArchive, type ContestArchive } from '../src/contests/archive.js';
import { checkDefinition, checkEntrants, type ContestDefinition, type ContestEntrant } from '../src/contests/definition.js';
import { jobFor, planFinal } from '../src/contests/plan.js';
import type { ContestMatchLine } from '../src/contests/results.js';
import { verifyArchive } from '../src/contests/verify.js';
import { runCli } from './run-cli.js';

const dir = mkdtempSync(join(tmpdir(), 'botarena-contest-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/** Plays a whole final with the arena's runner, planning again after each batch, as the server's runner does. */
async function playFinal(def: ContestDefinition, entrants: ContestEntrant[]): Promise<{ lines: ContestMatchLine[]; replays: Map<string, Replay> }> {
  const lines: ContestMatchLine[] = [];
  const replays = new Map<string, Replay>();
  for (let plan = planFinal(def, entrants.length, lines); !plan.done; plan = planFinal(def, entrants.length, lines)) {
    const fresh = plan.matches.filter((m) => !lines.some((l) => l.key === m.key));
    for (const m of fresh) {
      const matchId = `${def.id}-${m.index}`;
      const { replay } = await runMatch(jobFor(def, entrants, m, matchId));
      replays.set(matchId, replay);
      lines.push(contestLine(m, matchId, replay));
    }
  }
  return { lines, replays };
}

/** An archive's contents read back from the bytes written (a deep copy to edit). */
const copy = (bytes: Buffer) => readArchive(bytes);

/** Writes an archive to a file in the test's folder; returns its path. */
function save(name: string, a: ContestArchive | Buffer): string {
  const path = join(dir, name);
  writeFileSync(path, Buffer.isBuffer(a) ? a : writeArchive(a));
  return path;
}

let def: ContestDefinition;
let entrants: ContestEntrant[];
let good: Buffer;
let goodPath: string;

before(async () => {
  def = checkDefinition({
    id: 'ttt-cup',
    name: 'Tic-tac-toe cup',
    game: 'tictactoe',
    configs: [
      { label: 'open', config: {} },
      { label: 'centre', config: { board: '.../.X./...' } },
    ],
    format: 'double-round-robin',
    gamesPerPairing: 1,
    timeRules: { turnMs: 2000 },
    seed: 7,
    opensAt: '2026-12-01T18:00:00Z',
    closesAt: '2026-12-02T18:00:00Z',
  });
  entrants = checkEntrants([
    { name: 'ann', bot: 'minimax', version: null },
    { name: 'bob', bot: 'random', version: null },
    { name: 'cid', bot: 'random', version: null },
  ]);
  const { lines, replays } = await playFinal(def, entrants);
  assert.equal(lines.length, 3 * 2 * 2);
  good = writeArchive(buildArchive(def, entrants, lines, replays));
  goodPath = save('good.tar.gz', good);
});

describe('contest verify', () => {
  it('an archive of a real final verifies, in process and with the CLI, and says what it checked', async () => {
    const a = await readArchive(good);
    assert.equal(a.matches.length, 12);
    assert.equal(a.replays.size, 12);
    const all = new Map(a.replays);
    assert.equal([...all.values()].filter((r) => r.game === 'tictactoe').length, 12, 'the replays read as a Map, each parsed');
    assert.deepEqual(writeArchive({ ...a, replays: all }), good, 'written from parsed replays: the same bytes');
    const report = verifyArchive(a);
    assert.deepEqual(report.differences, []);
    assert.equal(report.ok, true);
    assert.deepEqual(writeArchive(a), good, 'what is read back is written as the same bytes');
    const run = await runCli(['contest', 'verify', goodPath]);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /contest ttt-cup \(Tic-tac-toe cup\): tictactoe, double-round-robin, 3 entrants, 12 matches/);
    assert.match(run.stdout, /checked: 12 of 12 replays re-played and reproduce exactly/);
    assert.match(run.stdout, /checked: 12 of 12 matches of the plan \(double-round-robin, 3 entrants, 2 configurations\) are in the archive as planned/);
    assert.match(run.stdout, /checked: results.json equals the results recomputed from the replays/);
    assert.match(run.stdout, /^ok: .*good.tar.gz verifies/m);
    const json = await runCli(['contest', 'verify', '--json', goodPath]);
    assert.equal(json.code, 0, json.stderr);
    const printed = JSON.parse(json.stdout) as { contest: string; ok: boolean; checked: string[]; differences: string[] };
    assert.deepEqual([printed.contest, printed.ok, printed.checked.length, printed.differences], ['ttt-cup', true, 4, []]);
  });

  it("an edited result fails naming the match and the field; an edited standing names results.json's field", async () => {
    const a = await copy(good);
    const l = a.matches[5]!;
    const loser = l.players.findIndex((p) => p.rank === 2);
    assert.ok(loser >= 0, `match 5 has a loser: ${JSON.stringify(l.players)}`);
    l.players[loser]!.rank = 1;
    l.winner = null;
    l.draw = true;
    const run = await runCli(['contest', 'verify', save('edited-line.tar.gz', a)]);
    assert.equal(run.code, 1);
    assert.match(run.stderr, new RegExp(`match 5 \\(${l.key}\\): "winner" is null in matches.jsonl, ${1 - loser} in its replay`));
    assert.match(run.stderr, /match 5 .*: "draw" is true in matches.jsonl, false in its replay/);
    assert.match(run.stderr, new RegExp(`match 5 .*: players\\[${loser}\\]\\.rank: in matches.jsonl 1, in its replay 2`));
    assert.doesNotMatch(run.stderr, /results.json/, 'the results are recomputed from the replays, which still say who won');

    const b = await copy(good);
    const results = JSON.parse(b.results) as { standings: { name: string; points: number }[] };
    results.standings[1]!.points += 1;
    b.results = JSON.stringify(results, null, 2) + '\n';
    const run2 = await runCli(['contest', 'verify', save('edited-results.tar.gz', b)]);
    assert.equal(run2.code, 1);
    assert.match(run2.stderr, /results.json standings\[1\]\.points: published \d+(\.5)?, recomputed \d/);
    assert.match(run2.stdout, /checked: 12 of 12 replays re-played/);
  });

  it('an altered replay fails: it does not reproduce; one played by other time rules fails naming them', async () => {
    const a = await copy(good);
    const line = a.matches[2]!;
    const r = a.replays.get(line.replay)!;
    // The first move played elsewhere: a legal move, a different game.
    const first = r.turns.find((t) => t.phase !== 'init')!;
    const move = first.moves[0]!;
    move.action = ['0-0', '2-2'].find((cell) => cell !== move.action)!;
    a.replays.set(line.replay, r);
    const run = await runCli(['contest', 'verify', save('altered-replay.tar.gz', a)]);
    assert.equal(run.code, 1);
    assert.match(run.stderr, new RegExp(`match 2 \\(${line.key}\\): its replay ${line.replay} does not reproduce: turn \\d+`));

    // A replay played by other time rules than the contest's reproduces, but is not this contest's match.
    const b = await copy(good);
    const other = b.matches[4]!;
    const r2 = b.replays.get(other.replay)!;
    r2.timeouts.turnMs = 5000;
    b.replays.set(other.replay, r2);
    const run2 = await runCli(['contest', 'verify', save('other-rules.tar.gz', b)]);
    assert.equal(run2.code, 1);
    assert.match(run2.stderr, new RegExp(`match 4 \\(${other.key}\\): its replay was played with turnMs 5000; the contest's time rules say 2000`));

    // Time rules the definition does not have (a bank), and a seat played by another bot than the one frozen.
    const c = await copy(good);
    const banked = c.matches[5]!;
    const r3 = c.replays.get(banked.replay)!;
    r3.timeouts.bankMs = 60_000;
    r3.seats[0]!.bot = 'stdio:python3 someone-elses-bot.py';
    c.replays.set(banked.replay, r3);
    const run3 = await runCli(['contest', 'verify', save('other-bank.tar.gz', c)]);
    assert.equal(run3.code, 1);
    assert.match(run3.stderr, new RegExp(`match 5 \\(${banked.key}\\): its replay was played with bankMs 60000; the contest's time rules say null`));
    assert.match(run3.stderr, /match 5 .*seat 0 of its replay played "stdio:python3 someone-elses-bot.py"; entrant .* was frozen as/);
  });

  it('a missing, a repeated and an added match each fail, named', async () => {
    const a = await copy(good);
    const [gone] = a.matches.splice(7, 1);
    a.replays.delete(gone!.replay);
    const run = await runCli(['contest', 'verify', save('missing.tar.gz', a)]);
    assert.equal(run.code, 1);
    assert.match(run.stderr, new RegExp(`match 7 \\(${gone!.key}\\): in the plan, missing from the archive`));

    const b = await copy(good);
    b.matches.push({ ...b.matches[3]! });
    const run2 = await runCli(['contest', 'verify', save('twice.tar.gz', b)]);
    assert.equal(run2.code, 1);
    assert.match(run2.stderr, new RegExp(`match 3 \\(${b.matches[3]!.key}\\): index 3 is in matches.jsonl twice`));

    const c = await copy(good);
    const extra = { ...c.matches[0]!, index: 12, key: 'r1:c0:0-1:g0', matchId: 'ttt-cup-extra', replay: replayPath('ttt-cup-extra') };
    c.matches.push(extra);
    c.replays.set(extra.replay, c.replays.get(c.matches[0]!.replay)!);
    const verdict = verifyArchive(c);
    assert.equal(verdict.ok, false);
    assert.ok(
      verdict.differences.includes('match 12 (r1:c0:0-1:g0): no such match in the plan of this double-round-robin final (added)'),
      verdict.differences.join('\n'),
    );
  });

  it('a hostile archive is refused with a clear error and bounded cost', async () => {
    const refused = async (name: string, bytes: Buffer, words: RegExp, args: string[] = []) => {
      const t0 = Date.now();
      const run = await runCli(['contest', 'verify', save(name, bytes), ...args]);
      assert.equal(run.code, 2, `${name}: ${run.stderr}`);
      assert.match(run.stderr, words, name);
      assert.ok(Date.now() - t0 < 20_000, `${name}: refused in bounded time`);
    };
    const parts = gunzipSync(good);
    // A path going up a folder, an absolute one, a file no contest archive has.
    await refused(
      'up.tar.gz',
      tarGz([['../contest.json', Buffer.from('{}')]]),
      /contest archive .*up.tar.gz: the archive cannot be read: entry "..\/contest.json" goes up a folder/,
    );
    await refused('abs.tar.gz', tarGz([['/etc/passwd', Buffer.from('x')]]), /"\/etc\/passwd" is an absolute path/);
    await refused('stray.tar.gz', tarGz([['run.sh', Buffer.from('rm -rf /')]]), /holds "run.sh", which is no part of a contest archive/);
    // A gzip bomb: 64 MiB of zeros in one replay, refused at --max-mib 1 as soon as 1 MiB is passed.
    const bomb = tarGz([
      ['contest.json', Buffer.from('{}')],
      ['replays/x.json', Buffer.alloc(64 * 1024 * 1024)],
    ]);
    assert.ok(bomb.length < 1024 * 1024);
    await refused('bomb.tar.gz', bomb, /expands to more than 1 MiB/, ['--max-mib', '1']);
    // Not gzip at all; gzip but not tar; a broken contest.json; a deep replay.
    await refused('text.tar.gz', Buffer.from('hello'), /not gzip data/);
    await refused('notar.tar.gz', gzipSync(Buffer.from('hello world')), /cannot be read/);
    const a = await copy(good);
    (a.contest.definition as unknown as Record<string, unknown>).format = 'lottery';
    await refused(
      'def.tar.gz',
      writeArchive(a),
      /contest.json: contest: "format" must be one of round-robin, double-round-robin, swiss, knockout, got "lottery"/,
    );
    const b = await copy(good);
    (b.matches[4] as unknown as Record<string, unknown>).seats = [0, 9];
    await refused('seats.tar.gz', writeArchive(b), /matches.jsonl line 5: "seats" must be the two entrants by seat \(0..2\), got \[0,9\]/);
    const deep = '['.repeat(100_000) + ']'.repeat(100_000);
    await refused(
      'deep.tar.gz',
      tarGz([['replays/deep.json', Buffer.from(deep)], ...untar(parts).filter(([p]) => !p.startsWith('replays/'))]),
      /replays\/deep.json(: not a Botarena replay| is not valid JSON)/,
    );
    await refused('missing-file.tar.gz', Buffer.alloc(0), /not gzip data|cannot be read/);
    // The caps on the file, its entries and each file inside, in process.
    await assert.rejects(readArchive(Buffer.alloc(2000), { compressedBytes: 1000 }), /the archive is 2000 bytes; at most 1000 bytes/);
    const many = tarGz(Array.from({ length: 20 }, (_, i) => [`replays/r${i}.json`, Buffer.from('{}')] as const));
    await assert.rejects(readArchive(many, { entries: 10 }), /the .tar.gz has more than 10 files; at most 10$/);
    await assert.rejects(
      readArchive(good, { fileBytes: 1000 }),
      /replays\/ttt-cup-\d+\.json is \d+ bytes; at most 1000 bytes a file|matches.jsonl is \d+ bytes/,
    );
  });
});

/** The files of an uncompressed tar written by tarGz (ustar, no long names). */
function untar(tar: Buffer): [string, Buffer][] {
  const out: [string, Buffer][] = [];
  for (let at = 0; at + 512 <= tar.length;) {
    const h = tar.subarray(at, at + 512);
    if (h.every((b) => b === 0)) break;
    const str = (from: number, len: number) =>
      h
        .subarray(from, from + len)
        .toString('utf8')
        .replace(/\0.*$/s, '');
    const prefix = str(345, 155);
    const path = prefix ? `${prefix}/${str(0, 100)}` : str(0, 100);
    const size = parseInt(str(124, 12), 8);
    out.push([path, Buffer.from(tar.subarray(at + 512, at + 512 + size))]);
    at += 512 + Math.ceil(size / 512) * 512;
  }
  return out;
}
