import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { UsageError } from '../core/errors.js';
import { buildReplay, REPLAY_FORMAT, type Replay } from '../core/replay.js';
import { playBuiltins } from '../core/self-play.js';
import { ENGINE_VERSION } from '../core/version.js';
import { getGame } from '../games/index.js';
import {
  ELO_START,
  eloDuels,
  eloK,
  EloLadder,
  expectedScore,
  MAX_RATED_PLAYERS,
  nameResults,
  outcomeFromJsonResult,
  outcomeFromReplay,
  readOutcomes,
  SkillLadder,
  type MatchOutcome,
} from './index.js';

/** A match of `game` from names and ranks, slot by slot. */
const match = (game: string, seats: [string, number][]): MatchOutcome => ({ game, players: seats.map(([name, rank]) => ({ name, rank })) });
const near = (actual: number, expected: number, what: string) => assert.ok(Math.abs(actual - expected) < 1e-9, `${what}: ${actual}, expected ${expected}`);

describe('ELO (botsarena §6)', () => {
  it('K from the pre-game rating: 80 below 1000, 50 below 2000, 30 up to 2400 inclusive, 20 above', () => {
    assert.deepEqual([999.999, 1000, 1999.999, 2000, 2400, 2400.001].map(eloK), [80, 50, 50, 30, 30, 20]);
    assert.equal(expectedScore(1500, 1500), 0.5);
    near(expectedScore(1600, 1200), 1 / (1 + 10 ** -1), '400 points ahead');
  });

  it('rates a sequence of duels symmetrically on unrounded ratings, K crossing 2000', () => {
    // By hand (E_A = 1/(1+10^((rB−rA)/400)), r' = r + K(r)·(S − E), K from each side's own rating before):
    // 1. A beats B, both 1500: E = ½, K 50 each → A 1525, B 1475.
    // 2. A draws B: E_A = 1/(1+10^(−50/400)) = 1/(1+0.7498942093) = 0.571463117408381
    //    → A = 1525 + 50·(0.5 − 0.571463117408381) = 1521.42684412958, B = 1475 + 50·(0.5 − 0.428536882591619) = 1478.57315587042.
    // 3. B beats C, C kept at 2010 (K 30): E_B = 1/(1+10^((2010 − 1478.57315587042)/400)) = 0.0448245601562235
    //    → B = 1478.57315587042 + 50·(1 − 0.0448245601562235) = 1526.33192786261,
    //      C = 2010 + 30·(0 − 0.9551754398437765) = 1981.34473680469 (now below 2000).
    // 4. C beats A: C's K is 50 now. E_C = 1/(1+10^((1521.42684412958 − 1981.34473680469)/400)) = 0.933856749990759
    //    → C = 1981.34473680469 + 50·0.066143250009241 = 1984.65189930515, A = 1521.42684412958 − 50·0.066143250009241 = 1518.11968162912.
    const ladder = new EloLadder();
    ladder.restore('tictactoe', { name: 'C', rating: 2010, games: 0, wins: 0, draws: 0, losses: 0 });
    ladder.rate(
      match('tictactoe', [
        ['A', 1],
        ['B', 2],
      ]),
    );
    assert.equal(ladder.rating('tictactoe', 'A'), 1525);
    assert.equal(ladder.rating('tictactoe', 'B'), 1475);
    ladder.rate(
      match('tictactoe', [
        ['B', 1],
        ['A', 1],
      ]),
    );
    near(ladder.rating('tictactoe', 'A'), 1521.42684412958, 'A after the draw');
    near(ladder.rating('tictactoe', 'B'), 1478.57315587042, 'B after the draw');
    ladder.rate(
      match('tictactoe', [
        ['C', 2],
        ['B', 1],
      ]),
    );
    near(ladder.rating('tictactoe', 'B'), 1526.33192786261, 'B after beating C');
    near(ladder.rating('tictactoe', 'C'), 1981.34473680469, 'C after losing at K 30');
    ladder.rate(
      match('tictactoe', [
        ['C', 1],
        ['A', 2],
      ]),
    );
    near(ladder.rating('tictactoe', 'C'), 1984.65189930515, 'C after winning at K 50');
    near(ladder.rating('tictactoe', 'A'), 1518.11968162912, 'A');
    const rows = ladder.table('tictactoe');
    assert.deepEqual(
      rows.map((r) => [r.name, r.games, r.wins, r.draws, r.losses]),
      [
        ['C', 2, 1, 0, 1],
        ['B', 3, 1, 1, 1],
        ['A', 3, 1, 1, 1],
      ],
    );
    assert.deepEqual(ladder.history('tictactoe', 'A', 'B'), { wins: 1, losses: 0, draws: 1 });
    assert.deepEqual(ladder.history('tictactoe', 'B', 'A'), { wins: 0, losses: 1, draws: 1 });
    assert.deepEqual(ladder.history('tictactoe', 'A', 'C'), { wins: 0, losses: 1, draws: 0 });
  });

  it('orders the duels of a many-player match lap by lap: draws within a lap, then its losses, slot by slot', () => {
    // Tron ranks [4,2,2,1]: slot 0 died first, slots 1 and 2 together later, slot 3 survived.
    assert.deepEqual(eloDuels([4, 2, 2, 1]), [
      { a: 0, b: 1, score: 0 },
      { a: 0, b: 2, score: 0 },
      { a: 0, b: 3, score: 0 },
      { a: 1, b: 2, score: 0.5 },
      { a: 1, b: 3, score: 0 },
      { a: 2, b: 3, score: 0 },
    ]);
    // The last two dying in the same lap draw; so do two dying together before them.
    assert.deepEqual(eloDuels([1, 3, 1, 3]), [
      { a: 1, b: 3, score: 0.5 },
      { a: 1, b: 0, score: 0 },
      { a: 1, b: 2, score: 0 },
      { a: 3, b: 0, score: 0 },
      { a: 3, b: 2, score: 0 },
      { a: 0, b: 2, score: 0.5 },
    ]);
    assert.deepEqual(eloDuels([2, 1]), [{ a: 0, b: 1, score: 0 }]);
    assert.deepEqual(eloDuels([1, 1]), [{ a: 0, b: 1, score: 0.5 }]);
  });

  it('rates a 4-bot Tron match with a same-lap death duel by duel, each from the ratings the last one left', () => {
    // Ranks [4,2,2,1] (D survives, B and C die in the same lap, A first), everyone at 1500, K 50 throughout:
    // 1. A loses to B: E_A = ½ → A 1475, B 1525.
    // 2. A loses to C: E_A = 1/(1+10^(25/400)) = 0.464084073054898 → A 1451.79579634726, C 1523.20420365274.
    // 3. A loses to D: E_A = 1/(1+10^(48.20420365274/400)) = 0.431070297223228 → A 1430.24228148609, D 1521.55351486116.
    // 4. B draws C: E_B = 1/(1+10^(−1.79579634726/400)) = 0.502584335673008 → B 1524.87078321635, C 1523.3334204364.
    // 5. B loses to D: E_B = 0.504773787853683 → B 1499.63209382367, D 1546.79220425385.
    // 6. C loses to D: E_C = 0.466291305868634 → C 1500.01885514296, D 1570.10676954728.
    const ladder = new EloLadder();
    ladder.rate(
      match('tron', [
        ['A', 4],
        ['B', 2],
        ['C', 2],
        ['D', 1],
      ]),
    );
    near(ladder.rating('tron', 'A'), 1430.24228148609, 'A');
    near(ladder.rating('tron', 'B'), 1499.63209382367, 'B');
    near(ladder.rating('tron', 'C'), 1500.01885514296, 'C');
    near(ladder.rating('tron', 'D'), 1570.10676954728, 'D');
    assert.deepEqual(
      ladder.table('tron').map((r) => [r.name, r.wins, r.draws, r.losses]),
      [
        ['D', 1, 0, 0],
        ['C', 0, 0, 1],
        ['B', 0, 0, 1],
        ['A', 0, 0, 1],
      ],
    );
    assert.deepEqual(ladder.history('tron', 'B', 'C'), { wins: 0, losses: 0, draws: 1 }, 'a same-lap draw counts once per pair');
    assert.deepEqual(ladder.history('tron', 'D', 'A'), { wins: 1, losses: 0, draws: 0 });

    // Ranks [1,3,1,3]: B and D die together, then A and C die together last (nobody survives: a shared first place).
    // 1. B draws D (½ at 1500: no change). 2. B loses to A → B 1475, A 1525. 3. B loses to C: E_B 0.464084073054898
    // → B 1451.79579634726, C 1523.20420365274. 4. D loses to A: E_D 0.464084073054898 → D 1476.79579634726, A 1548.20420365274.
    // 5. D loses to C: E_D 0.433607324798226 → D 1455.11543010734, C 1544.88456989266.
    // 6. A draws C: E_A 0.504777191634447 → A 1547.96534407102, C 1545.12342947438.
    const last = new EloLadder();
    last.rate(
      match('tron', [
        ['A', 1],
        ['B', 3],
        ['C', 1],
        ['D', 3],
      ]),
    );
    near(last.rating('tron', 'A'), 1547.96534407102, 'A');
    near(last.rating('tron', 'B'), 1451.79579634726, 'B');
    near(last.rating('tron', 'C'), 1545.12342947438, 'C');
    near(last.rating('tron', 'D'), 1455.11543010734, 'D');
    assert.deepEqual(
      last.table('tron').map((r) => [r.name, r.wins, r.draws, r.losses]),
      [
        ['A', 0, 1, 0],
        ['C', 0, 1, 0],
        ['D', 0, 0, 1],
        ['B', 0, 0, 1],
      ],
    );
  });

  it('never rates a bot against itself', () => {
    const ladder = new EloLadder();
    ladder.rate(
      match('connect4', [
        ['X', 1],
        ['X', 2],
      ]),
    );
    assert.deepEqual(ladder.table('connect4'), [], 'a duel of one name is neither rated nor counted');
    assert.equal(ladder.rating('connect4', 'X'), ELO_START);
    // X in slots 0 and 2 of a Tron match: X(0) loses to Y and to X(2) — only the first is rated — then X(2) loses to Y.
    // By hand: X 1500 → 1475, Y → 1525; then E_X = 1/(1+10^(50/400)) = 0.428536882591619 → X 1453.57315587042, Y 1546.42684412958.
    ladder.rate(
      match('tron', [
        ['X', 3],
        ['Y', 1],
        ['X', 2],
      ]),
    );
    near(ladder.rating('tron', 'X'), 1453.57315587042, 'X');
    near(ladder.rating('tron', 'Y'), 1546.42684412958, 'Y');
    assert.deepEqual(ladder.history('tron', 'X', 'X'), { wins: 0, losses: 0, draws: 0 });
    assert.deepEqual(ladder.history('tron', 'Y', 'X'), { wins: 2, losses: 0, draws: 0 });
    assert.deepEqual(
      ladder.table('tron').map((r) => [r.name, r.games, r.wins, r.losses]),
      [
        ['Y', 1, 1, 0],
        ['X', 1, 0, 1],
      ],
      'one match each, counted once',
    );
  });

  it('keeps ratings per game and per name', () => {
    const ladder = new EloLadder();
    ladder.rate(
      match('tictactoe', [
        ['A', 1],
        ['B', 2],
      ]),
    );
    ladder.rate(
      match('connect4', [
        ['A', 2],
        ['B', 1],
      ]),
    );
    assert.equal(ladder.rating('tictactoe', 'A'), 1525);
    assert.equal(ladder.rating('connect4', 'A'), 1475);
    assert.equal(ladder.rating('battleship', 'A'), ELO_START);
    assert.deepEqual(ladder.games(), ['tictactoe', 'connect4']);
    assert.deepEqual(ladder.history('connect4', 'A', 'B'), { wins: 0, losses: 1, draws: 0 });
  });
});

describe('OpenSkill', () => {
  it("raises the winner's ordinal and lowers the loser's", () => {
    const ladder = new SkillLadder();
    ladder.rate(
      match('connect4', [
        ['A', 2],
        ['B', 1],
      ]),
    );
    const [b, a] = ladder.table('connect4');
    assert.equal(b!.name, 'B');
    assert.ok(b!.ordinal > 0 && a!.ordinal < 0, `${b!.ordinal} > 0 > ${a!.ordinal}`);
    assert.ok(b!.mu > 25 && a!.mu < 25);
    assert.deepEqual([b!.games, b!.wins, a!.losses], [1, 1, 1]);
  });

  it('orders a 4-player ranking, and moves tied symmetric players alike', () => {
    const ladder = new SkillLadder();
    ladder.rate(
      match('tron', [
        ['A', 4],
        ['B', 2],
        ['C', 2],
        ['D', 1],
      ]),
    );
    const rows = ladder.table('tron');
    const [d, b, c, a] = ['D', 'B', 'C', 'A'].map((n) => ladder.rating('tron', n));
    assert.ok(d!.ordinal > b!.ordinal && b!.ordinal > a!.ordinal);
    assert.deepEqual(b, c, 'B and C died in the same lap from equal ratings: equal updates');
    assert.deepEqual(
      rows.map((r) => r.name),
      ['D', 'B', 'C', 'A'],
    );

    const tie = new SkillLadder();
    tie.rate(
      match('tictactoe', [
        ['A', 1],
        ['B', 1],
      ]),
    );
    const [x, y] = tie.table('tictactoe');
    assert.equal(x!.mu, y!.mu);
    assert.equal(x!.sigma, y!.sigma);
    assert.ok(x!.sigma < 25 / 3, 'a draw still teaches something');
    assert.equal(x!.draws, 1);
  });

  it('carries on from restored rows exactly as a ladder that rated the earlier matches itself', () => {
    const whole = new SkillLadder();
    whole.rate(
      match('connect4', [
        ['A', 2],
        ['B', 1],
      ]),
    );
    whole.rate(
      match('connect4', [
        ['B', 2],
        ['C', 1],
      ]),
    );
    const carried = new SkillLadder();
    for (const row of whole.table('connect4')) carried.restore('connect4', { ...row, ordinal: 0 });
    whole.rate(
      match('connect4', [
        ['A', 1],
        ['C', 2],
      ]),
    );
    carried.rate(
      match('connect4', [
        ['A', 1],
        ['C', 2],
      ]),
    );
    assert.deepEqual(carried.table('connect4'), whole.table('connect4'), 'the ordinal is recomputed from μ and σ');
  });

  it('rates a bot holding several seats once, at its best rank', () => {
    const dup = new SkillLadder();
    dup.rate(
      match('tron', [
        ['X', 3],
        ['Y', 1],
        ['X', 2],
      ]),
    );
    const plain = new SkillLadder();
    plain.rate(
      match('tron', [
        ['Y', 1],
        ['X', 2],
      ]),
    );
    assert.deepEqual(dup.table('tron'), plain.table('tron'));
    const self = new SkillLadder();
    self.rate(
      match('tron', [
        ['X', 1],
        ['X', 2],
      ]),
    );
    assert.deepEqual(self.table('tron'), []);
  });
});

describe('match outcomes', () => {
  const line = {
    index: 4,
    matchId: 't-4',
    round: 0,
    seats: [1, 0],
    game: 'connect4',
    seed: 9,
    turns: 20,
    winner: 1,
    draw: false,
    players: [
      { slot: 0, name: 'bot', bot: 'stdio:python3 bot.py', rank: 2, score: 0, fault: { turn: 20, kind: 'timeout', detail: 'no answer within 10000 ms' } },
      { slot: 1, name: 'minimax', bot: 'minimax', rank: 1, score: 1, fault: null },
    ],
    durationMs: 12.5,
    replay: 'replays/4.json.gz',
  };

  it("reads a tournament's result line, leaving its other fields alone", () => {
    assert.deepEqual(outcomeFromJsonResult(line), {
      game: 'connect4',
      matchId: 't-4',
      players: [
        { name: 'bot', rank: 2, score: 0, faultKind: 'timeout' },
        { name: 'minimax', rank: 1, score: 1, faultKind: null },
      ],
    });
    assert.deepEqual(
      readOutcomes(`${JSON.stringify(line)}\r\n\n  \n${JSON.stringify({ ...line, matchId: undefined })}\n`, 'r.jsonl').map((o) => o.matchId),
      ['t-4', undefined],
      'CRLF and blank lines are fine',
    );
  });

  it('reads a replay: seats, ranks, scores and faults (Tron: bots dying in the same lap share a rank)', () => {
    const game = getGame('tron');
    const config = { width: 8, height: 8 };
    const bots = ['random', 'random', 'stupid', 'voronoi'];
    const engine = playBuiltins(game, bots, 3, { config });
    const seats = bots.map((bot, slot) => ({ slot, name: `${bot}#${slot}`, bot }));
    const replay: Replay = buildReplay(
      {
        format: REPLAY_FORMAT,
        engineVersion: ENGINE_VERSION,
        game: 'tron',
        config: engine.config,
        seed: 3,
        matchId: 'm3',
        seats,
        timeouts: { initMs: 1000, turnMs: 1000 },
      },
      engine,
    );
    // Seed 3 on 8×8: slot 0 dies first, slots 1 and 2 on the same later lap, slot 3 survives.
    assert.deepEqual(replay.result.ranks, [4, 2, 2, 1]);
    assert.deepEqual(replay.result.scores, [4, 10, 10, 11], 'the score is the lap of death (the survivor: one more than the last lap)');
    const outcome = outcomeFromReplay(replay);
    assert.deepEqual(
      outcome.players.map((p) => [p.name, p.rank, p.score]),
      [
        ['random#0', 4, 4],
        ['random#1', 2, 10],
        ['stupid#2', 2, 10],
        ['voronoi#3', 1, 11],
      ],
    );
    assert.deepEqual(readOutcomes(JSON.stringify(replay, null, 2), 'm3.json'), [outcome], 'a replay spread over several lines');
    assert.deepEqual(readOutcomes(JSON.stringify(replay) + '\n', 'm3.json'), [outcome]);
    assert.deepEqual(
      nameResults(outcome).map((r) => r.result),
      ['loss', 'loss', 'loss', 'win'],
    );
  });

  /** Checks reading `text` fails with a UsageError matching `message`, short and quick whatever the input. */
  const refused = (text: string, message: RegExp) => {
    const t0 = performance.now();
    assert.throws(
      () => readOutcomes(text, 'in.jsonl'),
      (err: unknown) => {
        assert.ok(err instanceof UsageError, String(err));
        assert.match(err.message, message);
        assert.ok(err.message.length < 400, `a short message: ${err.message.length} characters`);
        return true;
      },
    );
    assert.ok(performance.now() - t0 < 2000, 'refused quickly');
  };
  const good = JSON.stringify(line);

  it('refuses hostile input with the file, the line and what was expected', () => {
    refused(
      `${good}\n${'x'.repeat(5 * 1024 * 1024)}\n`,
      /^in\.jsonl line 2 is longer than 1048576 characters \(1 MiB\).*expected one JSON match result per line/,
    );
    refused(`${good}\n{"game":"tron","players":[${'{"name":"a","rank":1},'.repeat(250_000)}{}]}\n`, /^in\.jsonl line 2 is longer than 1048576/);
    refused(`${good}\nhello world\n`, /^in\.jsonl line 2 is not valid JSON \(.*\); expected one JSON match result per line \(`botarena play --json` output/);
    refused(
      `${good}\n${good}\n{"game":"tron"}\n`,
      /^in\.jsonl line 3: "players" must be an array of the seats \{"slot","name","rank",…\} in slot order, got nothing$/,
    );
    refused(
      JSON.stringify({ game: 'tron', players: Array.from({ length: 1000 }, (_, i) => ({ name: `b${i}`, rank: 1 })) }),
      new RegExp(`^in\\.jsonl line 1: "players" must list 2 to ${MAX_RATED_PLAYERS} seats, got 1000$`),
    );
    refused(
      JSON.stringify({ ...line, players: [line.players[0], { ...line.players[1], rank: 'first' }] }),
      /^in\.jsonl line 1: "players\[1\]\.rank" must be an integer 1\.\.2 \(a place among the 2 seats\), got "first"$/,
    );
    refused(
      JSON.stringify({ ...line, players: [line.players[0], { ...line.players[1], rank: 3 }] }),
      /"players\[1\]\.rank" must be an integer 1\.\.2 .*got 3$/,
    );
    refused(JSON.stringify({ ...line, players: [line.players[0], { ...line.players[1], rank: 1.5 }] }), /"players\[1\]\.rank" must be an integer .*got 1\.5$/);
    refused(
      JSON.stringify({ ...line, players: [line.players[1], line.players[0]] }),
      /"players\[0\]\.slot" must be 0 \(the seats are listed in slot order\), got 1$/,
    );
    refused(
      JSON.stringify({ ...line, players: [line.players[0], { ...line.players[1], name: '' }] }),
      /"players\[1\]\.name" must be a name of 1 to 200 characters, got ""$/,
    );
    refused(
      JSON.stringify({ ...line, players: [line.players[0], { ...line.players[1], name: 'n'.repeat(100_000) }] }),
      /"players\[1\]\.name" must be a name of 1 to 200 characters, got "n+…$/,
    );
    refused(JSON.stringify({ ...line, players: [line.players[0], { ...line.players[1], fault: 'timeout' }] }), /"players\[1\]\.fault" must be null or a fault/);
    refused(JSON.stringify({ ...line, players: [line.players[0]] }), /"players" must list 2 to 64 seats, got 1$/);
    refused(JSON.stringify({ ...line, game: 7 }), /"game" must be a game id of 1 to 100 characters, got 7$/);
    refused('[1,2,3]', /^in\.jsonl line 1: expected a JSON object \(a match result with "game" and "players"\), got \[1,2,3\]$/);
    refused(
      `${good}\n{"format":"${REPLAY_FORMAT}","game":"tron"}\n`,
      /^in\.jsonl line 2: this is a replay, not a result line; give each replay as a file of its own$/,
    );
    refused('', /^in\.jsonl holds no match result; expected/);
    refused('\n \n', /^in\.jsonl holds no match result/);
  });

  it('refuses a broken replay naming the file and the field', () => {
    refused(`{"format":"${REPLAY_FORMAT}","game":"tron"}`, /^in\.jsonl: not a Botarena replay: "engineVersion" must be a string, got nothing$/);
    refused(`{"format":"botarena-replay/9"}`, /^in\.jsonl: not a Botarena replay: "format" is "botarena-replay\/9", expected "botarena-replay\/1"$/);
  });
});
