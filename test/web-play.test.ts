/// <reference lib="dom" />
// People at the table, in Debian's Chromium against a real server: tic-tac-toe against the strong bot (a person
// cannot beat perfect play), a move in every other game, and the test page with a broken bot whose fault is read
// in the message log.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
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

describe('people play in the browser', { skip }, () => {
  let dir: string;
  let server: RunningServer;
  let b: Awaited<ReturnType<typeof launchBrowser>>;
  let browser: Browser;
  let broken: ChildProcess;
  let brokenUrl: string;
  const api = apiClient(() => server.url);

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'botarena-web-play-'));
    server = await startServer({
      port: 0,
      host: '127.0.0.1',
      database: join(dir, 'db.sqlite'),
      logStream: quiet(),
      gateway: false,
      ladder: false,
      allowPrivateBots: true, // its broken bot listens on 127.0.0.1
      // One client starts a person's match per game, each left after a move (it ends once the person is away
      // long enough): more at once than one address may have by default (--max-matches-per-address 4).
      onDemand: { perAddress: 16 },
    });
    b = await launchBrowser();
    browser = b.browser;
    broken = spawn(process.execPath, ['test/fixtures/broken-http-bot.mjs'], { stdio: ['ignore', 'pipe', 'inherit'] });
    brokenUrl = `http://127.0.0.1:${await new Promise<number>((resolve) => broken.stdout!.once('data', (d: Buffer) => resolve(Number(String(d).trim()))))}/`;
  });
  after(async () => {
    await b?.close();
    broken?.kill('SIGKILL');
    await server?.close(2000);
    rmSync(dir, { recursive: true, force: true });
  });

  const stepsOf = async (page: Page) => Number(await page.getByTestId('steps').textContent());

  it('plays tic-tac-toe against the strong bot from the test page, and loses or draws', async () => {
    const { page, errors } = await newPage(browser);
    await page.goto(`${server.url}/#/test`);
    await page.getByTestId('test-game').selectOption('tictactoe');
    await page.getByTestId('against-strong').check();
    await page.getByTestId('test-start').click();
    await page.getByTestId('person').waitFor();
    // The first move by a click on the board's centre: the person is X and moves first.
    await page.getByTestId('your-turn').waitFor();
    const box = (await page.getByTestId('board').boundingBox())!;
    await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
    await until('the centre move to be played', async () => (await stepsOf(page)) >= 4, 10_000); // two hellos, X, then O
    const matchId = page.url().split('/matches/')[1]!;
    // Then the offered moves, one after another, until the game is over.
    for (let turn = 0; turn < 5; turn++) {
      const state = await until(
        'my turn or the end',
        async () => ((await page.getByTestId('status').textContent()) === 'finished' ? 'over' : (await page.getByTestId('your-turn').count()) ? 'mine' : null),
        15_000,
      );
      if (state === 'over') break;
      const before = await stepsOf(page);
      await page.locator('.choices button').first().click();
      await until('the move to be played', async () => ((await stepsOf(page)) > before ? true : null), 10_000);
    }
    await page.getByTestId('status').filter({ hasText: 'finished' }).waitFor({ timeout: 15_000 });
    const m = (await api('GET', `/api/matches/${matchId}`)).body as { result: { winner: number | null; draw: boolean }; seats: { name: string }[] };
    assert.equal(m.seats[0]!.name, 'person');
    assert.ok(m.result.draw || m.result.winner === 1, `the person lost or drew against minimax: ${JSON.stringify(m.result)}`);
    const replay = (await (await fetch(`${server.url}/api/matches/${matchId}/replay`)).json()) as { turns: { phase: string; moves: { action?: unknown }[] }[] };
    assert.deepEqual(replay.turns.find((t) => t.phase === 'play')!.moves[0]!.action, '1-1', 'the click on the centre played 1-1 (the rules keep the cell)');
    await shot(page, 'play-tictactoe');
    assert.deepEqual(errors, []);
    await page.close();
  });

  for (const game of ['connect4', 'tron', 'battleship', 'lighthouses', 'paint', 'smartdog']) {
    it(`plays a move in ${game}`, async () => {
      // From the test page: no bot of mine, against the weak built-in bot: I play.
      const { page, errors } = await newPage(browser);
      await page.goto(`${server.url}/#/test`);
      await page.getByTestId('test-game').selectOption(game);
      await page.getByTestId('against-weak').check();
      await page.getByTestId('test-start').click();
      await page.getByTestId('person').waitFor();
      const id = page.url().split('/matches/')[1]!;
      await page.getByTestId('your-turn').waitFor({ timeout: 15_000 });
      if (game === 'battleship') {
        // The hello asks for a fleet first.
        await page.locator('.choices button', { hasText: 'random fleet' }).click();
        await page.getByTestId('your-turn').filter({ hasText: 'turn' }).waitFor({ timeout: 10_000 });
      }
      await page.getByTestId('steps').waitFor();
      const before = await stepsOf(page);
      if (game === 'smartdog') {
        // A stream turn: a dog's command, then the end of the turn.
        await page.locator('.choices button', { hasText: /^dog / }).first().click();
        await until(
          'the command to be taken',
          async () =>
            (await page.getByTestId('move-error').count())
              ? 'error'
              : (await page.locator('.choices button', { hasText: 'end turn' }).isEnabled())
                ? true
                : null,
          5_000,
        );
        await page.locator('.choices button', { hasText: 'end turn' }).click();
      } else {
        await page.locator('.choices button').first().click();
      }
      if (await page.getByTestId('move-error').count()) assert.fail(`the move was refused: ${await page.getByTestId('move-error').textContent()}`);
      await until(`the ${game} move to be applied`, async () => ((await stepsOf(page)) > before ? true : null), 15_000);
      const events = (await (await fetch(`${server.url}/api/matches/${id}`)).json()) as { seats: { fault: unknown }[] };
      assert.equal(events.seats[0]!.fault, null, 'the person is not faulted');
      await shot(page, `play-${game}`);
      assert.deepEqual(
        errors.filter((e) => !/status of 409/.test(e)),
        [],
      );
      await page.close();
    });
  }

  it('tests a broken bot by its URL on the test page, and reads the fault in the log', async () => {
    const { page, errors } = await newPage(browser);
    await page.goto(`${server.url}/#/test`);
    await page.getByTestId('test-game').selectOption('tictactoe');
    await page.getByTestId('test-url').fill(brokenUrl);
    await page.getByTestId('against-weak').check();
    await page.getByTestId('test-start').click();
    await page.getByTestId('status').filter({ hasText: 'finished' }).waitFor({ timeout: 20_000 });
    // The seats table names the fault and its reason.
    await until('the fault in the seats table', async () => (/not-json/.test((await page.getByTestId('seats').textContent()) ?? '') ? true : null), 10_000);
    // The log opens with the viewer token this browser kept: the bytes the bot sent, as it sent them.
    await page.getByTestId('show-log').click();
    await page.getByTestId('log').waitFor();
    // The log is tied to the step the player shows: at first the last one, with only its own messages.
    const matchId = page.url().split('/matches/')[1]!.split('?')[0]!;
    const token = await page.evaluate((id) => localStorage.getItem(`botarena.viewer.${id}`), matchId);
    const entries = (await api('GET', `/api/matches/${matchId}/logs/0`, undefined, token!)).body as unknown as { dir: string; text: string; step?: number }[];
    assert.ok(entries.length > 2 && entries.every((e) => Number.isInteger(e.step)), 'every line of the log carries its step');
    const last = Math.max(...entries.map((e) => e.step!));
    const shownSteps = () =>
      page.locator('[data-testid="log"] tbody tr[data-step]').evaluateAll((rows) => rows.map((r) => Number(r.getAttribute('data-step'))));
    assert.deepEqual(await shownSteps(), Array(entries.filter((e) => e.step === last).length).fill(last + 1), 'only the last step’s lines');
    // Stepping back in the player shows the messages of that step (the recorded step before it: the hello's).
    await page.locator('section.player').focus();
    await page.keyboard.press('Home');
    await page.keyboard.press('ArrowRight');
    await until('the first step’s lines', async () => ((await shownSteps()).every((s) => s === 1) && (await shownSteps()).length > 0 ? true : null), 5_000);
    assert.equal((await shownSteps()).length, entries.filter((e) => e.step === 0).length);
    // The whole log, every step, with a box.
    await page.getByTestId('log-this-step').uncheck();
    assert.equal((await shownSteps()).length, entries.length);
    const log = (await page.getByTestId('log').textContent()) ?? '';
    assert.match(log, /I think the best move is the centre/);
    assert.match(log, /play-turn/);
    await shot(page, 'test-page-broken-bot');
    assert.deepEqual(errors, []);
    await page.close();
  });
});
