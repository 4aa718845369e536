import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { runInNewContext } from 'node:vm';
import { build } from 'esbuild';
import { playBuiltins } from '../src/core/self-play.js';
import { games } from '../src/games/index.js';
import { ROOT } from './run-cli.js';

/** Two built-in bots per game (as many seats as it needs), and a seed. */
function lineup(id: string): string[] {
  const game = games[id]!;
  const bots = Object.keys(game.bots);
  return Array.from({ length: Math.max(2, game.players.min) }, (_, i) => bots[i % bots.length]!);
}

describe('the pure layers in a browser', () => {
  it('botarena/games and botarena/core bundle for the browser and play every game exactly as Node does', async () => {
    // What a web app would write: import the package's browser-safe entries, by their package names.
    const out = await build({
      stdin: {
        contents: "export { games } from 'botarena/games';\nexport { playBuiltins } from 'botarena/core';\n",
        resolveDir: ROOT,
        sourcefile: 'app.ts',
        loader: 'ts',
      },
      // The package's own name resolves to its sources here (the exports point at dist/ for Node).
      alias: { 'botarena/games': './src/games/index.ts', 'botarena/core': './src/core/index.ts' },
      bundle: true,
      platform: 'browser',
      format: 'iife',
      globalName: 'botarena',
      write: false,
      logLevel: 'silent',
    });
    assert.deepEqual(out.errors, []);
    const code = out.outputFiles[0]!.text;
    assert.doesNotMatch(code, /require\(["']|from ["']node:|process\.|Buffer\./, 'the bundle must not reach for Node');

    // A bare context: the language's built-ins and the few web APIs every browser has (structuredClone, and
    // TextEncoder/TextDecoder, which the schema library typebox reads at load); no process, Buffer, require or timers.
    const sandbox: Record<string, unknown> = { structuredClone, TextEncoder, TextDecoder };
    runInNewContext(`${code}\nglobalThis.botarena = botarena;`, sandbox);
    const bundled = sandbox.botarena as { games: typeof games; playBuiltins: typeof playBuiltins };
    assert.deepEqual(Object.keys(bundled.games).sort(), Object.keys(games).sort());
    for (const id of Object.keys(games)) {
      const bots = lineup(id);
      const config =
        id === 'tron' ? { width: 12, height: 12 } : id === 'lighthouses' ? { rounds: 30 } : id === 'smartdog' ? { options: '{"turnsLimit":20}' } : {};
      const there = bundled.playBuiltins(bundled.games[id]!, bots, 7, { config });
      const here = playBuiltins(games[id]!, bots, 7, { config });
      assert.ok(there.records.length > 1, `${id}: the bundled match played`);
      assert.equal(JSON.stringify(there.records), JSON.stringify(here.records), `${id}: the same steps, byte for byte`);
      assert.deepEqual(JSON.parse(JSON.stringify(there.outcome())), JSON.parse(JSON.stringify(here.outcome())), `${id}: the same result`);
    }
  });
});
