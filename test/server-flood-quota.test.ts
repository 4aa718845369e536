import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import { resolveConfig } from '../src/core/config.js';
import { ApiError } from '../src/core/request-errors.js';
import { games } from '../src/games/index.js';
import { checkWork } from '../src/matches/launch.js';
import { AddressQuota, DEFAULT_ON_DEMAND_LIMITS } from '../src/matches/quota.js';
import { startServer, type RunningServer } from '../src/server/serve.js';
import { openStore } from '../src/store/index.js';
import { ROOT } from './run-cli.js';
import { apiClient, until } from './server.kit.js';

// The accounting behind `serve --max-matches-per-address`: a match holds its address's place from its request
// until it is over, whichever way it ends (finished, aborted, never created, a server restart, an end nobody
// announced), and the work cap (`--max-match-work`): every game's default passes, a 1000×1000 Tron of 12 bots
// does not. A real server on a real SQLite file, real bot processes.

const quiet = () => (process.env.SERVER_LOG ? process.stderr : new Writable({ write: (_c, _e, cb) => cb() }));
const ADMIN = 'admin-token-for-the-quota-test';
const dir = mkdtempSync(join(tmpdir(), 'botarena-quota-'));
const database = join(dir, 'arena.sqlite');
let server: RunningServer;
const api = apiClient(() => server.url);

const start = () =>
  startServer({
    port: 0,
    host: '127.0.0.1',
    database,
    logStream: quiet(),
    ladder: false,
    gateway: false,
    concurrency: 1,
    allowCommands: true,
    checkBots: false,
    adminToken: ADMIN,
    onDemand: { perAddress: 2 },
  });

/** A tictactoe bot that waits `s` seconds a move (a match of it lasts a few seconds). */
const pace = (s: number) => `stdio:python3 ${join(ROOT, 'test/fixtures/tournament/ttt-pace.py')} ${s}`;

async function ended(id: string): Promise<{ status: string; abortReason?: string }> {
  return until(
    `match ${id} to end`,
    async () => {
      const m = (await api('GET', `/api/matches/${id}`)).body as { status: string; abortReason?: string };
      return m.status === 'finished' || m.status === 'aborted' ? m : null;
    },
    60_000,
  );
}

before(async () => {
  server = await start();
  // A slow bot (0.4 s a move): a match of it lasts a few seconds.
  const reg = await api('POST', '/api/bots', { game: 'tictactoe', name: 'slow', endpoint: pace(0.4) });
  assert.equal(reg.status, 201, JSON.stringify(reg.body));
});

after(async () => {
  await server.close(0);
  rmSync(dir, { recursive: true, force: true });
});

describe('the per-address quota (--max-matches-per-address 2)', () => {
  it('frees the places of matches that finished', async () => {
    for (let round = 0; round < 2; round++) {
      const ids: string[] = [];
      for (let i = 0; i < 2; i++) {
        const r = await api('POST', '/api/matches', { game: 'tictactoe', seats: ['random', 'random'], seed: i });
        assert.equal(r.status, 201, `round ${round}: ${JSON.stringify(r.body)}`);
        ids.push(r.body!.id as string);
      }
      for (const id of ids) assert.equal((await ended(id)).status, 'finished');
    }
  });

  it('counts a slow match until it ends, refuses the next, and frees the place once it is over', async () => {
    const slow = await api('POST', '/api/matches', { game: 'tictactoe', seats: ['slow', 'random'], seed: 1 });
    assert.equal(slow.status, 201, JSON.stringify(slow.body));
    const slow2 = await api('POST', '/api/matches', { game: 'tictactoe', seats: ['slow', 'random'], seed: 2 });
    assert.equal(slow2.status, 201, JSON.stringify(slow2.body));
    const refused = await fetch(`${server.url}/api/matches`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ game: 'tictactoe', seats: ['random', 'random'] }),
    });
    assert.equal(refused.status, 429);
    assert.ok(Number(refused.headers.get('retry-after')) > 0, 'Retry-After says when to try again');
    const body = (await refused.json()) as { error: { status: number; code: string; message: string } };
    assert.equal(body.error.code, 'too-many-matches');
    assert.match(
      body.error.message,
      /^this address has 2 matches queued or under way, the most one client address may have at once on this server \(--max-matches-per-address 2\); wait for one to end/,
    );
    // The admin token is the operator's: not counted.
    const admin = await api('POST', '/api/matches', { game: 'tictactoe', seats: ['random', 'random'] }, ADMIN);
    assert.equal(admin.status, 201, JSON.stringify(admin.body));
    await ended(slow.body!.id as string);
    await ended(slow2.body!.id as string);
    const after = await api('POST', '/api/matches', { game: 'tictactoe', seats: ['random', 'random'] });
    assert.equal(after.status, 201, JSON.stringify(after.body));
    await ended(after.body!.id as string);
    await ended(admin.body!.id as string);
  });

  it('frees the place of a request that failed after it was counted (a bad seat), and of a match aborted (its bot deleted while it waited)', async () => {
    const reg = await api('POST', '/api/bots', { game: 'tictactoe', name: 'doomed', endpoint: pace(0.4) });
    assert.equal(reg.status, 201, JSON.stringify(reg.body));
    const { bot, token } = reg.body as { bot: { id: string }; token: string };
    // Failed requests hold nothing: many, then the quota is whole.
    for (let i = 0; i < 5; i++) {
      const bad = await api('POST', '/api/matches', { game: 'tictactoe', seats: ['nobody-of-that-name', 'random'] });
      assert.equal(bad.status, 400, JSON.stringify(bad.body));
    }
    // One plays (concurrency 1), the other waits queued; its bot is deleted meanwhile: it is aborted when its turn comes.
    const first = await api('POST', '/api/matches', { game: 'tictactoe', seats: ['doomed', 'random'], seed: 1 });
    const second = await api('POST', '/api/matches', { game: 'tictactoe', seats: ['doomed', 'random'], seed: 2 });
    assert.equal(first.status, 201, JSON.stringify(first.body));
    assert.equal(second.status, 201, JSON.stringify(second.body));
    assert.equal((await api('POST', '/api/matches', { game: 'tictactoe', seats: ['random', 'random'] })).status, 429);
    assert.equal((await api('DELETE', `/api/bots/${bot.id}`, undefined, token)).status, 204);
    const outcomes = [await ended(first.body!.id as string), await ended(second.body!.id as string)];
    assert.ok(
      outcomes.some((m) => m.status === 'aborted'),
      `a match of the deleted bot is aborted: ${JSON.stringify(outcomes)}`,
    );
    const after = await api('POST', '/api/matches', { game: 'tictactoe', seats: ['random', 'random'] });
    assert.equal(after.status, 201, `the aborted match freed its place: ${JSON.stringify(after.body)}`);
    await ended(after.body!.id as string);
  });

  it('frees every place at a restart: the matches left queued play again, counted against nobody', async () => {
    const a = await api('POST', '/api/matches', { game: 'tictactoe', seats: ['slow', 'random'], seed: 1 });
    const b = await api('POST', '/api/matches', { game: 'tictactoe', seats: ['slow', 'random'], seed: 2 });
    assert.equal(a.status, 201);
    assert.equal(b.status, 201);
    assert.equal((await api('POST', '/api/matches', { game: 'tictactoe', seats: ['random', 'random'] })).status, 429);
    await server.close(0);
    server = await start();
    const fresh = await api('POST', '/api/matches', { game: 'tictactoe', seats: ['random', 'random'] });
    assert.equal(fresh.status, 201, JSON.stringify(fresh.body));
    // a was running (aborted at the stop), b was queued: played again by the new run.
    assert.equal((await ended(a.body!.id as string)).status, 'aborted');
    assert.equal((await ended(b.body!.id as string)).status, 'finished');
    await ended(fresh.body!.id as string);
  });
});

describe('AddressQuota on a real store', () => {
  it('reads the store again at the limit: a match that ended unannounced frees its place; one still queued does not', async () => {
    const store = await openStore(join(dir, 'quota-unit.sqlite'));
    try {
      const make = async () => {
        const id = crypto.randomUUID();
        await store.createMatch({
          id,
          game: 'tictactoe',
          kind: 'challenge',
          rated: false,
          seed: 1,
          config: {},
          job: {},
          seats: [
            { botId: null, name: 'a' },
            { botId: null, name: 'b' },
          ],
        });
        return id;
      };
      const isOver = async (id: string) => {
        const m = await store.getMatch(id);
        return !m || (m.status !== 'queued' && m.status !== 'running');
      };
      const quota = new AddressQuota(2, isOver);
      const ids = [await make(), await make()];
      for (const id of ids) (await quota.take('10.0.0.1')).bind(id);
      await assert.rejects(quota.take('10.0.0.1'), (err: ApiError & { retryAfterS?: number }) => err.status === 429 && err.retryAfterS! > 0);
      // Another address is not affected; a cancelled ticket (a failed request) holds nothing.
      (await quota.take('10.0.0.2')).cancel();
      assert.equal(quota.count('10.0.0.2'), 0);
      // Ended in the store without anyone saying so (an abort the server did not announce).
      assert.ok(await store.abortMatch(ids[0]!, 'ended unannounced'));
      const t = await quota.take('10.0.0.1');
      assert.equal(quota.count('10.0.0.1'), 2, 'the aborted one is gone, the new request counts');
      t.cancel();
      // `ended` frees at once; unknown ids are ignored.
      quota.ended(ids[1]!);
      quota.ended('no-such-match');
      assert.equal(quota.count('10.0.0.1'), 0);
      assert.equal(quota.addresses, 0, 'nothing kept for addresses without matches');
    } finally {
      await store.close();
    }
  });
});

describe('the work cap (--max-match-work)', () => {
  it("passes every game's default config, at its fewest and most bots the default allows", () => {
    for (const [id, game] of Object.entries(games)) {
      for (const n of [game.players.min, Math.min(game.players.max, 12)]) {
        const full = resolveConfig(id, game.config, {});
        if (game.rules.validateConfig?.(full as never, n)) continue; // not a playable default for n bots
        assert.doesNotThrow(() => checkWork(game, {}, n, DEFAULT_ON_DEMAND_LIMITS.maxWork), `${id} with ${n} bots`);
      }
      assert.ok(game.rules.work, `${id} counts its work`);
    }
  });

  it('refuses a 1000×1000 Tron of 12 bots with a 400 naming what is too big, the limit and the option; the admin may ask for it', async () => {
    const big = { game: 'tron', seats: Array(12).fill('voronoi'), config: { width: 1000, height: 1000 } };
    const r = await api('POST', '/api/matches', big);
    assert.equal(r.status, 400, JSON.stringify(r.body));
    assert.match(
      r.body!.error!.message,
      /^config: this tron match is too big for this server: 12 bots with width 1000, height 1000 is 1\.0e12 of work .* over the 2\.5e8 one match may ask for here \(--max-match-work 250000000\); ask for a smaller board.*default config is 1\.0e8/,
    );
    // Nothing was created for it.
    assert.equal(((await api('GET', '/api/matches?game=tron')).body!.items as unknown[]).length, 0);
    // Other games' large configs too.
    const paint = await api('POST', '/api/matches', { game: 'paint', seats: ['random', 'random'], config: { width: 200, height: 200 } });
    assert.equal(paint.status, 400, JSON.stringify(paint.body));
    assert.match(paint.body!.error!.message, /too big.*--max-match-work/);
    const lighthouses = await api('POST', '/api/matches', { game: 'lighthouses', seats: ['random', 'random'], config: { rounds: 20_000 } });
    assert.equal(lighthouses.status, 201, `a long lighthouses match on its small default map is within the cap: ${JSON.stringify(lighthouses.body)}`);
    const admin = await api('POST', '/api/matches', { ...big, seats: Array(12).fill('stupid') }, ADMIN);
    assert.equal(admin.status, 201, `the operator is not capped: ${JSON.stringify(admin.body)}`);
  });
});
