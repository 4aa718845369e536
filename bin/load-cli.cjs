'use strict';
// Loads the CLI bundle (dist/cli-bundle/main.cjs) with V8's code cache beside it (main.cjs.cache, written by
// the build: scripts/bundle-cli.mjs runs `botarena games` once and saves what V8 compiled). With the cache,
// V8 reads the compiled code instead of parsing and compiling 600 KB of JavaScript at every start. V8 refuses
// a cache made by another Node or with other V8 flags, and the bundle is then compiled as if there were none.
const { readFileSync, statSync } = require('node:fs');
const { dirname, join } = require('node:path');
const Module = require('node:module');
const vm = require('node:vm');

const BUNDLE = join(__dirname, '..', 'dist', 'cli-bundle', 'main.cjs');

/**
 * The cache of `bundle`, or undefined when there is none or it is older than the bundle. V8 checks a cache
 * against the source's length only: a bundle changed since, at the same length, would run the old code.
 */
function freshCache(bundle) {
  try {
    const cache = `${bundle}.cache`;
    return statSync(cache).mtimeMs >= statSync(bundle).mtimeMs ? readFileSync(cache) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The bundle's exports ({ main }), its compiled script (the build asks it for the cache to save), and whether
 * V8 refused the cache (null: there was none to use).
 */
function loadCli(bundle = BUNDLE) {
  const source = readFileSync(bundle, 'utf8');
  const cachedData = freshCache(bundle);
  // The bundle has no import() (scripts/bundle-cli.mjs makes each a require()): code compiled with a cache
  // could not run one on Node 20.
  const script = new vm.Script(Module.wrap(source), { filename: bundle, cachedData });
  const module = { exports: {} };
  script.runInThisContext()(module.exports, Module.createRequire(bundle), module, bundle, dirname(bundle));
  return { cli: module.exports, script, cacheRejected: cachedData === undefined ? null : script.cachedDataRejected };
}

module.exports = { BUNDLE, loadCli };
