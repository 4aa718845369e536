import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { ROOT } from './run-cli.js';

// The README promises Node 20.19: every package the lock file installs must accept it, or `npm install` warns
// EBADENGINE (content-disposition 3.1.0 and cookie 2.0.2 wanted Node 22; package.json's overrides pin versions
// that do not). semver comes with npm's own tools (typescript-eslint's dependency), not botarena's.
const semver = createRequire(join(ROOT, 'package.json'))('semver') as {
  minVersion(range: string): { version: string } | null;
  satisfies(v: string, range: string): boolean;
};

describe('the Node versions botarena promises', () => {
  it('every package in package-lock.json admits the oldest Node that package.json and the README promise', () => {
    const own = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { engines: { node: string } };
    const oldest = semver.minVersion(own.engines.node)!.version;
    assert.equal(oldest, '20.19.0');
    assert.match(readFileSync(join(ROOT, 'README.md'), 'utf8'), /Needs Node 20\.19 or later/);
    const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as {
      packages: Record<string, { version?: string; engines?: { node?: string } }>;
    };
    const refusing = Object.entries(lock.packages)
      .filter(([, p]) => typeof p.engines?.node === 'string' && !semver.satisfies(oldest, p.engines.node))
      .map(([path, p]) => `${path}@${p.version} wants node ${p.engines!.node}`);
    assert.deepEqual(refusing, []);
  });
});
