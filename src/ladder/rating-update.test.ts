import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { EloLadder, SkillLadder } from '../ratings/index.js';
import { rateFinishedMatch, type KeptRatings, type RatingUpdate } from './rating-update.js';

const seats = (...s: [string, number][]) => s.map(([botId, rank]) => ({ botId, rank }));

/** What a store keeps after applying an update (the rows, by bot). */
function keep(store: Map<string, KeptRatings>, u: RatingUpdate): void {
  for (const [id, { row }] of u.elo) store.set(id, { ...store.get(id), elo: row });
  for (const [id, { row }] of u.skill) {
    const { ordinal: _ordinal, ...rest } = row;
    store.set(id, { ...store.get(id), skill: rest });
  }
}

describe('rateFinishedMatch', () => {
  it("rates a 4-bot Tron match from fresh ratings as the spec's hand-computed duels say", () => {
    const u = rateFinishedMatch('tron', seats(['A', 4], ['B', 2], ['C', 2], ['D', 1]), new Map());
    const near = (id: string, want: number) => assert.ok(Math.abs(u.elo.get(id)!.row.rating - want) < 1e-9, `${id}: ${u.elo.get(id)!.row.rating} vs ${want}`);
    near('A', 1430.24228148609);
    near('B', 1499.63209382367);
    near('C', 1500.01885514296);
    near('D', 1570.10676954728);
    assert.equal(u.elo.get('A')!.before, 1500);
    assert.deepEqual(
      u.pairs.find((p) => p.botId === 'B' && p.opponentId === 'C'),
      { botId: 'B', opponentId: 'C', wins: 0, draws: 1, losses: 0 },
    );
    assert.deepEqual(
      u.pairs.find((p) => p.botId === 'D' && p.opponentId === 'A'),
      { botId: 'D', opponentId: 'A', wins: 1, draws: 0, losses: 0 },
    );
    assert.equal(u.pairs.length, 12, 'every ordered pair of the four');
  });

  it('match after match from kept rows gives what one ladder rating them all gives', () => {
    const matches = [seats(['a', 1], ['b', 2]), seats(['b', 1], ['c', 2]), seats(['a', 2], ['b', 1], ['c', 3], ['d', 1]), seats(['c', 1], ['a', 1])];
    const store = new Map<string, KeptRatings>();
    const elo = new EloLadder();
    const skill = new SkillLadder();
    for (const m of matches) {
      const u = rateFinishedMatch('tron', m, store);
      for (const [id, { before }] of u.elo) assert.equal(before, elo.rating('tron', id), `${id}'s rating before the match`);
      keep(store, u);
      const outcome = { game: 'tron', players: m.map((s) => ({ name: s.botId, rank: s.rank })) };
      elo.rate(outcome);
      skill.rate(outcome);
    }
    for (const row of elo.table('tron')) assert.deepEqual({ name: row.name, ...store.get(row.name)!.elo }, row);
    for (const row of skill.table('tron')) {
      assert.equal(store.get(row.name)!.skill!.mu, row.mu);
      assert.equal(store.get(row.name)!.skill!.sigma, row.sigma);
      assert.equal(store.get(row.name)!.skill!.games, row.games);
    }
  });

  it('never rates a bot against itself, and leaves a match of one bot in every seat unrated', () => {
    const u = rateFinishedMatch('tron', seats(['x', 1], ['y', 2], ['x', 3]), new Map());
    assert.deepEqual([...u.elo.keys()].sort(), ['x', 'y']);
    assert.equal(u.elo.get('x')!.row.games, 1, 'one match, once');
    assert.ok(u.pairs.every((p) => p.botId !== p.opponentId));
    const alone = rateFinishedMatch('tron', seats(['x', 1], ['x', 2]), new Map());
    assert.equal(alone.elo.size, 0);
    assert.equal(alone.skill.size, 0);
    assert.deepEqual(alone.pairs, []);
  });
});
