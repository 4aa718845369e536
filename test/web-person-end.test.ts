/// <reference lib="dom" />
// The end of a person's match, in Debian's Chromium against a real server: the panel says who won and why (not
// "Waiting for your turn…"), the page closes the seat's play stream at its `ended` and never asks for it again
// (it used to reconnect until the server, having forgotten the seat, answered 404), and a finished match opened
// later shows the result without asking for the stream at all.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { startServer, type RunningServer } from '../src/server/serve.js';
import { until } from './server.kit.js';
import { browserSkip, launchBrowser, newPage, shot } from './web.kit.js';

const skip = browserSkip();
const quiet = () => new Writable({ write: (_c, _e, cb) => cb() });

describe("a person's match ends in the browser", { skip }, () => {
  let dir: string;
  let server: RunningServer;
  let b: Awaited<ReturnType<typeof launchBrowser>>;
  let browser: Browser;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'botarena-person-end-'));
    server = await startServer({ port: 0, host: '127.0.0.1', database: join(dir, 'db.sqlite'), logStream: quiet(), gateway: false, ladder: false });
    b = await launchBrowser();
    browser = b.browser;
  });
  after(async () => {
    await b?.close();
    await server?.close(2000);
    rmSync(dir, { recursive: true, force: true });
  });

  it('shows who won and why, and closes the play stream for good', async () => {
    const { page, errors } = await newPage(browser);
    const plays: string[] = [];
    const refused: string[] = [];
    page.on('request', (r) => {
      if (/\/seats\/\d+\/play/.test(r.url())) plays.push(r.url());
    });
    page.on('response', (r) => {
      if (r.status() >= 400) refused.push(`${r.status()} ${r.url()}`);
    });
    await page.goto(`${server.url}/#/test`);
    await page.getByTestId('test-game').selectOption('tictactoe');
    await page.getByTestId('against-weak').check();
    await page.getByTestId('test-start').click();
    await page.getByTestId('person').waitFor();
    const id = page.url().split('/matches/')[1]!;
    // The first offered move, each turn, until the game is over.
    for (let turn = 0; turn < 6; turn++) {
      const state = await until(
        'my turn or the end',
        async () => ((await page.getByTestId('status').textContent()) === 'finished' ? 'over' : (await page.getByTestId('your-turn').count()) ? 'mine' : null),
        15_000,
      );
      if (state === 'over') break;
      const before = Number(await page.getByTestId('steps').textContent());
      await page.locator('.choices button').first().click();
      await until(
        'the move to be played',
        async () =>
          Number(await page.getByTestId('steps').textContent()) > before || (await page.getByTestId('status').textContent()) === 'finished' ? true : null,
        10_000,
      );
    }
    await page.getByTestId('status').filter({ hasText: 'finished' }).waitFor({ timeout: 15_000 });
    const m = (await (await fetch(`${server.url}/api/matches/${id}`)).json()) as {
      result: { winner: number | null; draw: boolean; reason: string; turns: number };
      seats: { name: string }[];
    };
    const said = await page.getByTestId('person-result').textContent({ timeout: 5_000 });
    const headline = m.result.draw ? /draw/i : m.result.winner === 0 ? /You won/ : new RegExp(`${m.seats[m.result.winner!]!.name} won`);
    assert.match(said ?? '', headline, `the panel says how it ended: ${said}`);
    assert.ok((said ?? '').includes(m.result.reason), `the panel says why, in the rules' words "${m.result.reason}": ${said}`);
    assert.ok((said ?? '').includes(`After ${m.result.turns} turns`), said ?? '');
    assert.equal(await page.getByTestId('waiting').count(), 0, 'no "Waiting for your turn…" once the match is over');
    assert.equal(await page.getByTestId('your-turn').count(), 0);
    // The browser's EventSource reconnects 3 s after a stream that ends, unless the page closed it: 5 s of nothing.
    const opened = plays.length;
    assert.equal(opened, 1, `the play stream was opened once while playing: ${plays.join(', ')}`);
    await sleep(5_000);
    assert.equal(plays.length, opened, `no reconnection to the play stream after the end: ${plays.join(', ')}`);
    await shot(page, 'person-end-tictactoe');

    // Opened again once over: the result, from the match, and no play stream asked for (the server forgets it).
    await page.reload();
    await page.getByTestId('person-result').waitFor({ timeout: 10_000 });
    assert.match((await page.getByTestId('person-result').textContent()) ?? '', headline);
    await sleep(500);
    assert.equal(plays.length, opened, 'a finished match does not ask for its play stream');
    assert.deepEqual(refused, []);
    assert.deepEqual(errors, []);
    await page.close();
  });
});
