import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { runMatch } from '../src/arena/run-match.js';
import { replayConfig, verifyReplay } from '../src/core/replay.js';
import { assertReplayShape } from '../src/core/replay-shape.js';
import { getGame } from '../src/games/index.js';
import { ROOT } from './run-cli.js';

/**
 * Replays written by the runner before the typed phases and init rules (commit 00cb1d0), one per game
 * (whole-state fingerprints); and `*-chain*.json`, written at 4037ba9 with chained step fingerprints, one per
 * game that chains them (paint's also from a board with previous actions, and from a board whose turns_left
 * passes 2^31 with a player failing the hello): any change to what a game mixes into its chain fails these.
 */
const DIR = join(ROOT, 'test/fixtures/replays');

describe('replays written before the game API changed', () => {
  for (const file of readdirSync(DIR)
    .filter((f) => f.endsWith('.json'))
    .sort()) {
    it(`${file} still verifies, and the same seats and seed play it again step for step`, async () => {
      const replay: unknown = JSON.parse(readFileSync(join(DIR, file), 'utf8'));
      assertReplayShape(replay);
      const game = getGame(replay.game);
      verifyReplay(game, replay);
      if (replay.seats.some((s) => s.bot.startsWith('stdio:'))) return; // a program's answers are its own
      // The config it was played by: with the values of keys added since (smart-dog's fearHeading: false).
      const again = await runMatch({
        game: replay.game,
        seed: replay.seed,
        config: replayConfig(game, replay.config),
        seats: replay.seats.map((s) => ({ bot: s.bot })),
        timeouts: {},
      });
      // The same moves and the same result; the step fingerprints too, unless the game now chains them
      // (`hashes: "chain"`), whose new replay is then checked by verify instead.
      const sameScheme = (again.replay.hashes ?? 'state') === (replay.hashes ?? 'state');
      const plain = (turns: typeof replay.turns) =>
        turns.map(({ hash, ...t }) => ({ ...t, ...(sameScheme ? { hash } : {}), moves: t.moves.map(({ ms: _ms, ...m }) => m) }));
      assert.deepEqual(plain(again.replay.turns), plain(replay.turns));
      assert.deepEqual(again.replay.result, replay.result);
      if (!sameScheme) verifyReplay(game, again.replay);
    });
  }
});
