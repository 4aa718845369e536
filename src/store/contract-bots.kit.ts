import assert from 'node:assert/strict';
import { it } from 'node:test';
import { ConflictError, InvalidInputError, NotFoundError } from './errors.js';
import { activeBot, steppingClock, type Stores } from './fixtures.kit.js';
import { LIMITS } from './store.js';

/** Bots: registering, reading, editing, deleting, names, built-ins, and what a person may type. */
export function botsContract(stores: Stores): void {
  it('creates, reads, lists, edits and soft-deletes a bot', async () => {
    const clock = steppingClock(1000);
    const { store } = await stores.fresh({ clock: clock.now });
    const a = await store.createBot({
      game: 'tictactoe',
      name: 'alpha',
      endpoint: 'https://alpha.example/bot',
      description: 'plays the centre',
      ownerContact: 'a@example.org',
      tokenHash: 'scrypt$1$2',
      capacity: 3,
    });
    assert.equal(a.status, 'checking', 'a new bot is checked before it plays');
    assert.equal(a.builtin, false);
    assert.match(a.id, /^[0-9a-f-]{36}$/);
    assert.deepEqual(await store.getBot(a.id), a);
    assert.deepEqual(await store.getBotByName('tictactoe', 'alpha'), a);
    assert.equal(await store.getBotByName('connect4', 'alpha'), null);
    assert.equal(await store.getBot('no-such-id'), null);
    const b = await activeBot(store, 'beta');
    await activeBot(store, 'gamma', 'connect4');
    assert.deepEqual(
      (await store.listBots({ game: 'tictactoe' })).map((x) => x.name),
      ['alpha', 'beta'],
    );
    assert.deepEqual(
      (await store.listBots({ status: 'active' })).map((x) => x.name),
      ['gamma', 'beta'],
      'by game, then name',
    );
    assert.equal((await store.listBots({ limit: 1 })).length, 1);

    const report = JSON.stringify({ checks: [{ name: 'hello', status: 'pass' }] });
    const edited = await store.updateBot(a.id, {
      status: 'active',
      statusReason: null,
      doctorReport: report,
      endpoint: 'https://alpha.example/v2',
      capacity: 5,
    });
    assert.equal(edited.status, 'active');
    assert.equal(edited.doctorReport, report);
    assert.equal(edited.endpoint, 'https://alpha.example/v2');
    assert.equal(edited.capacity, 5);
    assert.equal(edited.description, 'plays the centre', 'what the patch leaves out stays');
    assert.ok(edited.updatedAt > a.updatedAt && edited.createdAt === a.createdAt);
    await assert.rejects(store.updateBot('no-such-id', { description: 'x' }), NotFoundError);

    assert.equal(await store.deleteBot(b.id), true);
    assert.equal(await store.deleteBot(b.id), false, 'deleted once');
    assert.equal((await store.getBot(b.id))!.status, 'deleted', 'kept, marked deleted');
    assert.equal(await store.getBotByName('tictactoe', 'beta'), null);
    assert.deepEqual(
      (await store.listBots({ game: 'tictactoe' })).map((x) => x.name),
      ['alpha'],
    );
    assert.deepEqual(
      (await store.listBots({ status: 'deleted' })).map((x) => x.name),
      ['beta'],
    );
    await assert.rejects(store.updateBot(b.id, { status: 'active' }), (e: Error) => e instanceof NotFoundError && /was deleted/.test(e.message));
  });

  it('keeps a name unique in its game among bots not deleted, and says so clearly', async () => {
    const { store } = await stores.fresh();
    const a = await activeBot(store, 'alpha');
    await activeBot(store, 'alpha', 'connect4');
    await assert.rejects(activeBot(store, 'alpha'), (e: Error) => {
      assert.ok(e instanceof ConflictError, String(e));
      assert.equal(e.kind, 'conflict');
      assert.equal(e.message, 'the tictactoe bot name "alpha" is taken: choose another name');
      return true;
    });
    const b = await activeBot(store, 'beta');
    await assert.rejects(store.updateBot(b.id, { name: 'alpha' }), (e: Error) => e instanceof ConflictError && /"alpha" is taken/.test(e.message));
    assert.equal((await store.getBot(b.id))!.name, 'beta', 'the refused rename changed nothing');
    await store.deleteBot(a.id);
    const again = await activeBot(store, 'alpha');
    assert.notEqual(again.id, a.id, "a deleted bot's name is free again");
  });

  it('registers the built-in bots once, keeps them up to date, and leaves a taken name to its bot', async () => {
    const { store } = await stores.fresh();
    const mine = await activeBot(store, 'minimax', 'connect4');
    const list = [
      { game: 'tictactoe', name: 'random', endpoint: 'random', description: 'built-in: a random cell' },
      { game: 'tictactoe', name: 'minimax', endpoint: 'minimax', description: 'built-in: perfect play' },
      { game: 'connect4', name: 'minimax', endpoint: 'minimax' },
    ];
    const first = await store.ensureBuiltinBots(list);
    assert.deepEqual(
      first.bots.map((b) => [b.game, b.name, b.builtin, b.status, b.tokenHash]),
      [
        ['tictactoe', 'random', true, 'active', null],
        ['tictactoe', 'minimax', true, 'active', null],
      ],
    );
    assert.deepEqual(first.conflicts, ['the connect4 bot "minimax" is a registered bot, so the built-in bot of that name is not registered']);
    assert.equal((await store.getBotByName('connect4', 'minimax'))!.id, mine.id);

    const [second, third] = await Promise.all([store.ensureBuiltinBots(list), store.ensureBuiltinBots(list)]);
    assert.deepEqual(
      second.bots.map((b) => b.id),
      first.bots.map((b) => b.id),
      'the same rows, not new ones',
    );
    assert.deepEqual(
      third.bots.map((b) => b.id),
      first.bots.map((b) => b.id),
    );
    assert.equal((await store.listBots({ game: 'tictactoe' })).length, 2);

    const updated = await store.ensureBuiltinBots([{ ...list[0]!, description: 'built-in: a random empty cell' }]);
    assert.equal(updated.bots[0]!.description, 'built-in: a random empty cell');
    await store.deleteBot(first.bots[1]!.id);
    assert.deepEqual(
      (await store.ensureBuiltinBots(list)).bots.map((b) => b.name),
      ['random'],
      'a built-in the admin deleted stays deleted',
    );
  });

  it('stores quotes, SQL-shaped text and any Unicode verbatim', async () => {
    const { store } = await stores.fresh();
    const names = [`O'Brien "the" \`bot\``, "x'); DROP TABLE bots; --", 'Robert"; DELETE FROM matches WHERE "1"="1', 'ünï ☃ 𝄞 بوت', '%_\\%'];
    for (const name of names) {
      const b = await store.createBot({
        game: 'tictactoe',
        name,
        endpoint: `stdio:python3 -c 'print("${name.length}")'`,
        description: `${name}\nline two\t'; SELECT * FROM bots; --`,
      });
      const back = (await store.getBotByName('tictactoe', name))!;
      assert.equal(back.id, b.id);
      assert.equal(back.name, name);
      assert.equal(back.description, b.description);
      assert.equal(back.endpoint, b.endpoint);
    }
    assert.equal((await store.listBots({ game: 'tictactoe' })).length, names.length, 'every table still there, every row found');
    assert.equal(await store.getBotByName('tictactoe', "' OR '1'='1"), null);
    assert.deepEqual(await store.listBots({ game: "tictactoe' OR '1'='1" }), []);
    assert.deepEqual((await store.listMatches({ game: "' OR 1=1 --", botId: "x' OR 'a'='a" })).items, []);
    assert.equal(await store.countMatches({ game: "') OR 1=1 --" }), 0);
  });

  it('refuses NUL characters, control characters in names, and texts over the limits, with the reason', async () => {
    const { store } = await stores.fresh();
    const refused = async (promise: Promise<unknown>, pattern: RegExp) =>
      assert.rejects(promise, (e: Error) => {
        assert.ok(e instanceof InvalidInputError, String(e));
        assert.match(e.message, pattern);
        return true;
      });
    await refused(
      store.createBot({ game: 'tictactoe', name: 'nul\0byte', endpoint: 'http://x' }),
      /^name: contains a NUL character \(\\u0000\) at position 3; remove it$/,
    );
    await refused(store.createBot({ game: 'tictactoe', name: 'ok', endpoint: 'http://x', description: 'a\0b' }), /^description: contains a NUL character/);
    await refused(
      store.createBot({ game: 'tictactoe', name: 'two\nlines', endpoint: 'http://x' }),
      /^name: contains the control character U\+000A at position 3/,
    );
    await refused(store.createBot({ game: 'tictactoe', name: '   ', endpoint: 'http://x' }), /^name: must not be empty$/);
    await refused(
      store.createBot({ game: 'tictactoe', name: 'n'.repeat(LIMITS.name + 1), endpoint: 'http://x' }),
      new RegExp(`^name: ${LIMITS.name + 1} characters is too long; at most ${LIMITS.name} are kept$`),
    );
    const tenMegabytes = 'd'.repeat(10 * 1024 * 1024);
    await refused(
      store.createBot({ game: 'tictactoe', name: 'big', endpoint: 'http://x', description: tenMegabytes }),
      /^description: 10485760 characters is too long; at most 10000 are kept$/,
    );
    await refused(
      store.createBot({ game: 'tictactoe', name: 'cap', endpoint: 'http://x', capacity: 0 }),
      /^capacity: expected an integer from 1 to 1000, got 0$/,
    );
    await refused(
      store.createBot({ game: 'tictactoe', name: 'st', endpoint: 'http://x', status: 'deleted' }),
      /^status: "deleted" is not one of checking, active, away, paused$/,
    );
    const ok = await activeBot(store, 'ok');
    await refused(store.updateBot(ok.id, { description: tenMegabytes }), /^description: 10485760 characters is too long/);
    await refused(store.updateBot(ok.id, { ownerContact: 'x\0' }), /^ownerContact: contains a NUL/);
    assert.equal((await store.listBots()).length, 1, 'nothing refused was stored');
    assert.equal((await store.getBot(ok.id))!.description, '');

    // Reasons are the arena's words: kept, cleaned and cut rather than refused.
    const paused = await store.updateBot(ok.id, { status: 'paused', statusReason: `bad\0reply ${'x'.repeat(LIMITS.reason * 2)}` });
    assert.equal(paused.statusReason!.length, LIMITS.reason);
    assert.ok(paused.statusReason!.startsWith('bad\uFFFDreply') && paused.statusReason!.endsWith('…'));
    // Looking up by a value no row can have finds nothing, without an error.
    assert.equal(await store.getBot('a\0b'), null);
    assert.equal(await store.getBot('x'.repeat(100_000)), null);
    assert.equal(await store.getMatch('\0'), null);
    assert.equal(await store.getReplay('\0'), null);
  });
}
