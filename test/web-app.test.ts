/// <reference lib="dom" />
// The web app against a real server, in Debian's Chromium: a person watches a live Tron match to its end, and
// registers an HTTP bot through the form and finds it on the leaderboard after its ladder games.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer, type AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { startServer, type RunningServer } from '../src/server/serve.js';
import { apiClient, until } from './server.kit.js';
import { browserSkip, launchBrowser, newPage, shot } from './web.kit.js';

const skip = browserSkip();
const quiet = () => new Writable({ write: (_c, _e, cb) => cb() });

/** Starts a bot program that prints its port on its first line. */
async function startBot(args: string[]): Promise<{ child: ChildProcess; port: number }> {
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise<number>((resolve, reject) => {
    child.stdout!.once('data', (d: Buffer) => resolve(Number(String(d).trim().split('\n')[0])));
    child.once('exit', (code) => reject(new Error(`bot exited with ${code}`)));
  });
  return { child, port };
}

describe('the web app on a real server, in Chromium', { skip }, () => {
  let dir: string;
  let server: RunningServer;
  let b: Awaited<ReturnType<typeof launchBrowser>>;
  let browser: Browser;
  const bots: ChildProcess[] = [];
  const api = apiClient(() => server.url);

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'botarena-web-app-'));
    // The ladder plays the first test's slow Tron bot too (40 ms a move). On the default 100×100 grid such a
    // match lasts minutes and holds one of the ladder's two places, so the second test's bot waited 9 to over
    // 60 s for its first game (a CI run failed on it). On 12×12 a ladder Tron match lasts seconds.
    server = await startServer({
      port: 0,
      host: '127.0.0.1',
      database: join(dir, 'db.sqlite'),
      logStream: quiet(),
      gateway: false,
      concurrency: 2,
      allowPrivateBots: true, // the bots registered here listen on 127.0.0.1
      ladderConfig: { tron: { width: 12, height: 12 } },
    });
    b = await launchBrowser();
    browser = b.browser;
  });
  after(async () => {
    await b?.close();
    await server?.close(2000);
    for (const c of bots) c.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  });

  it('a person watches a live Tron match to its end', async () => {
    const bot = await startBot(['test/fixtures/slow-tron-http-bot.mjs', '0', '40']);
    bots.push(bot.child);
    const reg = await api('POST', '/api/bots', { game: 'tron', name: 'slowpoke', endpoint: `http://127.0.0.1:${bot.port}/` });
    assert.equal(reg.status, 201, JSON.stringify(reg.body));
    const id = (reg.body!.bot as { id: string }).id;
    await until('the slow bot to pass its check', async () => ((await api('GET', `/api/bots/${id}`)).body!.status === 'active' ? true : null));
    // Seed 4 on 24×24: the bot's rule (the original stupid bot's) lasts about 250 laps, 10 s at 40 ms a move.
    const created = await api('POST', '/api/matches', { game: 'tron', seats: [id, id], seed: 4, config: { width: 24, height: 24 } });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const matchId = created.body!.id as string;
    const { page, errors } = await newPage(browser);
    await page.goto(`${server.url}/#/matches/${matchId}`);
    // Live: while the badge shows, the page follows the match step after step.
    await page.locator('.badge.live').waitFor({ timeout: 15_000 });
    const seen = new Set<number>();
    while ((await page.locator('.badge.live').count()) > 0) {
      seen.add(Number(await page.getByTestId('steps').textContent()));
      if (seen.size === 3) await shot(page, 'live-tron');
      await new Promise((r) => setTimeout(r, 50));
    }
    assert.ok(seen.size >= 3, `the live page showed the match growing (step counts seen: ${[...seen].join(', ')})`);
    // To its end: the status turns finished, the player sits on the last step, and the seats show the outcome.
    await page.getByTestId('status').filter({ hasText: 'finished' }).waitFor({ timeout: 60_000 });
    const replay = (await (await fetch(`${server.url}/api/matches/${matchId}/replay`)).json()) as { turns: unknown[] };
    await until('the player to show the last step', async () => Number(await page.getByTestId('step').textContent()) === replay.turns.length, 10_000);
    assert.match((await page.getByTestId('seats').textContent()) ?? '', /won|draw/);
    assert.equal(await page.locator('.badge.live').count(), 0);
    await shot(page, 'live-tron-ended');
    assert.deepEqual(errors, []);
    await page.close();
  });

  it('registers an HTTP bot with the form, keeps its token, and finds it on the leaderboard after its ladder games', async () => {
    // The repository's example bot, on a free port (it takes a fixed one).
    const port = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const p = (probe.address() as AddressInfo).port;
        probe.close(() => resolve(p));
      });
    });
    const child = spawn(process.execPath, ['examples/connect4-node-http/bot.mjs', '--port', String(port)], { stdio: 'ignore' });
    bots.push(child);
    const hello = JSON.stringify({ 'game-id': 'x', action: 'init', game: 'connect4', players: 2, 'player-index': 0 });
    await until(
      'the example bot to listen',
      () =>
        fetch(`http://127.0.0.1:${port}/`, { method: 'POST', body: hello }).then(
          () => true,
          () => null,
        ),
      10_000,
    );
    const { page, errors } = await newPage(browser, { width: 420, height: 860 }); // a phone's screen
    await page.goto(`${server.url}/#/register`);
    // A bad endpoint first: the API's message shows beside the form.
    await page.getByLabel('game').selectOption('connect4');
    await page.getByLabel('name').fill('four-in-a-row');
    await page.getByLabel('endpoint').fill('ftp://nowhere');
    await page.getByTestId('register').click();
    await page.getByTestId('register-error').waitFor();
    assert.match((await page.getByTestId('register-error').textContent()) ?? '', /http/);
    await page.getByLabel('endpoint').fill(`http://127.0.0.1:${port}/`);
    await page.getByTestId('register').click();
    const token = (await page.getByTestId('token').textContent()) ?? '';
    assert.match(token, /\S{20,}/);
    await shot(page, 'registered');
    await page.getByTestId('bot-link').click();
    await until(
      'the bot to pass its check',
      async () => {
        await page.reload();
        return (await page.getByTestId('bot-status').textContent()) === 'active' ? true : null;
      },
      30_000,
    );
    await page.goto(`${server.url}/#/games/connect4`);
    // The game's rules in plain words, from its docs page, on the game's page.
    const rules = (await page.getByTestId('rules').textContent()) ?? '';
    assert.match(rules, /Connect Four|four/i);
    assert.match(rules, /column/);
    const api404 = await api('GET', '/api/games/__proto__/rules');
    assert.equal(api404.status, 404);
    await until(
      'the bot on the leaderboard',
      async () => {
        await page.reload();
        const board = page.getByTestId('leaderboard');
        return (await board.count()) && /four-in-a-row/.test((await board.textContent()) ?? '') ? true : null;
      },
      60_000,
    );
    await shot(page, 'leaderboard-phone');
    assert.deepEqual(
      errors.filter((e) => !/status of 4\d\d/.test(e)),
      [],
    );
    await page.close();
  });
});
