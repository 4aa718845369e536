import { Marked } from 'marked';
import { useEffect, useState } from 'preact/hooks';
import type { GameRules } from '../../../src/api/index.js';
import { api } from '../api.js';

/**
 * Markdown of our own docs (docs/games/*.md, served by the API) as HTML. Links are kept as their text: they
 * point into the docs page (#timing-and-faults), which the app's hash routing would take for a page.
 */
const markdown = new Marked({
  renderer: {
    link({ tokens }) {
      return this.parser.parseInline(tokens);
    },
    html() {
      return '';
    },
  },
});

/** A game's rules in plain words: the introduction and the Rules section of its docs page. */
export function Rules(p: { game: string }) {
  const [html, setHtml] = useState<string | null>(null);
  useEffect(() => {
    void api<GameRules>('GET', `/api/games/${encodeURIComponent(p.game)}/rules`).then(
      (r) => setHtml(markdown.parse(r.markdown, { async: false })),
      () => setHtml(null),
    );
  }, [p.game]);
  if (!html) return null;
  return (
    <details class="rules">
      <summary>The rules in plain words</summary>
      {/* Our own docs, with raw HTML dropped by the renderer above. */}
      <div dangerouslySetInnerHTML={{ __html: html }} data-testid="rules" />
    </details>
  );
}
