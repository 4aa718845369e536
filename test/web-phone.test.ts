/// <reference lib="dom" />
// The web app on a phone (issue 37), on a real server in Debian's Chromium: no page is wider than a 390×844
// screen (every route, measured: document.documentElement.scrollWidth), Tron's board and its move buttons are on
// screen together when a person plays, with buttons large enough to tap, and the person's panel says "tap" on a
// touch screen. With BOTARENA_DOC_SHOTS=1 it also writes each game's match page at 1280×800 and 390×844 into
// docs/screenshots/ (the screenshots docs/web.md shows).
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { defaultHubs } from '../src/games/smartdog/hubs.js';
import { startServer, type RunningServer } from '../src/server/serve.js';
import { ROOT } from './run-cli.js';
import { apiClient, until } from './server.kit.js';
import { browserSkip, launchBrowser, newPage, shot, SHOTS } from './web.kit.js';

const skip = browserSkip();
const quiet = () => new Writable({ write: (_c, _e, cb) => cb() });
const ADMIN = 'admin-token-of-the-phone-test-0123456789';
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 800 };
/** Where each game's match page is pictured: docs/screenshots/ when asked for (BOTARENA_DOC_SHOTS=1), else the test's output. */
const MATCH_SHOTS = process.env.BOTARENA_DOC_SHOTS ? join(process.cwd(), 'docs', 'screenshots') : SHOTS;
/** Small boards, so that every game's match ends in a few seconds. */
const CONFIG: Record<string, Record<string, unknown>> = { tron: { width: 16, height: 16 } };

describe('the web app on a 390×844 phone, in Chromium', { skip }, () => {
  let dir: string;
  let server: RunningServer;
  let b: Awaited<ReturnType<typeof launchBrowser>>;
  let browser: Browser;
  const api = apiClient(() => server.url);
  /** a finished match of each game */
  const finished: Record<string, string> = {};
  let games: { id: string; players: { min: number; max: number }; bots: Record<string, unknown>; lobby?: boolean }[];
  let botId: string;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'botarena-web-phone-'));
    server = await startServer({
      port: 0,
      host: '127.0.0.1',
      database: join(dir, 'db.sqlite'),
      logStream: quiet(),
      // smart-dog's matches are played by bots that connect in: a one-dog hub, played by the example bot
      gateway: { port: 0, hubs: defaultHubs(['meadow'], { turnsLimit: 6 }), gatherMs: 300 },
      concurrency: 2,
      ladder: false,
      adminToken: ADMIN,
    });
    b = await launchBrowser();
    browser = b.browser;
    games = (await api('GET', '/api/games')).body as unknown as typeof games;
    for (const g of games) {
      if (g.id === 'smartdog') {
        const child = spawn(process.execPath, ['examples/smartdog-node/client.mjs', '--port', String(server.gatewayPort), '--hub', 'solo', '--name', 'loner'], {
          cwd: ROOT,
          stdio: 'ignore',
        });
        const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
        await new Promise((resolve) => child.on('close', resolve));
        clearTimeout(timer);
        const list = (await api('GET', '/api/matches?game=smartdog&status=finished')).body as unknown as { items: { id: string }[] };
        assert.ok(list.items[0], 'the example smart-dog bot played a match');
        finished[g.id] = list.items[0].id;
        continue;
      }
      const names = Object.keys(g.bots);
      // The strongest built-in bots (the last listed), for matches worth a picture.
      const strong = names.slice(-Math.max(2, g.players.min));
      const seats = Array.from({ length: Math.max(2, g.players.min) }, (_, i) => strong[i % strong.length]!);
      const r = await api('POST', '/api/matches', { game: g.id, seats, seed: 5, ...(CONFIG[g.id] ? { config: CONFIG[g.id] } : {}) });
      assert.equal(r.status, 201, `${g.id}: ${JSON.stringify(r.body)}`);
      const id = (finished[g.id] = r.body!.id as string);
      // One at a time: a client address has a few matches under way at most.
      await until(`the ${g.id} match to finish`, async () => ((await api('GET', `/api/matches/${id}`)).body!.status === 'finished' ? true : null), 60_000);
    }
    const bots = (await api('GET', '/api/bots?game=tron')).body as unknown as { id: string; builtin: boolean }[];
    botId = bots.find((x) => x.builtin)!.id;
  });
  after(async () => {
    await b?.close();
    await server?.close(2000);
    rmSync(dir, { recursive: true, force: true });
  });

  /** How much wider than the screen the page is, with the widest elements that stick out (for the failure message). */
  const overflow = (page: Page) =>
    page.evaluate(() => {
      const width = document.documentElement.clientWidth;
      const wide = [...document.querySelectorAll('body *')]
        .filter((el) => el.getBoundingClientRect().right > width + 0.5)
        .slice(0, 5)
        .map(
          (el) =>
            `${el.tagName.toLowerCase()}${el.className ? '.' + String(el.className).replace(/ /g, '.') : ''} (right ${Math.round(el.getBoundingClientRect().right)})`,
        );
      return { scrollWidth: document.documentElement.scrollWidth, wide };
    });

  it('no route is wider than the screen', async () => {
    const routes = ['#/', '#/games', '#/matches', '#/bots', `#/bots/${botId}`, '#/register', '#/test'];
    for (const g of games) routes.push(`#/games/${g.id}`, `#/matches/${finished[g.id]}`);
    const { page, errors } = await newPage(browser, PHONE);
    const wide: string[] = [];
    for (const route of routes) {
      await page.goto(`${server.url}/${route}`);
      await page.waitForLoadState('networkidle');
      await page.locator('main').first().waitFor();
      if (route.startsWith('#/matches/')) await page.locator('canvas.board').waitFor();
      const o = await overflow(page);
      if (o.scrollWidth > PHONE.width) {
        wide.push(`${route}: ${o.scrollWidth} px (${o.wide.join(', ')})`);
        await shot(page, `phone-wide-${route.replace(/[^a-z0-9]+/gi, '-')}`);
      }
    }
    // The admin's view: a bot's page with the owner's panel (its buttons and forms), the bots with their owners.
    await page.evaluate((token) => localStorage.setItem('botarena.admin', token), ADMIN);
    for (const route of [`#/bots/${botId}`, '#/bots']) {
      await page.goto(`${server.url}/${route}`);
      await page.waitForLoadState('networkidle');
      if (route !== '#/bots') await page.getByTestId('owner').waitFor();
      const o = await overflow(page);
      if (o.scrollWidth > PHONE.width) wide.push(`${route} (admin): ${o.scrollWidth} px (${o.wide.join(', ')})`);
    }
    await page.close();
    assert.deepEqual(wide, [], 'pages wider than the 390 px screen');
    assert.deepEqual(errors, []);
  });

  it('Tron on a touch phone: the board and the move buttons on screen together, big enough to tap, and the panel says tap', async () => {
    const context = await browser.newContext({ viewport: PHONE, hasTouch: true, isMobile: true, deviceScaleFactor: 2 });
    const { page, errors } = await newPage(context, PHONE);
    await page.goto(`${server.url}/#/test`);
    await page.getByTestId('test-game').selectOption('tron');
    await page.getByTestId('against-weak').check();
    await page.getByTestId('test-start').tap();
    await page.getByTestId('your-turn').waitFor({ timeout: 15_000 });
    await page.locator('canvas.board').waitFor();
    // As the page opens, with no scrolling: the whole board and every move button inside the screen.
    const inside = async (what: string, box: { x: number; y: number; width: number; height: number } | null) => {
      assert.ok(box, `${what} is shown`);
      assert.ok(
        box.x >= 0 && box.y >= 0 && box.x + box.width <= PHONE.width + 0.5 && box.y + box.height <= PHONE.height + 0.5,
        `${what} is on the 390×844 screen: ${JSON.stringify(box)}`,
      );
      return box;
    };
    const o = await overflow(page);
    assert.ok(o.scrollWidth <= PHONE.width, `the page is ${o.scrollWidth} px wide: ${o.wide.join(', ')}`);
    const board = await inside('the board', await page.locator('canvas.board').boundingBox());
    assert.ok(board.width >= 300, `the board takes the screen's width: ${board.width} px`);
    const buttons = page.locator('[data-testid=person] .choices button');
    assert.equal(await buttons.count(), 4, 'up, left, down, right');
    for (const button of await buttons.all()) {
      const box = await inside(`the button ${await button.textContent()}`, await button.boundingBox());
      // 44 px: the smallest target a finger hits reliably (Apple's and the W3C's guidance).
      assert.ok(box.width >= 44 && box.height >= 44, `the button ${await button.textContent()} is ${box.width}×${box.height} px`);
      // Not hidden under another element: the centre of the button is the button.
      const hit = await page.evaluate(
        ([x, y]) => document.elementFromPoint(x!, y!)?.closest('button')?.textContent ?? null,
        [box.x + box.width / 2, box.y + box.height / 2],
      );
      assert.equal(hit, await button.textContent());
    }
    // The panel (it stays at the bottom of the screen) covers no part of the board.
    const panel = await inside('the panel', await page.getByTestId('person').boundingBox());
    assert.ok(board.y + board.height <= panel.y + 0.5, `the board (${board.y}–${board.y + board.height}) ends above the panel (from ${panel.y})`);
    const text = (await page.getByTestId('your-turn').textContent()) ?? '';
    assert.match(text, /\btap\b/, `the panel says tap on a touch screen: ${text}`);
    assert.doesNotMatch(text, /arrow key|click/, `no keys and no clicks on a touch screen: ${text}`);
    await shot(page, 'phone-tron-person');
    // A tap on a button plays the move.
    const before = Number(await page.getByTestId('steps').textContent());
    await buttons.filter({ hasNotText: 'crash' }).first().tap();
    await until('the move to be applied', async () => (Number(await page.getByTestId('steps').textContent()) > before ? true : null), 15_000);
    assert.deepEqual(
      errors.filter((e) => !/status of 409/.test(e)),
      [],
    );
    await context.close();
  });

  it('keeps the arrow keys in the text with a mouse and a keyboard', async () => {
    const { page } = await newPage(browser, { width: 1280, height: 800 });
    await page.goto(`${server.url}/#/test`);
    await page.getByTestId('test-game').selectOption('tron');
    await page.getByTestId('against-weak').check();
    await page.getByTestId('test-start').click();
    await page.getByTestId('your-turn').waitFor({ timeout: 15_000 });
    assert.match((await page.getByTestId('your-turn').textContent()) ?? '', /click a highlighted cell, press an arrow key/);
    await page.close();
  });

  it("pictures each game's finished match page at 1280×800 and at 390×844", async () => {
    mkdirSync(MATCH_SHOTS, { recursive: true });
    for (const [size, viewport] of [
      ['desktop', DESKTOP],
      ['phone', PHONE],
    ] as const) {
      const { page, errors } = await newPage(browser, viewport);
      for (const g of games) {
        await page.goto(`${server.url}/#/matches/${finished[g.id]}`);
        await page.getByTestId('end-reason').waitFor();
        await page.locator('canvas.board').waitFor();
        await page.waitForLoadState('networkidle');
        const path = join(MATCH_SHOTS, `match-${g.id}-${size}.png`);
        await page.screenshot({ path, fullPage: false });
        assert.ok(statSync(path).size < 200_000, `${path} is ${statSync(path).size} bytes`);
        assert.ok((await page.evaluate(() => document.documentElement.scrollWidth)) <= viewport.width, `${g.id}'s match page fits ${viewport.width} px`);
      }
      assert.deepEqual(errors, []);
      await page.close();
    }
  });
});
