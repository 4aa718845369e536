// `npm run docs`: fills the example blocks of docs/games/*.md with real messages (see src/cli/docs-examples.ts).
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fillExamples } from '../src/cli/docs-examples.js';
import { getGame } from '../src/games/index.js';

const dir = 'docs/games';
for (const file of readdirSync(dir)
  .filter((f) => f.endsWith('.md'))
  .sort()) {
  const path = join(dir, file);
  const before = readFileSync(path, 'utf8');
  const after = fillExamples(before, getGame(file.replace(/\.md$/, '')));
  if (after !== before) writeFileSync(path, after);
  console.log(`${path}: ${after === before ? 'up to date' : 'examples written'}`);
}
