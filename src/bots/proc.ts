import { closeSync, openSync, readdirSync, readFileSync, readSync } from 'node:fs';

/** Where /proc files are read: one buffer for every read (a whole scan allocates nothing per process). */
const shared = Buffer.allocUnsafe(16 * 1024);

/**
 * The whole of `/proc/PID/FILE`, in the shared buffer (valid until the next read), or null when it cannot be
 * read (gone meanwhile, not ours to read). A file larger than the shared buffer gets a buffer of its own.
 */
function readProcFile(pid: string, file: string): Buffer | null {
  let fd: number;
  try {
    fd = openSync(`/proc/${pid}/${file}`, 'r');
  } catch {
    return null;
  }
  try {
    let buf = shared;
    let n = 0;
    for (;;) {
      if (n === buf.length) {
        const bigger = Buffer.allocUnsafe(buf.length * 2);
        buf.copy(bigger, 0, 0, n);
        buf = bigger;
      }
      const got = readSync(fd, buf, n, buf.length - n, null);
      if (got === 0) return buf.subarray(0, n);
      n += got;
    }
  } catch {
    return null;
  } finally {
    closeSync(fd);
  }
}

/** The pids listed in /proc (live processes, zombies included); empty where there is no /proc. */
function procPids(): string[] {
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return [];
  }
  return entries.filter((e) => e.charCodeAt(0) >= 48 && e.charCodeAt(0) <= 57);
}

/**
 * The live processes whose `/proc/PID/FILE` (`environ`, `status`…) passes `test`: how the arena counts a user's
 * processes. Empty where there is no /proc; processes that vanish meanwhile, or that are not ours to read, are
 * skipped.
 */
export function pidsWhere(file: string, test: (text: string) => boolean): number[] {
  const out: number[] = [];
  for (const pid of procPids()) {
    const data = readProcFile(pid, file);
    if (data && test(data.toString('latin1'))) out.push(Number(pid));
  }
  return out;
}

/**
 * Every live process whose environment holds `NAME=VALUE` with VALUE starting with `prefix`, by VALUE, read in
 * one pass over /proc: how the arena finds the leftover processes of all the bots that just exited at once.
 * Empty where there is no /proc; processes that vanish meanwhile, or that are not ours to read, are skipped.
 *
 * @example pidsByEnv('BOTARENA_BOT', '4242.0.') // Map { '4242.0.7' => [5120, 5133] }
 */
export function pidsByEnv(name: string, prefix: string): Map<string, number[]> {
  const entry = Buffer.from(`${name}=`, 'latin1');
  const needle = Buffer.from(`${name}=${prefix}`, 'latin1');
  const out = new Map<string, number[]>();
  for (const pid of procPids()) {
    const env = readProcFile(pid, 'environ');
    if (!env) continue;
    // Entries are NUL-separated: only a match at an entry's start counts (not `XBOTARENA_BOT=…` nor a value).
    for (let at = env.indexOf(needle); at >= 0; at = env.indexOf(needle, at + 1)) {
      if (at > 0 && env[at - 1] !== 0) continue;
      const end = env.indexOf(0, at);
      const value = env.toString('latin1', at + entry.length, end < 0 ? env.length : end);
      const pids = out.get(value);
      if (!pids) out.set(value, [Number(pid)]);
      else if (!pids.includes(Number(pid))) pids.push(Number(pid));
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

/** Clock ticks per second in /proc's times (USER_HZ: 100 on every Linux; /proc/PID/stat counts in it whatever the kernel's HZ). */
export const USER_HZ = 100;

/** What /proc/PID/stat says of a process's place and its CPU time. */
export interface ProcTimes {
  pid: number;
  ppid: number;
  pgrp: number;
  /** utime + stime + cutime + cstime: its own CPU time and that of the children it reaped, in USER_HZ ticks */
  ticks: number;
  /** its command's name (`sh`, `python3`…) */
  comm: string;
}

function parseStat(pid: number, data: Buffer): ProcTimes | null {
  const text = data.toString('latin1');
  // The command's name may hold spaces and parentheses: the fields start after the last ')'.
  const f = text.slice(text.lastIndexOf(')') + 2).split(' ');
  if (f.length < 15) return null;
  const comm = text.slice(text.indexOf('(') + 1, text.lastIndexOf(')'));
  return { pid, ppid: Number(f[1]), pgrp: Number(f[2]), ticks: Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14]), comm };
}

/** One process's /proc/PID/stat times, or null when it is gone (or there is no /proc). */
export function procTimes(pid: number): ProcTimes | null {
  const data = readProcFile(String(pid), 'stat');
  return data ? parseStat(pid, data) : null;
}

/** Every process's /proc/PID/stat times, in one pass over /proc (about a millisecond for a hundred processes). */
export function allProcTimes(): ProcTimes[] {
  const out: ProcTimes[] = [];
  for (const pid of procPids()) {
    const data = readProcFile(pid, 'stat');
    const t = data && parseStat(Number(pid), data);
    if (t) out.push(t);
  }
  return out;
}
