/// <reference lib="dom" />
// Game settings where a match is made, in Debian's Chromium against a real server: the game page's Start a match
// and the test page (a bot's test, or playing yourself) show the game's config keys with their defaults; a bad
// value is named in the form with what is expected, in the API's words, and no match is created (the API's list
// says so); a good one plays a match with that config (the match's config in the API); a refusal only the server
// can make (this server's work cap) is shown beside the form. Before, no form had any setting: a person played
// Tron on 100×100.
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

describe('game settings where a match is made, in Chromium', { skip }, () => {
  let dir: string;
  let server: RunningServer;
  let b: Awaited<ReturnType<typeof launchBrowser>>;
  let browser: Browser;
  const api = apiClient(() => server.url);

  /** Every match of a game the API lists (newest first). */
  const matchesOf = async (game: string) =>
    ((await api('GET', `/api/matches?game=${game}&limit=50`)).body as unknown as { items: { id: string; config: Record<string, unknown> }[] }).items;
  /** The match the page went to after the start button. */
  const matchOfPage = async (page: Page) => {
    await page.waitForURL(/#\/matches\/[^?]+/, { timeout: 10_000 });
    const id = decodeURIComponent(page.url().split('/matches/')[1]!.split('?')[0]!);
    return (await api('GET', `/api/matches/${encodeURIComponent(id)}`)).body as unknown as { id: string; config: Record<string, unknown> };
  };
  /** Types a value into a setting (replacing what is there). */
  const type = (page: Page, key: string, value: string) => page.getByTestId(`set-${key}`).fill(value);

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'botarena-web-settings-'));
    server = await startServer({
      port: 0,
      host: '127.0.0.1',
      database: join(dir, 'db.sqlite'),
      logStream: quiet(),
      gateway: false,
      ladder: false,
      // A work cap that Tron's default 100×100 is over (1e8 cell-answers) and 30×30 is under (8.1e5): a refusal
      // only the server can make, shown beside the form.
      onDemand: { perAddress: 16, maxWork: 5_000_000 },
    });
    b = await launchBrowser();
    browser = b.browser;
  });
  after(async () => {
    await b?.close();
    await server?.close(2000);
    rmSync(dir, { recursive: true, force: true });
  });

  it("Tron's game page: the grid's defaults shown, width 1 refused in the form with no match created, 30×30 plays on a 30×30 grid", async () => {
    const { page, errors } = await newPage(browser);
    await page.goto(`${server.url}/#/games/tron`);
    await page.getByTestId('settings').waitFor();
    assert.equal(await page.getByTestId('set-width').inputValue(), '100');
    assert.equal(await page.getByTestId('set-height').inputValue(), '100');
    assert.match((await page.getByTestId('settings').textContent())!, /grid width .*\(2\.\.1000\) · default 100/);

    await type(page, 'width', '1');
    const problem = page.getByTestId('settings-problem');
    await problem.waitFor();
    assert.equal(await problem.textContent(), 'config: config "width" of tron must be an integer in 2..1000, got 1');
    assert.equal(await page.getByTestId('fight').isDisabled(), true);
    // Enter in the field does not send it either.
    await page.getByTestId('set-width').press('Enter');
    await type(page, 'width', 'wide');
    assert.match((await problem.textContent())!, /config\.width: tron's "width" must be an integer in 2\.\.1000 \(JSON number\), got "wide"/);
    // The game's own rule, as the server runs it: two bots need two start cells.
    await type(page, 'width', '2');
    await type(page, 'height', '2');
    assert.match((await problem.textContent())!, /bad config for tron \(width, height\) with 2 players: a 2×2 grid has 1 start cells/);
    await shot(page, 'settings-tron-refused');
    await page.waitForTimeout(300);
    assert.deepEqual(await matchesOf('tron'), [], 'no match was created');

    // The server's own limit: the default 100×100 is over this server's work cap, and its refusal shows beside the form.
    await type(page, 'width', '100');
    await type(page, 'height', '100');
    assert.equal(await problem.count(), 0);
    await page.getByTestId('fight').click();
    const refused = page.getByTestId('start-error');
    await refused.waitFor();
    assert.match((await refused.textContent())!, /too big for this server: 2 bots is 1\.0e8 of work.*--max-match-work 5000000/);
    assert.deepEqual(await matchesOf('tron'), [], 'the server refused it: no match');

    await type(page, 'width', '30');
    await type(page, 'height', '30');
    await page.getByTestId('fight').click();
    const m = await matchOfPage(page);
    assert.equal(m.config.width, 30);
    assert.equal(m.config.height, 30);
    await until(
      'the match to end',
      async () => {
        const r = (await api('GET', `/api/matches/${m.id}`)).body as unknown as { status: string };
        return r.status === 'finished' ? true : null;
      },
      30_000,
    );
    // The browser's own line for the refused request is the one console error.
    assert.deepEqual(errors, ['console: Failed to load resource: the server responded with a status of 400 (Bad Request)']);
    await page.close();
  });

  it('playing yourself from the test page: Tron on 30×30; a bad grid refused before any match', async () => {
    const { page, errors } = await newPage(browser);
    await page.goto(`${server.url}/#/test`);
    await page.getByTestId('test-game').selectOption('tron');
    await page.getByTestId('test-bot').selectOption('');
    await page.getByTestId('against-strong').check();
    await page.getByTestId('settings').waitFor();
    const before = (await matchesOf('tron')).length;
    await type(page, 'width', '0');
    assert.equal(await page.getByTestId('settings-problem').textContent(), 'config: config "width" of tron must be an integer in 2..1000, got 0');
    assert.equal(await page.getByTestId('test-start').isDisabled(), true);
    await page.getByTestId('set-width').press('Enter');
    await page.waitForTimeout(300);
    assert.equal((await matchesOf('tron')).length, before, 'no match was created');

    await type(page, 'width', '30');
    await type(page, 'height', '30');
    await page.getByTestId('test-start').click();
    const m = await matchOfPage(page);
    assert.equal(m.config.width, 30);
    assert.equal(m.config.height, 30);
    await page.getByTestId('person').waitFor();
    assert.deepEqual(errors, []);
    await page.close();
  });

  it("Battleship's grid and fleet, lighthouses' map and paint's board: each game's keys, a bad one named, a good one played", async () => {
    const { page, errors } = await newPage(browser);
    await page.goto(`${server.url}/#/test`);

    await page.getByTestId('test-game').selectOption('battleship');
    await page.getByTestId('against-itself').check();
    await page.getByTestId('test-bot').selectOption({ label: 'random (built-in)' });
    await page.getByTestId('set-ship5').waitFor();
    assert.equal(await page.getByTestId('set-ship5').inputValue(), '1');
    await type(page, 'width', '4');
    await type(page, 'height', '4');
    assert.match(
      (await page.getByTestId('settings-problem').textContent())!,
      /bad config for battleship \(width, height\) with 2 players: the ships cover 17 cells but at most 8 \(half of 4×4\) are allowed/,
    );
    await type(page, 'ship5', '0');
    await type(page, 'ship4', '0');
    await type(page, 'ship3', '1');
    assert.equal(await page.getByTestId('settings-problem').count(), 0);
    await shot(page, 'settings-battleship');
    await page.getByTestId('test-start').click();
    const bs = await matchOfPage(page);
    assert.deepEqual([bs.config.width, bs.config.height, bs.config.ship3, bs.config.ship4, bs.config.ship5], [4, 4, 1, 0, 0]);

    await page.goto(`${server.url}/#/test`);
    await page.getByTestId('test-game').selectOption('lighthouses');
    await page.getByTestId('against-itself').check();
    await page.getByTestId('set-map').waitFor();
    assert.notEqual(await page.getByTestId('set-map').inputValue(), '', 'the default map is shown');
    const lhBefore = (await matchesOf('lighthouses')).length;
    await type(page, 'map', 'maps/island.txt');
    assert.match(
      (await page.getByTestId('settings-problem').textContent())!,
      /^config: bad config for lighthouses \(map\) with 2 players: .*this server reads no files: give "map" the map's text itself, not a path$/,
    );
    await type(page, 'rounds', '0');
    assert.match((await page.getByTestId('settings-problem').textContent())!, /config "rounds" of lighthouses must be an integer in 1\.\.100000, got 0/);
    assert.equal((await matchesOf('lighthouses')).length, lhBefore);

    await page.goto(`${server.url}/#/games/paint`);
    await page.getByTestId('set-width').waitFor();
    await type(page, 'width', '201');
    assert.match((await page.getByTestId('settings-problem').textContent())!, /config "width" of paint must be an integer in 1\.\.200, got 201/);
    await type(page, 'width', '6');
    await type(page, 'height', '5');
    await page.getByTestId('fight').click();
    const paint = await matchOfPage(page);
    assert.deepEqual([paint.config.width, paint.config.height], [6, 5]);
    assert.deepEqual(errors, []);
    await page.close();
  });

  it('the settings fit a 390 px phone: no key, text box or description wider than the screen', async () => {
    const { page, errors } = await newPage(browser, { width: 390, height: 844 });
    for (const game of ['tron', 'battleship', 'lighthouses', 'paint', 'smartdog']) {
      await page.goto(`${server.url}/#/test`);
      await page.getByTestId('test-game').selectOption(game);
      await page.getByTestId('settings').waitFor();
      const box = (await page.getByTestId('settings').boundingBox())!;
      const inner = await page.getByTestId('settings').evaluate((el) => [el.scrollWidth, el.clientWidth]);
      assert.ok(box.x >= 0 && box.x + box.width <= 390, `${game}: the settings span ${box.x}..${box.x + box.width} px of 390`);
      assert.ok(inner[0]! <= inner[1]!, `${game}: the settings' content is ${inner[0]} px wide in ${inner[1]} px`);
    }
    assert.deepEqual(errors, []);
    await page.close();
  });
});
