// What of the host's files a sandboxed bot sees, read-only: the system's folders, what of /etc a runtime reads,
// the runtime of its command where that lives elsewhere (a pyenv or nvm install, /opt), its own folder and the
// folders the operator binds. Nothing else: not the other checkouts, not the home folders, not a server's data.
import { execFileSync } from 'node:child_process';
import { closeSync, existsSync, lstatSync, openSync, readdirSync, readlinkSync, readSync, realpathSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';

/** The system's folders, bound whole (a merged-/usr machine's /bin, /lib… are symlinks into /usr, made as such). */
export const SYSTEM_DIRS = ['/usr', '/bin', '/sbin', '/lib', '/lib32', '/lib64', '/libx32'] as const;

/** What of /etc runtimes read: the dynamic loader's cache, users, time zone, certificates, alternatives, locales. */
const ETC_ENTRIES = [
  'ld.so.cache',
  'ld.so.conf',
  'ld.so.conf.d',
  'alternatives',
  'ssl',
  'ca-certificates',
  'ca-certificates.conf',
  'pki',
  'passwd',
  'group',
  'nsswitch.conf',
  'host.conf',
  'hosts',
  'gai.conf',
  'localtime',
  'timezone',
  'locale.alias',
  'locale.conf',
  'default',
  'mime.types',
  'os-release',
  'debian_version',
  'lsb-release',
  'fonts',
];
/** And the /etc folders of language runtimes (java-17-openjdk, python3.11, perl, php…). */
const ETC_RUNTIME = /^(java|python|perl|php|ruby|R$|dotnet|mono|ghc|gprolog|ocaml|lua)/;

/** The /etc entries to bind. */
export function etcEntries(): string[] {
  let all: string[] = [];
  try {
    all = readdirSync('/etc');
  } catch {
    return [];
  }
  const out = all.filter((e) => ETC_ENTRIES.includes(e) || ETC_RUNTIME.test(e)).map((e) => `/etc/${e}`);
  // /etc/ssl but its private keys.
  const ssl = out.indexOf('/etc/ssl');
  if (ssl >= 0) {
    let entries: string[] = [];
    try {
      entries = readdirSync('/etc/ssl');
    } catch {
      // none
    }
    out.splice(ssl, 1, ...entries.filter((e) => e !== 'private').map((e) => `/etc/ssl/${e}`));
  }
  return out;
}

/** Whether `path` is inside `dir` (or is it). */
export function inside(path: string, dir: string): boolean {
  return path === dir || path.startsWith(dir.endsWith('/') ? dir : `${dir}/`);
}

/** Whether a path is part of the system the sandbox binds anyway. */
function systemPath(path: string): boolean {
  return SYSTEM_DIRS.some((d) => inside(path, d));
}

/** The words of a shell command, quotes taken off (a rough split: enough to find the programs and files it names). */
export function commandWords(command: string): string[] {
  const words: string[] = [];
  const re = /"((?:[^"\\]|\\.)*)"|'([^']*)'|(\S+)/g;
  for (let m = re.exec(command); m; m = re.exec(command)) words.push(m[1] ?? m[2] ?? m[3]!);
  return words;
}

/** The file `name` names as a program: a path (from `cwd`), or the first in PATH. */
export function findProgram(name: string, cwd: string, path: string): string | null {
  if (name.includes('/')) {
    const p = resolve(cwd, name);
    return existsSync(p) ? p : null;
  }
  for (const dir of path.split(':')) {
    if (!dir) continue;
    const p = join(resolve(cwd, dir), name);
    try {
      if (statSync(p).isFile()) return p;
    } catch {
      // not here
    }
  }
  return null;
}

/** What a version manager's shim (pyenv, rbenv, nodenv, asdf: ROOT/shims/NAME) really runs: `MANAGER which NAME`. */
function throughShim(shim: string, name: string, cwd: string, path: string): string | null {
  const root = dirname(dirname(shim));
  const manager = basename(root).replace(/^\./, '');
  for (const exe of [join(root, 'bin', manager), join(root, 'libexec', manager), manager]) {
    if (exe.includes('/') && !existsSync(exe)) continue;
    try {
      const out = execFileSync(exe, ['which', name], { cwd, timeout: 5000, stdio: ['ignore', 'pipe', 'ignore'], env: { ...process.env, PATH: path } })
        .toString()
        .trim();
      if (out && existsSync(out)) return out;
    } catch {
      // not this way
    }
  }
  return null;
}

/** The interpreter a script's `#!` line names (through `env`), or null for a binary. */
function shebang(file: string): string | null {
  let head = '';
  try {
    const fd = openSync(file, 'r');
    try {
      const buf = Buffer.alloc(256);
      head = buf.subarray(0, readSync(fd, buf, 0, 256, 0)).toString('latin1');
    } finally {
      closeSync(fd);
    }
  } catch {
    return null;
  }
  if (!head.startsWith('#!')) return null;
  const words = head.slice(2).split('\n')[0]!.trim().split(/\s+/);
  if (basename(words[0] ?? '') === 'env') return words.find((w, i) => i > 0 && !w.startsWith('-') && !w.includes('=')) ?? null;
  return words[0] ?? null;
}

/** A runtime living outside the system folders: the folder to bind, and the folder of the program to put first in PATH. */
export interface Runtime {
  prefix: string;
  bin: string;
}

/** Folders too broad to bind for a runtime or a bot's file (a bot directly in /tmp gets its file bound alone). */
function tooBroad(dir: string): boolean {
  return dir.split('/').filter(Boolean).length < 2;
}

const runtimes = new Map<string, Runtime[]>();

/**
 * The runtimes the command runs that live outside the system folders: its program (a pyenv shim followed to
 * the real interpreter), and a script's interpreter. Each is bound by its install's prefix (the folder above
 * its `bin/`). Cached per command, folder and PATH: an exec bot starts one process per message.
 */
export function commandRuntimes(command: string, cwd: string, path: string): Runtime[] {
  const key = `${cwd}\0${path}\0${command}`;
  const known = runtimes.get(key);
  if (known) return known;
  const found: Runtime[] = [];
  const add = (name: string, depth: number) => {
    let exe = findProgram(name, cwd, path);
    if (!exe) return;
    if (basename(dirname(exe)) === 'shims') exe = throughShim(exe, basename(name), cwd, path) ?? exe;
    let real: string;
    try {
      real = realpathSync(exe);
    } catch {
      return;
    }
    if (!systemPath(real) && !systemPath(exe)) {
      const dir = dirname(real);
      const prefix = basename(dir) === 'bin' && !tooBroad(dirname(dir)) ? dirname(dir) : dir;
      if (!tooBroad(prefix)) found.push({ prefix, bin: dirname(exe) });
    }
    const interpreter = depth === 0 ? shebang(real) : null;
    if (interpreter) add(interpreter, depth + 1);
  };
  const words = commandWords(command).filter((w) => !/^[A-Za-z_][A-Za-z0-9_]*=/.test(w));
  if (words[0]) add(words[0], 0);
  if (runtimes.size > 1000) runtimes.clear();
  runtimes.set(key, found);
  return found;
}

/**
 * The bot's own folders, as its command names them (`python3 /srv/bots/a/bot.py`: /srv/bots/a): each word that
 * is an existing file or folder (from `cwd`) outside the system; a file directly in a top folder (/tmp/bot.py)
 * is bound alone.
 */
export function commandFolders(command: string, cwd: string): string[] {
  const out: string[] = [];
  for (const w of commandWords(command)) {
    if (w.startsWith('-') && !w.includes('/')) continue;
    const arg = w.replace(/^-[^=/]*=/, '');
    const p = resolve(cwd, arg);
    let st;
    try {
      st = statSync(p);
    } catch {
      continue;
    }
    if (systemPath(p) || p === '/') continue;
    const dir = st.isDirectory() ? p : dirname(p);
    out.push(tooBroad(dir) ? p : dir);
  }
  return out;
}

/** How each system entry is made in the sandbox: a symlink where the host has one (merged /usr), else bound. */
export function systemMounts(): string[] {
  const out: string[] = [];
  for (const d of SYSTEM_DIRS) {
    let st;
    try {
      st = lstatSync(d);
    } catch {
      continue;
    }
    if (st.isSymbolicLink()) out.push('--symlink', readlinkSync(d), d);
    else out.push('--ro-bind', d, d);
  }
  return out;
}
