// The CPU time a bot's processes spent, for a bot without a cgroup that counts it: read from /proc.
import { allProcTimes, procTimes, USER_HZ, type ProcTimes } from './proc.js';

/** How often the processes of a bot are looked for again in all of /proc (between, only those known are read). */
const RESCAN_MS = 1000;

/**
 * The CPU time of a process group and its descendants (those that left the group too, while their parent lives):
 * the sum of utime, stime, cutime and cstime over them, so a child that exited and was reaped by one of them still
 * counts. Read in USER_HZ ticks (10 ms): a short answer's time is 0 or 10 ms, a long one's is right within 10 ms.
 * The processes are looked for in all of /proc at the first read and at most once a second after (a process
 * started since counts from its next look, with all it used so far); between, only the known ones are read.
 */
export class ProcTreeCpu {
  private members: number[] = [];
  private scannedAt = -Infinity;

  constructor(private readonly root: number) {}

  /** The CPU time used so far, ms. */
  read(): number {
    const now = performance.now();
    if (now - this.scannedAt >= RESCAN_MS) return ticksToMs(this.scan(now));
    let ticks = 0;
    for (const pid of this.members) ticks += procTimes(pid)?.ticks ?? 0;
    return ticksToMs(ticks);
  }

  /** The processes of the group and their descendants now (a fresh look in /proc). */
  pids(): number[] {
    this.scan(performance.now());
    return this.members;
  }

  private scan(now: number): number {
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
    this.members = [...found.keys()];
    this.scannedAt = now;
    let ticks = 0;
    for (const p of found.values()) ticks += p.ticks;
    return ticks;
  }
}

function ticksToMs(ticks: number): number {
  return (ticks * 1000) / USER_HZ;
}
