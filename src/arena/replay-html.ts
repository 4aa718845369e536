import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Replay } from '../core/replay.js';
import { PACKAGE_ROOT } from './package-root.js';

/** Where the built offline player is (`npm run build` writes it: scripts/bundle-player.mjs). */
const PLAYER_DIR = join(PACKAGE_ROOT, 'dist', 'web-player');

let player: { js: string; css: string } | null = null;

/** The built player's script and style sheet, read once; a clear error when the package was not built. */
function playerFiles(): { js: string; css: string } {
  if (!player) {
    try {
      player = { js: readFileSync(join(PLAYER_DIR, 'player.js'), 'utf8'), css: readFileSync(join(PLAYER_DIR, 'player.css'), 'utf8') };
    } catch {
      throw new Error(`the HTML player is not built (${PLAYER_DIR} is missing): run \`npm run build\` in the botarena package`);
    }
  }
  return player;
}

/** Text made safe inside an HTML element whose content is raw text (<script>, <style>, <title>). */
function rawText(text: string): string {
  // A "</" could close the element early; "<!--" could open a comment state in a script.
  return text.replace(/<(\/|!--)/g, '<\\$1');
}

/**
 * One self-contained HTML file that plays a replay: the replay as JSON in the page, the player's script and
 * styles inline. It needs no server and no network (no fonts, no CDN): open it from a file:// URL.
 * The replay's transcripts (bots' raw messages) are left out: the file is for watching, and may be shared.
 */
export function replayHtml(replay: Replay): string {
  const { js, css } = playerFiles();
  const { transcripts: _omit, ...shown } = replay;
  // JSON in a script element: "<" is written as \u003c, so no text in the replay can end the element.
  const data = JSON.stringify(shown).replace(/</g, '\\u003c');
  const title = `${replay.game}: ${replay.seats.map((s) => s.name).join(' vs ')}`.replace(/[<>&"]/g, (c) => `&#${c.charCodeAt(0)};`);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="dark">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:">
<title>${title} — Botarena replay</title>
<style>${rawText(css)}</style>
</head>
<body>
<div id="app"></div>
<script type="application/json" id="replay">${data}</script>
<script>${rawText(js)}</script>
</body>
</html>
`;
}
