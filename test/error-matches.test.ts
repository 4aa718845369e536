import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { newJob } from '../src/arena/match-job.js';
import { runMatch } from '../src/arena/run-match.js';
import { recordFinishedMatch } from '../src/matches/play.js';
import { openStore } from '../src/store/open.js';
import type { BotRow } from '../src/store/store.js';
import { runCli } from './run-cli.js';

// A match that ended as an error (paint: a board player failed the ready handshake, so no turn was played)
// is not a game: neither rated nor scored anywhere, as `play` already says (issue 32 review). The player that
// failed is still named, with its fault.

const tmp = mkdtempSync(join(tmpdir(), 'botarena-error-matches-'));
after(() => rmSync(tmp, { recursive: true, force: true }));

/**
 * A paint board player that answers the hello with {"ready":1}: the rules end the match as an error. It answers at
 * once, so the hello's deadline is long (10 s costs nothing): a slow start on a loaded machine must not turn its
 * bad-answer into a timeout, nor a real bot's cold start fail the handshake.
 */
const UNREADY = `stdio:while read line; do echo '{"ready":1}'; done`;

describe('a match that ended as an error is neither rated nor scored', () => {
  it('rate skips it and says how many it skipped', async () => {
    const bad = await runCli(['play', 'paint', 'painter', UNREADY, '--seed', '1', '--init-timeout', '10000', '--json']);
    assert.equal(bad.code, 1, bad.stderr);
    assert.equal(JSON.parse(bad.stdout).error, 'unresponsive players: bob (slot 1)');
    const good = await runCli(['play', 'paint', 'random', 'painter', '--seed', '2', '--json']);
    assert.equal(good.code, 0, good.stderr);
    const file = join(tmp, 'results.jsonl');
    writeFileSync(file, bad.stdout + good.stdout);
    const r = await runCli(['rate', file]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^paint · 2 matches \(1 skipped: ended as an error, not rated\) · ELO$/m);
    // painter played one rated game (against random), not two: the error match did not count.
    assert.match(r.stdout, /^\d +painter +[\d.]+ +1 +\d-\d-\d$/m);
    assert.doesNotMatch(r.stdout, /while/);
    const json = JSON.parse((await runCli(['rate', file, '--json'])).stdout) as {
      games: { paint: { name: string; games: number }[] };
      skippedErrors: Record<string, number>;
    };
    assert.deepEqual(json.skippedErrors, { paint: 1 });
    assert.deepEqual(json.games.paint.map((row) => [row.name, row.games]).sort(), [
      ['painter', 1],
      ['random', 1],
    ]);
    // Only error matches: nothing to rate, and why.
    writeFileSync(file, bad.stdout);
    assert.match((await runCli(['rate', file])).stdout, /\(nothing to rate: every match ended as an error\)/);
  });

  it("tournament: no games, points or ratings from them; the failed player's faults are counted, and the matches", async () => {
    const r = await runCli(['tournament', 'paint', 'painter', 'random', UNREADY, '--games', '2', '--init-timeout', '10000', '--seed', '1', '--json']);
    assert.equal(r.code, 0, r.stderr);
    const t = JSON.parse(r.stdout) as {
      matches: number;
      errors: number;
      standings: { name: string; games: number; points: number; elo: number; faults: Record<string, number> }[];
    };
    assert.equal(t.errors, t.matches);
    assert.ok(t.matches >= 1);
    for (const s of t.standings) assert.deepEqual([s.name, s.games, s.points, s.elo], [s.name, 0, 0, 1500], s.name);
    assert.deepEqual(t.standings.find((s) => s.name === 'while')!.faults, { 'bad-answer': t.matches });
    const text = await runCli(['tournament', 'paint', 'painter', 'random', UNREADY, '--games', '2', '--init-timeout', '10000', '--seed', '1']);
    assert.match(
      text.stdout,
      new RegExp(
        `^${t.matches} of ${t.matches} matches ended as an error \\(a player failed the game's handshake; see each one's fault\\): they are neither scored nor rated$`,
        'm',
      ),
    );
  });

  it('knockout: the bot that failed the handshake does not go on, even as the better seed', async () => {
    // The unready bot is seed 1: with error games left out of the points both sides tied at 0, and the better
    // seed went on, crowning the bot that never played (issue 32, second review, item 1).
    const r = await runCli(['tournament', 'paint', UNREADY, 'painter', '--format', 'knockout', '--init-timeout', '10000', '--seed', '1', '--json']);
    assert.equal(r.code, 0, r.stderr);
    const t = JSON.parse(r.stdout) as { champion: string; matches: number; errors: number; standings: { name: string; games: number; points: number }[] };
    assert.equal(t.champion, 'painter');
    assert.equal(t.errors, t.matches);
    // Deciding the pairing scores nothing: the standings still leave the error games out.
    for (const s of t.standings) assert.deepEqual([s.name, s.games, s.points], [s.name, 0, 0]);
    const text = await runCli(['tournament', 'paint', UNREADY, 'painter', '--format', 'knockout', '--init-timeout', '10000', '--seed', '1']);
    assert.match(text.stdout, /; champion: painter$/m);
  });

  it('ab: the pairs are left out of the counts and the test, and the report says how many games', async () => {
    const r = await runCli(['ab', 'paint', UNREADY, 'painter', '--max-games', '4', '--init-timeout', '10000', '--json']);
    assert.equal(r.code, 3, r.stderr);
    const ab = JSON.parse(r.stdout) as {
      games: number;
      errors: number;
      wins: number;
      losses: number;
      pentanomial: number[];
      faults: { candidate: Record<string, number> };
    };
    assert.deepEqual(
      { games: ab.games, errors: ab.errors, wins: ab.wins, losses: ab.losses, pentanomial: ab.pentanomial },
      { games: 4, errors: 4, wins: 0, losses: 0, pentanomial: [0, 0, 0, 0, 0] },
    );
    assert.deepEqual(ab.faults.candidate, { 'bad-answer': 4 });
    const text = await runCli(['ab', 'paint', UNREADY, 'painter', '--max-games', '4', '--init-timeout', '10000']);
    assert.match(text.stdout, /^4 of 4 games were in pairs where a match ended as an error .*: the counts and the test leave them out$/m);
  });

  it("the server records it, with the failed player's fault for the pause rule, and changes no rating", async () => {
    const store = await openStore(join(tmp, 'arena.sqlite'));
    try {
      const bot = (name: string, endpoint: string) =>
        store.createBot({ game: 'paint', name, endpoint, status: 'active', tokenHash: 'scrypt$salt$hash', capacity: 2, ownerContact: 'owner@example.org' });
      const bots: BotRow[] = [await bot('good', 'stdio:node examples/paint-node/bot.mjs'), await bot('unready', UNREADY)];
      const job = newJob({ game: 'paint', seats: bots.map((b) => ({ bot: b.endpoint, name: b.name })), seed: 1, timeouts: { initMs: 10_000 } });
      const m = await store.createMatch({
        game: 'paint',
        kind: 'ladder',
        rated: true,
        seed: job.seed,
        config: job.config,
        job: { game: 'paint', seats: job.seats },
        seats: bots.map((b) => b.id),
      });
      assert.ok(await store.startMatch(m.id));
      const { replay } = await runMatch({ ...job, matchId: m.id });
      assert.equal(replay.result.error, 'unresponsive players: bob (slot 1)');
      const { stored, seats } = await recordFinishedMatch(store, { ...job, matchId: m.id }, bots, replay, true);
      assert.ok(stored);
      assert.equal(seats[1]!.fault?.kind, 'bad-answer');
      for (const b of bots) assert.deepEqual(await store.ratingsOf(b.id), [], `${b.name} was rated`);
      const recent = await store.recentOutcomes(bots[1]!.id, 10);
      assert.deepEqual(
        recent.map((o) => [o.matchId, o.fault?.kind]),
        [[m.id, 'bad-answer']],
      );
      assert.equal((await store.getMatch(m.id))!.status, 'finished');
    } finally {
      await store.close();
    }
  });
});
