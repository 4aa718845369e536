import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { gunzipSync } from 'node:zlib';
import { livePidsWith } from './processes.js';
import { ROOT, runCli } from './run-cli.js';

// `botarena tournament` and `botarena ab` as a user runs them: the built CLI, real bot processes, real files.

const PACE = 'test/fixtures/tournament/ttt-pace.py';
const pace = (seconds: number) => `stdio:python3 ${PACE} ${seconds}`;
const tmp = mkdtempSync(join(tmpdir(), 'botarena-tournament-'));
after(() => rmSync(tmp, { recursive: true, force: true }));

interface Line {
  index: number;
  matchId: string;
  round: number;
  seats: number[];
  seed: number;
  replay?: string;
  players: { name: string; rank: number; fault?: { kind: string } }[];
}

const resultsOf = (dir: string): Line[] =>
  readFileSync(join(dir, 'results.jsonl'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Line);

/** Starts the CLI without waiting for it; `ended` resolves with its exit code and output. */
function startCli(args: string[]): {
  child: ChildProcess;
  ended: Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>;
} {
  const child = spawn(process.execPath, ['bin/botarena', ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d: Buffer) => (stdout += d));
  child.stderr!.on('data', (d: Buffer) => (stderr += d));
  const ended = new Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>((resolve) =>
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr })),
  );
  return { child, ended };
}

/** Waits until the results file in `dir` has at least `n` lines (or fails after 30 s). */
async function untilResults(dir: string, n: number): Promise<void> {
  const t0 = Date.now();
  for (;;) {
    const file = join(dir, 'results.jsonl');
    if (existsSync(file) && readFileSync(file, 'utf8').split('\n').filter(Boolean).length >= n) return;
    assert.ok(Date.now() - t0 < 30_000, `no ${n} results in ${dir} after 30 s`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Waits up to 3 s for every process whose command line names the pace bot to be gone; returns those left. */
async function paceBotsLeft(): Promise<number[]> {
  // A bound, not a race: on a loaded 2-core machine four Python bots seeing their input close took over 3 s
  // to be gone (a CI run of 2926659); it returns as soon as they are.
  for (let i = 0; i < 400; i++) {
    if (livePidsWith(PACE).length === 0) return [];
    await new Promise((r) => setTimeout(r, 50));
  }
  return livePidsWith(PACE);
}

type Report = {
  game: string;
  format: string;
  seed: number;
  matches: number;
  champion?: string;
  standings: {
    name: string;
    bot: string;
    games: number;
    wins: number;
    draws: number;
    losses: number;
    points: number;
    byes: number;
    score: number | null;
    elo: number;
    eloMargin: number | null;
    openskill: { mu: number; sigma: number; ordinal: number } | null;
    faults: Record<string, number>;
  }[];
  headToHead: Record<string, Record<string, { wins: number; draws: number; losses: number }>>;
};

describe('botarena tournament', () => {
  const rr = ['tournament', 'tictactoe', pace(0.03), 'minimax', 'random', '--games', '4', '--seed', '7', '--concurrency', '2', '--name', '0=pace'];

  it('plays a round-robin in seat-swapped pairs on one seed, and prints standings, ratings, faults and head-to-head as JSON', async () => {
    const out = join(tmp, 'rr-json');
    const run = await runCli([...rr, '--out', out, '--json', 'stdio:python3 test/fixtures/doctor/ttt.py illegal', '--name', '3=illegal']);
    assert.equal(run.code, 0, run.stderr);
    const report = JSON.parse(run.stdout) as Report;
    assert.equal(report.matches, 6 * 4, '4 bots, 6 pairings, 4 games each');
    assert.deepEqual(report.standings.map((s) => s.name).sort(), ['illegal', 'minimax', 'pace', 'random']);
    for (const s of report.standings) {
      assert.equal(s.games, 12, `${s.name} plays 4 games against each of 3 others`);
      assert.equal(s.wins + s.draws + s.losses, s.games);
      assert.ok(s.openskill && s.openskill.sigma > 0, `${s.name} has an OpenSkill rating with its uncertainty`);
    }
    const by = Object.fromEntries(report.standings.map((s) => [s.name, s]));
    assert.equal(by.minimax!.losses, 0, 'perfect play never loses');
    assert.equal(report.standings[0]!.name, 'minimax', 'the table is sorted by points');
    assert.equal(by.illegal!.faults['illegal-move'], 12, 'every game of the bot that plays an occupied cell ends in its fault, counted by kind');
    assert.equal(by.illegal!.losses, 12);
    for (const name of ['pace', 'minimax', 'random'])
      assert.deepEqual(by[name]!.faults, {}, `${name} has no fault: matches side by side on other threads leave its bots alone`);
    assert.ok(by.minimax!.elo > by.illegal!.elo);
    // head to head: each cell mirrors the other side's
    for (const a of Object.keys(report.headToHead)) {
      for (const [b, c] of Object.entries(report.headToHead[a]!)) {
        const mirror = report.headToHead[b]![a]!;
        assert.deepEqual([c.wins, c.draws, c.losses], [mirror.losses, mirror.draws, mirror.wins], `${a} vs ${b}`);
        assert.equal(c.wins + c.draws + c.losses, 4);
      }
    }
    // every pairing: games in pairs on one seed with the seats swapped
    const lines = resultsOf(out);
    assert.equal(lines.length, 24);
    const pairs = new Map<string, Line[]>();
    for (const l of lines) {
      const key = `${Math.min(...l.seats)}-${Math.max(...l.seats)}`;
      pairs.set(key, [...(pairs.get(key) ?? []), l]);
    }
    assert.equal(pairs.size, 6);
    for (const [key, games] of pairs) {
      assert.equal(games.length, 4, key);
      const bySeed = new Map<number, Line[]>();
      for (const g of games) bySeed.set(g.seed, [...(bySeed.get(g.seed) ?? []), g]);
      assert.equal(bySeed.size, 2, `${key}: two seeds, each played twice`);
      for (const [seed, two] of bySeed)
        assert.deepEqual(
          two.map((g) => g.seats.join()).sort(),
          [two[0]!.seats.join(), [...two[0]!.seats].reverse().join()].sort(),
          `${key} seed ${seed}: the seats swapped`,
        );
    }
    assert.equal(readdirSync(join(out, 'replays')).length, 24, 'every match keeps its replay');
    const replay = await runCli(['replay', 'verify', join(out, lines[0]!.replay!)]);
    assert.equal(replay.code, 0, replay.stderr);
  });

  it('prints a table, the head-to-head matrix and plain progress lines when stderr is not a terminal', async () => {
    const run = await runCli(['tournament', 'tictactoe', 'minimax', 'random', '--games', '2', '--seed', '3']);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stderr, /^tournament of tictactoe: minimax, random · round-robin · seed 3 · \d+ at once\n/);
    assert.match(run.stderr, /round-robin 2\/2 matches, [\d.]+\/min, ETA 0s, leader: minimax/);
    assert.match(run.stdout, /^tictactoe round-robin, seed 3: 2 matches\n/);
    assert.match(run.stdout, /#\s+bot\s+games\s+W-D-L\s+points\s+score\s+ELO\s+OpenSkill\s+faults/);
    assert.match(run.stdout, /head to head \(row against column\):/);
  });

  it('draws a progress bar with matches, rate, ETA and the leader on a terminal', async () => {
    // `script` (util-linux) gives the command a pseudo-terminal, as a person's shell would.
    const run = await new Promise<{ code: number | null; out: string }>((resolve) => {
      const child = spawn('script', ['-qec', 'bin/botarena tournament tictactoe minimax random --games 40 --seed 3', '/dev/null'], {
        cwd: ROOT,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let out = '';
      child.stdout.on('data', (d: Buffer) => (out += d));
      child.on('close', (code) => resolve({ code, out }));
    });
    assert.equal(run.code, 0, run.out);
    assert.match(run.out, /round-robin [█░]+ 40\/40 matches \| [\d.]+\/min \| ETA 0s \| leader: minimax \(\d+(\.5)? pts\)/);
    assert.match(run.out, /tictactoe round-robin, seed 3: 40 matches/);
    assert.doesNotMatch(run.out, /internal error/);
  });

  it('resumes a killed run where it stopped, to the same final table as a run never stopped', async () => {
    const whole = join(tmp, 'whole');
    const resumed = join(tmp, 'resumed');
    const uninterrupted = await runCli([...rr, '--out', whole, '--json']);
    assert.equal(uninterrupted.code, 0, uninterrupted.stderr);

    const first = startCli([...rr, '--out', resumed, '--json']);
    await untilResults(resumed, 4);
    first.child.kill('SIGKILL'); // a crash: nothing gets to clean up
    await first.ended;
    const kept = resultsOf(resumed).length;
    assert.ok(kept >= 4 && kept < 12, `the killed run kept ${kept} of 12 matches`);
    assert.deepEqual(await paceBotsLeft(), [], 'the bots of the killed run see their input close and exit');

    const again = await runCli([...rr, '--out', resumed, '--json']);
    assert.equal(again.code, 0, again.stderr);
    assert.match(again.stderr, new RegExp(`resuming: ${kept} matches already played`));
    const [a, b] = [JSON.parse(uninterrupted.stdout) as Report, JSON.parse(again.stdout) as Report];
    assert.deepEqual(b, a, 'the same standings, ratings and head-to-head');
    const norm = (lines: Line[]) =>
      lines.map(({ index, seats, seed, players }) => ({ index, seats, seed, ranks: players.map((p) => p.rank) })).sort((x, y) => x.index - y.index);
    assert.deepEqual(norm(resultsOf(resumed)), norm(resultsOf(whole)), 'the same matches with the same outcomes');
    assert.equal(readdirSync(join(resumed, 'replays')).length, 12);

    const done = await runCli([...rr, '--out', resumed, '--json']);
    assert.equal(done.code, 0, done.stderr);
    assert.deepEqual(JSON.parse(done.stdout), a, 'a finished tournament run again plays nothing and prints the same');
    assert.equal(resultsOf(resumed).length, 12);

    const other = await runCli([...rr.map((x) => (x === '7' ? '8' : x)), '--out', resumed]);
    assert.equal(other.code, 2);
    assert.match(other.stderr, /holds another tournament \(its seed differs\b/);
  });

  it('a results file cut off mid-line by a crash resumes; one damaged in the middle is refused, naming the line', async () => {
    const args = ['tournament', 'tictactoe', 'minimax', 'random', '--games', '6', '--seed', '9', '--json'];
    const out = join(tmp, 'damaged');
    const first = await runCli([...args, '--out', out]);
    assert.equal(first.code, 0, first.stderr);
    const file = join(out, 'results.jsonl');
    const text = readFileSync(file, 'utf8');
    const lines = text.split('\n').filter(Boolean);
    // a crash while appending: the last line is half written
    writeFileSync(file, lines.slice(0, 4).join('\n') + '\n' + lines[4]!.slice(0, 40));
    const resumed = await runCli([...args, '--out', out]);
    assert.equal(resumed.code, 0, resumed.stderr);
    assert.match(resumed.stderr, /resuming: 4 matches already played/);
    assert.deepEqual(JSON.parse(resumed.stdout), JSON.parse(first.stdout));
    assert.equal(readFileSync(file, 'utf8').split('\n').filter(Boolean).length, 6, 'the cut-off line was dropped and its match played again');
    // damage in the middle is not a crash: refuse rather than guess
    const good = readFileSync(file, 'utf8').split('\n').filter(Boolean);
    writeFileSync(file, [good[0], '{"index": "oops"', ...good.slice(1)].join('\n') + '\n');
    const refused = await runCli([...args, '--out', out]);
    assert.equal(refused.code, 2);
    assert.match(refused.stderr, /results\.jsonl line 2 is not a match result: \{"index": "oops"/);
    // a line that parses but seats a bot the tournament does not have
    const alien = { ...JSON.parse(good[1]!), seats: [0, 7] };
    writeFileSync(file, [good[0], JSON.stringify(alien), ...good.slice(2)].join('\n') + '\n');
    const bad = await runCli([...args, '--out', out]);
    assert.equal(bad.code, 2, bad.stderr);
    assert.match(bad.stderr, /results\.jsonl line 2 is not a match result/);
    // a match the schedule does not have
    writeFileSync(file, [...good, JSON.stringify({ ...JSON.parse(good[1]!), index: 99 })].join('\n') + '\n');
    const beyond = await runCli([...args, '--out', out]);
    assert.equal(beyond.code, 2, beyond.stderr);
    assert.match(beyond.stderr, /results\.jsonl has match 99, and this tournament has 6 matches \(0 to 5\): it belongs to another tournament/);
    // a huge line is refused just as clearly, without printing it whole
    writeFileSync(file, [good[0], 'x'.repeat(5_000_000), ...good.slice(1)].join('\n') + '\n');
    const huge = await runCli([...args, '--out', out]);
    assert.equal(huge.code, 2);
    assert.match(huge.stderr, /line 2 is not a match result: x{80}\n/);
    assert.ok(huge.stderr.length < 1000);
  });

  it('on Ctrl-C stops at once, shuts down every bot, says how to resume, and exits 130', async () => {
    const out = join(tmp, 'ctrl-c');
    const run = startCli(['tournament', 'tictactoe', pace(0.2), pace(0.2), 'random', '--games', '4', '--seed', '1', '--concurrency', '2', '--out', out]);
    await untilResults(out, 1);
    assert.ok(livePidsWith(PACE).length > 0, 'pace bots are playing');
    const t0 = Date.now();
    run.child.kill('SIGINT');
    const end = await run.ended;
    assert.equal(end.code, 130, end.stderr);
    assert.ok(Date.now() - t0 < 5000, `stopped in ${Date.now() - t0} ms`);
    assert.match(end.stderr, /stopped; every bot was shut down\. Run the same command again to resume/);
    assert.equal(end.stdout, '', 'no table for a stopped tournament');
    assert.deepEqual(await paceBotsLeft(), [], 'no bot process outlives the command');
    const lines = resultsOf(out);
    assert.ok(lines.length < 12);
    for (const l of lines) assert.ok(existsSync(join(out, l.replay!)), 'every kept result has its replay');
  });

  it('Swiss: never pairs two bots twice while another pairing is possible, and gives byes to different bots', async () => {
    const out = join(tmp, 'swiss');
    const run = await runCli([
      'tournament',
      'tictactoe',
      'minimax',
      'random',
      'random',
      'random',
      'random',
      '--format',
      'swiss',
      '--seed',
      '5',
      '--out',
      out,
      '--json',
    ]);
    assert.equal(run.code, 0, run.stderr);
    const report = JSON.parse(run.stdout) as Report;
    const lines = resultsOf(out);
    assert.equal(lines.length, 3 * 2 * 2, '5 bots: 3 rounds of 2 pairings, 2 games each');
    const met = new Set<string>();
    for (let round = 0; round < 3; round++) {
      const inRound = lines.filter((l) => l.round === round);
      const keys = new Set(inRound.map((l) => [...l.seats].sort().join('-')));
      assert.equal(keys.size, 2, `round ${round}: 2 pairings`);
      for (const k of keys) {
        assert.ok(!met.has(k), `round ${round} repeats the pairing ${k}`);
        met.add(k);
      }
      const seated = new Set(inRound.flatMap((l) => l.seats));
      assert.equal(seated.size, 4, `round ${round}: one bot sits out`);
    }
    assert.equal(report.standings.filter((s) => s.byes === 1).length, 3, 'three rounds, three different bots with a bye');
    assert.equal(
      report.standings.reduce((n, s) => n + s.games, 0),
      24,
    );
  });

  it('knockout: the stronger bot goes through, ties are played off, and the champion is named', async () => {
    const run = await runCli(['tournament', 'tictactoe', 'random', 'minimax', 'random', 'random', '--format', 'knockout', '--seed', '11', '--json']);
    assert.equal(run.code, 0, run.stderr);
    const report = JSON.parse(run.stdout) as Report;
    assert.equal(report.champion, 'minimax');
    const mm = report.standings.find((s) => s.name === 'minimax')!;
    assert.equal(mm.losses, 0);
    assert.ok(mm.games >= 4, 'minimax played the semi-final and the final');
    const human = await runCli(['tournament', 'tictactoe', 'random', 'minimax', 'random', 'random', '--format', 'knockout', '--seed', '11']);
    assert.match(human.stdout, /; champion: minimax\n/);
  });

  it('gauntlet: the first bot against each of the others', async () => {
    const out = join(tmp, 'gauntlet');
    const run = await runCli([
      'tournament',
      'connect4',
      'minimax',
      'random',
      'random',
      'random',
      '--format',
      'gauntlet',
      '--games',
      '2',
      '--seed',
      '2',
      '--out',
      out,
      '--json',
    ]);
    assert.equal(run.code, 0, run.stderr);
    const lines = resultsOf(out);
    assert.equal(lines.length, 3 * 2);
    for (const l of lines) assert.ok(l.seats.includes(0), `match ${l.index} seats ${l.seats.join()}: the first bot plays every match`);
    assert.deepEqual(new Set(lines.map((l) => l.seats.find((s) => s !== 0))), new Set([1, 2, 3]));
  });

  it('N-player games seat all the bots at once, each bot in each seat equally often', async () => {
    const out = join(tmp, 'tron');
    const bots = ['voronoi', 'stupid', 'random', 'random'];
    const run = await runCli(['tournament', 'tron', ...bots, '--games', '8', '--set', 'width=16', '--set', 'height=16', '--seed', '4', '--out', out, '--json']);
    assert.equal(run.code, 0, run.stderr);
    const lines = resultsOf(out);
    assert.equal(lines.length, 8);
    for (let seat = 0; seat < 4; seat++) {
      const counts = [0, 0, 0, 0];
      for (const l of lines) counts[l.seats[seat]!]!++;
      assert.deepEqual(counts, [2, 2, 2, 2], `seat ${seat}: every bot twice`);
    }
    for (const l of lines) assert.deepEqual([...l.seats].sort(), [0, 1, 2, 3], 'all four in every match');
    const report = JSON.parse(run.stdout) as Report;
    assert.deepEqual(
      report.standings.map((s) => s.games),
      [8, 8, 8, 8],
    );
    assert.deepEqual(report.standings.map((s) => s.name).sort(), ['random#2', 'random#3', 'stupid', 'voronoi']);
  });

  it("prints an all-bots tournament's points as a person reads them (thirds to two places)", async () => {
    // Four bots a match: a rank is worth 0, ⅓, ⅔ or 1 point, and the table printed 3.6666666666666665.
    const run = await runCli([
      'tournament',
      'tron',
      'random',
      'random',
      'stupid',
      'voronoi',
      '--games',
      '4',
      '--set',
      'width=8',
      '--set',
      'height=8',
      '--seed',
      '3',
      '--concurrency',
      '1',
    ]);
    assert.equal(run.code, 0, run.stderr);
    const rows = run.stdout
      .split('\n')
      .filter((l) => /^\d+ {2}/.test(l))
      .map((l) => l.split(/\s{2,}/));
    assert.equal(rows.length, 4, run.stdout);
    const points = rows.map((r) => r[4]!);
    for (const p of points) assert.match(p, /^\d+(\.\d\d?)?$/, run.stdout);
    assert.ok(
      points.some((p) => /\.(33|67)$/.test(p)),
      `thirds in this run: ${points.join(' ')}`,
    );
  });

  it('refuses what it cannot do with a clear message and exit 2', async () => {
    const cases: [string[], RegExp][] = [
      [['tournament', 'tictactoe', 'minimax'], /at least 2 bots/],
      [['tournament', 'tictactoe', 'minimax', 'random', '--name', '5=x'], /--name 5=…: the index must be 0 to 1/],
      [['tournament', 'tictactoe', 'minimax', 'random', '--rounds', '3'], /--rounds is for --format swiss/],
      [['tournament', 'tictactoe', 'minimax', 'random', '--out', 'package.json'], /--out package\.json is a file/],
      [['tournament', 'tictactoe', 'minimax', 'random', '--set', 'board=XXXX'], /board/],
      [['tournament', 'lighthouses', 'pass', 'pass', '--format', 'swiss'], /lighthouses|bots|2/],
    ];
    for (const [args, message] of cases) {
      const run = await runCli(args);
      assert.notEqual(run.code, 0, args.join(' '));
      assert.match(run.stderr, message, args.join(' '));
      assert.doesNotMatch(run.stderr, /at .*\.(ts|mjs):\d+/, 'no stack trace');
    }
  });
});

// Two deterministic lighthouses bots: the built-in planner, and a bot that passes every round.
const PASSER = 'stdio:node test/fixtures/lighthouses/fickle.mjs pass';

describe('tournaments and ab on games the seed cannot change (issue 32)', () => {
  it('ab does not decide on copies of one game: on a fixed map it says the games repeat and stops undecided (exit 3)', async () => {
    // Before: "H1 accepted, +871.6 Elo" after 19 pairs, every one a copy of the first.
    const run = await runCli(['ab', 'lighthouses', 'planner', PASSER, '--seed', '5', '--set', 'map=islet', '--set', 'rounds=30', '--json']);
    assert.equal(run.code, 3, run.stdout + run.stderr);
    const r = JSON.parse(run.stdout) as {
      decision: string | null;
      stopped: string | null;
      games: number;
      pairs: number;
      copies: number;
      pentanomial: number[];
      wins: number;
    };
    assert.equal(r.decision, null);
    assert.equal(r.stopped, 'copies');
    assert.equal(
      r.pentanomial.reduce((a, b) => a + b, 0),
      1,
      'only the first pair is evidence',
    );
    assert.equal(r.wins, 2, 'wins count the games that were not copies');
    assert.equal(r.copies, r.games - 2);
    assert.equal(r.pairs, 21, 'one pair, then 20 copies in a row');
    const text = await runCli(['ab', 'lighthouses', 'planner', PASSER, '--seed', '5', '--set', 'map=islet', '--set', 'rounds=30']);
    assert.equal(text.code, 3);
    assert.match(text.stdout, /\n40 of 42 games were identical copies of earlier ones, move for move: the counts and the test leave them out\n/);
    assert.match(text.stdout, /no decision: the last 20 pairs only repeated earlier games/);
    assert.doesNotMatch(text.stdout, /accepted/);
  });

  it('without a chosen map, the seed picks one of the shipped maps for each pair, and a tournament counts its copies', async () => {
    const dir = join(tmp, 'maps');
    const run = await runCli(['tournament', 'lighthouses', 'planner', PASSER, '--games', '16', '--seed', '3', '--set', 'rounds=30', '--out', dir, '--json']);
    assert.equal(run.code, 0, run.stderr);
    const lines = resultsOf(dir).sort((a, b) => a.index - b.index);
    const maps = lines.map((l) => (JSON.parse(gunzipSync(readFileSync(join(dir, l.replay!))).toString('utf8')) as { config: { map: string } }).config.map);
    for (let i = 0; i < maps.length; i += 2) assert.equal(maps[i], maps[i + 1], `the two games of pair ${i / 2} share the seed, so the map`);
    assert.ok(new Set(maps).size >= 3, `several maps over 8 pairs: ${maps.join(' ')}`);
    const report = JSON.parse(run.stdout) as Report & { copies: number };
    const distinct = new Set(maps.map((m, i) => `${m}/${i % 2}`)).size;
    assert.equal(report.copies, 16 - distinct, 'deterministic bots play one game per map and seat; the rest are copies');
    const fixed = await runCli(['tournament', 'lighthouses', 'planner', PASSER, '--games', '6', '--seed', '3', '--set', 'map=islet', '--set', 'rounds=30']);
    assert.equal(fixed.code, 0, fixed.stderr);
    assert.match(fixed.stdout, /\n4 of 6 matches were identical copies of earlier ones, move for move/);
    const ab = await runCli(['ab', 'lighthouses', 'planner', PASSER, '--seed', '5', '--set', 'rounds=30', '--json']);
    const r = JSON.parse(ab.stdout) as { pentanomial: number[] };
    assert.ok(r.pentanomial.reduce((a, b) => a + b, 0) >= 3, `ab counts one pair per map: ${r.pentanomial.join(' ')}`);
  });
});

describe('botarena ab', () => {
  it('stops early with H1 (exit 0) when the candidate is clearly stronger', async () => {
    const run = await runCli(['ab', 'tictactoe', 'minimax', 'random', '--seed', '1', '--json']);
    assert.equal(run.code, 0, run.stderr);
    const r = JSON.parse(run.stdout) as {
      decision: string;
      games: number;
      pairs: number;
      estimate: { elo: number; los: number };
      wins: number;
      losses: number;
      candidate: string;
      baseline: string;
      bots: { candidate: string; baseline: string };
    };
    assert.equal(r.decision, 'H1');
    // Named from their specs, as in every other command (issue 32: they were "candidate" and "baseline").
    assert.deepEqual([r.candidate, r.baseline, r.bots.candidate, r.bots.baseline], ['minimax', 'random', 'minimax', 'random']);
    assert.ok(r.games < 200, `decided after ${r.games} games`);
    assert.equal(r.games, r.pairs * 2);
    assert.equal(r.losses, 0);
    assert.ok(r.estimate.los > 0.99);
    const text = await runCli(['ab', 'tictactoe', 'minimax', 'random', '--seed', '1']);
    assert.equal(text.code, 0);
    assert.match(
      text.stdout,
      /^minimax vs random: \d+ games in \d+ pairs\ngames: minimax won \d+, drew \d+, lost 0 of \d+ against random\npairs counted: \d+; by minimax's points in the pair, 0: 0, ½: \d+, 1: \d+, 1½: \d+, 2: \d+\n/,
    );
    assert.match(text.stdout, /H1 accepted: minimax is better/);
    assert.match(text.stdout, /likelihood of superiority 100\.0 %/);
  });

  it('does not call a bot better than itself: H0 or undecided within the cap', async () => {
    const run = await runCli(['ab', 'tictactoe', 'random', 'random', '--seed', '2', '--max-games', '400', '--json']);
    assert.notEqual(run.code, 0, run.stdout);
    const r = JSON.parse(run.stdout) as { decision: string; games: number };
    assert.notEqual(r.decision, 'H1');
    assert.ok(r.games <= 400);
    assert.equal(run.code, r.decision === 'H0' ? 1 : 3);
  });

  it('plays both versions against --opponents and refuses nonsense bounds', async () => {
    const run = await runCli(['ab', 'connect4', 'minimax', 'random', '--opponents', 'random', '--seed', '3', '--max-games', '40', '--json']);
    assert.ok([0, 1, 3].includes(run.code!), run.stderr);
    const r = JSON.parse(run.stdout) as {
      opponents: string[];
      games: number;
      bots: { opponents: string[] };
      wins: number;
      baselineRecord: { wins: number; draws: number; losses: number };
    };
    assert.deepEqual(r.opponents, ['random#2'], 'the baseline and the opponent are both "random": told apart by their place');
    assert.deepEqual(r.bots.opponents, ['random']);
    const { wins, draws, losses } = r.baselineRecord;
    assert.equal(wins + draws + losses, r.games / 2, "the baseline's games against the opponent are counted too");
    const text = await runCli(['ab', 'connect4', 'minimax', 'random', '--opponents', 'random', '--seed', '3', '--max-games', '40']);
    // Each count says what it counts: games against the opponent for each version, pairs by the candidate's points.
    assert.match(
      text.stdout,
      /\ngames against random#2: minimax won \d+, drew \d+, lost \d+ of 20; random#1 won \d+, drew \d+, lost \d+ of 20\npairs counted: 20; by minimax's points in the pair, 0: \d+, ½: \d+, 1: \d+, 1½: \d+, 2: \d+\n/,
    );
    const bad = await runCli(['ab', 'tictactoe', 'minimax', 'random', '--elo0', '10', '--elo1', '5']);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /--elo1 \(5\) must be above --elo0 \(10\)/);
  });

  it('offers only the options it takes: no --out (a tournament has it)', async () => {
    const help = await runCli(['ab', '--help']);
    assert.equal(help.code, 0);
    assert.doesNotMatch(help.stdout, /--out/);
    // Every exit it can end with, the copies' stop and Ctrl-C's included (issue 32 review).
    const words = help.stdout.replace(/\s+/g, ' ');
    assert.match(
      words,
      /3: undecided, at --max-games or because the games only repeat \(a long run of pairs that copied earlier ones, move for move\); 130: stopped with Ctrl-C/,
    );
    assert.match((await runCli(['tournament', '--help'])).stdout, /--out <dir>/);
    const out = await runCli(['ab', 'tictactoe', 'minimax', 'random', '--out', join(tmp, 'ab-out')]);
    assert.equal(out.code, 2);
    assert.match(out.stderr, /unknown option '--out'/);
  });

  it('on Ctrl-C prints what the games played so far say, then exits 130', async () => {
    const run = startCli(['ab', 'tictactoe', pace(0.05), 'random', '--seed', '1', '--json']);
    let stderr = '';
    run.child.stderr!.on('data', (d: Buffer) => (stderr += d));
    // A progress line comes with each pair counted.
    for (const t0 = Date.now(); !/ab [1-9]\d*\/1000 matches/.test(stderr); await new Promise((r) => setTimeout(r, 50)))
      assert.ok(Date.now() - t0 < 30_000, `no pair counted after 30 s: ${stderr}`);
    run.child.kill('SIGINT');
    const end = await run.ended;
    assert.equal(end.code, 130, end.stderr);
    assert.match(end.stderr, /stopped; every bot was shut down\. Nothing was decided; below, what the pairs finished so far say/);
    const r = JSON.parse(end.stdout) as {
      stopped: string;
      decision: null;
      games: number;
      pairs: number;
      estimate: { elo: number };
      bots: { candidate: string };
    };
    assert.equal(r.stopped, 'interrupted');
    assert.equal(r.decision, null);
    assert.ok(r.games >= 2 && r.games === r.pairs * 2, `${r.games} games in ${r.pairs} pairs`);
    assert.equal(typeof r.estimate.elo, 'number');
    assert.equal(r.bots.candidate, pace(0.05));
    assert.deepEqual(await paceBotsLeft(), [], 'no bot process outlives the command');
  });
});
