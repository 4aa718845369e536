import { readdirSync, readFileSync } from 'node:fs';

/**
 * The live processes whose `/proc/PID/FILE` (`environ`, `status`…) passes `test`: how the arena finds a bot's
 * leftover processes, or counts a user's. Empty where there is no /proc; processes that vanish meanwhile, or
 * that are not ours to read, are skipped.
 */
export function pidsWhere(file: string, test: (text: string) => boolean): number[] {
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return [];
  }
  const out: number[] = [];
  for (const e of entries) {
    if (!/^\d+$/.test(e)) continue;
    try {
      if (test(readFileSync(`/proc/${e}/${file}`, 'latin1'))) out.push(Number(e));
    } catch {
      // gone meanwhile, or not ours to read
    }
  }
  return out;
}

/** Whether a process is still running (not gone, not a zombie waiting to be reaped). */
export function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return !stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z');
  } catch {
    return false;
  }
}
