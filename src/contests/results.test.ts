import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkDefinition, checkEntrants, type ContestDefinition } from './definition.js';
import { planFinal, type PlannedMatch } from './plan.js';
import { contestResults, resultsJson, type ContestMatchLine } from './results.js';

const entrants = checkEntrants(['ann', 'bob', 'cid', 'dee'].map((name) => ({ name, bot: 'random', version: null })));

function contest(over: Record<string, unknown> = {}): ContestDefinition {
  return checkDefinition({
    id: 'cup',
    name: 'Cup',
    game: 'connect4',
    configs: [
      { label: 'a', config: {} },
      { label: 'b', config: {} },
    ],
    format: 'round-robin',
    gamesPerPairing: 2,
    timeRules: {},
    seed: 5,
    opensAt: '2026-12-01T18:00:00Z',
    closesAt: '2026-12-02T18:00:00Z',
    ...over,
  });
}

/** A match line: `ranks` by seat; a fault of `fault` kind for seat 0 when given. */
function line(m: PlannedMatch, ranks: [number, number], fault?: string): ContestMatchLine {
  return {
    index: m.index,
    key: m.key,
    round: m.round,
    config: m.config,
    seats: m.seats,
    matchId: `m${m.index}`,
    replay: `replays/m${m.index}.json`,
    game: 'connect4',
    seed: m.seed,
    turns: 9,
    winner: ranks[0] === ranks[1] ? null : ranks.indexOf(1),
    draw: ranks[0] === ranks[1],
    error: null,
    players: ranks.map((rank, slot) => ({
      slot,
      name: entrants[m.seats[slot]!]!.name,
      bot: 'random',
      rank,
      score: null,
      fault: fault && slot === 0 ? { turn: 3, kind: fault, detail: 'no answer in 100 ms' } : null,
    })),
    durationMs: 12,
  };
}

/** The lower entrant wins on configuration a; on b every game is drawn. */
const outcome = (m: PlannedMatch): [number, number] => (m.config === 'b' ? [1, 1] : m.seats[0] < m.seats[1] ? [1, 2] : [2, 1]);

describe('contest results', () => {
  it('standings with points, score and a bootstrap interval; the matrix; each configuration; faults', () => {
    const def = contest();
    const lines = planFinal(def, 4, []).matches.map((m) => line(m, outcome(m), m.index === 0 ? 'timeout' : undefined));
    const r = contestResults(def, entrants, lines);
    assert.equal(r.matches, 24);
    assert.deepEqual(
      r.standings.map((s) => [s.place, s.name, s.games, s.wins, s.draws, s.losses, s.points, s.score]),
      [
        [1, 'ann', 12, 6, 6, 0, 9, 0.75],
        [2, 'bob', 12, 4, 6, 2, 7, 0.583],
        [3, 'cid', 12, 2, 6, 4, 5, 0.417],
        [4, 'dee', 12, 0, 6, 6, 3, 0.25],
      ],
    );
    for (const s of r.standings) {
      assert.ok(s.interval && s.interval[0] <= s.score && s.score <= s.interval[1], `${s.name}: ${s.score} in ${s.interval}`);
      assert.ok(s.interval[1] - s.interval[0] < 0.6);
    }
    assert.deepEqual(r.standings[0]!.faults, { timeout: 1 });
    assert.deepEqual(r.matrix[0]![1], { games: 4, wins: 2, draws: 2, losses: 0, points: 3 });
    assert.deepEqual(r.matrix[1]![0], { games: 4, wins: 0, draws: 2, losses: 2, points: 1 });
    assert.deepEqual(r.matrix[2]![2], { games: 0, wins: 0, draws: 0, losses: 0, points: 0 });
    assert.deepEqual(
      r.perConfig.map((c) => [c.label, c.standings.map((s) => s.points)]),
      [
        ['a', [6, 4, 2, 0]],
        ['b', [3, 3, 3, 3]],
      ],
    );
    assert.deepEqual(r.perConfig[0]!.standings[0]!.faults, { timeout: 1 });
    assert.deepEqual(r.perConfig[1]!.standings[0]!.faults, {});
    const stray = { ...lines[0]!, index: 99, key: 'x', seats: [0, -1] };
    assert.equal(resultsJson(contestResults(def, entrants, [...lines, stray])), resultsJson(r), 'a line seating no entrant is left out');
  });

  it('deterministic and JSON-stable: the same lines in any order give the same bytes; the intervals stable under another bootstrap seed', () => {
    const def = contest({ gamesPerPairing: 4, configs: [{ label: 'a', config: {} }] });
    // Results that vary: the pair's first game won by the lower entrant, the second by seat 0.
    const lines = planFinal(def, 4, []).matches.map((m) => line(m, m.index % 3 === 0 ? [1, 1] : m.index % 2 ? [1, 2] : [2, 1]));
    const text = resultsJson(contestResults(def, entrants, lines));
    assert.equal(resultsJson(contestResults(def, entrants, [...lines].reverse())), text);
    // 2000 samples: another bootstrap seed gives the same ends to 3 decimals (the interval is stable, not noise).
    assert.deepEqual(
      contestResults({ ...def, seed: 6 }, entrants, lines).standings.map((s) => s.interval),
      (JSON.parse(text) as { standings: { interval: unknown }[] }).standings.map((s) => s.interval),
    );
  });

  it('level entrants share a place; a Swiss bye is worth a won pairing; a knockout ranks by the round each went out in', () => {
    const rr = contest({ configs: [{ label: 'a', config: {} }] });
    const drawn = planFinal(rr, 4, []).matches.map((m) => line(m, [1, 1]));
    assert.deepEqual(
      contestResults(rr, entrants, drawn).standings.map((s) => [s.place, s.name]),
      [
        [1, 'ann'],
        [1, 'bob'],
        [1, 'cid'],
        [1, 'dee'],
      ],
    );
    const three = entrants.slice(0, 3);
    const swiss = contest({ format: 'swiss', rounds: 1, configs: [{ label: 'a', config: {} }] });
    const plan = planFinal(swiss, 3, []);
    const r = contestResults(
      swiss,
      three,
      plan.matches.map((m) => line(m, outcome(m))),
    );
    const bye = r.standings.find((s) => s.byes === 1)!;
    assert.equal(bye.points, 2, 'a bye: the 2 games of a pairing won');
    assert.equal(bye.games, 0);
    assert.equal(bye.interval, null);
    const ko = contest({ format: 'knockout', configs: [{ label: 'a', config: {} }] });
    const lines: ContestMatchLine[] = [];
    // The lower entrant wins, except that dee beats everyone.
    for (let p = planFinal(ko, 4, lines); !p.done; p = planFinal(ko, 4, lines))
      for (const m of p.matches.slice(lines.length)) lines.push(line(m, m.seats.includes(3) ? (m.seats[0] === 3 ? [1, 2] : [2, 1]) : outcome(m)));
    const k = contestResults(ko, entrants, lines);
    assert.equal(k.champion, 3);
    assert.deepEqual(
      k.standings.map((s) => [s.place, s.name, s.out]),
      [
        [1, 'dee', null],
        [2, 'bob', 1],
        [3, 'ann', 0],
        [3, 'cid', 0],
      ],
    );
  });
});
