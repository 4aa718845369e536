import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

/** Debian's Chromium (installed by .ci/run); tests never download a browser. */
export const CHROMIUM = process.env.BOTARENA_CHROMIUM ?? '/usr/bin/chromium';

/** Where browser tests save their screenshots (kept after the run for people to look at). */
export const SHOTS = join(process.cwd(), 'test-output', 'screenshots');

/**
 * Whether the browser tests can run here; under CI (BOTARENA_CI=1) a missing Chromium is a failure, not a
 * skip. Returns a skip reason, or false to run.
 */
export function browserSkip(): string | false {
  if (existsSync(CHROMIUM)) return false;
  if (process.env.BOTARENA_CI) throw new Error(`Chromium is not at ${CHROMIUM}: .ci/run installs Debian's chromium package`);
  return `no Chromium at ${CHROMIUM} (apt-get install chromium, or set BOTARENA_CHROMIUM)`;
}

/**
 * Starts headless Chromium as this machine needs it (no sandbox as root, no background networking: the network
 * is closed); Playwright gives it a fresh profile of its own and removes it on close.
 */
export async function launchBrowser(): Promise<{ browser: Browser; close(): Promise<void> }> {
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  return {
    browser,
    async close() {
      await browser.close().catch(() => {});
    },
  };
}

/** A page whose console errors and uncaught exceptions are collected (a test asserts there are none). */
export async function newPage(context: Browser | BrowserContext, o: { width?: number; height?: number } = {}): Promise<{ page: Page; errors: string[] }> {
  const page = await context.newPage({ viewport: { width: o.width ?? 1200, height: o.height ?? 900 } });
  const errors: string[] = [];
  page.on('pageerror', (err) => errors.push(`page error: ${err.message}`));
  page.on('console', (msg) => {
    if (msg.type() === 'error') errors.push(`console: ${msg.text()}`);
  });
  return { page, errors };
}

/** Saves a screenshot of the page as test-output/screenshots/NAME.png. */
export async function shot(page: Page, name: string): Promise<string> {
  mkdirSync(SHOTS, { recursive: true });
  const path = join(SHOTS, `${name}.png`);
  await page.screenshot({ path, fullPage: false });
  return path;
}
