// Writes starters/LANG/GAME-TRANSPORT/ (what `botarena new` copies) from the sources in starters/src/:
// per language, one game part per game (the bot file with its strategy and message handling, its tiny test,
// its README paragraph) and one transport shim per transport (the message loop: stdio, http, and smart-dog's
// text lines over stdio and tcp), plus the README template and starter.json's commands. The message
// structures the README documents come from the game's JSON Schemas, schemas/GAME/*.schema.json.
// `npm run generate:starters` writes them; `--check` only says which files are not current (exit 1).
// starters/src/README.md says how the pieces fit.
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const STARTERS = join(ROOT, 'starters');
const SRC = join(STARTERS, 'src');
/** The command that rewrites the starters, named by every generated file and by the check. */
export const REGENERATE = 'npm run generate:starters';
/** What starts the one header line of a generated file; `botarena new` drops that line from a user's copy. */
export const GENERATED_MARK = 'Generated from starters/src/';

interface Language {
  bot: string; // the bot file's name, in the game part and in the starter
  test: string; // the tiny test's name
  comment: string; // a line comment, for the generated header
  testCommand: string; // starter.json's "test"
}
interface Layout {
  languages: Record<string, Language>;
  /** Per game, its transports and the shim each uses. */
  games: Record<string, Record<string, string>>;
}

/** A sectioned text file: `@@ name` starts a block that runs to the next `@@`; `@@ name: value` is one line. */
function sections(path: string): Record<string, string> {
  const out: Record<string, string> = {};
  let name: string | null = null;
  let lines: string[] = [];
  const close = () => {
    if (name !== null) out[name] = lines.join('\n').replace(/\s+$/, '');
  };
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    const m = /^@@ ([\w-]+)(?::(?: (.*))?)?$/.exec(line);
    if (!m) {
      lines.push(line);
      continue;
    }
    close();
    name = null;
    if (line.includes(':')) out[m[1]!] = m[2] ?? '';
    else {
      name = m[1]!;
      lines = [];
    }
  }
  close();
  return out;
}

type Schema = { title?: string; description?: string; properties?: Record<string, Schema>; [k: string]: unknown };

/** The game's JSON Schemas by short name (init, turn, turn-answer…), or null for a game with none (smart-dog). */
function schemasOf(schemasDir: string, game: string): Record<string, Schema> | null {
  const dir = join(schemasDir, game);
  if (!existsSync(dir)) return null;
  const out: Record<string, Schema> = {};
  for (const f of readdirSync(dir)
    .filter((f) => f.endsWith('.schema.json'))
    .sort())
    out[f.replace('.schema.json', '')] = JSON.parse(readFileSync(join(dir, f), 'utf8')) as Schema;
  return out;
}

/** A schema's type in a few words: a constant, a choice of values, a JSON type, an array of…, a named definition. */
function typeOf(s: Schema): string {
  if ('const' in s) return JSON.stringify(s.const);
  if (Array.isArray(s.enum)) return (s.enum as unknown[]).map((v) => JSON.stringify(v)).join(' | ');
  if (typeof s.$ref === 'string') return s.$ref.split('/').pop()!;
  if (s.type === 'array') return s.items && typeof s.items === 'object' ? `array of ${typeOf(s.items as Schema)}` : 'array';
  if (Array.isArray(s.type)) return s.type.join(' | ');
  if (typeof s.type === 'string') return s.type;
  for (const k of ['oneOf', 'anyOf'] as const) if (Array.isArray(s[k])) return (s[k] as Schema[]).map(typeOf).join(' | ');
  return 'any JSON value';
}

const ORDER = ['init', 'init-answer', 'turn', 'turn-answer', 'result'];

/** The README's section on the messages, written from the game's JSON Schemas (title, description, fields). */
function messagesSection(game: string, schemas: Record<string, Schema>): string {
  const names = Object.keys(schemas).sort((a, b) => (ORDER.indexOf(a) + 1 || 99) - (ORDER.indexOf(b) + 1 || 99) || a.localeCompare(b));
  const out = [`## The messages`, '', `What the bot receives and answers, from the game's JSON Schemas (\`schemas/${game}/\` in the botarena package):`];
  for (const name of names) {
    const s = schemas[name]!;
    out.push('', `### ${s.title ?? name}`, '');
    if (s.description) out.push(s.description);
    const props = Object.entries(s.properties ?? {});
    if (props.length) {
      out.push('');
      const required = new Set(Array.isArray(s.required) ? (s.required as string[]) : []);
      for (const [key, p] of props) out.push(`- \`${key}\`${required.has(key) ? '' : ' (optional)'}: ${typeOf(p)}${p.description ? `. ${p.description}` : ''}`);
    }
  }
  return out.join('\n');
}

/** A schema's text for a `<%doc:NAME%>` or `<%doc:NAME.FIELD%>` slot: its (or its field's) description. */
function schemaDoc(game: string, schemas: Record<string, Schema> | null, ref: string): string {
  const [name, field] = ref.split(/\.(.*)/s) as [string, string | undefined];
  const s = schemas?.[name];
  const node = field === undefined ? s : s?.properties?.[field];
  const text = node?.description ?? (field === undefined ? s?.title : undefined);
  if (!text) throw new Error(`schemas/${game}/${name}.schema.json has no description for ${field ?? 'the message'} (slot doc:${ref})`);
  return text;
}

/** Wraps text at `width` columns: the first line after `first`, the others after `next`. */
function wrap(text: string, first: string, next: string, width = 110): string[] {
  const out: string[] = [];
  let line = '';
  const room = () => width - (out.length ? next : first).length;
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (line && line.length + 1 + word.length > room()) {
      out.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  out.push(line);
  return out.map((l, i) => ((i ? next : first) + l).trimEnd());
}

/** What a comment's second line starts with, from what its first line starts with: `"""`, `#`, `//`, `/**`, ` * `. */
function continuation(prefix: string): string {
  const m = /^(\s*)("""|#|\/\/|\/\*\*|\*)?/.exec(prefix)!;
  const [, ws, mark] = m as unknown as [string, string, string | undefined];
  if (mark === '"""' || mark === undefined) return ws;
  if (mark === '/**' || mark === '*') return `${ws}${mark === '*' ? '' : ' '}* ${/@(property|param|returns)\b/.test(prefix) ? '  ' : ''}`;
  return `${ws}${mark} `;
}

/**
 * Fills the `<%name%>` slots of a template. A slot alone on its line after a prefix (indentation, a comment
 * mark) gives each line of its value that prefix, and a line whose slot is empty goes away. `<%doc:…%>` slots
 * are the schema's descriptions, wrapped. A slot with no value is an error, never a silent blank.
 */
function fill(template: string, values: Record<string, string>, doc: (ref: string) => string, where: string): string {
  const value = (name: string): string => {
    if (name.startsWith('doc:')) return doc(name.slice(4));
    const v = values[name];
    if (v === undefined) throw new Error(`${where}: no value for <%${name}%>`);
    return v.includes('<%') ? fill(v, values, doc, `${where} <%${name}%>`) : v;
  };
  const out: string[] = [];
  for (const line of template.split('\n')) {
    // A schema's description, last on its line, is wrapped there: the lines after go on in the same comment.
    const last = /^(.*?)<%doc:([\w.-]+)%>([^%]*)$/.exec(line);
    if (last && !last[1]!.includes('<%')) {
      const [, prefix, ref, rest] = last as unknown as [string, string, string, string];
      out.push(...wrap(doc(ref) + rest, prefix, continuation(prefix)));
      continue;
    }
    const alone = /^(.*?)<%([\w:.-]+)%>(.*)$/.exec(line);
    if (alone && !alone[3]!.includes('<%') && !/\S/.test(alone[1]!.replace(/^\s*(#|\/\/|\*|\/\*\*|""")?\s*/, ''))) {
      const [, prefix, name, rest] = alone as unknown as [string, string, string, string];
      const v = value(name);
      if (v === '' && rest.trim() === '') continue;
      const lines = v.split('\n');
      lines[lines.length - 1] += rest;
      out.push(...lines.map((l) => (l === '' ? prefix.trimEnd() : prefix + l)));
      continue;
    }
    out.push(line.replace(/<%([\w:.-]+)%>/g, (_, name: string) => value(name)));
  }
  return out.join('\n');
}

/**
 * Gathers the top-level import lines of a composed file (the game part's and the shim's) where the first one
 * stood, merged and sorted: Python `import x` lines, then `from x import …`; JavaScript/TypeScript one-line
 * `import { … } from '…';` with the names of one module merged (values before types).
 */
function isImport(line: string, lang: string): boolean {
  return lang === 'python' ? /^(import \S+|from (?!__future__)\S+ import .+)$/.test(line) : /^import (type )?\{[^}]*\} from '[^']+';$/.test(line);
}

/** A shim's code split into its import lines (which join the game part's) and the rest. */
function splitImports(code: string, lang: string): { imports: string[]; code: string } {
  const lines = code.split('\n');
  let i = 0;
  while (i < lines.length && (isImport(lines[i]!, lang) || lines[i]!.trim() === '')) i++;
  return { imports: lines.slice(0, i).filter((l) => l.trim() !== ''), code: lines.slice(i).join('\n') };
}

function hoistImports(text: string, lang: string, extra: string[]): string {
  const py = lang === 'python';
  // A JavaScript import over several lines is read as one.
  const lines = py
    ? text.split('\n')
    : text
        .replace(
          /^import (type )?\{\n([^}]*)\} from/gm,
          (_, t: string | undefined, names: string) =>
            `import ${t ?? ''}{ ${names
              .split('\n')
              .map((n) => n.trim())
              .filter(Boolean)
              .join(' ')
              .replace(/,$/, '')} } from`,
        )
        .split('\n');
  let first = lines.findIndex((l) => isImport(l, lang));
  if (first < 0) first = lines.findIndex((l) => !l.startsWith('#') && !l.startsWith('//')); // after the header comment
  const found = [...lines.filter((l) => isImport(l, lang)), ...extra];
  const rest = lines.filter((l, i) => i < first || !isImport(l, lang));
  let merged: string[];
  if (py) {
    const plain = [...new Set(found.filter((l) => l.startsWith('import ')))].sort();
    const from = new Map<string, string[]>();
    for (const l of found.filter((l) => l.startsWith('from '))) {
      const [, mod, names] = /^from (\S+) import (.+)$/.exec(l)!;
      from.set(mod!, [...new Set([...(from.get(mod!) ?? []), ...names!.split(',').map((n) => n.trim())])]);
    }
    merged = [...plain, ...[...from.keys()].sort().map((m) => `from ${m} import ${from.get(m)!.sort().join(', ')}`)];
  } else {
    const mods = new Map<string, { names: string[]; typeOnly: boolean }>();
    for (const l of found) {
      const [, typeOnly, names, mod] = /^import (type )?\{([^}]*)\} from '([^']+)';$/.exec(l)!;
      const entry = mods.get(mod!) ?? { names: [], typeOnly: true };
      const list = names!
        .split(',')
        .map((n) => n.trim())
        .filter(Boolean)
        .map((n) => (typeOnly && !n.startsWith('type ') ? `type ${n}` : n));
      entry.names = [...new Set([...entry.names, ...list])];
      entry.typeOnly &&= Boolean(typeOnly);
      mods.set(mod!, entry);
    }
    const rank = (m: string) => (m.startsWith('node:') ? 0 : m.startsWith('.') ? 2 : 1);
    merged = [...mods.keys()]
      .sort((a, b) => rank(a) - rank(b) || a.localeCompare(b))
      .map((m) => {
        const { names, typeOnly } = mods.get(m)!;
        const sorted = [...names.filter((n) => !n.startsWith('type ')), ...names.filter((n) => n.startsWith('type '))];
        const list = typeOnly ? sorted.map((n) => n.replace(/^type /, '')) : sorted;
        const line = `import ${typeOnly ? 'type ' : ''}{ ${list.join(', ')} } from '${m}';`;
        return line.length <= 160 ? line : `import ${typeOnly ? 'type ' : ''}{\n${list.map((n) => `  ${n},\n`).join('')}} from '${m}';`;
      });
  }
  rest.splice(first, 0, ...merged);
  return rest.join('\n');
}

/** The generated header line, after a shebang when there is one. */
function withHeader(text: string, comment: string, sources: string[]): string {
  const line = `${comment === '<!--' ? '<!-- ' : `${comment} `}${GENERATED_MARK}${sources.map((s) => relative(SRC, s)).join(' + ')} by ${REGENERATE}: edit those, not this file.${comment === '<!--' ? ' -->' : ''}`;
  const lines = text.split('\n');
  lines.splice(lines[0]!.startsWith('#!') ? 1 : 0, 0, line);
  return lines.join('\n');
}

/** Every starter file, by its path under starters/, as the sources in starters/src/ make it. */
export async function generateStarters(schemasDir = join(ROOT, 'schemas')): Promise<Map<string, string>> {
  const layout = JSON.parse(readFileSync(join(SRC, 'starters.json'), 'utf8')) as Layout;
  const { getGame } = (await import(join(ROOT, 'src', 'games', 'index.ts'))) as typeof import('../src/games/index.js');
  const out = new Map<string, string>();
  for (const [lang, l] of Object.entries(layout.languages)) {
    const langDir = join(SRC, lang);
    const readmeTemplate = readFileSync(join(langDir, 'README.md'), 'utf8');
    for (const [game, transports] of Object.entries(layout.games)) {
      const gameDir = join(langDir, 'games', game);
      const botSource = join(gameDir, l.bot);
      const part = readFileSync(botSource, 'utf8');
      const readmePart = sections(join(gameDir, 'readme.txt'));
      const schemas = schemasOf(schemasDir, game);
      const doc = (ref: string) => schemaDoc(game, schemas, ref);
      const g = getGame(game);
      for (const [transport, shimName] of Object.entries(transports)) {
        const shimPath = join(langDir, 'shims', `${shimName}.txt`);
        const shim = sections(shimPath);
        const { imports, code } = splitImports(shim.main ?? '', lang);
        const values: Record<string, string> = {
          game,
          transport,
          builtin: Object.keys(g.bots)[0]!,
          bot: l.bot,
          test: l.test,
          messages: readmePart.messages ?? (schemas ? messagesSection(game, schemas) : ''),
          ...readmePart,
          ...shim,
        };
        const dir = `${lang}/${game}-${transport}`;
        const where = `${relative(ROOT, botSource)} with ${relative(ROOT, shimPath)}`;
        // The shim's loop follows the game part, unless the game part has a loop of its own (Python's lighthouses:
        // its handle() passes the bot's state along, and a result line gets no answer).
        const ownLoop = lang === 'python' && part.includes('\nif __name__ == "__main__":');
        const gap = lang === 'python' ? '\n\n\n' : '\n\n';
        const composed = ownLoop ? part : `${part.trimEnd()}${gap}${code.trim()}\n`;
        const bot = hoistImports(fill(composed, values, doc, where), lang, imports);
        out.set(`${dir}/${l.bot}`, withHeader(bot, l.comment, [botSource, shimPath]));
        const testSource = join(gameDir, l.test);
        out.set(`${dir}/${l.test}`, withHeader(readFileSync(testSource, 'utf8'), l.comment, [testSource]));
        const readme = fill(readmeTemplate, values, doc, `${relative(ROOT, join(langDir, 'README.md'))} for ${dir}`).replace(/\n{3,}/g, '\n\n');
        out.set(`${dir}/README.md`, withHeader(readme, '<!--', [join(langDir, 'README.md'), join(gameDir, 'readme.txt'), shimPath]));
        const fillCmd = (s: string) => s.replaceAll('<%bot%>', l.bot).replaceAll('<%test%>', l.test);
        out.set(`${dir}/starter.json`, JSON.stringify({ run: fillCmd(values.run ?? ''), test: fillCmd(l.testCommand) }, null, 2) + '\n');
      }
    }
  }
  for (const [path, text] of out) if (!text.endsWith('\n')) out.set(path, `${text}\n`);
  return out;
}

/** The files under starters/LANG/ (not starters/src/), skipping what running a starter in place leaves. */
export function startersOnDisk(starters = STARTERS): string[] {
  const found: string[] = [];
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      if (name === '__pycache__' || name === 'node_modules') continue;
      const p = join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else found.push(relative(starters, p));
    }
  };
  for (const name of readdirSync(starters)) if (name !== 'src' && statSync(join(starters, name)).isDirectory()) walk(join(starters, name));
  return found.sort();
}

/**
 * What differs between the sources and a starters folder (the repository's, or another for a test): each line
 * names a file and what is wrong with it.
 */
export async function staleStarters(starters = STARTERS): Promise<string[]> {
  const want = await generateStarters();
  const problems: string[] = [];
  const name = (path: string) => relative(ROOT, join(starters, path));
  for (const [path, text] of want) {
    const file = join(starters, path);
    if (!existsSync(file)) problems.push(`${name(path)} is missing`);
    else if (readFileSync(file, 'utf8') !== text) problems.push(`${name(path)} is not what starters/src/ makes`);
  }
  for (const path of startersOnDisk(starters)) if (!want.has(path)) problems.push(`${name(path)} comes from no source in starters/src/`);
  return problems;
}

async function main(): Promise<void> {
  if (process.argv.includes('--check')) {
    const at = process.argv.indexOf('--starters'); // another folder to check (the tests use a copy)
    const problems = await staleStarters(at > 0 ? process.argv[at + 1] : STARTERS);
    if (problems.length) {
      process.stderr.write(`${problems.join('\n')}\nthe starters are not current: run ${REGENERATE}\n`);
      process.exit(1);
    }
    process.stdout.write('the starters are current\n');
    return;
  }
  const want = await generateStarters();
  for (const path of startersOnDisk()) if (!want.has(path)) rmSync(join(STARTERS, path));
  let written = 0;
  for (const [path, text] of want) {
    const file = join(STARTERS, path);
    if (existsSync(file) && readFileSync(file, 'utf8') === text) continue;
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, text);
    written++;
  }
  process.stdout.write(`${want.size} starter files, ${written} written\n`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await main();
