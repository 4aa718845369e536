/// <reference lib="dom" />
// The web app: what a browser downloads (bundle sizes, raw and gzip), how long the first page takes to show in
// Debian's Chromium, and how a long Tron replay plays and scrubs in the offline player (frame build + draw per
// step, sequential and random jumps). Needs `npm run build` and /usr/bin/chromium.
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import { replayHtml } from '../src/arena/replay-html.js';
import { games } from '../src/games/index.js';
import { startServer } from '../src/server/serve.js';
import { builtinReplay } from '../test/web.replays.kit.js';
import { percentile } from './stats.js';

const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
const kib = (n: number) => `${(n / 1024).toFixed(1)} KiB`;

/** Sizes of what the browser downloads: the app's files and the offline player. */
export function benchWebBundle(): (string | number)[][] {
  const rows: (string | number)[][] = [['file', 'size', 'gzip']];
  const files = [
    ...readdirSync('dist/web/assets').map((f) => join('dist/web/assets', f)),
    'dist/web/index.html',
    'dist/web-player/player.js',
    'dist/web-player/player.css',
  ];
  let total = 0;
  let totalGz = 0;
  for (const f of files) {
    const bytes = readFileSync(f);
    const gz = gzipSync(bytes).length;
    if (f.startsWith('dist/web/')) {
      total += bytes.length;
      totalGz += gz;
    }
    rows.push([f.replace(/-[A-Za-z0-9_-]{8}\./, '-HASH.'), kib(statSync(f).size), kib(gz)]);
  }
  rows.push(['the app in all (dist/web)', kib(total), kib(totalGz)]);
  return rows;
}

/** First load of the home page on a running server: navigation timings and the time until the game cards show (median of N cold loads). */
export async function benchWebFirstLoad(runs = 7): Promise<(string | number)[][]> {
  const dir = mkdtempSync(join(tmpdir(), 'botarena-bench-web-'));
  const server = await startServer({ port: 0, host: '127.0.0.1', database: join(dir, 'db.sqlite'), ladder: false, gateway: false, logLevel: 'silent' });
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ARGS });
  const t = { dcl: [] as number[], load: [] as number[], cards: [] as number[] };
  try {
    for (let i = 0; i < runs + 1; i++) {
      const context = await browser.newContext(); // a cold cache each time
      const page = await context.newPage();
      const t0 = Date.now();
      await page.goto(`${server.url}/`);
      await page.waitForSelector('[data-testid=game-tron]');
      const cards = Date.now() - t0;
      const nav = await page.evaluate(() => {
        const n = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming;
        return { dcl: n.domContentLoadedEventEnd, load: n.loadEventEnd };
      });
      await context.close();
      if (i === 0) continue; // the first start of the browser's processes is not a page load
      t.dcl.push(nav.dcl);
      t.load.push(nav.load);
      t.cards.push(cards);
    }
  } finally {
    await browser.close();
    await server.close(1000);
    rmSync(dir, { recursive: true, force: true });
  }
  const row = (name: string, xs: number[]) => [name, percentile(xs, 50).toFixed(0), percentile(xs, 100).toFixed(0)];
  return [
    ['home page, cold cache, loopback', 'median ms', 'worst ms'],
    row('DOMContentLoaded', t.dcl),
    row('load event', t.load),
    row('game cards shown (from goto)', t.cards),
  ];
}

/** A long Tron replay in the offline player: loading (re-play and check every step), then frame build + draw per step. */
export async function benchWebTronReplay(): Promise<(string | number)[][]> {
  const game = games.tron!;
  const seed = 2;
  const config = { width: 160, height: 160 };
  const replay = builtinReplay(game, seed, { bots: ['voronoi', 'voronoi'], config });
  const dir = mkdtempSync(join(tmpdir(), 'botarena-bench-web-'));
  const file = join(dir, 'tron.html');
  writeFileSync(file, replayHtml(replay));
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ARGS });
  try {
    const page = await browser.newPage({ viewport: { width: 1000, height: 1000 } });
    const t0 = Date.now();
    await page.goto(pathToFileURL(file).href);
    await page.waitForFunction(() => 'botarena' in window);
    const openMs = Date.now() - t0;
    const m = await page.evaluate(() => {
      type B = {
        buildMs: number;
        timeline: { steps: number; frame(i: number): unknown };
        web: { createRenderer(): { mount(c: HTMLCanvasElement, s: unknown): void; draw(f: unknown): void } };
      };
      const b = (window as unknown as { botarena: B }).botarena;
      const canvas = document.querySelector('canvas')!;
      const r = b.web.createRenderer();
      r.mount(canvas, {
        game: 'tron',
        seats: [
          { slot: 0, name: 'a', bot: 'a' },
          { slot: 1, name: 'b', bot: 'b' },
        ],
        config: { width: 160, height: 160 },
      });
      const time = (i: number) => {
        const t = performance.now();
        const f = b.timeline.frame(i);
        const built = performance.now();
        r.draw(f);
        return [built - t, performance.now() - built];
      };
      const steps = b.timeline.steps;
      const seq: number[][] = [];
      for (let i = 0; i <= steps; i += 1) seq.push(time(i));
      // Scrubbing: jumps to pseudo-random steps (a fixed sequence, so runs compare).
      const jumps: number[][] = [];
      let x = 12345;
      for (let k = 0; k < 400; k++) {
        x = (x * 1103515245 + 12345) % 2147483648;
        jumps.push(time(x % (steps + 1)));
      }
      return { loadMs: b.buildMs, steps, seq, jumps, mismatch: (b as unknown as { mismatch: string | null }).mismatch };
    });
    if (m.mismatch || m.steps === 0) throw new Error(`the Tron replay did not re-play in the browser: ${m.mismatch}`);
    const stat = (xs: number[]) => [percentile(xs, 50).toFixed(2), percentile(xs, 99).toFixed(2), Math.max(...xs).toFixed(2)];
    return [
      [`Tron ${config.width}×${config.height}, ${m.steps} steps, ${kib(statSync(file).size)} HTML`, 'p50 ms', 'p99 ms', 'max ms'],
      ['open the file until the player is up (re-play + check every step)', openMs, `re-play ${m.loadMs.toFixed(0)}`, ''],
      ['play forward: build a frame', ...stat(m.seq.map((s) => s[0]!))],
      ['play forward: draw it', ...stat(m.seq.map((s) => s[1]!))],
      ['scrub to a random step: build', ...stat(m.jumps.map((s) => s[0]!))],
      ['scrub to a random step: draw', ...stat(m.jumps.map((s) => s[1]!))],
      ['scrub: build + draw (a 60 Hz frame is 16.7 ms)', ...stat(m.jumps.map((s) => s[0]! + s[1]!))],
    ];
  } finally {
    await browser.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
