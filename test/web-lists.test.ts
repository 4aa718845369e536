/// <reference lib="dom" />
// The list pages in Debian's Chromium, against a real server: #/games lists every game; #/matches pages with the
// API's cursor (each page the API's, none twice, none left out) and filters by game, bot, kind and status, each in
// the address; #/bots lists the bots by game. Before, each of these addresses said "No page here".
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { startServer, type RunningServer } from '../src/server/serve.js';
import { apiClient, until } from './server.kit.js';
import { browserSkip, launchBrowser, newPage, shot } from './web.kit.js';

const skip = browserSkip();
const quiet = () => new Writable({ write: (_c, _e, cb) => cb() });
const ADMIN = 'admin-token-of-the-list-pages-test-0123456789';

describe('the list pages (#/games, #/matches, #/bots), in Chromium', { skip }, () => {
  let dir: string;
  let server: RunningServer;
  let b: Awaited<ReturnType<typeof launchBrowser>>;
  let browser: Browser;
  const api = apiClient(() => server.url);
  const made: { id: string; game: string; kind: string; seats: string[] }[] = [];

  /** The ids of the match rows the page shows, top to bottom. */
  const rows = (page: Page) => page.getByTestId('match-row').evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-id')!));
  /** Waits for the page to show these matches (it loads a page after the address changes), else fails showing what it shows. */
  const expectRows = async (page: Page, want: string[]) => {
    let shown: string[] = [];
    try {
      await until('the page to show the matches', async () => ((shown = await rows(page)).join() === want.join() ? true : null), 10_000);
    } catch {
      assert.deepEqual(shown, want);
    }
  };

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'botarena-web-lists-'));
    server = await startServer({
      port: 0,
      host: '127.0.0.1',
      database: join(dir, 'db.sqlite'),
      logStream: quiet(),
      gateway: false,
      ladder: false,
      adminToken: ADMIN, // rated matches on demand, for the leaderboard
    });
    b = await launchBrowser();
    browser = b.browser;
    const builtins = async (game: string) =>
      ((await api('GET', `/api/bots?game=${game}`)).body as unknown as { id: string; name: string; builtin: boolean; endpoint: string }[]).filter(
        (x) => x.builtin && x.endpoint !== 'built-in: browser',
      );
    const tron = await builtins('tron');
    const ttt = await builtins('tictactoe');
    const plan = [
      { game: 'tron', seats: [tron[0]!.id, tron[1 % tron.length]!.id], config: { width: 8, height: 8 } },
      { game: 'tron', seats: [tron[0]!.id, tron[0]!.id], config: { width: 8, height: 8 } },
      { game: 'tron', seats: [tron[1 % tron.length]!.id, tron[0]!.id], config: { width: 8, height: 8 } },
      { game: 'tictactoe', seats: [ttt[0]!.id, ttt[1 % ttt.length]!.id] },
      { game: 'tictactoe', seats: [ttt[1 % ttt.length]!.id, ttt[0]!.id] },
      { game: 'tictactoe', seats: ['minimax', 'minimax'], test: true },
    ];
    // One at a time (a client has a few matches under way at most), each to its end.
    for (const m of plan) {
      const r = await api('POST', '/api/matches', m);
      assert.equal(r.status, 201, JSON.stringify(r.body));
      const id = r.body!.id as string;
      await until(`match ${id} to finish`, async () => ((await api('GET', `/api/matches/${id}`)).body!.status === 'finished' ? true : null), 30_000);
      made.push({ id, game: m.game, kind: m.test ? 'test' : 'challenge', seats: m.seats });
    }
  });
  after(async () => {
    await b?.close();
    await server?.close(2000);
    rmSync(dir, { recursive: true, force: true });
  });

  it('#/games lists every game, each linked to its page', async () => {
    const { page, errors } = await newPage(browser);
    await page.goto(`${server.url}/#/games`);
    await page.getByTestId('games').waitFor();
    const games = (await api('GET', '/api/games')).body as unknown as { id: string; title: string }[];
    const links = await page
      .getByTestId('games')
      .locator('tbody tr td:first-child a')
      .evaluateAll((as) => as.map((a) => a.getAttribute('href')));
    assert.deepEqual(
      links,
      games.map((g) => `#/games/${g.id}`),
    );
    // The header links to the three list pages.
    await page.locator('header.top nav a', { hasText: 'matches' }).click();
    await page.getByTestId('match-list').waitFor();
    assert.deepEqual(errors, []);
    await page.close();
  });

  it('#/matches pages with the cursor, and filters by game, bot, kind and status', async () => {
    const { page, errors } = await newPage(browser);
    await page.goto(`${server.url}/#/matches?limit=2`);
    // Page by page with "older →": each page is the API's, and together they are every match once, newest first.
    const seen: string[] = [];
    let cursor = '';
    for (;;) {
      const apiPage = (await api('GET', `/api/matches?limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`)).body as unknown as {
        items: { id: string }[];
        next: string | null;
      };
      const shown = apiPage.items.map((m) => m.id);
      await expectRows(page, shown);
      seen.push(...shown);
      if (!apiPage.next) {
        assert.equal(await page.getByTestId('next-page').count(), 0);
        break;
      }
      cursor = apiPage.next;
      await page.getByTestId('next-page').click();
      await page.waitForFunction((c) => decodeURIComponent(location.hash).includes(c), cursor);
    }
    assert.deepEqual(
      seen,
      [...made].reverse().map((m) => m.id),
    );
    await shot(page, 'matches-last-page');
    // Back to the newest.
    await page.getByTestId('first-page').click();
    await expectRows(page, seen.slice(0, 2));

    // Filters: each narrows the list as the API does, and the address keeps it.
    await page.getByTestId('filter-game').selectOption('tictactoe');
    await page.waitForFunction(() => location.hash.includes('game=tictactoe'));
    await page.getByTestId('next-page').waitFor(); // 3 tic-tac-toe matches, 2 a page
    await expectRows(
      page,
      made
        .filter((m) => m.game === 'tictactoe')
        .reverse()
        .slice(0, 2)
        .map((m) => m.id),
    );
    await page.getByTestId('filter-kind').selectOption('test');
    await page.waitForFunction(() => location.hash.includes('kind=test'));
    await expectRows(page, [made[5]!.id]);
    await page.getByTestId('filter-status').selectOption('aborted');
    await page.getByTestId('no-matches').waitFor();
    assert.equal(await page.getByTestId('match-row').count(), 0);

    // By bot (a tron bot here, all kinds, all statuses): exactly the matches it sat in.
    const bot = made[0]!.seats[1]!;
    await page.goto(`${server.url}/#/matches?game=tron&bot=${bot}`);
    const want = made
      .filter((m) => m.game === 'tron' && m.seats.includes(bot))
      .reverse()
      .map((m) => m.id);
    await expectRows(page, want);
    assert.equal(await page.getByTestId('filter-bot').inputValue(), bot);
    assert.deepEqual(errors, []);
    await page.close();
  });

  it('#/bots lists the bots, filtered by game', async () => {
    const { page, errors } = await newPage(browser);
    await page.goto(`${server.url}/#/bots`);
    await page.getByTestId('bot-list').waitFor();
    const all = (await api('GET', '/api/bots')).body as unknown as { id: string; game: string }[];
    assert.equal(await page.getByTestId('bot-row').count(), all.length);
    await page.getByTestId('filter-game').selectOption('tron');
    await page.waitForFunction((n) => document.querySelectorAll('[data-testid=bot-row]').length === n, all.filter((x) => x.game === 'tron').length);
    const games = await page.getByTestId('bot-row').evaluateAll((trs) => trs.map((tr) => tr.children[1]!.textContent));
    assert.ok(
      games.every((g) => g === 'tron'),
      games.join(','),
    );
    // The bot's name links to its page.
    await page.getByTestId('bot-row').first().locator('a').click();
    await page.getByTestId('bot-status').waitFor();
    assert.deepEqual(errors, []);
    await page.close();
  });

  it("a game's leaderboard shows each bot's ELO with its ± and its OpenSkill μ and σ, as the tournament table", async () => {
    const tron = ((await api('GET', '/api/bots?game=tron')).body as unknown as { id: string; builtin: boolean; endpoint: string }[]).filter(
      (x) => x.builtin && x.endpoint !== 'built-in: browser',
    );
    assert.ok(tron.length >= 2, 'two built-in Tron bots');
    // Rated matches (the admin's), seat order and seeds varied so that the results are mixed.
    for (let seed = 1; seed <= 8; seed++) {
      const seats = seed % 2 ? [tron[0]!.id, tron[1]!.id] : [tron[1]!.id, tron[0]!.id];
      const r = await api('POST', '/api/matches', { game: 'tron', seats, seed, rated: true, config: { width: 8, height: 8 } }, ADMIN);
      assert.equal(r.status, 201, JSON.stringify(r.body));
      const id = r.body!.id as string;
      await until(`rated match ${id} to finish`, async () => ((await api('GET', `/api/matches/${id}`)).body!.status === 'finished' ? true : null), 30_000);
    }
    type Line = {
      botId: string;
      rating: number;
      mu: number | null;
      sigma: number | null;
      games: number;
      wins: number;
      draws: number;
      eloMargin?: number | null;
    };
    const elo = (await api('GET', '/api/leaderboards/tron?system=elo')).body as unknown as Line[];
    const skill = (await api('GET', '/api/leaderboards/tron?system=openskill')).body as unknown as Line[];
    assert.equal(elo.length, 2);
    // The API's ± is the tournament table's: 1.96 · 400 / ln 10 / √(games · share · (1 − share)), one decimal.
    for (const l of elo) {
      const share = (l.wins + l.draws / 2) / l.games;
      const want = share > 0 && share < 1 ? Math.round(((1.96 * 400) / Math.LN10 / Math.sqrt(l.games * share * (1 - share))) * 10) / 10 : null;
      assert.equal(l.eloMargin, want, JSON.stringify(l));
    }
    assert.ok(
      elo.some((l) => l.eloMargin != null),
      `mixed results give a ± (${JSON.stringify(elo)})`,
    );

    const { page, errors } = await newPage(browser);
    await page.goto(`${server.url}/#/games/tron`);
    await page.getByTestId('leaderboard').waitFor();
    const cells = async (id: string) => page.getByTestId('elo').nth(elo.findIndex((l) => l.botId === id));
    for (const l of elo) {
      const s = skill.find((x) => x.botId === l.botId)!;
      await page
        .getByTestId('openskill')
        .filter({ hasText: `μ ${s.mu!.toFixed(1)}, σ ${s.sigma!.toFixed(1)}` })
        .first()
        .waitFor();
      assert.equal(await (await cells(l.botId)).textContent(), `${Math.round(l.rating)}${l.eloMargin != null ? ` ±${Math.round(l.eloMargin)}` : ''}`);
    }
    const row0 = await page.getByTestId('leaderboard').locator('tbody tr').first().textContent();
    const s0 = skill.find((x) => x.botId === elo[0]!.botId)!;
    assert.match(row0 ?? '', new RegExp(`${s0.rating.toFixed(1)} \\(μ ${s0.mu!.toFixed(1)}, σ ${s0.sigma!.toFixed(1)}\\)`));
    await shot(page, 'leaderboard-elo-openskill');
    assert.deepEqual(errors, []);
    await page.close();
  });
});
