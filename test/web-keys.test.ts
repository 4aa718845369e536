/// <reference lib="dom" />
// A person's keys in Debian's Chromium against a fast built-in bot (issue 32): every key pressed once the turn
// shows is that turn's move. Against a fast bot the next ask often comes in before the response to the move
// that led to it; the key listener then held a stale "sending" flag and dropped every key press after it,
// while the buttons worked. Each lap here waits for its own ask, presses one key and nothing else, and the
// replay must hold every key pressed, lap by lap.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { startServer, type RunningServer } from '../src/server/serve.js';
import { until } from './server.kit.js';
import { browserSkip, launchBrowser, newPage } from './web.kit.js';

const skip = browserSkip();
const quiet = () => new Writable({ write: (_c, _e, cb) => cb() });

/** How long one lap may take: a fast bot answers in milliseconds, a loaded machine adds seconds, a dropped key never ends. */
const LAP_MS = 20_000;

interface Replayed {
  turns: { phase: string; moves: { slot: number; action?: unknown }[] }[];
}

describe('a person plays with the keys in the browser', { skip }, () => {
  let dir: string;
  let server: RunningServer;
  let b: Awaited<ReturnType<typeof launchBrowser>>;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'botarena-web-keys-'));
    server = await startServer({ port: 0, host: '127.0.0.1', database: join(dir, 'db.sqlite'), logStream: quiet(), gateway: false, ladder: false });
    b = await launchBrowser();
  });
  after(async () => {
    await b?.close();
    await server?.close(2000);
    rmSync(dir, { recursive: true, force: true });
  });

  /**
   * Starts a test match, the person in seat 0 against `bot`, with a fixed seed: the bot's moves follow from the
   * person's, so every run plays the same game and only the browser's timing varies. The page is given the seat's
   * token as the test page gives it (kept in this browser's storage), then opens the match.
   */
  const start = async (page: Page, game: string, bot: string, seed: number): Promise<string> => {
    const res = await fetch(`${server.url}/api/matches`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ game, test: true, seats: ['person', bot], seed }),
    });
    const m = (await res.json()) as { id: string; persons: { slot: number; token: string }[] };
    assert.equal(res.status, 201, `the match was created: ${JSON.stringify(m)}`);
    await page.goto(server.url);
    await page.evaluate(([key, seats]) => localStorage.setItem(key!, seats!), [`botarena.person.${m.id}`, JSON.stringify(m.persons)]);
    await page.goto(`${server.url}/#/matches/${m.id}`);
    await page.getByTestId('person').waitFor();
    return m.id;
  };

  /** The turn the panel asks for now (from "Your move (turn N)"), or 'over' once the match is finished, or null (waiting). */
  const shown = async (page: Page): Promise<number | 'over' | null> => {
    if ((await page.getByTestId('status').textContent()) === 'finished') return 'over';
    const text =
      (await page
        .getByTestId('your-turn')
        .textContent({ timeout: 1000 })
        .catch(() => null)) ?? '';
    const turn = /\(turn (\d+)\)/.exec(text)?.[1];
    return turn === undefined ? null : Number(turn);
  };

  /** Waits for an ask after `turn` (or the end), naming the key that should have moved it on. */
  const nextAsk = (page: Page, turn: number, pressed: string) =>
    until(
      `the ask after turn ${turn}, where the key ${pressed} was pressed (a dropped key press leaves the seat waiting)`,
      async () => {
        const now = await shown(page);
        return now === 'over' || (now !== null && now > turn) ? now : null;
      },
      LAP_MS,
    );

  /** The person's (slot 0) moves of a finished match, in the order of its play steps, as text (Tron records a direction, Connect Four `{play: column}`). */
  const personMoves = async (id: string): Promise<string[]> => {
    const replay = (await (await fetch(`${server.url}/api/matches/${id}/replay`)).json()) as Replayed;
    return replay.turns
      .filter((t) => t.phase === 'play')
      .flatMap((t) => t.moves.filter((m) => m.slot === 0))
      .map((m) => (typeof m.action === 'string' ? m.action : String((m.action as { play?: unknown } | undefined)?.play ?? JSON.stringify(m.action))));
  };

  it("Tron against voronoi: an arrow key on every lap is that lap's move", async (t) => {
    const { page, errors } = await newPage(b.browser);
    const id = await start(page, 'tron', 'voronoi', 7); // a few milliseconds a move on the 100×100 grid
    // A staircase towards the grid's middle (never back onto its own trail); a crash-free key when that one is not.
    const first = await until('the first ask', async () => shown(page), LAP_MS);
    assert.equal(typeof first, 'number', 'the match asked the person a move');
    const at = /at (\d+),(\d+)/.exec((await page.locator('.prompt').textContent()) ?? '')!;
    const stairs = [Number(at[1]) < 50 ? 'ArrowRight' : 'ArrowLeft', Number(at[2]) < 50 ? 'ArrowDown' : 'ArrowUp'];
    const dirOf: Record<string, string> = { ArrowUp: 'y-', ArrowDown: 'y+', ArrowLeft: 'x-', ArrowRight: 'x+' };
    const pressed: string[] = [];
    let turn = first as number;
    const laps = 30;
    for (let lap = 0; lap < laps; lap++) {
      const offered = await page
        .locator('.choices button')
        .evaluateAll((bs) => bs.map((x) => ({ line: x.getAttribute('data-line'), crash: /crash/.test(x.textContent ?? '') })));
      const safe = offered.filter((c) => !c.crash).map((c) => c.line);
      const want = stairs[lap % 2]!;
      const key = safe.includes(dirOf[want]!) ? want : Object.keys(dirOf).find((k) => safe.includes(dirOf[k]!));
      if (!key) break; // walled in: the laps played so far are checked below
      await page.keyboard.press(key);
      pressed.push(dirOf[key]!);
      const now = await nextAsk(page, turn, key);
      if (now === 'over') break;
      turn = now;
    }
    assert.ok(pressed.length >= 10, `the person played ${pressed.length} laps before the match ended (voronoi let too few be played to tell)`);
    // The match ends by a key too: back onto its own trail.
    if ((await shown(page)) !== 'over') {
      const back: Record<string, string> = { 'y-': 'ArrowDown', 'y+': 'ArrowUp', 'x-': 'ArrowRight', 'x+': 'ArrowLeft' };
      const key = back[pressed[pressed.length - 1]!]!;
      await page.keyboard.press(key);
      pressed.push(dirOf[key]!);
      await nextAsk(page, turn, key);
      await page.getByTestId('status').filter({ hasText: 'finished' }).waitFor({ timeout: LAP_MS });
    }
    const played = await personMoves(id);
    assert.deepEqual(played.slice(0, pressed.length), pressed, 'the replay holds the key pressed on each lap, in order');
    t.diagnostic(`${pressed.length} arrow keys pressed, each played on its lap`);
    assert.deepEqual(errors, [], 'no error in the page (a move sent when nothing was asked is a 409)');
    await page.close();
  });

  it("Connect Four against the random bot: a digit on every turn is that turn's move", async (t) => {
    const { page, errors } = await newPage(b.browser);
    const id = await start(page, 'connect4', 'random', 7);
    const pressed: string[] = [];
    let now = await until('the first ask', async () => shown(page), LAP_MS);
    while (now !== 'over') {
      // Columns spread over the board (a person who stacks one column wins in four against random).
      const offered = await page.locator('.choices button').evaluateAll((bs) => bs.map((x) => x.getAttribute('data-line')!));
      const key = offered[(pressed.length * 3) % offered.length]!;
      await page.keyboard.press(key);
      pressed.push(key);
      now = await nextAsk(page, now, key);
    }
    assert.ok(pressed.length >= 4, `the person played ${pressed.length} discs`);
    await page.getByTestId('status').filter({ hasText: 'finished' }).waitFor({ timeout: LAP_MS });
    assert.deepEqual(await personMoves(id), pressed, 'the replay holds the digit pressed on each turn, in order');
    t.diagnostic(`${pressed.length} digits pressed, each played on its turn`);
    assert.deepEqual(errors, [], 'no error in the page');
    await page.close();
  });
});
