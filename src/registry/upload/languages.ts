// The languages an operator lets uploaded bots be written in, and how an upload's run is decided: its language
// (given, in botarena.json, or from the entry file's ending) and either its entry file (given, in botarena.json,
// or found by convention) or an explicit run command from botarena.json. The run becomes the bot's spec,
// `upload:LANGUAGE:SHA256 entry=FILE` or `upload:LANGUAGE:SHA256 run=COMMAND`, which every process that plays it
// turns into a command with its own table (a worker without the language leaves the match to one with it).
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { UsageError } from '../../core/errors.js';
import { UploadError, type PackageFile } from './intake.js';

/** How a language's bots are run. */
export interface Language {
  /** the command, `{entry}` standing for the entry file (run in the bot's folder, in the sandbox) */
  command: string;
  /** entry files looked for, in order, when none is given */
  entries: string[];
  /** file endings that say a single file (or a given entry) is in this language */
  extensions: string[];
}

/** The languages Botarena knows without a file: `--uploads python3,node` enables them. */
export const KNOWN_LANGUAGES: Readonly<Record<string, Language>> = {
  python3: { command: 'python3 -u {entry}', entries: ['bot.py', 'main.py', '__main__.py'], extensions: ['.py'] },
  node: { command: 'node {entry}', entries: ['main.js', 'index.js', 'bot.js', 'main.mjs', 'index.mjs', 'bot.mjs'], extensions: ['.js', '.mjs', '.cjs'] },
};

const LANGUAGE_ID = /^[a-z][a-z0-9_+-]{0,31}$/;
/** What an entry file's path may hold: it goes on a command line. */
const ENTRY = /^[A-Za-z0-9_][A-Za-z0-9._/-]{0,239}$/;

/** The program a language's command starts (its first word): a worker without it cannot run the language. */
export const programOf = (language: Language): string => language.command.trim().split(/\s+/)[0]!;

/** Whether a program can be found in PATH (or at its path). */
export function programFound(program: string, path = process.env.PATH ?? ''): boolean {
  if (program.includes('/')) return existsSync(program);
  return path.split(':').some((dir) => {
    try {
      return !!dir && statSync(join(dir, program)).isFile();
    } catch {
      return false;
    }
  });
}

/**
 * The languages enabled: `enabled` names from KNOWN_LANGUAGES or the file, and `file` (JSON: an object of
 * language id → { command, entries, extensions }) adds languages or changes known ones. A UsageError names
 * what is wrong; a language whose program is not installed here is refused too (say so at start, not at a match).
 */
export function enabledLanguages(enabled: readonly string[], file?: string, path = process.env.PATH ?? ''): Record<string, Language> {
  const table: Record<string, Language> = { ...KNOWN_LANGUAGES };
  if (file) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(readFileSync(file, 'utf8'));
    } catch (err) {
      throw new UsageError(
        `--upload-languages ${file}: ${(err as Error).message}; it must be JSON: {"ruby": {"command": "ruby {entry}", "entries": ["bot.rb"], "extensions": [".rb"]}}`,
      );
    }
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed))
      throw new UsageError(`--upload-languages ${file}: must be a JSON object of languages by id`);
    for (const [id, v] of Object.entries(parsed as Record<string, unknown>)) {
      const l = v as Partial<Language>;
      const strings = (x: unknown) => Array.isArray(x) && x.every((s) => typeof s === 'string');
      if (!LANGUAGE_ID.test(id) || !l || typeof l.command !== 'string' || !l.command.trim() || !strings(l.entries ?? []) || !strings(l.extensions ?? []))
        throw new UsageError(
          `--upload-languages ${file}: language ${JSON.stringify(id)} needs an id of lower-case letters and digits and {"command": "PROGRAM … {entry}", "entries": [FILES], "extensions": [".EXT"]}`,
        );
      table[id] = { command: l.command, entries: l.entries ?? [], extensions: l.extensions ?? [] };
    }
  }
  const out: Record<string, Language> = {};
  for (const id of enabled) {
    const l = Object.hasOwn(table, id) ? table[id] : undefined;
    if (!l) throw new UsageError(`--uploads: no language "${id}"; the known ones are ${Object.keys(table).join(', ')} (add one with --upload-languages FILE)`);
    if (!programFound(programOf(l), path)) throw new UsageError(`--uploads ${id}: its program ${programOf(l)} is not installed here (not in PATH)`);
    out[id] = l;
  }
  return out;
}

/** What the uploader says besides the code. */
export interface RunRequest {
  language?: string;
  entry?: string;
}

/** How a version runs: its language, and its entry file or its explicit command. */
export interface RunPlan {
  language: string;
  entry?: string;
  run?: string;
}

/** The bot spec of a version: what its seats are, in jobs and replays. */
export function uploadSpec(sha256: string, plan: RunPlan): string {
  return `upload:${plan.language}:${sha256} ${plan.run !== undefined ? `run=${plan.run}` : `entry=${plan.entry}`}`;
}

/** botarena.json at the package's root: language, entry or run. */
function manifest(files: readonly PackageFile[]): { language?: string; entry?: string; run?: string } {
  const f = files.find((x) => x.path === 'botarena.json');
  if (!f) return {};
  if (f.data.length > 64 * 1024) throw new UploadError('botarena.json is over 64 KiB: it holds only {"language": …, "entry": … or "run": …}');
  let m: unknown;
  try {
    m = JSON.parse(f.data.toString('utf8'));
  } catch (err) {
    throw new UploadError(`botarena.json is not JSON (${(err as Error).message}): write {"language": "python3", "entry": "bot.py"} or {"run": "…"}`);
  }
  if (!m || typeof m !== 'object' || Array.isArray(m)) throw new UploadError('botarena.json must be an object: {"language": …, "entry": … or "run": …}');
  const out: { language?: string; entry?: string; run?: string } = {};
  for (const [k, v] of Object.entries(m)) {
    if (!['language', 'entry', 'run'].includes(k)) throw new UploadError(`botarena.json: unknown key "${k}"; it may hold "language", "entry" and "run"`);
    if (typeof v !== 'string') throw new UploadError(`botarena.json: "${k}" must be a string`);
    out[k as 'language'] = v;
  }
  return out;
}

/**
 * Decides how a package runs with the languages enabled, or throws an UploadError saying what is missing: the
 * language (given, from botarena.json, or from the entry's ending), then the run (botarena.json's "run"), else
 * the entry (given, botarena.json's, the language's conventional files, or the package's only file).
 */
export function planRun(files: readonly PackageFile[], req: RunRequest, languages: Readonly<Record<string, Language>>): RunPlan {
  const m = manifest(files);
  const enabled = Object.keys(languages);
  const names = new Set(files.map((f) => f.path));
  let entry = req.entry || m.entry;
  const byEnding = (file: string | undefined) => (file ? enabled.find((id) => languages[id]!.extensions.some((e) => file.endsWith(e))) : undefined);
  let language =
    req.language ||
    m.language ||
    byEnding(entry) ||
    byEnding(files.length === 1 ? files[0]!.path : undefined) ||
    (() => {
      const found = enabled.filter((id) => languages[id]!.entries.some((e) => names.has(e)));
      return found.length === 1 ? found[0] : undefined;
    })();
  if (!language)
    throw new UploadError(
      `the upload's language is not known: give one (language field, --language; here: ${enabled.join(', ') || 'none'}) or write it in botarena.json ({"language": "python3"})`,
    );
  if (!Object.hasOwn(languages, language))
    throw new UploadError(`language "${language}" is not enabled on this server; the languages here: ${enabled.join(', ') || 'none'}`);
  language = language as string;
  if (m.run !== undefined) {
    // eslint-disable-next-line no-control-regex
    if (!m.run.trim() || m.run.length > 1000 || /[\u0000-\u001f]/.test(m.run))
      throw new UploadError('botarena.json: "run" must be one line of at most 1000 characters');
    return { language, run: m.run.trim() };
  }
  const l = languages[language]!;
  entry ??= l.entries.find((e) => names.has(e)) ?? (files.length === 1 ? files[0]!.path : undefined);
  if (!entry)
    throw new UploadError(
      `no entry file: a ${language} bot's package holds one of ${l.entries.join(', ')}, or says which file runs (entry field, --entry, or botarena.json {"entry": "FILE"}), or its command ({"run": "…"})`,
    );
  if (!ENTRY.test(entry) || entry.split('/').includes('..'))
    throw new UploadError(`the entry ${JSON.stringify(entry)} is not a plain relative path of letters, digits, '.', '_', '-' and '/'`);
  if (!names.has(entry))
    throw new UploadError(`the entry file "${entry}" is not in the upload (it holds ${[...names].slice(0, 10).join(', ')}${names.size > 10 ? ', …' : ''})`);
  return { language, entry };
}
