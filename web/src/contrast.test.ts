// Readable contrast: every pair of text and background colours the app uses meets WCAG 2's 4.5:1 for body
// text, read from the style sheet itself (so a colour changed there is checked here).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';

const css = readFileSync(new URL('./styles.css', import.meta.url), 'utf8');
const vars = Object.fromEntries([...css.matchAll(/--([a-z]+):\s*(#[0-9a-fA-F]{6})/g)].map((m) => [m[1]!, m[2]!]));

/** WCAG 2 relative luminance of a #rrggbb colour. */
function luminance(hex: string): number {
  const [r, g, b] = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16) / 255).map((c) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4));
  return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
}

/** The contrast ratio of two colours, 1 to 21. */
function contrast(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi! + 0.05) / (lo! + 0.05);
}

test('text colours on the backgrounds they are used on reach 4.5:1', () => {
  for (const name of ['bg', 'panel', 'text', 'muted', 'accent', 'error']) assert.ok(vars[name], `styles.css defines --${name}`);
  for (const fg of ['text', 'muted', 'accent', 'error']) {
    for (const bg of ['bg', 'panel']) {
      const ratio = contrast(vars[fg]!, vars[bg]!);
      assert.ok(ratio >= 4.5, `--${fg} (${vars[fg]}) on --${bg} (${vars[bg]}) is ${ratio.toFixed(2)}:1, under 4.5:1`);
    }
  }
});

test('the check itself: black on white is 21:1, a grey on a near grey fails', () => {
  assert.equal(Math.round(contrast('#000000', '#ffffff')), 21);
  assert.ok(contrast('#777777', '#666666') < 4.5);
});
