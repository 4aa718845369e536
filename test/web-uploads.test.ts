/// <reference lib="dom" />
// Issue 36 in the web app, in Debian's Chromium against a real server started with --uploads: a person
// registers a bot by uploading its Python file through the register page (the upload way of three), keeps the
// token, sees the version checked and playing on the bot's page and on the leaderboard; a broken second version
// is refused there with its reason while the first keeps playing.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { startServer, type RunningServer } from '../src/server/serve.js';
import { apiClient, until } from './server.kit.js';
import { browserSkip, launchBrowser, newPage, shot } from './web.kit.js';

const skip = browserSkip();
const quiet = () => new Writable({ write: (_c, _e, cb) => cb() });

describe('uploading a bot from the register page, in Chromium', { skip }, () => {
  let dir: string;
  let server: RunningServer;
  let b: Awaited<ReturnType<typeof launchBrowser>>;
  let browser: Browser;
  const api = apiClient(() => server.url);

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'botarena-web-uploads-'));
    server = await startServer({
      port: 0,
      host: '127.0.0.1',
      database: join(dir, 'db.sqlite'),
      logStream: quiet(),
      gateway: false,
      concurrency: 2,
      perBotPerHour: 3600,
      ladderBurst: 20,
      uploads: { languages: ['python3', 'node'], cacheDir: join(dir, 'cache') },
    });
    b = await launchBrowser();
    browser = b.browser;
  });
  after(async () => {
    await b?.close();
    await server?.close(2000);
    rmSync(dir, { recursive: true, force: true });
  });

  it('a Python file uploaded with the form is checked, plays the ladder and shows as v1; a broken v2 is refused on the bot page and v1 plays on', async () => {
    const file = join(dir, 'bot.py');
    writeFileSync(file, readFileSync('examples/tictactoe-python/bot.py'));
    const { page, errors } = await newPage(browser);
    await page.goto(`${server.url}/#/register`);
    await page.getByLabel('game').selectOption('tictactoe');
    await page.getByLabel('name').fill('uploaded-ttt');
    await page.getByLabel('upload its code').check();
    // No file chosen: said at once, nothing sent.
    await page.getByTestId('register').click();
    assert.match((await page.getByTestId('register-error').textContent()) ?? '', /choose the file to upload/);
    await page.getByTestId('code').setInputFiles(file);
    await page.getByTestId('register').click();
    const token = ((await page.getByTestId('token').textContent()) ?? '').trim();
    assert.match(token, /\S{20,}/);
    assert.match((await page.locator('main').textContent()) ?? '', /Version 1 of its code is being checked now/);
    await shot(page, 'uploaded');
    await page.getByTestId('bot-link').click();
    await until(
      'the upload to pass its check',
      async () => {
        await page.reload();
        return (await page.getByTestId('bot-status').textContent()) === 'active' ? true : null;
      },
      60_000,
    );
    assert.match((await page.getByTestId('versions').textContent()) ?? '', /v1.*python3.*active \(plays\)/s);
    const botId = decodeURIComponent(page.url().split('/').pop()!);

    // It plays the ladder, and the leaderboard shows the version that plays.
    await page.goto(`${server.url}/#/games/tictactoe`);
    await until(
      'the uploaded bot on the leaderboard',
      async () => {
        await page.reload();
        const row = page.getByTestId('leaderboard').locator('tr', { hasText: 'uploaded-ttt' });
        return (await row.count()) && (await row.getByTestId('version').textContent())?.trim() === 'v1' ? true : null;
      },
      90_000,
    );

    // A second version that crashes at once: refused by its check, shown with its reason; v1 keeps playing.
    const form = new FormData();
    form.append('code', new Blob(['import sys\nsys.exit(3)\n']), 'bot.py');
    const put = await fetch(`${server.url}/api/bots/${botId}/code`, { method: 'PUT', body: form, headers: { authorization: `Bearer ${token}` } });
    assert.ok(put.status < 300, `${put.status} ${await put.text()}`);
    await until(
      'v2 to be refused',
      async () => ((await api('GET', `/api/bots/${botId}/versions`)).body as unknown as { state: string }[])[0]?.state === 'refused',
      60_000,
    );
    await page.goto(`${server.url}/#/bots/${botId}`);
    const versions = (await page.getByTestId('versions').textContent()) ?? '';
    assert.match(versions, /v2.*refused/s);
    assert.match(versions, /v1.*active \(plays\)/s);
    assert.equal((await api('GET', `/api/bots/${botId}`)).body!.version, 1);
    await shot(page, 'versions');
    assert.deepEqual(errors, []);
    await page.close();
  });
});
