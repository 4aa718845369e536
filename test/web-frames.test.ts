/// <reference lib="dom" />
// What the board shows in a live match of a game with hidden information, in Debian's Chromium against a real
// server: at step 0, before any step, lighthouses' island (every player's hello has it) and smart-dog's land,
// from the public start; and a person playing smart-dog sees their own dogs (and what they see) on the board,
// as their turn's message places them.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { startServer, type RunningServer } from '../src/server/serve.js';
import { browserSkip, launchBrowser, newPage, shot } from './web.kit.js';

const skip = browserSkip();
const quiet = () => new Writable({ write: (_c, _e, cb) => cb() });

/** How many pixels of the board's canvas are exactly this colour (#rrggbb). */
function pixelsOf(page: Page, hex: string): Promise<number> {
  return page.getByTestId('board').evaluate((c, hex) => {
    const canvas = c as HTMLCanvasElement;
    const data = canvas.getContext('2d')!.getImageData(0, 0, canvas.width, canvas.height).data;
    const [r, g, b] = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));
    let n = 0;
    for (let i = 0; i < data.length; i += 4) if (data[i] === r && data[i + 1] === g && data[i + 2] === b) n++;
    return n;
  }, hex);
}

describe('the live board of a game with hidden information', { skip }, () => {
  let dir: string;
  let server: RunningServer;
  let b: Awaited<ReturnType<typeof launchBrowser>>;
  let browser: Browser;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'botarena-web-frames-'));
    server = await startServer({ port: 0, host: '127.0.0.1', database: join(dir, 'db.sqlite'), logStream: quiet(), gateway: false, ladder: false });
    b = await launchBrowser();
    browser = b.browser;
  });
  after(async () => {
    await b?.close();
    await server?.close(2000);
    rmSync(dir, { recursive: true, force: true });
  });

  /** A person's match against the weak bot from the test page, up to the person's first turn. */
  async function firstTurn(page: Page, game: string): Promise<void> {
    await page.goto(`${server.url}/#/test`);
    await page.getByTestId('test-game').selectOption(game);
    await page.getByTestId('against-weak').check();
    await page.getByTestId('test-start').click();
    await page.getByTestId('your-turn').waitFor({ timeout: 15_000 });
    await page.getByTestId('board').waitFor();
  }

  it("draws lighthouses' island at step 0, before any step", async () => {
    const { page, errors } = await newPage(browser, { width: 1280, height: 800 });
    await firstTurn(page, 'lighthouses');
    // Back to step 0, before the hellos were answered.
    await page.locator('section.player').focus();
    await page.keyboard.press('Home');
    await page.getByTestId('step').filter({ hasText: /^0$/ }).waitFor();
    // The sea around and between the island's cells (#0a1f36): the board is drawn, not an empty box.
    const sea = await pixelsOf(page, '#0a1f36');
    assert.ok(sea > 1000, `the island's sea is drawn at step 0 (${sea} pixels)`);
    await shot(page, 'lighthouses-step0');
    assert.deepEqual(errors, []);
    await page.close();
  });

  it("shows a smart-dog person the land and their own dogs, where their turn's message puts them", async () => {
    const { page, errors } = await newPage(browser, { width: 1280, height: 800 });
    await firstTurn(page, 'smartdog');
    const step = Number(await page.getByTestId('step').textContent());
    await shot(page, 'smartdog-person-first-turn');
    // The fences (#8a7a5c, drawn opaque): the land is drawn, not an empty box.
    const fences = await pixelsOf(page, '#8a7a5c');
    assert.ok(fences > 500, `the land is drawn at step ${step} (${fences} fence pixels)`);
    // The seat's own dogs, as its message gives them: `start {"you":N,…}` and one `obj` line per thing seen.
    const prompt = (await page.locator('pre.prompt').textContent()) ?? '';
    const you = Number(/start\s+"you":(\d+)/.exec(prompt)?.[1] ?? '1');
    const dogs = prompt
      .split('\n')
      .filter((l) => l.startsWith('obj '))
      .map((l) => JSON.parse(`{${l.slice(4)}}`) as { id: number; type: string; x: number; y: number; owner?: number })
      .filter((o) => o.type === 'Dog' && o.owner === you)
      .map((o) => `dog ${o.id} at ${o.x},${o.y}`);
    assert.ok(dogs.length > 0, `the message places the seat's dogs: ${prompt}`);
    const sees = (await page.getByTestId('board').getAttribute('data-seat-sees')) ?? '';
    assert.ok(sees.startsWith(`your dogs: ${dogs.join(', ')}`), `the board draws the person's dogs (${dogs.join(', ')}): ${sees}`);
    // Scrubbed back before the newest step, the board is the spectators' again (the view is of now).
    if (step > 0) {
      await page.locator('section.player').focus();
      await page.keyboard.press('Home');
      await page.waitForFunction(() => !document.querySelector('[data-testid="board"]')!.hasAttribute('data-seat-sees'));
    }
    assert.deepEqual(errors, []);
    await page.close();
  });
});
