import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { runMatch } from '../arena/run-match.js';
import type { Replay } from '../core/replay.js';
import { getGame } from '../games/index.js';
import { arenasFor, configForSeed, gameKey } from './vary.js';

describe('what a seed varies in many-match runs', () => {
  const lighthouses = getGame('lighthouses');

  it('picks a shipped lighthouses map from the seed, among those that seat the players, unless a map or position is chosen', () => {
    assert.deepEqual(arenasFor(lighthouses, {}, 2), ['islet', 'bay', 'cross', 'continent']);
    assert.deepEqual(arenasFor(lighthouses, {}, 3), ['bay', 'cross', 'continent'], 'islet has two start slots');
    assert.deepEqual(arenasFor(lighthouses, { map: 'islet' }, 2), []);
    assert.deepEqual(arenasFor(lighthouses, { position: '{"round":1}' }, 2), []);
    assert.deepEqual(arenasFor(lighthouses, { rounds: '30' }, 2).length, 4, 'other settings leave the map to the seed');
    assert.deepEqual(configForSeed(lighthouses, { rounds: '30' }, 2, 6), { rounds: '30', map: 'cross' });
    assert.deepEqual(configForSeed(lighthouses, { map: 'bay' }, 2, 6), { map: 'bay' });
    assert.equal(new Set(Array.from({ length: 40 }, (_, s) => configForSeed(lighthouses, {}, 2, s).map)).size, 4);
    assert.deepEqual(arenasFor(getGame('smartdog'), {}, 2), ['meadow', 'keeper', 'highlands'], 'not the one-player training map');
    for (const id of ['tictactoe', 'connect4', 'tron', 'battleship', 'paint'])
      assert.deepEqual(configForSeed(getGame(id), {}, 2, 9), {}, `${id}: the seed alone varies it`);
  });

  it('a game key is the same for the same game on another seed or with other timings, and differs with one move or seat', async () => {
    const { replay } = await runMatch({
      game: 'tictactoe',
      seats: [
        { bot: 'minimax', name: 'a' },
        { bot: 'random', name: 'b' },
      ],
      seed: 1,
    });
    const elsewhen: Replay = { ...replay, seed: 2, matchId: 'another', durationMs: 5 };
    assert.equal(gameKey(elsewhen), gameKey(replay), 'the same moves on another seed: the same game');
    const slower = structuredClone(replay);
    slower.turns.forEach((t) => t.moves.forEach((m) => (m.ms = 123)));
    assert.equal(gameKey(slower), gameKey(replay));
    const other = structuredClone(replay);
    other.turns[other.turns.length - 1]!.moves[0]!.action = 'elsewhere';
    assert.notEqual(gameKey(other), gameKey(replay));
    const renamed = structuredClone(replay);
    renamed.seats[0]!.name = 'c';
    assert.notEqual(gameKey(renamed), gameKey(replay), 'other bots: another game');
  });
});
