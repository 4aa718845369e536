/// <reference lib="dom" />
// The home page, in Debian's Chromium against a real server: the latest results by when they ended, newest first
// (a person's match made first and ended last comes on top, as it ends, without a reload), each game's card
// holding its text (a summary's long JSON word wraps), and no "frame N ms" for spectators in the match player.
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

describe('the home page', { skip }, () => {
  let dir: string;
  let server: RunningServer;
  let b: Awaited<ReturnType<typeof launchBrowser>>;
  let browser: Browser;
  const api = apiClient(() => server.url);

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'botarena-web-home-'));
    server = await startServer({
      port: 0,
      host: '127.0.0.1',
      database: join(dir, 'db.sqlite'),
      logStream: quiet(),
      gateway: false,
      ladder: false,
      person: { leaveMs: 1000 },
    });
    b = await launchBrowser();
    browser = b.browser;
  });
  after(async () => {
    await b?.close();
    await server?.close(2000);
    rmSync(dir, { recursive: true, force: true });
  });

  const finished = (id: string) =>
    until(`match ${id} to finish`, async () => ((await api('GET', `/api/matches/${id}`)).body!.status === 'finished' ? true : null), 20_000);
  const firstResult = async (page: Page) => (await page.locator('table.matches tbody tr a').first().getAttribute('href'))?.split('/matches/')[1] ?? null;
  /** the cards whose content is wider than the card (text running out of it) */
  const overflowing = (page: Page) =>
    page
      .locator('.card')
      .evaluateAll((cards) =>
        cards.filter((c) => c.scrollWidth > c.clientWidth + 1).map((c) => `${c.getAttribute('data-testid')}: ${c.scrollWidth} > ${c.clientWidth}`),
      );

  it('lists the latest results by when they ended, newest first, as they end; the cards hold their text', async () => {
    // A: a person's tic-tac-toe, made first; its person is at the table (the play stream open) until told to leave.
    const a = await api('POST', '/api/matches', { game: 'tictactoe', seats: ['person', 'random'], test: true });
    assert.equal(a.status, 201, JSON.stringify(a.body));
    const aId = a.body!.id as string;
    const token = (a.body!.persons as { slot: number; token: string }[])[0]!.token;
    const leave = new AbortController();
    const play = await fetch(`${server.url}/api/matches/${aId}/seats/0/play?token=${token}`, { signal: leave.signal });
    const reader = play.body!.getReader();
    await reader.read(); // the first ask: the person is here
    // B: two bots, made after A, ended before it.
    const bId = (await api('POST', '/api/matches', { game: 'tictactoe', seats: ['random', 'random'], test: true })).body!.id as string;
    await finished(bId);

    const { page, errors } = await newPage(browser, { width: 1280, height: 800 });
    await page.goto(`${server.url}/#/`);
    await until('B among the latest results', async () => ((await firstResult(page)) === bId ? true : null), 10_000);
    // The person leaves: A ends (a forfeit, 1 s on) and comes first, on the page already open.
    leave.abort();
    await finished(aId);
    await until('A, ended last, on top of the latest results', async () => ((await firstResult(page)) === aId ? true : null), 10_000);
    await page.reload();
    await until('A on top after a reload too', async () => ((await firstResult(page)) === aId ? true : null), 10_000);
    const when = await page.locator('table.matches tbody tr td:first-child').allTextContents();
    assert.equal(when.length, 2);

    await page.locator('.card').first().waitFor();
    assert.deepEqual(await overflowing(page), [], 'every card holds its text at 1280 px');
    await shot(page, 'home-1280');
    await page.setViewportSize({ width: 390, height: 844 });
    assert.deepEqual(await overflowing(page), [], 'every card holds its text at 390 px');
    await shot(page, 'home-390');
    assert.deepEqual(errors, []);
    await page.close();
  });

  it('shows spectators no frame timing in the match player', async () => {
    const id = (await api('POST', '/api/matches', { game: 'connect4', seats: ['random', 'random'], test: true })).body!.id as string;
    await finished(id);
    const { page, errors } = await newPage(browser, { width: 1280, height: 800 });
    await page.goto(`${server.url}/#/matches/${id}`);
    await page.getByTestId('where').waitFor();
    const where = (await page.getByTestId('where').textContent()) ?? '';
    assert.match(where, /step \d+ of \d+/);
    assert.doesNotMatch(where, /frame|\bms\b/, `the step line: ${where}`);
    assert.match((await page.locator('canvas').first().getAttribute('data-draw-ms')) ?? '', /^\d+\.\d$/, 'the draw time is kept for developers on the canvas');
    assert.deepEqual(errors, []);
    await page.close();
  });
});
