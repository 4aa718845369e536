import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { UsageError } from '../core/errors.js';
import { pidsWhere } from './proc.js';
import { SANDBOX_DEFAULTS, type SandboxOptions } from './sandbox-options.js';

export { SANDBOX_DEFAULTS, type SandboxOptions } from './sandbox-options.js';

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

/**
 * Checks the sandbox can run here (bubblewrap installed and allowed to make namespaces) and that the folders
 * to bind exist; throws a UsageError saying what to install or fix. Checked once per process.
 */
export function checkSandbox(opts: SandboxOptions = {}): void {
  // What to install comes first: without it, nothing else about the sandbox matters.
  if (checked !== 'ok') {
    for (const [tool, pkg] of Object.entries(TOOLS)) {
      if (!which(tool)) throw new UsageError(`--sandbox needs ${tool} (Debian package ${pkg}: apt-get install ${pkg}), which is not installed`);
    }
  }
  for (const dir of opts.binds ?? []) {
    if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new UsageError(`--sandbox-bind ${dir}: no such folder`);
  }
  if (checked === 'ok') return;
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

let nextUid = 0;

/** How many processes a uid runs now (/proc), so a process limit counts only what the bot adds. */
function processesOf(uid: number): number {
  return pidsWhere('status', (status) => Number(/^Uid:\s+(\d+)/m.exec(status)?.[1]) === uid).length;
}

/**
 * The command line that runs `sh -c COMMAND ARGS…` in the sandbox. Run as root, bubblewrap makes the mounts
 * as root (so a working folder under a private parent, such as `mktemp -d`'s, can be bound: its parents
 * are made anew, open, in the sandbox's own /tmp or /root), then the bot drops to a uid of its own inside,
 * with no user namespace: a process limit does not bind root, and root's files are out of the bot's reach.
 * Run as a user, bubblewrap makes a user namespace and the process limit counts from what the user already
 * runs.
 */
export function sandboxArgv(command: string, args: readonly string[], opts: SandboxOptions = {}): string[] {
  const given = Object.fromEntries(Object.entries(opts).filter(([, v]) => v !== undefined));
  const o = { ...SANDBOX_DEFAULTS, ...given } as Required<SandboxOptions>;
  const root = process.getuid?.() === 0;
  const uid = root ? 2_000_000 + (process.pid % 1000) * 1000 + (nextUid++ % 1000) : (process.getuid?.() ?? 0);
  const processes = root ? o.processes : processesOf(uid) + o.processes;
  const cwd = process.cwd();
  const hidden = ['/home', '/root', '/run/user'].filter((d) => existsSync(d));
  // A bound folder inside an emptied one (/tmp, /root…) gets its parents made anew, open to the bot.
  const emptiedTop = (dir: string) => ['/tmp', ...hidden].find((h) => dir.startsWith(`${h}/`));
  const opened = (dir: string) => {
    const top = emptiedTop(dir);
    if (!top) return [];
    const parts = dir
      .slice(top.length + 1)
      .split('/')
      .slice(0, -1);
    return parts.flatMap((_, k) => ['--perms', '0755', '--dir', `${top}/${parts.slice(0, k + 1).join('/')}`]);
  };
  // A folder closed to others (mktemp -d makes them 0700) would shut the bot's own uid out: inside an emptied
  // folder it is made anew (an open, read-only tmpfs) and its entries are bound into it one by one.
  const bindOf = (d: string): string[] => {
    const parents = opened(d);
    if (!root || !emptiedTop(d) || (statSync(d).mode & 0o005) === 0o005) return [...parents, '--ro-bind', d, d];
    return [...parents, '--perms', '0755', '--tmpfs', d, ...readdirSync(d).flatMap((e) => ['--ro-bind', join(d, e), join(d, e)]), '--remount-ro', d];
  };
  const binds = [cwd, ...(opts.binds ?? []).map((d) => resolve(d))].flatMap(bindOf);
  const limits = [
    'prlimit',
    `--as=${o.memoryMb * 1024 * 1024}`,
    `--cpu=${o.cpuSeconds}`,
    `--nproc=${processes}`,
    `--fsize=${o.fileMb * 1024 * 1024}`,
    `--nofile=${o.openFiles}`,
    '--',
  ];
  const hide = hidden.flatMap((d) => ['--tmpfs', d]);
  const sandbox = [
    'bwrap',
    '--ro-bind',
    '/',
    '/',
    ...hide,
    '--perms',
    '1777',
    '--tmpfs',
    '/tmp',
    ...binds,
    '--proc',
    '/proc',
    '--dev',
    '/dev',
    ...(root ? ['--unshare-net', '--unshare-pid', '--unshare-ipc', '--unshare-uts', '--unshare-cgroup-try'] : ['--unshare-all']),
    '--die-with-parent',
    '--new-session',
    '--chdir',
    cwd,
    '--setenv',
    'HOME',
    '/tmp',
    '--',
  ];
  const shell = ['/bin/sh', '-c', command, ...args];
  if (root) return [...sandbox, 'setpriv', `--reuid=${uid}`, `--regid=${uid}`, '--clear-groups', ...limits, ...shell];
  return [...limits, ...sandbox, ...shell];
}
