import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { UsageError } from '../core/errors.js';
import { pidsWhere } from './proc.js';
import { BotCgroup, cgroupSupport, type CgroupLimit } from './sandbox-cgroup.js';
import { commandFolders, commandRuntimes, etcEntries, inside, systemMounts } from './sandbox-mounts.js';
import { SANDBOX_DEFAULTS, type SandboxOptions } from './sandbox-options.js';

export { SANDBOX_DEFAULTS, type SandboxOptions } from './sandbox-options.js';
export { removeAllCgroups, type BotCgroup } from './sandbox-cgroup.js';

/** Where Debian's packages put the programs the sandbox needs. */
const TOOLS = { bwrap: 'bubblewrap', prlimit: 'util-linux', setpriv: 'util-linux' } as const;

function which(name: string): string | null {
  for (const dir of (process.env.PATH ?? '/usr/bin:/bin').split(':')) {
    const path = `${dir}/${name}`;
    if (dir && existsSync(path)) return path;
  }
  return null;
}

let checked: string | null = null;

/** What a sandbox gives on this machine: the limits a bot's cgroup holds, and what falls back to per-process ones. */
export interface SandboxReport {
  /** the cgroup version the per-bot limits use (null: none) */
  cgroup: 1 | 2 | null;
  /** the limits that hold for a bot's whole process tree */
  perBot: CgroupLimit[];
  /** what falls back to per-process limits and why, for people (null when every limit is per bot) */
  fallback: string | null;
}

function resolved(opts: SandboxOptions): Required<Omit<SandboxOptions, 'binds' | 'hide' | 'folder' | 'cwd' | 'deadline' | 'pauseBetweenTurns'>> {
  const given = Object.fromEntries(Object.entries(opts).filter(([, v]) => v !== undefined));
  return { ...SANDBOX_DEFAULTS, ...given } as Required<Omit<SandboxOptions, 'binds' | 'hide' | 'folder' | 'cwd' | 'deadline' | 'pauseBetweenTurns'>>;
}

/** What the sandbox's limits are on this machine (see SandboxReport). */
export function sandboxReport(opts: SandboxOptions = {}): SandboxReport {
  const o = resolved(opts);
  const support = cgroupSupport();
  const perBot = (['memory', 'processes', 'cpu'] as const).filter((l) => support.parents[l]);
  if (perBot.length === 3) return { cgroup: support.version, perBot, fallback: null };
  const falls: string[] = [];
  if (!perBot.includes('memory')) falls.push(`memory is capped per process (${o.memoryMb} MiB of address space each), not for the bot's processes together`);
  if (!perBot.includes('processes')) falls.push(`processes are counted per uid (${o.processes})`);
  if (!perBot.includes('cpu')) falls.push(`a bot's CPU share is not capped (only ${o.cpuSeconds} s of CPU time per process)`);
  return { cgroup: support.version, perBot, fallback: `no cgroup for per-bot limits here (${support.why}): ${falls.join('; ')}` };
}

/**
 * Checks the sandbox can run here (bubblewrap installed and allowed to make namespaces) and that the folders
 * to bind exist; throws a UsageError saying what to install or fix. Checked once per process. Returns what
 * the limits are here (per bot through a cgroup, or per process), for the caller to say at start.
 */
export function checkSandbox(opts: SandboxOptions = {}): SandboxReport {
  // What to install comes first: without it, nothing else about the sandbox matters.
  if (checked !== 'ok') {
    for (const [tool, pkg] of Object.entries(TOOLS)) {
      if (!which(tool)) throw new UsageError(`--sandbox needs ${tool} (Debian package ${pkg}: apt-get install ${pkg}), which is not installed`);
    }
  }
  for (const dir of opts.binds ?? []) {
    if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new UsageError(`--sandbox-bind ${dir}: no such folder`);
  }
  if (checked !== 'ok') {
    try {
      execFileSync('bwrap', ['--ro-bind', '/', '/', '--unshare-all', '--die-with-parent', 'true'], { stdio: 'pipe', timeout: 10_000 });
    } catch (err) {
      const why = (err as { stderr?: Buffer }).stderr?.toString().trim() || (err as Error).message;
      throw new UsageError(
        `--sandbox: bubblewrap cannot make its namespaces here (${why}); user namespaces may be disabled (sysctl kernel.unprivileged_userns_clone)`,
      );
    }
    checked = 'ok';
  }
  return sandboxReport(opts);
}

let nextUid = 0;

/** How many processes a uid runs now (/proc), so a process limit counts only what the bot adds. */
function processesOf(uid: number): number {
  return pidsWhere('status', (status) => Number(/^Uid:\s+(\d+)/m.exec(status)?.[1]) === uid).length;
}

/** The shell that starts a bot in its cgroup: writes its own pid into each cgroup.procs given before `--`, then execs the rest. */
const INTO_CGROUP = 'for f in "$@"; do shift; [ "$f" = -- ] && break; echo $$ > "$f" || exit 125; done; exec "$@"';

/** How a sandboxed bot is started: the command line, and its cgroup when it has one (to remove when it is over). */
export interface SandboxPlan {
  argv: string[];
  cgroup: BotCgroup | null;
  /** why this bot got no cgroup though the machine gives them (a note for its log), if so */
  note?: string;
}

/**
 * The command line that runs `sh -c COMMAND ARGS…` in the sandbox, and the bot's cgroup (made now) when the
 * machine gives one. `path` is the bot's PATH (its runtime is looked for there).
 *
 * The sandbox's root is empty but for the system's folders (symlinks where the host's are), what of /etc a
 * runtime reads, the runtime of the command when it lives elsewhere (its install's prefix, put first in PATH),
 * the bot's folder (the working folder, or with `folder: 'command'` the folders its command names), the
 * folders bound, a private /tmp of `tmpMb`, /proc and /dev; all read-only but /tmp. Run as root, bubblewrap
 * makes the mounts as root (so a folder under a private parent, such as `mktemp -d`'s, can be bound: its
 * parents are made anew, open), then the bot drops to a uid of its own, with no user namespace: a process
 * limit does not bind root, and root's files are out of the bot's reach. Run as a user, bubblewrap makes a
 * user namespace and the process limit counts from what the user already runs. With a cgroup, a tiny shell
 * puts itself in it and execs the rest, so every process of the bot is born inside.
 */
export function sandboxPlan(command: string, args: readonly string[], opts: SandboxOptions = {}, path = process.env.PATH ?? ''): SandboxPlan {
  const o = resolved(opts);
  const root = process.getuid?.() === 0;
  const uid = root ? 2_000_000 + (process.pid % 1000) * 1000 + (nextUid++ % 1000) : (process.getuid?.() ?? 0);
  // Absolute: its parents are walked up to / below (a relative folder never gets there).
  const cwd = resolve(opts.cwd ?? process.cwd());
  const support = cgroupSupport();
  let cgroup: BotCgroup | null = null;
  let note: string | undefined;
  if (Object.keys(support.parents).length || support.accounting) {
    try {
      cgroup = BotCgroup.make(support, { memoryBytes: o.memoryMb * 1024 * 1024, processes: o.processes, cpus: o.cpus });
    } catch (err) {
      note = `no cgroup could be made for this bot (${(err as NodeJS.ErrnoException).code ?? (err as Error).message}): its limits are per process`;
    }
  }
  const held = (l: CgroupLimit) => cgroup !== null && support.parents[l] !== undefined;
  const processes = root ? o.processes : processesOf(uid) + o.processes;

  // What the bot sees: runtimes, its folders, the bound ones; none inside another (the outer one shows it).
  const runtimes = commandRuntimes(command, cwd, path);
  // The working folder, unless it is the root (a bot run from / sees the system and its own files, not the machine).
  const folders = opts.folder === 'command' ? commandFolders(command, cwd) : cwd === '/' ? commandFolders(command, cwd) : [cwd];
  const wanted = [...new Set([...runtimes.map((r) => r.prefix), ...folders, ...(opts.binds ?? []).map((d) => resolve(d))])].sort();
  const visible = wanted.filter((d, i) => !wanted.some((e, j) => j !== i && e !== d && inside(d, e)));
  const made = new Set<string>(['/', '/tmp', '/usr', '/etc', '/proc', '/dev']);
  // A bound folder's parents are made anew in the sandbox, open to the bot (on the host they may be closed: /root).
  const parents = (dir: string): string[] => {
    const out: string[] = [];
    const chain: string[] = [];
    for (let p = dirname(dir); p !== '/' && !made.has(p); p = dirname(p)) chain.unshift(p);
    for (const p of chain) {
      made.add(p);
      out.push('--perms', '0755', '--dir', p);
    }
    return out;
  };
  // A folder closed to others (mktemp -d makes them 0700) would shut the bot's own uid out: it is made anew
  // (an open, read-only tmpfs) and its entries are bound into it one by one.
  const bindOf = (d: string): string[] => {
    const st = statSync(d, { throwIfNoEntry: false });
    if (!st) return [];
    made.add(d);
    if (!root || !st.isDirectory() || (st.mode & 0o005) === 0o005) return [...parents(d), '--ro-bind', d, d];
    return [...parents(d), '--perms', '0755', '--tmpfs', d, ...readdirSync(d).flatMap((e) => ['--ro-bind', join(d, e), join(d, e)]), '--remount-ro', d];
  };
  const binds = visible.flatMap(bindOf);
  // Hidden even inside a bound folder (a server's database next to a bot's files).
  const hide = (opts.hide ?? [])
    .map((d) => resolve(d))
    .filter((h) => visible.some((v) => inside(h, v)) && existsSync(h))
    .flatMap((h) => (statSync(h).isDirectory() ? ['--tmpfs', h] : ['--ro-bind', '/dev/null', h]));
  const workdir = visible.some((v) => inside(cwd, v)) ? [] : [...parents(cwd), '--perms', '0755', '--dir', cwd];
  const etcs = etcEntries();
  const etc = [
    '--perms',
    '0755',
    '--dir',
    '/etc',
    ...(etcs.some((e) => e.startsWith('/etc/ssl/')) ? ['--perms', '0755', '--dir', '/etc/ssl'] : []),
    ...etcs.flatMap((e) => ['--ro-bind', e, e]),
  ];
  const bins = runtimes.map((r) => r.bin).filter((b, i, all) => all.indexOf(b) === i);
  const limits = [
    'prlimit',
    ...(held('memory') ? [] : [`--as=${o.memoryMb * 1024 * 1024}`]),
    `--cpu=${o.cpuSeconds}`,
    ...(held('processes') ? [] : [`--nproc=${processes}`]),
    `--fsize=${o.fileMb * 1024 * 1024}`,
    `--nofile=${o.openFiles}`,
    '--',
  ];
  const sandbox = [
    'bwrap',
    ...systemMounts(),
    ...etc,
    '--perms',
    '1777',
    '--size',
    String(o.tmpMb * 1024 * 1024),
    '--tmpfs',
    '/tmp',
    ...binds,
    ...hide,
    ...workdir,
    '--proc',
    '/proc',
    '--dev',
    '/dev',
    '--remount-ro',
    '/',
    ...(root ? ['--unshare-net', '--unshare-pid', '--unshare-ipc', '--unshare-uts', '--unshare-cgroup-try'] : ['--unshare-all']),
    '--die-with-parent',
    '--new-session',
    '--chdir',
    cwd,
    '--setenv',
    'HOME',
    '/tmp',
    ...(bins.length ? ['--setenv', 'PATH', [...bins, path].filter(Boolean).join(':')] : []),
    '--',
  ];
  const shell = ['/bin/sh', '-c', command, ...args];
  const confined = root
    ? [...sandbox, 'setpriv', `--reuid=${uid}`, `--regid=${uid}`, '--clear-groups', ...limits, ...shell]
    : [...limits, ...sandbox, ...shell];
  const argv = cgroup ? ['/bin/sh', '-c', INTO_CGROUP, 'botarena-sandbox', ...cgroup.procsFiles, '--', ...confined] : confined;
  return { argv, cgroup, note };
}
