/// <reference lib="dom" />
// A bot's owner runs their bot from its page in Debian's Chromium, against a real server: a wrong token is refused
// with the API's sentence, the right one is kept; pause, re-activate (through its check), check again, a new
// description, its match's message log. The admin pastes the admin token once and sees the owner's contact, which
// nobody else is shown, and can pause and delete a bot that is not theirs.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
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
const ADMIN = 'the-admin-token-of-this-test-0123456789';
/** The browser logs every 4xx answer as a console error: the refusals asked for here are not the app's errors. */
const appErrors = (errors: string[]) => errors.filter((e) => !/status of 4\d\d/.test(e));

async function startBot(): Promise<{ child: ChildProcess; port: number }> {
  const child = spawn(process.execPath, ['test/fixtures/slow-tron-http-bot.mjs', '0', '0'], { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise<number>((resolve, reject) => {
    child.stdout!.once('data', (d: Buffer) => resolve(Number(String(d).trim().split('\n')[0])));
    child.once('exit', (code) => reject(new Error(`bot exited with ${code}`)));
  });
  return { child, port };
}

describe("a bot's owner and the admin run bots from the bot's page, in Chromium", { skip }, () => {
  let dir: string;
  let server: RunningServer;
  let b: Awaited<ReturnType<typeof launchBrowser>>;
  let browser: Browser;
  let bot: { child: ChildProcess; port: number };
  const api = apiClient(() => server.url);

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'botarena-web-owner-'));
    server = await startServer({
      port: 0,
      host: '127.0.0.1',
      database: join(dir, 'db.sqlite'),
      logStream: quiet(),
      gateway: false,
      concurrency: 2,
      allowPrivateBots: true,
      adminToken: ADMIN,
      ladderConfig: { tron: { width: 10, height: 10 } },
    });
    bot = await startBot();
    b = await launchBrowser();
    browser = b.browser;
  });
  after(async () => {
    await b?.close();
    await server?.close(2000);
    bot?.child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  });

  const register = async (name: string, owner: string) => {
    const reg = await api('POST', '/api/bots', { game: 'tron', name, endpoint: `http://127.0.0.1:${bot.port}/`, owner });
    assert.equal(reg.status, 201, JSON.stringify(reg.body));
    const id = (reg.body!.bot as { id: string }).id;
    await until(`${name} to pass its check`, async () => ((await api('GET', `/api/bots/${id}`)).body!.status === 'active' ? true : null), 30_000);
    return { id, token: reg.body!.token as string };
  };
  const statusOf = async (id: string) => (await api('GET', `/api/bots/${id}`)).body!.status;

  it('an owner pastes the token, pauses and re-activates the bot, checks it, edits it, reads its log', async () => {
    const { id, token } = await register('lightcycle', 'ada@example.org');
    const m = await api('POST', '/api/matches', { game: 'tron', seats: [id, id], seed: 3, config: { width: 8, height: 8 } });
    assert.equal(m.status, 201, JSON.stringify(m.body));
    const matchId = m.body!.id as string;
    await until('the match to finish', async () => ((await api('GET', `/api/matches/${matchId}`)).body!.status === 'finished' ? true : null), 30_000);

    const { page, errors } = await newPage(browser);
    await page.goto(`${server.url}/#/bots/${id}`);
    // No token kept in this browser: the page asks for it, and a wrong one is refused with the server's sentence.
    await page.getByLabel('owner token').fill('not-the-token');
    await page.getByTestId('use-owner-token').click();
    await page.getByTestId('owner-error').waitFor();
    assert.match((await page.getByTestId('owner-error').textContent()) ?? '', new RegExp(`not the owner token of bot ${id}`));
    assert.equal(await page.getByTestId('pause').count(), 0);
    await page.getByLabel('owner token').fill(token);
    await page.getByTestId('use-owner-token').click();

    // Pause: the page and the API say paused.
    await page.getByTestId('pause').click();
    await page.getByTestId('owner-result').filter({ hasText: 'paused' }).waitFor();
    assert.equal(await page.getByTestId('bot-status').textContent(), 'paused');
    assert.equal(await statusOf(id), 'paused');
    await shot(page, 'owner-paused');
    // Re-activate: it goes through its check, and the page follows it to active.
    await page.getByTestId('activate').click();
    await page.getByTestId('owner-result').filter({ hasText: 'active again' }).waitFor({ timeout: 60_000 });
    assert.equal(await page.getByTestId('bot-status').textContent(), 'active');
    assert.equal(await statusOf(id), 'active');

    // The token is kept: a reload goes straight to the owner's buttons.
    await page.reload();
    await page.getByTestId('check').click();
    await page.getByTestId('owner-result').filter({ hasText: 'the check passed' }).waitFor({ timeout: 60_000 });
    await page.getByLabel('description').fill('follows the longest free line');
    await page.getByTestId('save').click();
    await page.getByTestId('owner-result').filter({ hasText: 'saved' }).waitFor();
    assert.equal((await api('GET', `/api/bots/${id}`)).body!.description, 'follows the longest free line');
    // A bad endpoint: the API's own message, and nothing changes.
    await page.getByLabel('endpoint').fill('ftp://nowhere');
    await page.getByTestId('save').click();
    await page.getByTestId('owner-error').waitFor();
    assert.match((await page.getByTestId('owner-error').textContent()) ?? '', /http/);
    assert.equal((await api('GET', `/api/bots/${id}`)).body!.endpoint, `http://127.0.0.1:${bot.port}/`);

    // The message log of its match, read with the kept token.
    await page.getByTestId(`log-${matchId}-0`).click();
    await page.getByTestId('owner-log').waitFor();
    const log = (await page.getByTestId('owner-log').textContent()) ?? '';
    assert.match(log, /sent →/);
    assert.match(log, /"play"/);
    // Not the admin: no owner's contact anywhere.
    assert.equal(await page.getByTestId('owner-contact').count(), 0);
    assert.doesNotMatch((await page.content()) ?? '', /ada@example\.org/);
    assert.deepEqual(appErrors(errors), []);
    await page.close();
  });

  it("the admin sees owners' contacts, which nobody else gets, and pauses and deletes a bot that is not theirs", async () => {
    const { id } = await register('someone-elses', 'grace@example.org');
    // The API shows the contact to the admin token only.
    assert.equal((await api('GET', `/api/bots/${id}`)).body!.owner, undefined);
    assert.equal((await api('GET', `/api/bots/${id}`, undefined, 'wrong')).body!.owner, undefined);
    assert.equal((await api('GET', `/api/bots/${id}`, undefined, ADMIN)).body!.owner, 'grace@example.org');
    const list = (await api('GET', '/api/bots?game=tron', undefined, ADMIN)).body as unknown as { id: string; owner?: string }[];
    assert.equal(list.find((x) => x.id === id)?.owner, 'grace@example.org');
    const anon = (await api('GET', '/api/bots?game=tron')).body as unknown as { id: string; owner?: string }[];
    assert.equal(
      anon.some((x) => 'owner' in x),
      false,
    );

    const context = await browser.newContext(); // a browser that holds no owner token
    const { page, errors } = await newPage(context);
    await page.goto(`${server.url}/#/bots/${id}`);
    await page.getByLabel('admin token').fill('a-guess');
    await page.getByTestId('use-admin-token').click();
    await page.getByTestId('owner-error').waitFor();
    assert.match((await page.getByTestId('owner-error').textContent()) ?? '', /not the admin token/);
    await page.getByLabel('admin token').fill(ADMIN);
    await page.getByTestId('use-admin-token').click();
    await page.getByTestId('owner-contact').filter({ hasText: 'grace@example.org' }).waitFor();
    await page.getByTestId('pause').click();
    await page.getByTestId('owner-result').filter({ hasText: 'paused' }).waitFor();
    assert.equal(await statusOf(id), 'paused');
    // The admin token is kept for every bot: another bot's page shows its contact at once.
    const other = await register('third', 'hopper@example.org');
    await page.goto(`${server.url}/#/bots/${other.id}`);
    await page.getByTestId('owner-contact').filter({ hasText: 'hopper@example.org' }).waitFor();
    // The list of bots shows the admin every owner's contact.
    await page.goto(`${server.url}/#/bots?game=tron`);
    await page.getByTestId('bot-owner').filter({ hasText: 'hopper@example.org' }).waitFor();
    await page.getByTestId('bot-owner').filter({ hasText: 'grace@example.org' }).waitFor();
    await page.goto(`${server.url}/#/bots/${other.id}`);
    await page.getByTestId('delete').click();
    await page.getByTestId('delete-yes').click();
    await page.getByTestId('bot-deleted').waitFor();
    assert.equal((await api('GET', `/api/bots/${other.id}`)).status, 404);
    assert.deepEqual(appErrors(errors), []);
    await context.close();
  });
});
