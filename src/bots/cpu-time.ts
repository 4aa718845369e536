// The CPU time a bot's processes spent, for a bot without a cgroup that counts it: read from /proc.
import { readFileSync } from 'node:fs';
import { allProcTimes, procTimes, USER_HZ, type ProcTimes } from './proc.js';

/** How long after its first look a bot's processes are looked for again whenever any process started, ms (while only its shell is known). */
const STARTUP_MS = 3000;
/** Otherwise, how often at most, ms. */
const RESCAN_MS = 1000;

/** The shells a bot's command is started through (`/bin/sh -c`), which wait for its program. */
const SHELLS = new Set(['sh', 'dash', 'bash']);

/** The last pid the machine gave out (/proc/loadavg's last field): while it is unchanged, no process was started. */
function lastPid(): string | null {
  try {
    return readFileSync('/proc/loadavg', 'latin1').trim().split(' ').pop() ?? null;
  } catch {
    return null;
  }
}

/**
 * The CPU time of a process group and its descendants (those that left the group too, while their parent lives):
 * the sum of utime, stime, cutime and cstime over them, so a child that exited and was reaped by one of them still
 * counts. Read in USER_HZ ticks (10 ms): a short answer's time is 0 or 10 ms, a long one's is right within 10 ms.
 * Its processes are looked for in all of /proc (about a millisecond for a hundred processes) when a process was
 * started anywhere on the machine since the last look (the last pid given out changed): at once during the bot's
 * first STARTUP_MS while only one process of it is known (its shell has not started its program yet), then at
 * most every RESCAN_MS (a
 * helper started later counts from then on, with all it used so far: a busy machine starts processes all the
 * time, and a fast game reads its bots' times hundreds of times a second). Otherwise only the known ones are read.
 */
export class ProcTreeCpu {
  private members: number[] = [];
  /** every process of it the last look found (the waiting shells too) */
  private all: number[] = [];
  /** the ticks of the shells that only wait for their program, as the last look found them */
  private waitingTicks = 0;
  /** the machine's last pid at the last look in /proc (null: never looked) */
  private seenPid: string | null = null;
  private firstScan = -Infinity;
  private lastScan = -Infinity;

  constructor(private readonly root: number) {}

  /** The CPU time used so far, ms. */
  read(): number {
    const now = performance.now();
    // The machine's last pid is read only when a look would be due: one file fewer per read otherwise.
    const maybe = this.seenPid === null || (this.all.length <= 1 && now - this.firstScan < STARTUP_MS) || now - this.lastScan >= RESCAN_MS;
    const last = maybe ? lastPid() : this.seenPid;
    // At once while its program is not found yet; else at most every RESCAN_MS: a full look in /proc at each answer
    // made a stdio round trip 7 times slower on a machine that starts processes all the time (bench/RESULTS.md).
    const due = maybe;
    if (last === null || (last !== this.seenPid && due)) return ticksToMs(this.scan(last));
    let ticks = this.waitingTicks;
    for (const pid of this.members) {
      const t = procTimes(pid);
      // One of them ended: a shell that waited for it now holds its time (reaped), so look again.
      if (!t) return ticksToMs(this.scan(lastPid()));
      ticks += t.ticks;
    }
    return ticksToMs(ticks);
  }

  /** The processes of the group and their descendants now (a fresh look in /proc). */
  pids(): number[] {
    this.scan(lastPid());
    return this.all;
  }

  private scan(last: string | null): number {
    const all = allProcTimes();
    const children = new Map<number, ProcTimes[]>();
    const found = new Map<number, ProcTimes>();
    for (const p of all) {
      if (p.pgrp === this.root || p.pid === this.root) found.set(p.pid, p);
      const c = children.get(p.ppid);
      if (c) c.push(p);
      else children.set(p.ppid, [p]);
    }
    const queue = [...found.keys()];
    while (queue.length) {
      for (const c of children.get(queue.pop()!) ?? []) {
        if (found.has(c.pid)) continue;
        found.set(c.pid, c);
        queue.push(c.pid);
      }
    }
    // A shell that only waits for the program it started (`sh -c` does not exec it here) uses no CPU of its own
    // until it reaps it at the end: its time is kept from this look, not read at every answer (half the reads).
    const waiting = [...found.values()].filter((p) => SHELLS.has(p.comm) && children.get(p.pid)?.some((c) => found.has(c.pid)));
    this.waitingTicks = waiting.reduce((n, p) => n + p.ticks, 0);
    this.all = [...found.keys()];
    this.members = this.all.filter((pid) => !waiting.some((w) => w.pid === pid));
    this.seenPid = last;
    this.lastScan = performance.now();
    if (this.firstScan === -Infinity) this.firstScan = this.lastScan;
    let ticks = 0;
    for (const p of found.values()) ticks += p.ticks;
    return ticks;
  }
}

function ticksToMs(ticks: number): number {
  return (ticks * 1000) / USER_HZ;
}
