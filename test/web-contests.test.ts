/// <reference lib="dom" />
// The contest pages in Debian's Chromium, against a real server (issue 38): the admin creates a contest with the
// form on #/contests (a bad value refused with the key named and its field marked, a bad map setting refused as
// typed), an owner enters their bot from the contest's page with the owner token this browser keeps (a wrong
// token pasted is refused in the API's words), the admin freezes and starts the final from the page, whose
// progress bar and standings follow the final to its end: score ± interval, the pairwise matrix, each map, the
// faults, a link to every match, the archive's download. Neither page is wider than a 390 px phone. Before,
// #/contests said "No page here". With BOTARENA_DOC_SHOTS=1 it writes docs/screenshots/contest-results.png.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { startServer, type RunningServer } from '../src/server/serve.js';
import { ROOT } from './run-cli.js';
import { apiClient, until } from './server.kit.js';
import { browserSkip, launchBrowser, newPage, shot } from './web.kit.js';

const skip = browserSkip();
const quiet = () => new Writable({ write: (_c, _e, cb) => cb() });
const ADMIN = 'admin-token-of-the-contest-pages-test-0123456789';
const PHONE = { width: 390, height: 844 };

describe('the contest pages (#/contests, #/contests/ID), in Chromium', { skip }, () => {
  let dir: string;
  let server: RunningServer;
  let b: Awaited<ReturnType<typeof launchBrowser>>;
  let browser: Browser;
  const api = apiClient(() => server.url);
  let pybot: { id: string; token: string };

  /** How much wider than the screen the page is, with the elements that stick out. */
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

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'botarena-web-contests-'));
    server = await startServer({
      port: 0,
      host: '127.0.0.1',
      database: join(dir, 'db.sqlite'),
      logStream: quiet(),
      gateway: false,
      ladder: false,
      allowCommands: true,
      adminToken: ADMIN,
    });
    b = await launchBrowser();
    browser = b.browser;
    const r = await api('POST', '/api/bots', { game: 'tictactoe', name: 'pybot', endpoint: `stdio:python3 ${join(ROOT, 'examples/tictactoe-python/bot.py')}` });
    assert.equal(r.status, 201, JSON.stringify(r.body));
    pybot = { id: (r.body!.bot as { id: string }).id, token: r.body!.token as string };
    await until('pybot to pass its check', async () => (await api('GET', `/api/bots/${pybot.id}`)).body!.status === 'active');
  });
  after(async () => {
    await b?.close();
    await server?.close(2000);
    rmSync(dir, { recursive: true, force: true });
  });

  it('the admin creates a contest with the form: bad values are refused with the key named', async () => {
    const { page, errors } = await newPage(browser);
    await page.goto(`${server.url}/#/contests`);
    await page.getByTestId('no-contests').waitFor();
    // Without the admin token kept here there is no form.
    assert.equal(await page.getByTestId('create-contest').count(), 0);
    await page.evaluate((token) => localStorage.setItem('botarena.admin', token), ADMIN);
    await page.reload();
    const form = page.getByTestId('create-contest');
    await form.waitFor();
    await page.getByTestId('contest-game').selectOption('tictactoe');
    await page.getByTestId('set-board').first().waitFor();
    await page.getByTestId('contest-id').fill('web-cup');
    await page.getByTestId('contest-name').fill('Web cup');
    await page.getByTestId('contest-format').selectOption('round-robin');
    await page.getByTestId('contest-seed').fill('7');
    await page.getByTestId('contest-opens').fill('2026-01-01T00:00');
    // A bad map setting is refused as it is typed, naming the key; the button stays off.
    await page.getByTestId('set-board').first().fill('XXXX');
    await page.getByTestId('settings-problem').waitFor();
    assert.match((await page.getByTestId('settings-problem').textContent())!, /board/);
    assert.equal(await page.getByTestId('create').isDisabled(), true);
    await page.getByTestId('set-board').first().fill('');
    // A second map, opened in the centre.
    await page.getByTestId('add-map').click();
    await page.getByTestId('map-label-1').fill('centre');
    await page.getByTestId('map-1').getByTestId('set-board').fill('.../.X./...');
    // A bad value only the server checks: its refusal names the key, and the field is marked.
    await page.getByTestId('contest-games').fill('0');
    await page.getByTestId('create').click();
    const refusal = page.getByTestId('create-error');
    await refusal.waitFor();
    assert.match((await refusal.textContent())!, /contest: "gamesPerPairing" must be a whole number from 1 to 100, got 0/);
    assert.equal(await page.getByTestId('contest-games').getAttribute('aria-invalid'), 'true');
    await page.getByTestId('contest-games').fill('1');
    await page.getByTestId('time-turnMs').fill('-5');
    await page.getByTestId('create').click();
    await until('the time rule refused', async () => /"timeRules\.turnMs"/.test((await refusal.textContent()) ?? ''));
    assert.equal(await page.getByTestId('time-turnMs').getAttribute('aria-invalid'), 'true');
    await page.getByTestId('time-turnMs').fill('5000');
    await page.getByTestId('create').click();
    await page.waitForURL(/#\/contests\/web-cup$/);
    await page.getByTestId('definition').waitFor();
    assert.match((await page.getByTestId('contest-status').textContent())!, /entries open/);
    const def = (await api('GET', '/api/contests/web-cup')).body!.definition as Record<string, unknown>;
    assert.deepEqual(def.configs, [
      { label: 'default', config: {} },
      { label: 'centre', config: { board: '.../.X./...' } },
    ]);
    assert.deepEqual(def.timeRules, { turnMs: 5000 });
    assert.equal(def.format, 'round-robin');
    assert.equal(def.gamesPerPairing, 1);
    assert.equal(def.seed, 7);
    // The list shows it with its status.
    await page.goto(`${server.url}/#/contests`);
    await page.getByTestId('contest-row').waitFor();
    assert.match((await page.getByTestId('contest-status').textContent())!, /entries open/);
    assert.deepEqual(
      errors.filter((e) => !/status of 40\d/.test(e)),
      [],
    );
    await page.close();
  });

  it("an owner enters their bot from the contest's page; the admin freezes and starts the final, followed to its results and archive", async () => {
    const { page, errors } = await newPage(browser);
    await page.goto(`${server.url}/#/contests/web-cup`);
    const enter = page.getByTestId('enter-form');
    await enter.waitFor();
    // A wrong token pasted is refused in the API's words.
    await page.getByTestId('enter-bot').selectOption(pybot.id);
    await page.getByTestId('enter-token').fill('not-its-token');
    await page.getByTestId('enter').click();
    await page.getByTestId('enter-error').waitFor();
    assert.match((await page.getByTestId('enter-error').textContent())!, /the token is not the owner token of bot/);
    // The browser that registered the bot keeps its owner token: the form uses it.
    await page.evaluate(([id, token]) => localStorage.setItem(`botarena.owner.${id}`, token!), [pybot.id, pybot.token]);
    await page.reload();
    await page.getByTestId('enter-bot').selectOption(pybot.id);
    await page.getByTestId('enter').click();
    await page.getByTestId('enter-result').waitFor();
    await page.locator(`[data-testid=entrant][data-bot="${pybot.id}"]`).waitFor();
    // The built-in bots, entered by the admin with the API.
    for (const bot of ['random', 'minimax']) assert.equal((await api('POST', '/api/contests/web-cup/entries', { bot }, ADMIN)).status, 201);
    await page.evaluate((token) => localStorage.setItem('botarena.admin', token), ADMIN);
    await page.reload();
    await page.getByTestId('freeze').click();
    await until('the contest to be frozen', async () => /frozen/.test((await page.getByTestId('contest-status').textContent()) ?? ''));
    // Every entrant's version is fixed and shown.
    assert.equal(await page.getByTestId('entrant').count(), 3);
    assert.match((await page.locator(`[data-testid=entrant][data-bot="${pybot.id}"] td.version`).textContent())!, /command: stdio:python3/);
    await page.getByTestId('start').click();
    await page.getByTestId('progress').waitFor();
    // Round robin of 3 entrants on 2 maps, 1 game a pairing: 3 × 2 = 6 matches (the page follows them).
    await until('the final to end on the page', async () => /final over/.test((await page.getByTestId('contest-status').textContent()) ?? ''), 120_000);
    assert.equal(await page.getByTestId('progress').getAttribute('data-over'), '6');
    assert.equal(await page.getByTestId('progress').getAttribute('data-total'), '6');
    const standings = await page.getByTestId('standing').allTextContents();
    assert.equal(standings.length, 3);
    for (const s of await page.getByTestId('score').allTextContents()) assert.match(s, /^[01]\.\d{3} ± 0\.\d{3}$/);
    // minimax never loses at tic-tac-toe (nor does the example bot): random is last.
    assert.match(standings[2]!, /^3random/);
    assert.equal(await page.getByTestId('matrix').locator('tbody tr').count(), 3);
    await page.getByTestId('per-map-default').waitFor();
    await page.getByTestId('per-map-centre').waitFor();
    await page.getByTestId('faults').waitFor();
    const links = await page
      .getByTestId('contest-match')
      .locator('a')
      .evaluateAll((as) => as.map((a) => a.getAttribute('href')));
    const matches = (await api('GET', '/api/contests/web-cup/matches')).body as unknown as { matchId: string }[];
    assert.deepEqual(
      links,
      matches.map((m) => `#/matches/${m.matchId}`),
    );
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('archive').click()]);
    assert.equal(download.suggestedFilename(), 'web-cup.tar.gz');
    const file = join(dir, 'web-cup.tar.gz');
    await download.saveAs(file);
    assert.deepEqual([...readFileSync(file).subarray(0, 2)], [0x1f, 0x8b], 'a gzip file');
    // The final's progress and its results at the top of the screen: docs/contests.md shows it.
    await page.getByRole('heading', { name: 'The final', exact: true }).evaluate((el) => el.scrollIntoView());
    if (process.env.BOTARENA_DOC_SHOTS) await page.screenshot({ path: join(ROOT, 'docs', 'screenshots', 'contest-results.png') });
    else await shot(page, 'contest-results');
    assert.deepEqual(
      errors.filter((e) => !/status of 40\d/.test(e)),
      [],
    );
    await page.close();
  });

  it('neither contest page is wider than a 390 px phone', async () => {
    const { page, errors } = await newPage(browser, PHONE);
    // The admin's view, with the create form and the organiser's part.
    await page.addInitScript((token) => localStorage.setItem('botarena.admin', token), ADMIN);
    // A contest taking entries too: its page has the entry form and the organiser's buttons.
    const open = await api(
      'POST',
      '/api/contests',
      {
        id: 'phone-cup',
        name: 'A contest with a long name that has to wrap on a phone screen',
        game: 'tictactoe',
        configs: [{ label: 'default', config: {} }],
        format: 'swiss',
        rounds: 3,
        gamesPerPairing: 1,
        timeRules: {},
        seed: 1,
        opensAt: '2026-01-01T00:00:00Z',
        closesAt: '2099-01-01T00:00:00Z',
      },
      ADMIN,
    );
    assert.equal(open.status, 201, JSON.stringify(open.body));
    const wide: string[] = [];
    const ready: Record<string, string> = {
      '#/contests': '[data-testid=create-contest]',
      '#/contests/web-cup': '[data-testid=standings]',
      '#/contests/phone-cup': '[data-testid=enter-form]',
    };
    for (const [route, selector] of Object.entries(ready)) {
      await page.goto(`${server.url}/${route}`);
      await page.waitForLoadState('networkidle');
      await page.locator(selector).waitFor();
      const o = await overflow(page);
      if (o.scrollWidth > PHONE.width) {
        wide.push(`${route}: ${o.scrollWidth} px (${o.wide.join(', ')})`);
        await shot(page, `phone-wide-${route.replace(/[^a-z0-9]+/gi, '-')}`);
      }
    }
    assert.deepEqual(wide, [], 'pages wider than the 390 px screen');
    assert.deepEqual(errors, []);
    await page.close();
  });
});
