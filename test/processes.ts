import { readdirSync, readFileSync, readlinkSync } from 'node:fs';

/**
 * Whether a process is gone: no such pid, or a zombie (dead, waiting for init to reap it — a bot's
 * grandchild whose shell parent was killed ends up so for a moment).
 */
export function isGone(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'ESRCH';
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z');
  } catch {
    return true;
  }
}

/** Whether process `pid` runs in this checkout (its working folder is ours or below); true when that cannot be read. */
function inThisCheckout(pid: number): boolean {
  try {
    const cwd = readlinkSync(`/proc/${pid}/cwd`);
    return cwd === process.cwd() || cwd.startsWith(`${process.cwd()}/`);
  } catch {
    return true;
  }
}

/**
 * Pids of live (non-zombie) processes whose command line contains `marker`. A relative marker (a fixture's path
 * as the tests run it) counts only the processes of this checkout: another checkout's test run on the same machine
 * starts the same command lines.
 */
export function livePidsWith(marker: string): number[] {
  const out: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      const cmd = readFileSync(`/proc/${entry}/cmdline`, 'utf8');
      if (cmd.includes(marker) && !isGone(Number(entry)) && (marker.startsWith('/') || inThisCheckout(Number(entry)))) out.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return out;
}
