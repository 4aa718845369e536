import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkDefinition, checkEntrants, ContestDefinitionError, type ContestDefinition } from './definition.js';
import { expectedMatches, jobFor, planFinal, type PlannedMatch, type PlayedMatch } from './plan.js';

/** A definition as an organiser writes it, checked. */
function contest(over: Record<string, unknown> = {}): ContestDefinition {
  return checkDefinition({
    id: 'autumn-cup',
    name: 'Autumn cup',
    game: 'connect4',
    configs: [
      { label: 'classic', config: {} },
      { label: 'second', config: {} },
    ],
    format: 'round-robin',
    gamesPerPairing: 2,
    timeRules: { turnMs: 500 },
    seed: 42,
    opensAt: '2026-12-01T18:00:00Z',
    closesAt: '2026-12-02T18:00:00Z',
    ...over,
  });
}

/** A match played: the entrant with the lower index (the better seed) wins; `draw` makes every game a draw. */
function play(m: PlannedMatch, draw = false): PlayedMatch {
  const ranks = draw ? [1, 1] : m.seats[0] < m.seats[1] ? [1, 2] : [2, 1];
  return {
    key: m.key,
    seats: m.seats,
    error: null,
    players: ranks.map((rank, slot) => ({ slot, name: `e${m.seats[slot]}`, bot: 'x', rank, score: null, fault: null })),
  };
}

/** Plans, plays every match not yet played, and plans again until the final is done; returns each plan. */
function playOut(def: ContestDefinition, n: number, draw = false): ReturnType<typeof planFinal>[] {
  const played: PlayedMatch[] = [];
  const plans = [planFinal(def, n, played)];
  while (!plans[plans.length - 1]!.done) {
    const plan = plans[plans.length - 1]!;
    const known = new Set(played.map((p) => p.key));
    const fresh = plan.matches.filter((m) => !known.has(m.key));
    assert.ok(fresh.length, 'a plan that is not done has a match to play');
    played.push(...fresh.map((m) => play(m, draw)));
    plans.push(planFinal(def, n, played));
    assert.ok(plans.length < 50, 'the final ends');
  }
  return plans;
}

const pairOf = (m: PlannedMatch) => [...m.seats].sort((a, b) => a - b).join('-');

describe('contest definition', () => {
  it('keeps the fields in a fixed order and refuses what is wrong, naming the field and what is expected', () => {
    const def = contest();
    assert.deepEqual(Object.keys(def), ['id', 'name', 'game', 'configs', 'format', 'gamesPerPairing', 'timeRules', 'seed', 'opensAt', 'closesAt']);
    const refused = (over: Record<string, unknown>, field: string, words: RegExp) =>
      assert.throws(
        () => contest(over),
        (e: unknown) => e instanceof ContestDefinitionError && e.field === field && words.test(e.message),
        `${JSON.stringify(over).slice(0, 80)} → ${field}`,
      );
    refused({ game: 'chess' }, 'game', /one of the games: tictactoe, connect4/);
    refused({ format: 'ladder' }, 'format', /round-robin, double-round-robin, swiss, knockout/);
    refused({ rounds: 3 }, 'rounds', /swiss final only/);
    refused({ format: 'swiss', rounds: 0 }, 'rounds', /1 to 64/);
    refused({ gamesPerPairing: 1.5 }, 'gamesPerPairing', /whole number from 1 to 100/);
    refused({ seed: -1 }, 'seed', /0 to 4294967295/);
    refused({ configs: [] }, 'configs', /1 to 16/);
    refused({ configs: [{ label: 'a' }, { label: 'a' }] }, 'configs[1].label', /given twice/);
    refused({ configs: [{ label: 'huge', config: { board: 'x' } }] }, 'configs[0].config', /connect4/);
    refused({ configs: [{ label: 'a', config: { nope: 1 } }] }, 'configs[0].config', /nope/);
    refused({ timeRules: { turnMs: 0 } }, 'timeRules.turnMs', /1 to 3600000 ms/);
    refused({ timeRules: { strikes: 3, lag: 1 } }, 'timeRules.lag', /initMs, turnMs, firstMs, bankMs, strikes/);
    refused({ closesAt: '2026-11-30T00:00:00Z' }, 'closesAt', /after opensAt/);
    refused({ opensAt: 'tomorrow' }, 'opensAt', /ISO 8601/);
    refused({ owner: 'me' }, 'owner', /not a field of a contest/);
    assert.deepEqual(contest({ timeRules: { firstMs: 2000, bankMs: 1000, strikes: 2 } }).timeRules, { firstMs: 2000, bankMs: 1000, strikes: 2 });
  });

  it('entrants: 2 or more, unique names, a bot and a frozen version each', () => {
    assert.deepEqual(
      checkEntrants([
        { name: 'ann', bot: 'random', version: null },
        { name: 'bob', bot: 'http://127.0.0.1:1/', version: 'sha256:ab' },
      ]),
      [
        { name: 'ann', bot: 'random', version: null },
        { name: 'bob', bot: 'http://127.0.0.1:1/', version: 'sha256:ab' },
      ],
    );
    assert.throws(() => checkEntrants([{ name: 'ann', bot: 'random', version: null }]), /"entrants" must be a list of 2 to 256/);
    assert.throws(
      () =>
        checkEntrants([
          { name: 'ann', bot: 'random', version: null },
          { name: 'ann', bot: 'minimax', version: null },
        ]),
      /"entrants\[1\]\.name" "ann" is taken/,
    );
    assert.throws(() => checkEntrants([{ name: 'ann', bot: 'random', version: null }, { name: 'bob' }]), /"entrants\[1\]\.bot" must be a bot spec/);
  });
});

describe('the final plan', () => {
  it('round robin: every pairing on every configuration, each side first equally often, each pair of games on one seed, stable keys', () => {
    const def = contest();
    const plan = planFinal(def, 4, []);
    assert.equal(plan.matches.length, 6 * 2 * 2);
    assert.equal(plan.expected, 24);
    assert.equal(plan.done, false);
    assert.deepEqual(
      plan.matches.map((m) => m.index),
      plan.matches.map((_, i) => i),
    );
    assert.equal(new Set(plan.matches.map((m) => m.key)).size, plan.matches.length, 'every key once');
    assert.ok(plan.matches.some((m) => m.key === 'r0:c1:0-3:g1'));
    for (const config of ['classic', 'second']) {
      const here = plan.matches.filter((m) => m.config === config);
      const sides = new Map<string, number>();
      for (const m of here) sides.set(m.seats.join('>'), (sides.get(m.seats.join('>')) ?? 0) + 1);
      assert.equal(sides.size, 12, `${config}: every pairing, each side first`);
      assert.ok([...sides.values()].every((n) => n === 1));
      for (let i = 0; i < here.length; i += 2) {
        assert.equal(here[i]!.seed, here[i + 1]!.seed, 'both games of a pair share their seed');
        assert.deepEqual(here[i]!.seats, [...here[i + 1]!.seats].reverse(), 'with the seats swapped');
      }
    }
    const c0 = plan.matches.filter((m) => m.configIndex === 0).map((m) => m.seed);
    const c1 = plan.matches.filter((m) => m.configIndex === 1).map((m) => m.seed);
    assert.notDeepEqual(c0, c1, 'each configuration its own seeds');
    assert.deepEqual(planFinal(contest(), 4, []), plan, 'deterministic');
    assert.notDeepEqual(
      planFinal(contest({ seed: 43 }), 4, []).matches.map((m) => m.seed),
      plan.matches.map((m) => m.seed),
    );
    const plans = playOut(def, 4);
    assert.equal(plans.length, 2, 'all known at once; done once every match is played');
    assert.deepEqual(plans[1]!.matches, plan.matches);
  });

  it('double round robin: twice the games, sides swapped on one seed', () => {
    const def = contest({ format: 'double-round-robin', gamesPerPairing: 1, configs: [{ label: 'classic', config: {} }] });
    const plan = planFinal(def, 3, []);
    assert.equal(plan.matches.length, 3 * 2);
    assert.deepEqual(
      plan.matches.map((m) => [m.key, m.seats]),
      [
        ['r0:c0:0-1:g0', [0, 1]],
        ['r0:c0:0-1:g1', [1, 0]],
        ['r0:c0:0-2:g0', [0, 2]],
        ['r0:c0:0-2:g1', [2, 0]],
        ['r0:c0:1-2:g0', [1, 2]],
        ['r0:c0:1-2:g1', [2, 1]],
      ],
    );
    for (let i = 0; i < 6; i += 2) assert.equal(plan.matches[i]!.seed, plan.matches[i + 1]!.seed);
  });

  it('Swiss: a round is planned when the one before is played, no pairing twice, byes to different entrants, the plan only grows at its end', () => {
    const def = contest({ format: 'swiss', rounds: 3, configs: [{ label: 'classic', config: {} }] });
    const plans = playOut(def, 6);
    assert.equal(plans.length, 4);
    assert.deepEqual(
      plans.map((p) => p.matches.length),
      [6, 12, 18, 18],
    );
    for (let i = 1; i < plans.length; i++) assert.deepEqual(plans[i]!.matches.slice(0, plans[i - 1]!.matches.length), plans[i - 1]!.matches, 'a prefix');
    const last = plans[3]!;
    assert.equal(last.done, true);
    const pairings = new Set(last.matches.map((m) => `${m.round}/${pairOf(m)}`));
    const pairs = [...pairings].map((p) => p.split('/')[1]);
    assert.equal(new Set(pairs).size, pairs.length, 'no pairing twice');
    // Round 1 pairs the round-0 winners together (the better seeds won every game here).
    const r1 = last.matches.filter((m) => m.round === 1).map(pairOf);
    assert.ok(r1.includes('0-2') || r1.includes('0-1'), `round 1 pairs the leaders: ${r1}`);
    const odd = playOut(def, 5).at(-1)!;
    assert.equal(odd.byes.length, 3);
    assert.equal(new Set(odd.byes).size, 3, `a bye each to three entrants: ${odd.byes}`);
    odd.byes.forEach((bye, round) =>
      assert.ok(
        odd.matches.filter((m) => m.round === round).every((m) => !m.seats.includes(bye)),
        `round ${round}: ${bye} has a bye, no game`,
      ),
    );
  });

  it('knockout: seeded bracket, each round once the one before is decided, tiebreaks then the better seed', () => {
    const def = contest({ format: 'knockout', gamesPerPairing: 2 });
    const plans = playOut(def, 5);
    const last = plans.at(-1)!;
    assert.equal(last.champion, 0, 'the best seed wins when the better seed always wins');
    assert.equal(last.matches.length, 4 * 2 * 2, 'n − 1 pairings, each 2 games on 2 configurations');
    assert.deepEqual(last.matches.filter((m) => m.round === 0).map(pairOf), ['3-4', '3-4', '3-4', '3-4'], 'seeds 4 and 5 play first; the others have byes');
    assert.deepEqual([...new Set(last.matches.filter((m) => m.round === 2).map(pairOf))], ['0-1'], 'the first two seeds meet in the final');
    // Every game drawn: two tiebreaks of two games each (on the configurations in turn), then the better seed.
    const drawn = playOut(contest({ format: 'knockout', gamesPerPairing: 1 }), 2, true).at(-1)!;
    assert.deepEqual(
      drawn.matches.map((m) => m.key),
      ['r0:c0:0-1:g0', 'r0:c1:0-1:g0', 'r0:c0:0-1:t0:g0', 'r0:c0:0-1:t0:g1', 'r0:c1:0-1:t1:g0', 'r0:c1:0-1:t1:g1'],
    );
    assert.equal(drawn.champion, 0);
    assert.equal(drawn.done, true);
  });

  it('plans from hostile lines without failing: a line whose seats are not the planned ones counts for whom it seats', () => {
    const def = contest({ format: 'knockout', configs: [{ label: 'a', config: {} }] });
    const first = planFinal(def, 4, []).matches;
    const forged = first.map((m) => ({ ...play(m), seats: [9, 8] }));
    const plan = planFinal(def, 4, forged);
    assert.equal(plan.done, false, 'nobody scored: tiebreaks are planned');
    assert.ok(plan.matches.some((m) => m.key.includes(':t0:')));
  });

  it('refuses a final too large to plan, and builds the job of a match from the definition', () => {
    const def = contest({ gamesPerPairing: 100, configs: Array.from({ length: 16 }, (_, i) => ({ label: `m${i}`, config: {} })) });
    assert.equal(expectedMatches(def, 256), ((256 * 255) / 2) * 100 * 16);
    assert.throws(() => planFinal(def, 256, []), /at most 100000/);
    const small = contest();
    const m = planFinal(small, 2, []).matches[1]!;
    const entrants = checkEntrants([
      { name: 'ann', bot: 'random', version: null },
      { name: 'bob', bot: 'minimax', version: null },
    ]);
    assert.deepEqual(jobFor(small, entrants, m, 'c-1'), {
      game: 'connect4',
      config: {},
      seed: m.seed,
      seats: [
        { bot: 'minimax', name: 'bob' },
        { bot: 'random', name: 'ann' },
      ],
      timeouts: { turnMs: 500 },
      matchId: 'c-1',
    });
  });
});
