import assert from 'node:assert/strict';
import { it } from 'node:test';
import { gunzipSync, gzipSync } from 'node:zlib';
import { runMatch } from '../arena/run-match.js';
import { resultLine } from '../core/replay.js';
import { rateFinishedMatch } from '../ladder/rating-update.js';
import { EloLadder, SkillLadder } from '../ratings/index.js';
import { activeBot, eloChange, finishOf, running, type Stores } from './fixtures.kit.js';

/** Ratings, replays and reopening: what the store gives back is what was put in. */
export function ratingsContract(stores: Stores): void {
  it("keeps the ladder's ratings: leaderboards, histories, pair records, and a ladder restored from them", async () => {
    const { store } = await stores.fresh();
    const bots = [await activeBot(store, 'ann'), await activeBot(store, 'bob'), await activeBot(store, 'cid')];
    const [ann, bob, cid] = bots as [(typeof bots)[0], (typeof bots)[0], (typeof bots)[0]];
    const elo = new EloLadder();
    const skill = new SkillLadder();
    const games: [typeof ann, typeof ann, number[]][] = [
      [ann, bob, [1, 2]],
      [bob, cid, [1, 2]],
      [cid, ann, [1, 1]],
      [ann, cid, [1, 2]],
      [bob, ann, [2, 1]],
      [ann, bob, [1, 1]],
    ];
    for (const [x, y, ranks] of games) {
      const m = await running(store, [x, y]);
      const seats = [
        { botId: x.id, rank: ranks[0]! },
        { botId: y.id, rank: ranks[1]! },
      ];
      assert.equal(await store.finishMatch(m.id, finishOf(m, ranks, { rate: (kept) => rateFinishedMatch('tictactoe', seats, kept) })), true);
      const outcome = { game: 'tictactoe', players: seats.map((s) => ({ name: s.botId, rank: s.rank })) };
      elo.rate(outcome);
      skill.rate(outcome);
    }
    const board = await store.leaderboard('tictactoe', 'elo');
    assert.deepEqual(
      board.map((r) => [r.position, r.botId, r.rating, r.games, r.wins, r.draws, r.losses]),
      elo.table('tictactoe').map((r, i) => [i + 1, r.name, r.rating, r.games, r.wins, r.draws, r.losses]),
    );
    assert.ok(
      board.every((r, i) => i === 0 || board[i - 1]!.rating >= r.rating),
      'best first',
    );
    const os = await store.leaderboard('tictactoe', 'openskill');
    assert.deepEqual(
      os.map((r) => [r.botId, r.rating, r.mu, r.sigma]),
      skill.table('tictactoe').map((r) => [r.name, r.ordinal, r.mu, r.sigma]),
    );

    // A ladder restored from ratingsFor carries on exactly where the one that rated every match is.
    const restored = new EloLadder();
    for (const r of await store.ratingsFor('tictactoe', 'elo'))
      restored.restore('tictactoe', { name: r.botId, rating: r.rating, games: r.games, wins: r.wins, draws: r.draws, losses: r.losses });
    assert.deepEqual(restored.table('tictactoe'), elo.table('tictactoe'));
    const history = await store.ratingHistory(ann.id, 'elo');
    assert.equal(history.length, 5);
    assert.ok(
      history.every((h, i) => i === 0 || h.before === history[i - 1]!.after),
      'oldest first, each change from the last',
    );
    assert.equal(history[history.length - 1]!.after, elo.rating('tictactoe', ann.id));
    const h2h = await store.headToHead(ann.id);
    assert.deepEqual(
      h2h.map((h) => [h.opponentName, h.wins, h.draws, h.losses]),
      [bob, cid].map((o) => [o.name, elo.history('tictactoe', ann.id, o.id)] as const).map(([n, r]) => [n, r.wins, r.draws, r.losses]),
      'bob (3 games) before cid (2 games)',
    );

    await store.deleteBot(cid.id);
    assert.deepEqual((await store.leaderboard('tictactoe', 'elo')).map((r) => r.name).includes('cid'), false, 'a deleted bot leaves the leaderboard');
    assert.equal((await store.ratingsFor('tictactoe', 'elo')).length, 3, 'its rating is kept');
    assert.equal((await store.leaderboard('tictactoe', 'elo', 1)).length, 1);
    assert.deepEqual(await store.leaderboard('connect4', 'elo'), []);
    await assert.rejects(store.leaderboard('tictactoe', 'glicko' as 'elo'), /system: "glicko" is not one of elo, openskill/);
  });

  it("gives back a real replay and the owners' logs byte for byte", async () => {
    const { store } = await stores.fresh();
    const [a, b] = [await activeBot(store, 'alpha'), await activeBot(store, 'beta')];
    const m = await running(store, [a, b]);
    const { replay } = await runMatch({
      matchId: m.id,
      game: 'tictactoe',
      seed: 11,
      transcripts: true,
      seats: [
        { bot: 'random', name: 'alpha' },
        { bot: 'minimax', name: 'beta' },
      ],
    });
    const { transcripts, ...stored } = replay;
    const replayGz = gzipSync(JSON.stringify(stored));
    const logs = transcripts!.map((t, slot) => ({ slot, gz: gzipSync(JSON.stringify(t)) }));
    const result = resultLine(replay);
    const seats = result.players.map((p) => ({ slot: p.slot, botId: m.seats[p.slot]!.botId, name: p.name, rank: p.rank, score: p.score, fault: p.fault }));
    assert.equal(await store.finishMatch(m.id, { result, seats, replayGz, logs, ratingChanges: [eloChange(a.id, 0)] }), true);
    const back = (await store.getReplay(m.id))!;
    assert.ok(Buffer.isBuffer(back));
    assert.ok(back.equals(replayGz), 'the same bytes');
    assert.deepEqual(JSON.parse(gunzipSync(back).toString('utf8')), JSON.parse(JSON.stringify(stored)));
    for (const [slot, t] of transcripts!.entries()) assert.deepEqual(JSON.parse(gunzipSync((await store.getLogs(m.id, slot))!).toString('utf8')), t);
    assert.deepEqual((await store.getMatch(m.id))!.result, result);

    // Every byte value, and a megabyte of noise, come back as they went in.
    const m2 = await running(store, [a, b]);
    const every = Buffer.from(Array.from({ length: 4096 }, (_, i) => i % 256));
    const noise = Buffer.from(Array.from({ length: 1 << 20 }, (_, i) => (i * 2654435761) >>> 24));
    await store.finishMatch(
      m2.id,
      finishOf(m2, [1, 2], {
        replayGz: every,
        logs: [
          { slot: 0, gz: noise },
          { slot: 1, gz: new Uint8Array(0) },
        ],
      }),
    );
    assert.ok((await store.getReplay(m2.id))!.equals(every));
    assert.ok((await store.getLogs(m2.id, 0))!.equals(noise));
    assert.equal((await store.getLogs(m2.id, 1))!.length, 0);
  });

  it('keeps everything when reopened; opening again (at once, too) migrates nothing twice', async () => {
    const { store, url } = await stores.fresh();
    const [a, b] = [await activeBot(store, 'alpha'), await activeBot(store, 'beta')];
    const m = await running(store, [a, b]);
    await store.finishMatch(m.id, finishOf(m, [1, 2], { ratingChanges: [eloChange(a.id, 16), eloChange(b.id, -16)] }));
    const q = await running(store, [b, a]);
    const before = {
      bots: await store.listBots(),
      match: await store.getMatch(m.id),
      replay: await store.getReplay(m.id),
      board: await store.leaderboard('tictactoe', 'elo'),
      running: await store.getMatch(q.id),
    };
    await store.close();
    await store.close(); // closing twice is harmless
    const [again, alsoAgain] = await Promise.all([stores.open(url), stores.open(url)]);
    for (const s of [again, alsoAgain]) {
      assert.deepEqual(await s.listBots(), before.bots);
      assert.deepEqual(await s.getMatch(m.id), before.match);
      assert.ok((await s.getReplay(m.id))!.equals(before.replay!));
      assert.deepEqual(await s.leaderboard('tictactoe', 'elo'), before.board);
      assert.deepEqual(await s.getMatch(q.id), before.running);
    }
    await alsoAgain.close();
    assert.deepEqual(await again.abortRunning('restarted'), [q.id], 'what was running before is found after the restart');
  });
}
