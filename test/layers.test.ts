// The layer table of ARCHITECTURE.md against the code: lint refuses an upward import in every row, every import the
// code makes is one the table allows, and no file imports itself through others. eslint.config.js reads the table
// from ARCHITECTURE.md; this test uses its functions, so the table, the lint and this check cannot drift apart.
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { describe, it } from 'node:test';
import { ESLint } from 'eslint';
import ts from 'typescript';
import { ROOT } from './run-cli.js';

interface Entry {
  folder: string;
  typesOnly: boolean;
}
interface Row {
  folder: string;
  layer: string;
  imports: Entry[];
}
interface Known {
  file: string;
  imports: string;
}
/** What eslint.config.js exports about the layer table (it is JavaScript: its shape is declared here). */
interface LayerRules {
  LAYER_TABLE: Row[];
  KNOWN_VIOLATIONS: Known[];
  parseLayerTable(markdown: string): Row[];
  rowOf(path: string): { row: Row; own: string } | null;
  under(path: string, folder: string): boolean;
  isTest(path: string): boolean;
  importRefusal(from: string, to: string, typesOnly: boolean, known?: Known[]): string | null;
}
const layers = (await import(new URL('../eslint.config.js', import.meta.url).href)) as LayerRules;
const RULE = 'layers/allowed-imports';

/**
 * Import cycles known and left for a change under way, listed so this test passes meanwhile; an entry fails the
 * test once its cycle is gone, so it goes too. None now (issue 33 item 5 removed core/config ↔ game and
 * core/replay-shape ↔ replay by splitting core/game.ts and core/replay.ts by concern).
 */
const KNOWN_CYCLES: string[][] = [];

/** Where KNOWN_VIOLATIONS may be (the code issue 33 is moving). */
const KNOWN_MAY_BE_IN = ['src/queue/', 'src/server/', 'src/matches/', 'src/tournament/pool.ts'];

const posix = (path: string) => path.split(sep).join('/');

/** The rule ids and messages ESLint gives `code` as if it were the file `file` of the repository. */
async function lint(code: string, file: string): Promise<{ rule: string | null; message: string }[]> {
  const [result] = await new ESLint({ cwd: ROOT }).lintText(code, { filePath: join(ROOT, file) });
  return result!.messages.map((m) => ({ rule: m.ruleId, message: m.message }));
}

/** A relative module specifier from file `from` to `to` (repository paths), as the code writes them (`.js`). */
function specifier(from: string, to: string): string {
  const rel = posix(relative(dirname(join(ROOT, from)), join(ROOT, to))).replace(/\.tsx?$/, '.js');
  return rel.startsWith('.') ? rel : `./${rel}`;
}

/** A file inside a row's folder (for `src/games/*`, inside a game's folder; a file row is that file). */
function fileIn(folder: string, name = 'tron'): string {
  if (/\.tsx?$/.test(folder)) return folder;
  return `${folder.replace('*', name)}/layer-probe.ts`;
}

/** Every TypeScript file under src/ and web/src, as repository paths. */
function sourceFiles(): string[] {
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(join(ROOT, dir)).sort()) {
      const path = `${dir}/${name}`;
      if (statSync(join(ROOT, path)).isDirectory()) walk(path);
      else if (/\.tsx?$/.test(name) && !name.endsWith('.d.ts')) files.push(path);
    }
  };
  walk('src');
  walk('web/src');
  return files;
}

/** Every folder under src/ and web/src (with those two). */
function folders(): string[] {
  const found: string[] = [];
  const walk = (dir: string) => {
    found.push(dir);
    for (const name of readdirSync(join(ROOT, dir)).sort()) if (statSync(join(ROOT, dir, name)).isDirectory()) walk(`${dir}/${name}`);
  };
  walk('src');
  walk('web/src');
  return found;
}

interface Import {
  from: string;
  /** the repository path the specifier names (as written: `.js`) */
  to: string;
  /** the source file it is, when it is one of ours */
  file: string | null;
  typesOnly: boolean;
  line: number;
}

/** The relative imports of a file: import and export declarations, `import('…')` calls and `import('…')` types. */
function importsOf(from: string): Import[] {
  const text = readFileSync(join(ROOT, from), 'utf8');
  const source = ts.createSourceFile(from, text, ts.ScriptTarget.Latest, true, from.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const found: Import[] = [];
  const add = (node: ts.Node, spec: ts.Node | undefined, typesOnly: boolean) => {
    if (!spec || !ts.isStringLiteralLike(spec) || !spec.text.startsWith('.')) return;
    const to = posix(relative(ROOT, resolve(dirname(join(ROOT, from)), spec.text)));
    const candidates = [to, to.replace(/\.js$/, '.ts'), to.replace(/\.js$/, '.tsx'), `${to}.ts`, `${to}/index.ts`];
    const file = candidates.find((c) => /\.tsx?$/.test(c) && existsSync(join(ROOT, c))) ?? null;
    found.push({ from, to, file, typesOnly, line: source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1 });
  };
  const visit = (node: ts.Node) => {
    if (ts.isImportDeclaration(node)) add(node, node.moduleSpecifier, node.importClause?.isTypeOnly ?? false);
    else if (ts.isExportDeclaration(node)) add(node, node.moduleSpecifier, node.isTypeOnly);
    else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) add(node, node.arguments[0], false);
    else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) add(node, node.argument.literal, true);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

const FILES = sourceFiles();
const IMPORTS = FILES.flatMap(importsOf);

describe('the layer table (ARCHITECTURE.md) is enforced by lint in every row', () => {
  const rows = layers.LAYER_TABLE;

  it('the table has a row for every layer of the house, top to bottom', () => {
    const order = [...new Set(rows.map((row) => row.layer))];
    assert.deepEqual(order, ['apps', 'application', 'arena', 'ports', 'api', 'sdk', 'games', 'core', 'web']);
    for (const folder of [
      'src/cli',
      'src/server',
      'src/worker',
      'src/matches',
      'src/ladder',
      'src/tournament',
      'src/registry',
      'src/ratings',
      'src/arena',
      'src/bots',
      'src/store',
      'src/queue',
      'src/live',
      'src/api',
      'src/sdk',
      'src/games/*',
      'src/core',
      'web/src',
    ]) {
      assert.ok(
        rows.some((row) => row.folder === folder),
        `${folder} has a row`,
      );
    }
  });

  for (const [index, row] of rows.entries()) {
    const from = fileIn(row.folder);
    const probe = (other: Row) => fileIn(other.folder, 'connect4').replace('layer-probe', 'index');
    const refused = (other: Row) => layers.importRefusal(from, probe(other), false, []) !== null;
    // The nearest row above this one that it may not import, the nearest of a higher layer (the layer right above
    // when that is refused), and the topmost (for the top row: one beside it).
    const above = [...rows.slice(0, index)].reverse();
    const nearest = above.find(refused);
    const higher = above.find((other) => other.layer !== row.layer && refused(other));
    const targets = [...new Set([nearest, higher, rows.find(refused)])].filter((r): r is Row => r !== undefined);
    assert.ok(targets.length > 0, `${row.folder} may import every folder: then the table says nothing about it`);

    for (const target of targets) {
      const to = probe(target);
      const direction = target.layer === row.layer ? 'sideways' : 'upward';
      it(`lint refuses ${from} importing ${to} (${direction}: ${row.layer} → ${target.layer}), naming the rule and the table`, async () => {
        const found = await lint(`import { x } from '${specifier(from, to)}';\nexport const y = x;\n`, from);
        const error = found.find((m) => m.rule === RULE);
        assert.ok(error, `no ${RULE} error: ${JSON.stringify(found)}`);
        assert.match(error.message, /the layer table in ARCHITECTURE\.md/);
        assert.ok(error.message.includes(`${row.folder} (layer ${row.layer}) may import`), error.message);
        assert.ok(error.message.includes(to.replace(/\.ts$/, '.js')), error.message);
      });
    }

    const allowed = row.imports.find((entry) => !entry.typesOnly);
    if (allowed) {
      it(`lint lets ${from} import ${allowed.folder}, as the table says`, async () => {
        const to = fileIn(allowed.folder, 'connect4').replace('layer-probe', 'index');
        const found = await lint(`import { x } from '${specifier(from, to)}';\nexport const y = x;\n`, from);
        assert.deepEqual(
          found.filter((m) => m.rule === RULE),
          [],
        );
      });
    }
  }

  it('an entry marked (types) takes `import type` only, with an error that says so', async () => {
    const from = 'web/src/pages/probe.ts';
    const value = await lint("import { channelOf } from '../../../src/live/events.js';\nexport const c = channelOf;\n", from);
    assert.ok(
      value.some((m) => m.rule === RULE && /for its types only .*write `import type`/.test(m.message)),
      JSON.stringify(value),
    );
    const types = await lint("import type { PublicHeader } from '../../../src/live/events.js';\nexport type H = PublicHeader;\n", from);
    assert.deepEqual(
      types.filter((m) => m.rule === RULE),
      [],
    );
    const other = await lint("import type { LiveEvents } from '../../../src/live/local.js';\nexport type L = LiveEvents;\n", from);
    assert.ok(
      other.some((m) => m.rule === RULE),
      `only events.ts is open to web/src: ${JSON.stringify(other)}`,
    );
  });

  it('dynamic imports, re-exports and import types are checked too', async () => {
    const from = 'src/bots/probe.ts';
    for (const code of [
      "export const load = () => import('../server/serve.js');\n",
      "export { buildApp } from '../server/app.js';\n",
      "export type * from '../store/index.js';\n",
      "export type S = import('../store/index.js').Store;\n",
    ]) {
      const found = await lint(code, from);
      assert.ok(
        found.some((m) => m.rule === RULE),
        `${code}: ${JSON.stringify(found)}`,
      );
    }
  });

  it('a folder without a row is refused, saying where to add it', async () => {
    const found = await lint("import { x } from '../core/rng.js';\nexport const y = x;\n", 'src/gadgets/probe.ts');
    assert.ok(
      found.some((m) => m.rule === RULE && /src\/gadgets\/probe\.ts is in no row of the layer table in ARCHITECTURE\.md/.test(m.message)),
      JSON.stringify(found),
    );
  });

  it('tests and kits may import any folder and test/ helpers; shipped code may not', () => {
    assert.equal(layers.importRefusal('src/store/x.kit.ts', 'src/arena/run-match.js', false, []), null);
    assert.equal(layers.importRefusal('src/bots/x.test.ts', 'test/processes.js', false, []), null);
    assert.equal(layers.importRefusal('src/queue/x.test.ts', 'src/worker/worker.js', false, []), null);
    assert.notEqual(layers.importRefusal('src/store/x.ts', 'test/processes.js', false, []), null);
    assert.notEqual(layers.importRefusal('src/store/x.ts', 'src/arena/run-match.js', false, []), null);
    assert.notEqual(layers.importRefusal('src/store/x.test.ts', 'scripts/docs.mts', false, []), null);
  });

  it('a malformed table is an error that names the row', () => {
    const table = (row: string) => `<!-- layer-table -->\n| folder | layer | what | may import |\n| --- | --- | --- | --- |\n${row}\n<!-- /layer-table -->\n`;
    assert.throws(
      () => layers.parseLayerTable(table('| `src/core` | core | rules | `src/nowhere` |')),
      /src\/core may import `src\/nowhere`, which is in no row/,
    );
    assert.throws(() => layers.parseLayerTable(table('| src/core | core | rules | |')), /one folder in backquotes/);
    assert.throws(() => layers.parseLayerTable('no table here'), /markers/);
  });
});

describe('the code follows the layer table', () => {
  it('every folder and file under src/ and web/src has its row', () => {
    const missing = [
      ...folders()
        .filter((dir) => dir !== 'src')
        .map((dir) => `${dir}/`),
      ...FILES,
    ].filter((path) => !layers.rowOf(path.endsWith('/') ? `${path}probe.ts` : path));
    assert.deepEqual(missing, [], `folders and files with no row in ARCHITECTURE.md's layer table:\n${missing.join('\n')}`);
  });

  it('every import of every file under src/ and web/src is one the table allows', (t) => {
    assert.ok(IMPORTS.length > 500, `the walker found ${IMPORTS.length} imports only`);
    const violations: string[] = [];
    const used = new Set<Known>();
    for (const imp of IMPORTS) {
      const why = layers.importRefusal(imp.from, imp.to, imp.typesOnly, []);
      if (!why) continue;
      const known = layers.KNOWN_VIOLATIONS.find((k) => k.file === imp.from && layers.under(imp.to, k.imports));
      if (known) {
        used.add(known);
        t.diagnostic(`KNOWN (issue 33): ${imp.from}:${imp.line} imports ${imp.to}`);
      } else violations.push(`${imp.from}:${imp.line}: ${why}`);
    }
    assert.deepEqual(violations, [], `imports the layer table (ARCHITECTURE.md) does not allow:\n${violations.join('\n')}`);
    const misplaced = layers.KNOWN_VIOLATIONS.filter((known) => !KNOWN_MAY_BE_IN.some((place) => known.file.startsWith(place)));
    assert.deepEqual(misplaced, [], `KNOWN_VIOLATIONS may only name code issue 33 moves (${KNOWN_MAY_BE_IN.join(', ')})`);
    const stale = layers.KNOWN_VIOLATIONS.filter((known) => !used.has(known)).map((k) => `${k.file} no longer imports ${k.imports}`);
    assert.deepEqual(stale, [], 'remove these entries from KNOWN_VIOLATIONS in eslint.config.js');
  });

  it('there are no import cycles (type imports count: they tie the files together just as much)', () => {
    const graph = new Map<string, string[]>(FILES.map((f) => [f, []]));
    for (const imp of IMPORTS) if (imp.file && imp.file !== imp.from) graph.get(imp.from)!.push(imp.file);
    const cycles = stronglyConnected(graph)
      .filter((group) => group.length > 1)
      .map((group) => cycleThrough(graph, group));
    const known = (cycle: string[]) => KNOWN_CYCLES.find((k) => k.length === new Set(cycle).size && k.every((f) => cycle.includes(f)));
    const unknown = cycles.filter((c) => !known(c));
    assert.deepEqual(
      unknown.map((c) => c.join(' → ')),
      [],
      'import cycles (each file imports the next)',
    );
    const gone = KNOWN_CYCLES.filter((k) => !cycles.some((c) => known(c) === k)).map((k) => k.join(' ↔ '));
    assert.deepEqual(gone, [], 'these cycles are gone: remove them from KNOWN_CYCLES in test/layers.test.ts');
  });
});

/** Tarjan's strongly connected components of a graph (file → files it imports). */
function stronglyConnected(graph: Map<string, string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const groups: string[][] = [];
  let next = 0;
  const visit = (v: string) => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const group: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        group.push(w);
      } while (w !== v);
      groups.push(group);
    }
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return groups;
}

/** One cycle inside a strongly connected group, from its first file (sorted) back to it, as a list of files. */
function cycleThrough(graph: Map<string, string[]>, group: string[]): string[] {
  const members = new Set(group);
  const start = [...group].sort()[0]!;
  const previous = new Map<string, string>();
  const queue = [start];
  while (queue.length > 0) {
    const v = queue.shift()!;
    for (const w of graph.get(v) ?? []) {
      if (!members.has(w)) continue;
      if (w === start) {
        const path = [start];
        for (let u = v; u !== start; u = previous.get(u)!) path.splice(1, 0, u);
        return [...path, start];
      }
      if (!previous.has(w)) {
        previous.set(w, v);
        queue.push(w);
      }
    }
  }
  return [...group, group[0]!];
}
