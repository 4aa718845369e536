import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { it } from 'node:test';
import { NotFoundError } from './errors.js';
import { rateFinishedMatch } from '../ladder/rating-update.js';
import { activeBot, finishOf, running, steppingClock, type Stores } from './fixtures.kit.js';

const code = (text: string) => {
  const bytes = Buffer.from(`botarena-code 1\n- ${text.length} bot.py\n${text}\n`);
  return { code: bytes, sha256: createHash('sha256').update(bytes).digest('hex'), expanded: text.length };
};
const version = (text: string) => {
  const c = code(text);
  return { ...c, language: 'python3', spec: `upload:python3:${c.sha256} entry=bot.py` };
};

/** Uploaded code: versions numbered per bot, checked, refused or made the bot's active one; bytes kept exactly. */
export function versionsContract(stores: Stores): void {
  it("numbers a bot's versions, keeps their bytes, and makes one active with the bot's endpoint in one step", async () => {
    const { store } = await stores.fresh({ clock: steppingClock(1000).now });
    const bot = await activeBot(store, 'uploaded');
    assert.equal(bot.activeVersion, null, 'a bot has no version until one is uploaded');
    const v1 = await store.addBotVersion(bot.id, version('print(1)'));
    const v2 = await store.addBotVersion(bot.id, version('print(2)'));
    assert.deepEqual([v1.version, v2.version, v1.state, v1.report], [1, 2, 'checking', null]);
    assert.equal(v1.size, code('print(1)').code.length);
    assert.equal(v1.expanded, 8);
    assert.deepEqual(
      (await store.listBotVersions(bot.id)).map((v) => v.version),
      [2, 1],
      'newest first',
    );
    assert.deepEqual(await store.getBotVersion(bot.id, 1), v1);
    assert.equal(await store.getBotVersion(bot.id, 3), null);

    assert.equal(await store.activateBotVersion(bot.id, 1, '{"checks":[]}'), true);
    let now = (await store.getBot(bot.id))!;
    assert.equal(now.activeVersion, 1);
    assert.equal(now.endpoint, v1.spec, "the bot's seats are its active version's");
    assert.equal((await store.getBotVersion(bot.id, 1))!.state, 'active');

    assert.deepEqual(
      (await store.checkingVersions()).map((v) => v.version),
      [2],
      'only version 2 is still checking',
    );
    await store.refuseBotVersion(bot.id, 2, 'the doctor check failed: hello: crashed');
    assert.deepEqual(await store.checkingVersions(), [], 'a refused version is checked no more');
    now = (await store.getBot(bot.id))!;
    assert.equal(now.activeVersion, 1, 'a refused version never replaces the active one');
    assert.equal(now.endpoint, v1.spec);
    const refused = (await store.getBotVersion(bot.id, 2))!;
    assert.equal(refused.state, 'refused');
    assert.match(refused.report!, /crashed/);

    // The bytes come back exactly, by their hash (any bot's version that has them).
    const back = await store.versionCode(v2.sha256);
    assert.ok(back && back.equals(code('print(2)').code));
    assert.equal(await store.versionCode('0'.repeat(64)), null);
    assert.equal(await store.versionCode('not a hash'), null);
  });

  it("a new version's activation keeps the bot's ratings, or restarts them when asked (the first version's never does)", async () => {
    const { store } = await stores.fresh();
    const [a, b] = [await activeBot(store, 'rated-a'), await activeBot(store, 'rated-b')];
    for (const bot of [a, b]) await store.addBotVersion(bot.id, version(`print("${bot.name}")`));
    assert.equal(await store.activateBotVersion(a.id, 1, null, { restartRatings: true }), true);
    const m = await running(store, [a, b]);
    const seats = [
      { botId: a.id, rank: 1 },
      { botId: b.id, rank: 2 },
    ];
    assert.equal(await store.finishMatch(m.id, finishOf(m, [1, 2], { rate: (kept) => rateFinishedMatch('tictactoe', seats, kept) })), true);
    const rated = async () => (await store.leaderboard('tictactoe', 'elo')).map((r) => r.botId).sort();
    assert.deepEqual(await rated(), [a.id, b.id].sort());
    // Carry (the default): version 2 plays on with version 1's ratings.
    await store.addBotVersion(a.id, version('print("a2")'));
    assert.equal(await store.activateBotVersion(a.id, 2, null), true);
    assert.deepEqual(await rated(), [a.id, b.id].sort(), 'ratings carry on by default');
    // Restart: version 3 starts unrated; the opponent's ratings and the history stay.
    await store.addBotVersion(a.id, version('print("a3")'));
    assert.equal(await store.activateBotVersion(a.id, 3, null, { restartRatings: true }), true);
    assert.deepEqual(await rated(), [b.id], "a's ratings restarted: it is off the leaderboard until its next rated match");
    assert.equal((await store.ratingHistory(a.id, 'elo')).length, 1, 'its history stays');
    assert.equal((await store.getBot(a.id))!.activeVersion, 3);
  });

  it('refuses a version of a bot that is not there; a deleted bot is not activated', async () => {
    const { store } = await stores.fresh();
    await assert.rejects(store.addBotVersion('no-such-bot', version('x')), NotFoundError);
    const bot = await activeBot(store, 'gone');
    const v = await store.addBotVersion(bot.id, version('x'));
    await store.deleteBot(bot.id);
    await assert.rejects(store.addBotVersion(bot.id, version('y')), NotFoundError);
    assert.equal(await store.activateBotVersion(bot.id, v.version, null), false);
    assert.equal((await store.getBotVersion(bot.id, v.version))!.state, 'checking');
    assert.deepEqual(await store.checkingVersions(), [], "a deleted bot's versions are checked no more");
  });
}
