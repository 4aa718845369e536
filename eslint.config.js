import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/** The pure layers: what a browser runs, and what must replay byte for byte. */
const PURE = ['src/core/**/*.ts', 'src/games/**/*.ts'];
/** Test files and test helpers (`*.kit.ts`) may use Node anywhere. */
const TESTS = ['**/*.test.ts', '**/*.kit.ts'];

const WHY = 'src/core and src/games are pure (seeded, replayable) and run in the browser';
const NODE_MODULES = ['assert', 'buffer', 'child_process', 'crypto', 'dgram', 'dns', 'events', 'fs', 'fs/promises', 'http', 'https', 'net', 'os', 'path', 'perf_hooks', 'process', 'readline', 'stream', 'timers', 'tls', 'url', 'util', 'worker_threads', 'zlib'];
const LAYERS = ['bots', 'arena', 'cli', 'server', 'live', 'store', 'queue', 'worker', 'sdk'];

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
            { group: LAYERS.map((layer) => `**/${layer}/*`), message: `${WHY}: they may import only src/core and their own game (see the README's Layout).` },
            { group: ['**/*.kit.js', '**/*.kit'], message: 'a *.kit.ts file is a test helper: shipped code may not import it.' },
          ],
        },
      ],
      'no-restricted-globals': [
        'error',
        ...['process', 'Buffer', 'setTimeout', 'setInterval', 'setImmediate', 'clearTimeout', 'clearInterval', 'performance', 'require', 'global'].map((name) => ({
          name,
          message: `${WHY}: no Node globals, timers or clocks here.`,
        })),
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
    // Shipped code elsewhere may not import test helpers either.
    files: ['src/**/*.ts'],
    ignores: [...TESTS, ...PURE],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ group: ['**/*.kit.js', '**/*.kit'], message: 'a *.kit.ts file is a test helper: shipped code may not import it.' }] }],
    },
  },
);
