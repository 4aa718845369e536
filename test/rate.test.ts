import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { gunzipSync } from 'node:zlib';
import { EloLadder, outcomeFromJsonResult, readOutcomes, SkillLadder, type MatchOutcome } from '../src/ratings/index.js';
import { ROOT, runCli, type CliRun } from './run-cli.js';

// `botarena rate` end to end, on results and replays the built CLI writes (run `npm run build` first).

/** `botarena rate ARGS` from the sources (test/fixtures/rate/cli.ts: the command as main() runs it). */
function rate(args: string[]): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'test/fixtures/rate/cli.ts', 'rate', ...args], { cwd: ROOT });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d));
    child.stderr.on('data', (d: Buffer) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** Runs `botarena play ARGS --json` and returns its one result line. */
async function play(args: string[]): Promise<string> {
  const run = await runCli(['play', ...args, '--json']);
  assert.equal(run.code, 0, run.stderr);
  const lines = run.stdout.split('\n').filter(Boolean);
  assert.equal(lines.length, 1, run.stdout);
  return lines[0]!;
}

describe('botarena rate', () => {
  let dir = '';
  let plays = '';
  let tronReplay = '';
  let tttReplay = '';
  const lines: string[] = [];

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'botarena-rate-'));
    // Tic-tac-toe: a draw (seed 3), then minimax against random from either seat.
    lines.push(await play(['tictactoe', 'random', 'minimax', '--seed', '3']));
    lines.push(await play(['tictactoe', 'minimax', 'random', '--seed', '1']));
    lines.push(await play(['tictactoe', 'random', 'minimax', '--seed', '2']));
    lines.push(await play(['connect4', 'minimax', 'random', '--seed', '5']));
    plays = join(dir, 'plays.jsonl');
    writeFileSync(plays, lines.join('\n') + '\n');
    // Tron, 4 bots on 8×8, seed 3: random#0 dies first, random#1 and stupid on the same later lap, voronoi survives.
    tronReplay = join(dir, 'tron.json.gz');
    await play(['tron', 'random', 'random', 'stupid', 'voronoi', '--seed', '3', '--set', 'width=8', '--set', 'height=8', '--replay', tronReplay]);
    tttReplay = join(dir, 'ttt.json');
    await play(['tictactoe', 'minimax', 'random', '--seed', '4', '--replay', tttReplay]);
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('reads a real play --json line and a real replay', () => {
    const first = JSON.parse(lines[0]!) as unknown;
    assert.deepEqual(outcomeFromJsonResult(first), {
      game: 'tictactoe',
      players: [
        { name: 'random', rank: 1, score: 0.5, faultKind: null },
        { name: 'minimax', rank: 1, score: 0.5, faultKind: null },
      ],
    });
    const tron = readOutcomes(gunzipSync(readFileSync(tronReplay)).toString('utf8'), tronReplay);
    assert.equal(tron.length, 1);
    assert.equal(tron[0]!.game, 'tron');
    assert.equal(typeof tron[0]!.matchId, 'string');
    assert.deepEqual(
      tron[0]!.players.map((p) => [p.name, p.rank, p.score]),
      [
        ['random#0', 4, 4],
        ['random#1', 2, 10],
        ['stupid', 2, 10],
        ['voronoi', 1, 11],
      ],
    );
  });

  /** What the files hold, read and rated in the order `rate` takes them. */
  const outcomes = (): MatchOutcome[] => [
    ...readOutcomes(readFileSync(plays, 'utf8'), plays),
    ...readOutcomes(gunzipSync(readFileSync(tronReplay)).toString('utf8'), tronReplay),
    ...readOutcomes(readFileSync(tttReplay, 'utf8'), tttReplay),
  ];

  it('prints an ELO table per game, in the order the games first appear', async () => {
    const run = await rate([plays, tronReplay, tttReplay]);
    assert.equal(run.code, 0, run.stderr);
    assert.equal(run.stderr, '');
    const ladder = new EloLadder();
    for (const m of outcomes()) ladder.rate(m);
    const blocks = run.stdout.trimEnd().split('\n\n');
    assert.deepEqual(
      blocks.map((b) => b.split('\n')[0]),
      ['tictactoe · 4 matches · ELO', 'connect4 · 1 match · ELO', 'tron · 1 match · ELO'],
    );
    for (const [i, game] of ['tictactoe', 'connect4', 'tron'].entries()) {
      const rows = blocks[i]!.split('\n').slice(1);
      assert.match(rows[0]!, /^#\s+name\s+rating\s+games\s+W-D-L$/);
      const expected = ladder.table(game).map((r, k) => [String(k + 1), r.name, r.rating.toFixed(1), String(r.games), `${r.wins}-${r.draws}-${r.losses}`]);
      assert.deepEqual(
        rows.slice(1).map((r) => r.split(/\s{2,}/)),
        expected,
      );
    }
    // Tron: voronoi survived (beats all three), random#1 and stupid drew their lap, random#0 lost to everyone.
    assert.deepEqual(
      ladder.table('tron').map((r) => r.name),
      ['voronoi', 'stupid', 'random#1', 'random#0'],
    );
    assert.match(blocks[2]!, /^1\s+voronoi\s+1570\.1\s+1\s+1-0-0$/m);
    assert.match(blocks[2]!, /^4\s+random#0\s+1430\.2\s+1\s+0-0-1$/m);
  });

  it('--json: { system, games: { GAME: rows } } with unrounded ratings; --game keeps one game', async () => {
    const run = await rate(['--json', plays, tronReplay, tttReplay]);
    assert.equal(run.code, 0, run.stderr);
    const out = JSON.parse(run.stdout) as {
      system: string;
      games: Record<string, { name: string; rating: number; games: number; wins: number; draws: number; losses: number }[]>;
    };
    const ladder = new EloLadder();
    for (const m of outcomes()) ladder.rate(m);
    assert.deepEqual(out, { system: 'elo', games: { tictactoe: ladder.table('tictactoe'), connect4: ladder.table('connect4'), tron: ladder.table('tron') } });
    const one = await rate(['--json', '--game', 'tron', plays, tronReplay]);
    assert.equal(one.code, 0, one.stderr);
    assert.deepEqual(Object.keys((JSON.parse(one.stdout) as { games: object }).games), ['tron']);
  });

  it('--system openskill: ordinal with μ and σ, best first', async () => {
    const run = await rate(['--system', 'openskill', '--game', 'tron', tronReplay]);
    assert.equal(run.code, 0, run.stderr);
    const skill = new SkillLadder();
    for (const m of outcomes()) skill.rate(m);
    const rows = skill.table('tron');
    assert.deepEqual(
      rows.map((r) => r.name),
      ['voronoi', 'random#1', 'stupid', 'random#0'],
      'tied names by name',
    );
    assert.equal(
      run.stdout,
      `tron · 1 match · OpenSkill\n${[
        ['#', 'name', 'ordinal (μ, σ)', 'games', 'W-D-L'],
        ...rows.map((r, i) => [
          String(i + 1),
          r.name,
          `${r.ordinal.toFixed(1)} (μ ${r.mu.toFixed(1)} σ ${r.sigma.toFixed(1)})`,
          '1',
          `${r.wins}-${r.draws}-${r.losses}`,
        ]),
      ]
        .map((cells, _, all) =>
          cells
            .map((c, k) => c.padEnd(Math.max(...all.map((x) => x[k]!.length))))
            .join('  ')
            .trimEnd(),
        )
        .join('\n')}\n`,
    );
    const json = JSON.parse((await rate(['--system', 'openskill', '--json', tronReplay])).stdout) as {
      system: string;
      games: { tron: { name: string; rating: number; mu: number; sigma: number }[] };
    };
    assert.equal(json.system, 'openskill');
    assert.deepEqual(
      json.games.tron.map((r) => [r.name, r.rating, r.mu, r.sigma]),
      rows.map((r) => [r.name, r.ordinal, r.mu, r.sigma]),
    );
  });

  it("rates a tournament's results.jsonl in match order, as the tournament's own table does", async () => {
    // results.jsonl lists the matches as they finish (completion order under --concurrency); ELO depends on the
    // order, and `rate` used to follow the file's: its ratings differed a little from the tournament's.
    const out = join(dir, 'tournament');
    const run = await runCli([
      'tournament',
      'tictactoe',
      'random',
      'minimax',
      'random',
      '--games',
      '4',
      '--seed',
      '5',
      '--concurrency',
      '1',
      '--out',
      out,
      '--json',
    ]);
    assert.equal(run.code, 0, run.stderr);
    const table = JSON.parse(run.stdout) as { standings: { name: string; elo: number }[] };
    const results = join(out, 'results.jsonl');
    const lines = readFileSync(results, 'utf8').split('\n').filter(Boolean);
    writeFileSync(results, lines.reverse().join('\n') + '\n'); // as if they had finished last first
    const rated = await rate(['--json', results]);
    assert.equal(rated.code, 0, rated.stderr);
    const rows = (JSON.parse(rated.stdout) as { games: { tictactoe: { name: string; rating: number }[] } }).games.tictactoe;
    const elo = (rs: { name: string }[], f: (r: never) => number) => Object.fromEntries(rs.map((r) => [r.name, f(r as never)]));
    assert.deepEqual(
      elo(rows, (r: { rating: number }) => Math.round(r.rating * 10) / 10),
      elo(table.standings, (r: { elo: number }) => r.elo),
    );
  });

  it('two tournaments concatenated in one file: each in its match order, one after the other (not interleaved by index)', async () => {
    // A run of lines of one tournament is sorted by index; the tournaments keep their file order. The third has
    // the second's seed (the same match ids): an index that comes again starts another tournament.
    const files: string[] = [];
    for (const [seed, bots] of [
      ['5', ['random', 'minimax', 'random']],
      ['6', ['minimax', 'random']],
      ['6', ['random', 'random', 'minimax']],
    ] as const) {
      const out = join(dir, `concat-${files.length}`);
      const run = await runCli(['tournament', 'tictactoe', ...bots, '--games', '2', '--seed', seed, '--concurrency', '1', '--out', out]);
      assert.equal(run.code, 0, run.stderr);
      files.push(join(out, 'results.jsonl'));
    }
    const [a, b, c] = files.map((f) =>
      readFileSync(f, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as { index: number; matchId: string }),
    );
    const inOrder = [...a!, ...b!, ...c!].map((l) => l.matchId);
    // As if each had finished last match first.
    const both = join(dir, 'concat.jsonl');
    writeFileSync(
      both,
      [a!, b!, c!]
        .map((t) =>
          t
            .slice()
            .reverse()
            .map((l) => JSON.stringify(l) + '\n')
            .join(''),
        )
        .join(''),
    );
    assert.deepEqual(
      readOutcomes(readFileSync(both, 'utf8'), both).map((o) => o.matchId),
      inOrder,
    );
    // The CLI agrees with rating the three files one after the other.
    const together = await rate(['--json', both]);
    const apart = await rate(['--json', ...files]);
    assert.equal(together.code, 0, together.stderr);
    assert.equal(together.stdout, apart.stdout);
  });

  it('usage errors exit 2 naming the file, the line and what was expected', async () => {
    const bad = join(dir, 'bad.jsonl');
    writeFileSync(bad, `${lines[0]}\n${lines[1]}\n{"game":"tictactoe","players":[{"name":"a","rank":1},{"name":"b","rank":"2"}]}\n`);
    const cases: [string[], RegExp][] = [
      [[], /missing required argument 'files'/],
      [[join(dir, 'nope.jsonl')], /^botarena: cannot read results .*nope\.jsonl: ENOENT\n$/],
      [[dir], /^botarena: cannot read results .*: EISDIR \(it is a folder\)\n$/],
      [[plays, bad], /^botarena: .*bad\.jsonl line 3: "players\[1\]\.rank" must be an integer 1\.\.2 \(a place among the 2 seats\), got "2"\n$/],
      [['--game', 'paint', plays], /^botarena: --game paint: no match of that game in .*plays\.jsonl; they hold matches of tictactoe, connect4\n$/],
      [['--system', 'glicko', plays], /argument 'glicko' is invalid\. Allowed choices are elo, openskill/],
    ];
    for (const [args, message] of cases) {
      const run = await rate(args);
      assert.equal(run.code, 2, `${args.join(' ')}: ${run.stderr}`);
      assert.match(run.stderr, message);
      assert.equal(run.stdout, '', 'nothing rated is printed');
    }
    const gz = join(dir, 'bad.json.gz');
    writeFileSync(gz, Buffer.from([0x1f, 0x8b, 1, 2, 3]));
    const run = await rate([gz]);
    assert.equal(run.code, 2);
    assert.match(run.stderr, /^botarena: replay .*bad\.json\.gz is not valid gzip/);
  });

  it('is a command of the built CLI', async () => {
    const [built, source] = await Promise.all([runCli(['rate', plays, tronReplay]), rate([plays, tronReplay])]);
    assert.equal(built.code, 0, built.stderr);
    assert.equal(built.stdout, source.stdout);
  });
});
