import { readFileSync } from 'node:fs';
import { dirname, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

// ---------------------------------------------------------------------------------------------------------------
// The layer table. Its one source is the table in ARCHITECTURE.md (between the `layer-table` markers): this file
// reads it, the rule `layers/allowed-imports` below enforces it on every file under src/ and web/src, and
// test/layers.test.ts checks the code's real imports and the absence of import cycles against the same functions.
// ---------------------------------------------------------------------------------------------------------------

/** The repository's root (where this file is). */
export const ROOT = dirname(fileURLToPath(import.meta.url));
/** Where the table is, as errors name it. */
export const TABLE_SOURCE = 'the layer table in ARCHITECTURE.md';

/**
 * Reads the layer table out of ARCHITECTURE.md's text: one row per folder (or file) with its layer and the folders
 * it may import, in backquotes; an entry followed by "(types" may be imported with `import type` only. Throws,
 * saying which row, when the table is malformed or names a folder that has no row of its own.
 */
export function parseLayerTable(markdown) {
  const start = markdown.indexOf('<!-- layer-table');
  const end = markdown.indexOf('<!-- /layer-table -->');
  if (start < 0 || end < start) throw new Error("ARCHITECTURE.md: the layer table's markers (<!-- layer-table … --> and <!-- /layer-table -->) are missing");
  const lines = markdown
    .slice(start, end)
    .split('\n')
    .filter((line) => line.trimStart().startsWith('|'));
  const rows = [];
  for (const line of lines.slice(2)) {
    const cells = line
      .trim()
      .replace(/^\||\|$/g, '')
      .split('|')
      .map((cell) => cell.trim());
    if (cells.length !== 4)
      throw new Error(`ARCHITECTURE.md, layer table: a row needs 4 cells (folder | layer | what it holds | may import), got ${cells.length}: ${line}`);
    const folder = /^`([^`]+)`$/.exec(cells[0])?.[1];
    if (!folder) throw new Error(`ARCHITECTURE.md, layer table: the first cell must be one folder in backquotes: ${line}`);
    const layer = cells[1].replace(/\*/g, '');
    if (!/^[a-z]+$/.test(layer)) throw new Error(`ARCHITECTURE.md, layer table: the layer of ${folder} must be one word: ${cells[1]}`);
    const imports = [...cells[3].matchAll(/`([^`]+)`(\s*\(types)?/g)].map((m) => ({ folder: m[1], typesOnly: Boolean(m[2]) }));
    rows.push({ folder, layer, imports });
  }
  const names = new Set(rows.map((row) => row.folder));
  if (names.size !== rows.length) throw new Error('ARCHITECTURE.md, layer table: a folder has two rows');
  for (const row of rows) {
    for (const entry of row.imports) {
      if (!names.has(entry.folder) && !rows.some((other) => under(entry.folder, other.folder))) {
        throw new Error(`ARCHITECTURE.md, layer table: ${row.folder} may import \`${entry.folder}\`, which is in no row of the table`);
      }
    }
  }
  return rows;
}

/** The table, read once per process. */
export const LAYER_TABLE = parseLayerTable(readFileSync(resolve(ROOT, 'ARCHITECTURE.md'), 'utf8'));

/**
 * Imports the code makes against the table, allowed until the code that makes them moves: none now (issue 33 moved
 * the queue's worker to src/worker, the match pool to src/arena and the application code out of src/server). An
 * entry is `{ file, imports }`; one the code no longer needs fails test/layers.test.ts, so the list only shrinks.
 */
export const KNOWN_VIOLATIONS = [];

/** A path's names, without the file's extension (`src/games/index.js` and `src/games/index.ts` are one file). */
function segments(path) {
  return path.replace(/\.(?:[cm]?[jt]sx?)$/, '').split('/');
}

/** Whether file `path` is inside `folder` (`*` matches one folder name), or is that file when it names one. */
export function under(path, folder) {
  const p = segments(path);
  const f = segments(folder);
  const isFile = /\.[cm]?[jt]sx?$/.test(folder);
  return (isFile ? f.length === p.length : f.length < p.length) && f.every((name, i) => name === '*' || name === p[i]);
}

/** The table's row of a repository-relative path (the most specific one), with the concrete folder it matched. */
export function rowOf(path) {
  let best = null;
  for (const row of LAYER_TABLE) {
    if (!under(path, row.folder)) continue;
    const depth = segments(row.folder).length;
    if (!best || depth > best.depth) best = { row, depth, own: segments(path).slice(0, depth).join('/') };
  }
  return best && { row: best.row, own: best.own };
}

/** Whether a repository-relative path is in the table's reach: src/ and web/src. */
export function inTable(path) {
  return path.startsWith('src/') || path.startsWith('web/src/');
}

/** Tests and their helpers: not shipped, they may import any folder of the table and test/ (see ARCHITECTURE.md). */
export function isTest(path) {
  return /\.(?:test|kit)\.tsx?$/.test(path);
}

/** What a row may import, for a message: `a, b and its own folder`. */
function listed(row) {
  const names = [...row.imports.map((e) => e.folder + (e.typesOnly ? ' (types)' : '')), 'its own folder'];
  return names.length === 1 ? names[0] : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
}

/**
 * Whether file `from` may import `to` (both relative to the repository's root, `/`-separated); `typesOnly` when
 * the import is `import type` / `export type … from` / `import('…')` in a type. Returns null when it may, else why not.
 * `known`: the violations let through for now (KNOWN_VIOLATIONS; the test passes none to see them).
 */
export function importRefusal(from, to, typesOnly, known = KNOWN_VIOLATIONS) {
  const source = rowOf(from);
  if (!source) return `${from} is in no row of ${TABLE_SOURCE}: add its folder there, with its layer and what it may import`;
  if (isTest(from) && (to.startsWith('test/') || (inTable(to) && rowOf(to)))) return null;
  const target = inTable(to) ? rowOf(to) : null;
  if (!target) return `${from} may not import ${to}: it is outside every folder of ${TABLE_SOURCE}`;
  if (under(to, source.own)) return null;
  const entries = source.row.imports.filter((entry) => under(to, entry.folder));
  if (entries.some((entry) => !entry.typesOnly || typesOnly)) return null;
  if (known.some((entry) => entry.file === from && under(to, entry.imports))) return null;
  if (entries.length > 0) return `${from} may import ${entries[0].folder} for its types only (${TABLE_SOURCE}): write \`import type\``;
  return `${from} may not import ${to} (${target.row.folder}, layer ${target.row.layer}): in ${TABLE_SOURCE}, ${source.row.folder} (layer ${source.row.layer}) may import only ${listed(source.row)}`;
}

/** The relative module specifier an import names, as a repository path; null for a package. */
function targetOf(filename, specifier) {
  if (typeof specifier !== 'string' || !specifier.startsWith('.')) return null;
  return relative(ROOT, resolve(dirname(filename), specifier))
    .split(sep)
    .join('/');
}

/** The lint rule: every relative import of a file under src/ or web/src is checked against the layer table. */
const allowedImports = {
  meta: {
    type: 'problem',
    docs: { description: `imports follow ${TABLE_SOURCE}` },
    schema: [],
    messages: { refused: '{{why}}' },
  },
  create(context) {
    const from = relative(ROOT, context.filename).split(sep).join('/');
    if (!inTable(from)) return {};
    const check = (node, specifier, typesOnly) => {
      const to = targetOf(context.filename, specifier);
      if (to === null) return;
      const why = importRefusal(from, to, typesOnly);
      if (why) context.report({ node, messageId: 'refused', data: { why } });
    };
    const literal = (node) =>
      node?.type === 'Literal' ? node.value : node?.type === 'TemplateLiteral' && node.expressions.length === 0 ? node.quasis[0].value.cooked : null;
    return {
      ImportDeclaration: (node) => check(node, node.source.value, node.importKind === 'type'),
      ExportNamedDeclaration: (node) => node.source && check(node, node.source.value, node.exportKind === 'type'),
      ExportAllDeclaration: (node) => check(node, node.source.value, node.exportKind === 'type'),
      ImportExpression: (node) => check(node, literal(node.source), false),
      TSImportType: (node) => check(node, (node.source ?? node.argument?.literal)?.value, true),
    };
  },
};

/** The pure layers: what a browser runs, and what must replay byte for byte. */
const PURE = ['src/core/**/*.ts', 'src/games/**/*.ts'];
/** Test files and test helpers (`*.kit.ts`) may use Node anywhere. */
const TESTS = ['**/*.test.ts', '**/*.kit.ts'];

const WHY = 'src/core and src/games are pure (seeded, replayable) and run in the browser';
const NODE_MODULES = [
  'assert',
  'buffer',
  'child_process',
  'crypto',
  'dgram',
  'dns',
  'events',
  'fs',
  'fs/promises',
  'http',
  'https',
  'net',
  'os',
  'path',
  'perf_hooks',
  'process',
  'readline',
  'stream',
  'timers',
  'tls',
  'url',
  'util',
  'worker_threads',
  'zlib',
];

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'examples/**/*.py', '.bench-tmp/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-constant-condition': ['error', { checkLoops: false }],
    },
  },
  {
    // The command's loader (bin/load-cli.cjs) is CommonJS: it loads the CommonJS bundle with V8's code cache.
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs' },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    files: PURE,
    ignores: TESTS,
    languageOptions: { globals: { ...globals.es2021 } },
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: NODE_MODULES.map((name) => ({ name, message: `${WHY}: no Node modules here.` })),
          patterns: [
            { group: ['node:*'], message: `${WHY}: no Node modules here.` },
            { group: ['**/*.kit.js', '**/*.kit'], message: 'a *.kit.ts file is a test helper: shipped code may not import it.' },
          ],
        },
      ],
      'no-restricted-globals': [
        'error',
        ...['process', 'Buffer', 'setTimeout', 'setInterval', 'setImmediate', 'clearTimeout', 'clearInterval', 'performance', 'require', 'global'].map(
          (name) => ({
            name,
            message: `${WHY}: no Node globals, timers or clocks here.`,
          }),
        ),
      ],
      'no-restricted-properties': [
        'error',
        { object: 'Math', property: 'random', message: `${WHY}: draw from the seeded generator (core/rng.ts), never Math.random.` },
        { object: 'Date', property: 'now', message: `${WHY}: rules never read the clock.` },
      ],
      'no-restricted-syntax': ['error', { selector: "NewExpression[callee.name='Date']", message: `${WHY}: rules never read the clock.` }],
    },
  },
  {
    // Every folder's imports follow the layer table of ARCHITECTURE.md (see above).
    files: ['src/**/*.{ts,tsx}', 'web/src/**/*.{ts,tsx}'],
    plugins: { layers: { rules: { 'allowed-imports': allowedImports } } },
    rules: { 'layers/allowed-imports': 'error' },
  },
  {
    // Shipped code elsewhere may not import test helpers either.
    files: ['src/**/*.ts'],
    ignores: [...TESTS, ...PURE],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: ['**/*.kit.js', '**/*.kit'], message: 'a *.kit.ts file is a test helper: shipped code may not import it.' }] },
      ],
    },
  },
);
