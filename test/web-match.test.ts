/// <reference lib="dom" />
// The match page explains the match (issue 37), on a real server in Debian's Chromium: why a match ended (in the
// API and on the page), each seat's state at the step shown (a dead Tron bot is out from the lap it died, with
// the rules' cause, in the app and in the offline HTML player).
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { ReplayFollower, type Replay } from '../src/core/replay.js';
import { replayHtml } from '../src/arena/replay-html.js';
import { games } from '../src/games/index.js';
import type { LighthousesState } from '../src/games/lighthouses/rules.js';
import type { TronState } from '../src/games/tron/rules.js';
import { startServer, type RunningServer } from '../src/server/serve.js';
import { apiClient, until } from './server.kit.js';
import { readSse } from './sse.kit.js';
import { browserSkip, launchBrowser, newPage, shot } from './web.kit.js';
import { builtinReplay } from './web.replays.kit.js';

const skip = browserSkip();
const quiet = () => new Writable({ write: (_c, _e, cb) => cb() });

/** The first death of a Tron replay: its slot, the step (1-based, as the player counts) and the state's record of it. */
function firstDeath(replay: Replay): { slot: number; step: number; lap: number; cause: string; lastStep: number } {
  const { turns, result: _r, transcripts: _t, ...header } = replay;
  const follower = new ReplayFollower(games.tron!, header);
  for (let i = 0; i < turns.length; i++) {
    follower.step(turns[i]!);
    const state = follower.engine.state as TronState;
    const slot = state.death.findIndex((d) => d !== null);
    if (slot >= 0) return { slot, step: i + 1, lap: state.death[slot]!.lap, cause: state.death[slot]!.cause, lastStep: turns.length };
  }
  throw new Error('nobody died in this replay');
}

/** The Tron state after `steps` steps of a replay, rebuilt by the rules. */
function tronAfter(replay: Replay, steps: number): TronState {
  const { turns, result: _r, transcripts: _t, ...header } = replay;
  const follower = new ReplayFollower(games.tron!, header);
  for (let i = 0; i < steps; i++) follower.step(turns[i]!);
  return structuredClone(follower.engine.state as TronState);
}

/** The seat table's cell of a slot's state, as the page shows it now. */
const seatText = async (page: Page, slot: number) => ((await page.getByTestId(`seat-${slot}`).textContent()) ?? '').trim();

describe('the match page explains the match, in Chromium', { skip }, () => {
  let dir: string;
  let server: RunningServer;
  let b: Awaited<ReturnType<typeof launchBrowser>>;
  let browser: Browser;
  const api = apiClient(() => server.url);
  let matchId: string;
  let replay: Replay;
  let death: ReturnType<typeof firstDeath>;
  /** the global feed's events, heard from before the match was made */
  const feed: { type?: string; matchId?: string; reason?: string }[] = [];
  let feedStream: ReturnType<typeof readSse>;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'botarena-web-match-'));
    server = await startServer({
      port: 0,
      host: '127.0.0.1',
      database: join(dir, 'db.sqlite'),
      logStream: quiet(),
      gateway: false,
      concurrency: 2,
      ladder: false,
    });
    b = await launchBrowser();
    browser = b.browser;
    feedStream = readSse(`${server.url}/api/events`, (d) => feed.push(d as (typeof feed)[number]));
    await feedStream.connected;
    // Three built-in bots on 16×16: the random one dies first, well before the other two end the match.
    const created = await api('POST', '/api/matches', { game: 'tron', seats: ['random', 'stupid', 'voronoi'], seed: 7, config: { width: 16, height: 16 } });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    matchId = created.body!.id as string;
    await until('the match to finish', async () => ((await api('GET', `/api/matches/${matchId}`)).body!.status === 'finished' ? true : null));
    replay = (await (await fetch(`${server.url}/api/matches/${matchId}/replay`)).json()) as Replay;
    death = firstDeath(replay);
    assert.ok(death.step < death.lastStep, `a bot dies before the end (step ${death.step} of ${death.lastStep})`);
  });
  after(async () => {
    feedStream?.close();
    await b?.close();
    await server?.close(2000);
    rmSync(dir, { recursive: true, force: true });
  });

  it('says why the match ended in one field, `reason`, as its replay does: GET /api/matches/ID, the list, the live feed and the match stream', async () => {
    const why = replay.result.reason;
    assert.match(why, /survives after \d+ laps; died: /);
    const m = await api('GET', `/api/matches/${matchId}`);
    assert.equal(m.body!.reason, why);
    assert.equal((m.body!.result as { reason?: string }).reason, why);
    const list = await api('GET', '/api/matches?game=tron');
    assert.equal((list.body!.items as { id: string; reason: string | null }[]).find((x) => x.id === matchId)?.reason, why);
    // The live feed's `ended`, as the match was played.
    const ended = await until('the feed to tell the end', async () => feed.find((e) => e.type === 'ended' && e.matchId === matchId), 5_000);
    assert.equal(ended.reason, why);
    // A finished match's stream (its replay as events) ends the same way.
    const events: { type?: string; reason?: string }[] = [];
    await readSse(`${server.url}/api/matches/${matchId}/events`, (d) => events.push(d as (typeof events)[number])).done;
    assert.equal(events.at(-1)?.type, 'ended');
    assert.equal(events.at(-1)?.reason, why);
    // Before its end a match has no reason: a queued one says null.
    const queued = await api('POST', '/api/matches', { game: 'tron', seats: ['random', 'random'], config: { width: 60, height: 60 } });
    assert.equal(queued.status, 201, JSON.stringify(queued.body));
    assert.equal(queued.body!.reason, null);
  });

  it('a dead Tron bot shows playing until the lap it died, then out with its cause; the page says why the match ended', async () => {
    const { page, errors } = await newPage(browser, { width: 1280, height: 800 });
    await page.goto(`${server.url}/#/matches/${matchId}?step=${death.step - 1}`);
    await page.getByTestId('seats').waitFor();
    assert.equal(await page.getByTestId('step').textContent(), String(death.step - 1));
    assert.equal(await seatText(page, death.slot), 'playing');
    // One step on: out, on the lap and with the cause the rules recorded.
    await page.getByTestId('board').click();
    await page.keyboard.press('ArrowRight');
    await until('the step to move on', async () => ((await page.getByTestId('step').textContent()) === String(death.step) ? true : null), 5_000);
    assert.equal(await seatText(page, death.slot), `out on lap ${death.lap}: ${death.cause}`);
    await shot(page, 'match-tron-out');
    // The others still play at that step; at the end the dead bot keeps its cause beside its place.
    const others = [0, 1, 2].filter((s) => s !== death.slot);
    for (const s of others) assert.equal(await seatText(page, s), 'playing');
    await page.keyboard.press('End');
    await until('the last step', async () => ((await page.getByTestId('step').textContent()) === String(death.lastStep) ? true : null), 5_000);
    assert.match(await seatText(page, death.slot), new RegExp(`^rank \\d+, score \\d+ · out on lap ${death.lap}: `));
    // Why the match ended: the replay's reason, in words on the page.
    assert.equal(((await page.getByTestId('end-reason').textContent()) ?? '').trim(), `Why it ended: ${replay.result.reason}`);
    assert.deepEqual(errors, []);
    await page.close();
  });

  it('the per-step panel shows what each seat did at the step, its answer time and its score, as the replay has them', async () => {
    const { page, errors } = await newPage(browser, { width: 1280, height: 800 });
    const text = async (id: string) => ((await page.getByTestId(id).textContent()) ?? '').trim();
    // The step the first bot died at, one before it, and the last: each seat's move, answer time and score.
    for (const step of [death.step - 1, death.step, death.lastStep]) {
      await page.goto(`${server.url}/#/matches/${matchId}?step=${step}`);
      await page.reload();
      await page.getByTestId('seats').waitFor();
      assert.equal(await text('step'), String(step));
      const record = replay.turns[step - 1]!;
      const state = tronAfter(replay, step);
      for (let slot = 0; slot < 3; slot++) {
        const move = record.moves.find((m) => m.slot === slot);
        const where = `slot ${slot} at step ${step}`;
        if (!move) assert.equal(await text(`move-${slot}`), '–', `${where}: not asked`);
        else if (move.fault) assert.equal(await text(`move-${slot}`), `failed: ${move.fault.kind}: ${move.fault.detail}`, where);
        else assert.equal(await text(`move-${slot}`), String(move.action), where);
        if (move && typeof move.ms === 'number')
          assert.ok((await text(`ms-${slot}`)).startsWith(`${move.ms.toFixed(1)} (median `), `${where}: ${await text(`ms-${slot}`)}`);
        // Tron's score: the lap a bot died on, or the laps played + 1 while it lives (the rules' outcome).
        const d = state.death[slot];
        assert.equal(await text(`score-${slot}`), String(d ? d.lap : state.lap + 1), where);
        if (step === death.lastStep) assert.equal(await text(`score-${slot}`), String(replay.result.scores![slot]), `${where}: the result's score`);
      }
    }
    assert.deepEqual(errors, []);
    await page.close();
  });

  it('at 1280×800 the controls and the seat table are on screen without scrolling; the address follows the step, and a link opens at it', async () => {
    const { page, errors } = await newPage(browser, { width: 1280, height: 800 });
    await page.goto(`${server.url}/#/matches/${matchId}`);
    await page.getByTestId('seats').waitFor();
    for (const id of ['scrub', 'play', 'seats', 'end-reason']) {
      const box = (await page.getByTestId(id).boundingBox())!;
      assert.ok(box.y >= 0 && box.y + box.height <= 800, `${id} is on screen: top ${box.y}, bottom ${box.y + box.height} of 800`);
    }
    assert.equal(await page.evaluate(() => scrollY), 0);
    await shot(page, 'match-tron-1280x800');
    // Scrubbing: the address follows (replaced, not a new history entry for each step).
    const entries = await page.evaluate(() => history.length);
    await page.getByTestId('scrub').fill(String(death.step));
    await until('the address to follow the step', async () => (page.url().endsWith(`#/matches/${matchId}?step=${death.step}`) ? true : null), 5_000);
    await page.getByTestId('scrub').fill('3');
    await page.getByTestId('scrub').fill(String(death.step - 1));
    await until('the address to follow the last step', async () => (page.url().endsWith(`?step=${death.step - 1}`) ? true : null), 5_000);
    assert.equal(await page.evaluate(() => history.length), entries, 'no history entry per step');
    // The link shares the moment: another page opens at that step, with the seat's state there.
    const shared = await newPage(browser, { width: 1280, height: 800 });
    await shared.page.goto(page.url());
    await shared.page.getByTestId('seats').waitFor();
    assert.equal(await shared.page.getByTestId('step').textContent(), String(death.step - 1));
    assert.equal(await seatText(shared.page, death.slot), 'playing');
    assert.deepEqual([...errors, ...shared.errors], []);
    await shared.page.close();
    await page.close();
  });

  it('the offline HTML player shows the dead bot out at its step, not playing', async () => {
    const html = await (await fetch(`${server.url}/api/matches/${matchId}/replay.html`)).text();
    const file = join(dir, 'match.html');
    writeFileSync(file, html);
    const { page, errors } = await newPage(browser, { width: 1280, height: 800 });
    await page.goto(`file://${file}`);
    await page.getByTestId('scrub').fill(String(death.step - 1));
    assert.equal(await seatText(page, death.slot), 'playing');
    await page.getByTestId('scrub').fill(String(death.step));
    assert.equal(await seatText(page, death.slot), `out on lap ${death.lap}: ${death.cause}`);
    assert.deepEqual(errors, []);
    await page.close();
  });

  it('lighthouses: the step panel says each command and whether it was carried out, and the score, as the replay has them', async () => {
    // Seed 3: the random bot's connect across another connection is refused by the rules at step 258.
    const lh = builtinReplay(games.lighthouses!, 3);
    const failedAt = lh.turns.findIndex((t) => t.moves.some((m) => m.fault)) + 1;
    assert.ok(failedAt > 1, 'a refused command in the replay');
    const file = join(dir, 'lighthouses.html');
    writeFileSync(file, replayHtml(lh));
    const { page, errors } = await newPage(browser, { width: 1280, height: 800 });
    await page.goto(`file://${file}`);
    const { turns, result: _r, transcripts: _t, ...header } = lh;
    const follower = new ReplayFollower(games.lighthouses!, header);
    let checked = 0;
    for (let step = 1; step <= failedAt; step++) {
      follower.step(turns[step - 1]!);
      if (step < failedAt - 6) continue;
      await page.getByTestId('scrub').fill(String(step));
      const state = follower.engine.state as LighthousesState;
      for (let slot = 0; slot < 2; slot++) {
        const move = turns[step - 1]!.moves.find((m) => m.slot === slot);
        const cell = ((await page.getByTestId(`move-${slot}`).textContent()) ?? '').trim();
        const where = `slot ${slot} at step ${step}: ${cell}`;
        if (!move) assert.equal(cell, '–', where);
        else if (move.fault) assert.equal(cell, `failed: ${move.fault.kind}: ${move.fault.detail}`, where);
        else if (move.action !== null && typeof move.action === 'object') {
          assert.ok(cell.startsWith(String((move.action as { command: string }).command)) && cell.endsWith(' · done'), where);
          checked++;
        }
        assert.equal(((await page.getByTestId(`score-${slot}`).textContent()) ?? '').trim(), String(state.players[slot]!.score), where);
      }
    }
    assert.ok(checked > 0, 'some commands carried out were checked');
    assert.deepEqual(errors, []);
    await page.close();
  });
});
