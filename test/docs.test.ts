import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { fillExamples } from '../src/cli/docs-examples.js';
import { games, getGame } from '../src/games/index.js';
import { ROOT } from './run-cli.js';

const page = (id: string) => readFileSync(`${ROOT}docs/games/${id}.md`, 'utf8');

describe('the game pages in docs/games', () => {
  for (const id of Object.keys(games)) {
    it(`${id}: the page exists, and its examples are what the game sends today (else: npm run docs)`, () => {
      assert.ok(existsSync(`${ROOT}docs/games/${id}.md`), `docs/games/${id}.md is missing`);
      const text = page(id);
      assert.match(text, /<!-- example: phase=play[^>]*-->/, 'at least one turn is shown as the game sends it');
      assert.equal(
        fillExamples(text, getGame(id)),
        text,
        `docs/games/${id}.md shows messages the game no longer sends: run npm run docs and read the difference`,
      );
    });
  }

  it('the README links every game page and nothing outside the repository', () => {
    const readme = readFileSync(`${ROOT}README.md`, 'utf8');
    for (const id of Object.keys(games)) assert.ok(readme.includes(`docs/games/${id}.md`), `README does not link docs/games/${id}.md`);
    assert.doesNotMatch(readme, /\.\.\/shared\//, 'README links ../shared/, which is not in the repository');
    const pkg = JSON.parse(readFileSync(`${ROOT}package.json`, 'utf8')) as { files: string[] };
    assert.ok(pkg.files.includes('docs'), 'the package ships docs/');
  });

  it('a marker that is not one, or an example a match never reaches, is an error naming it', () => {
    const tron = getGame('tron');
    assert.throws(() => fillExamples('<!-- example: phase=turn -->\n<!-- /example -->', tron), /example marker "phase=turn": phase must be init or play/);
    assert.throws(() => fillExamples('<!-- example: phase=play lap=3 -->\n<!-- /example -->', tron), /unknown lap/);
    assert.throws(
      () => fillExamples('<!-- example: phase=play turn=999999 -->\n<!-- /example -->', tron),
      /tron: the example "phase=play turn=999999" never happens/,
    );
    const filled = fillExamples('# x\n<!-- example: phase=play turn=2 -->\nold text\n<!-- /example -->\n', tron);
    assert.match(
      filled,
      /What your bot receives at turn 2 \(a real message: `stupid` bots, default config, seed 1\):\n\n```json\n\{"game-id":"example","action":"play-turn","game":"tron"/,
    );
    assert.doesNotMatch(filled, /old text/);
  });
});
