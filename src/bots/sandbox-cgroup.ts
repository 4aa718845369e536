// A bot's cgroup: the limits of its whole process tree (memory, processes, CPU share), where the machine lets the
// arena make one. cgroup v2 where /sys/fs/cgroup is unified and the arena's own cgroup hands the controllers to
// its children; cgroup v1 (one hierarchy per controller, as on hybrid machines) where each one's folder is
// writable (root). Where neither is, the sandbox falls back to prlimit's per-process limits and says so.
import { existsSync, mkdirSync, readdirSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { threadId } from 'node:worker_threads';

/** The limits a bot's cgroup can hold. */
export type CgroupLimit = 'memory' | 'processes' | 'cpu';
const LIMITS: readonly CgroupLimit[] = ['memory', 'processes', 'cpu'];
/** The controller of each limit (the same name in v1 and v2). */
const CONTROLLER: Record<CgroupLimit, string> = { memory: 'memory', processes: 'pids', cpu: 'cpu' };

/** What this machine gives: which limits a bot's cgroup holds, where its cgroups are made, and why not the others. */
export interface CgroupSupport {
  version: 1 | 2 | null;
  /** the folder under which a bot's cgroup is made, per limit it holds (v2: the same folder for all) */
  parents: Partial<Record<CgroupLimit, string>>;
  /** why the limits it does not hold fall back (empty when it holds them all) */
  why: string;
  /**
   * where a bot's cgroup that counts its CPU time is made (v2: any cgroup's cpu.stat; v1: the cpuacct hierarchy's
   * cpuacct.usage), when the machine gives one; null: a bot's CPU time is read from /proc instead
   */
  accounting?: { version: 1 | 2; parent: string } | null;
}

function read(path: string): string | null {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return null;
  }
}

/** The mount points of cgroup hierarchies: v2's, and v1's by controller. */
function mounts(): { v2: string | null; v1: Map<string, string> } {
  const v1 = new Map<string, string>();
  let v2: string | null = null;
  for (const line of (read('/proc/self/mounts') ?? '').split('\n')) {
    const [, dir, type, options] = line.split(' ');
    if (!dir) continue;
    if (type === 'cgroup2') v2 ??= dir;
    if (type === 'cgroup') for (const o of (options ?? '').split(',')) if (Object.values(CONTROLLER).includes(o) || o === 'cpuacct') v1.set(o, dir);
  }
  return { v2, v1 };
}

/** This process's cgroup per hierarchy (`/proc/self/cgroup`): '' for v2's, the controllers' names for v1's. */
function ownCgroups(): Map<string, string> {
  const out = new Map<string, string>();
  for (const line of (read('/proc/self/cgroup') ?? '').split('\n')) {
    const m = /^\d+:([^:]*):(.*)$/.exec(line);
    if (!m) continue;
    if (m[1] === '') out.set('', m[2]!);
    else for (const c of m[1]!.split(',')) out.set(c, m[2]!);
  }
  return out;
}

/** The folder of this process's cgroup in a hierarchy mounted at `mount` (its root when the path is not under it: a container's own view). */
function ownFolder(mount: string, path: string | undefined): string {
  const dir = join(mount, path ?? '/').replace(/(.)\/+$/, '$1');
  return existsSync(dir) ? dir : mount;
}

/** Whether a cgroup can be made under `parent` and holds `files` (made and removed again to know). */
function probe(parent: string, files: string[]): { closed: boolean; why: string } | null {
  const dir = join(parent, `botarena-probe-${process.pid}-${threadId}`);
  try {
    mkdirSync(dir);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    return code === 'EACCES' || code === 'EPERM' || code === 'EROFS'
      ? { closed: true, why: `${parent} (${code})` }
      : { closed: false, why: `cannot make a cgroup in ${parent} (${code ?? (err as Error).message})` };
  }
  try {
    const missing = files.filter((f) => !existsSync(join(dir, f)));
    return missing.length ? { closed: false, why: `${parent} has no ${missing.join(', ')}` } : null;
  } finally {
    try {
      rmdirSync(dir);
    } catch {
      // left behind: empty, removed by the next start's sweep
    }
  }
}

/** Removes the empty cgroups an arena killed before it could clean up left under `parent`. */
function sweepLeftovers(parent: string): void {
  let entries: string[] = [];
  try {
    entries = readdirSync(parent);
  } catch {
    return;
  }
  for (const e of entries) {
    const m = /^botarena-(?:probe-)?(\d+)-/.exec(e);
    if (!m || Number(m[1]) === process.pid || existsSync(`/proc/${m[1]}`)) continue;
    const dir = join(parent, e);
    if ((read(join(dir, 'cgroup.procs')) ?? 'x').trim() !== '') continue;
    try {
      rmdirSync(dir);
    } catch {
      // still busy
    }
  }
}

let support: CgroupSupport | null = null;

/** What this machine gives for bots' cgroups; found once per thread. */
export function cgroupSupport(): CgroupSupport {
  if (support) return support;
  support = findSupport();
  for (const dir of new Set(Object.values(support.parents))) sweepLeftovers(dir);
  return support;
}

function findSupport(): CgroupSupport {
  const found = findLimits();
  if (found.version === 2) return { ...found, accounting: { version: 2, parent: found.parents.cpu ?? Object.values(found.parents)[0]! } };
  return { ...found, accounting: v1Accounting() };
}

/** Where a cgroup v1 that counts a bot's CPU time can be made (the cpuacct hierarchy), or null. */
function v1Accounting(): CgroupSupport['accounting'] {
  if (process.platform !== 'linux') return null;
  const mount = mounts().v1.get('cpuacct');
  if (!mount) return null;
  const parent = ownFolder(mount, ownCgroups().get('cpuacct'));
  return probe(parent, ['cpuacct.usage', 'cgroup.procs']) ? null : { version: 1, parent };
}

function findLimits(): CgroupSupport {
  if (process.platform !== 'linux') return { version: null, parents: {}, why: 'cgroups are Linux only' };
  const { v2, v1 } = mounts();
  const own = ownCgroups();
  // v2 first, when it is the whole of /sys/fs/cgroup (unified) or holds the controllers.
  if (v2) {
    const parent = ownFolder(v2, own.get(''));
    const available = (read(join(parent, 'cgroup.controllers')) ?? '').split(/\s+/);
    const wanted = LIMITS.map((l) => CONTROLLER[l]);
    if (wanted.some((c) => available.includes(c))) {
      let enabled = (read(join(parent, 'cgroup.subtree_control')) ?? '').split(/\s+/);
      const toEnable = wanted.filter((c) => available.includes(c) && !enabled.includes(c));
      if (toEnable.length) {
        try {
          writeFileSync(join(parent, 'cgroup.subtree_control'), toEnable.map((c) => `+${c}`).join(' '));
        } catch {
          // a cgroup with processes in it cannot hand controllers to children (v2's rule): said below
        }
        enabled = (read(join(parent, 'cgroup.subtree_control')) ?? '').split(/\s+/);
      }
      const held = LIMITS.filter((l) => enabled.includes(CONTROLLER[l]));
      const files = held.map((l) => ({ memory: 'memory.max', processes: 'pids.max', cpu: 'cpu.max' })[l]);
      const probed = held.length ? probe(parent, [...files, 'cgroup.procs']) : null;
      const why = probed && (probed.closed ? `${probed.why} is not writable by this user: run as root, or in a cgroup delegated to this user` : probed.why);
      if (held.length && !why) {
        const lacking = LIMITS.filter((l) => !held.includes(l));
        return {
          version: 2,
          parents: Object.fromEntries(held.map((l) => [l, parent])),
          why: lacking.length ? `cgroup v2 at ${parent} does not hand the ${lacking.map((l) => CONTROLLER[l]).join(', ')} controller to its children` : '',
        };
      }
      if (!v1.size)
        return {
          version: null,
          parents: {},
          why:
            why ??
            `cgroup v2: this process's cgroup ${parent} does not hand the memory, pids and cpu controllers to its children (cgroup.subtree_control; a cgroup with processes cannot): start botarena in a cgroup delegated to it (systemd-run --scope -p Delegate=yes …)`,
        };
    }
  }
  if (!v1.size) return { version: null, parents: {}, why: 'no cgroup hierarchy with the memory, pids or cpu controller is mounted' };
  const parents: Partial<Record<CgroupLimit, string>> = {};
  const reasons: string[] = [];
  const closed: string[] = [];
  for (const l of LIMITS) {
    const c = CONTROLLER[l];
    const mount = v1.get(c);
    if (!mount) {
      reasons.push(`no cgroup v1 hierarchy has the ${c} controller`);
      continue;
    }
    const parent = ownFolder(mount, own.get(c));
    const file = { memory: 'memory.limit_in_bytes', processes: 'pids.max', cpu: 'cpu.cfs_quota_us' }[l];
    const probed = probe(parent, [file, 'cgroup.procs']);
    if (!probed) parents[l] = parent;
    else if (probed.closed) closed.push(probed.why);
    else reasons.push(probed.why);
  }
  if (closed.length)
    reasons.push(`the cgroup v1 folders ${[...new Set(closed)].join(', ')} are not writable by this user: run as root, or in cgroups delegated to this user`);
  const version = Object.keys(parents).length ? 1 : null;
  return { version, parents, why: [...new Set(reasons)].join('; ') };
}

/** Every cgroup of this thread's bots not yet removed, so the arena's exit removes them. */
const live = new Set<BotCgroup>();
let nextId = 0;

/** Sleeps `ms` synchronously (the exit hook cannot wait for timers). */
function sleepSync(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/**
 * One bot's cgroup (a folder per hierarchy in v1, one in v2), made with its limits. Its process is born in it
 * (`procsFiles`: the wrapper that starts the sandbox writes its own pid there first, then execs bubblewrap), so
 * is everything it starts. `remove` kills what is left in it, then removes it.
 */
export class BotCgroup {
  readonly dirs: string[];
  private readonly memoryDir: string | null;
  /** the folder whose cpu.stat (v2) or cpuacct.usage (v1) counts its CPU time, if any */
  private readonly cpuDir: { version: 1 | 2; dir: string } | null;
  private readonly version: 1 | 2;
  private removed = false;

  private constructor(version: 1 | 2, dirs: string[], memoryDir: string | null, cpuDir: { version: 1 | 2; dir: string } | null) {
    this.version = version;
    this.dirs = dirs;
    this.memoryDir = memoryDir;
    this.cpuDir = cpuDir;
  }

  /**
   * Makes a bot's cgroup holding the limits this machine allows (`support`); throws when it cannot be made (a
   * full cgroup tree, a race with another arena): the caller falls back.
   */
  static make(support: CgroupSupport, limits: { memoryBytes: number; processes: number; cpus: number }): BotCgroup {
    const name = `botarena-${process.pid}-${threadId}-${++nextId}`;
    const made: string[] = [];
    const undo = () => {
      for (const d of made)
        try {
          rmdirSync(d);
        } catch {
          // left behind: swept at the next start
        }
    };
    try {
      const byDir = new Map<string, CgroupLimit[]>();
      for (const [l, parent] of Object.entries(support.parents) as [CgroupLimit, string][]) byDir.set(parent, [...(byDir.get(parent) ?? []), l]);
      // The folder that counts its CPU time holds no limit of its own where it is not one of theirs (v1's cpuacct).
      const acct = support.accounting ?? null;
      if (acct && !byDir.has(acct.parent)) byDir.set(acct.parent, []);
      let memoryDir: string | null = null;
      for (const [parent, held] of byDir) {
        const dir = join(parent, name);
        mkdirSync(dir);
        made.push(dir);
        for (const l of held) {
          if (l === 'memory') {
            memoryDir = dir;
            if (support.version === 2) {
              writeFileSync(join(dir, 'memory.max'), String(limits.memoryBytes));
              if (existsSync(join(dir, 'memory.swap.max'))) writeFileSync(join(dir, 'memory.swap.max'), '0');
              // One process killed for memory takes the whole bot with it.
              if (existsSync(join(dir, 'memory.oom.group'))) writeFileSync(join(dir, 'memory.oom.group'), '1');
            } else {
              writeFileSync(join(dir, 'memory.limit_in_bytes'), String(limits.memoryBytes));
              // memsw (memory and swap) is at least the memory limit: written after it.
              if (existsSync(join(dir, 'memory.memsw.limit_in_bytes'))) writeFileSync(join(dir, 'memory.memsw.limit_in_bytes'), String(limits.memoryBytes));
            }
          } else if (l === 'processes') writeFileSync(join(dir, 'pids.max'), String(limits.processes));
          else {
            const period = 100_000;
            const quota = Math.max(1000, Math.round(limits.cpus * period));
            if (support.version === 2) writeFileSync(join(dir, 'cpu.max'), `${quota} ${period}`);
            else {
              writeFileSync(join(dir, 'cpu.cfs_period_us'), String(period));
              writeFileSync(join(dir, 'cpu.cfs_quota_us'), String(quota));
            }
          }
        }
      }
      const cpuDir = acct ? { version: acct.version, dir: join(acct.parent, name) } : null;
      const cg = new BotCgroup((support.version ?? acct?.version) as 1 | 2, made, memoryDir, cpuDir);
      live.add(cg);
      return cg;
    } catch (err) {
      undo();
      throw err;
    }
  }

  /** The files the wrapper writes its pid into, one per folder. */
  get procsFiles(): string[] {
    return this.dirs.map((d) => join(d, 'cgroup.procs'));
  }

  /** How many of its processes the kernel killed for lack of memory so far. */
  oomKills(): number {
    if (!this.memoryDir) return 0;
    const text = read(join(this.memoryDir, this.version === 2 ? 'memory.events' : 'memory.oom_control')) ?? '';
    return Number(/^oom_kill (\d+)/m.exec(text)?.[1] ?? 0);
  }

  /** The CPU time its processes used (those gone too), ms; null where it does not count it. */
  cpuMs(): number | null {
    if (!this.cpuDir) return null;
    if (this.cpuDir.version === 2) {
      const usec = /^usage_usec (\d+)/m.exec(read(join(this.cpuDir.dir, 'cpu.stat')) ?? '')?.[1];
      return usec === undefined ? null : Number(usec) / 1000;
    }
    const ns = (read(join(this.cpuDir.dir, 'cpuacct.usage')) ?? '').trim();
    return /^\d+$/.test(ns) ? Number(ns) / 1e6 : null;
  }

  /** Whether it counts its processes' CPU time (see `cpuMs`). */
  get countsCpu(): boolean {
    return this.cpuDir !== null;
  }

  /** The processes in it now. */
  pids(): number[] {
    const all = new Set<number>();
    for (const d of this.dirs) for (const p of (read(join(d, 'cgroup.procs')) ?? '').split('\n')) if (p.trim()) all.add(Number(p));
    return [...all];
  }

  /** Sends SIGKILL to every process in it (cgroup.kill in v2 where there is one). */
  killAll(): void {
    if (this.version === 2 && existsSync(join(this.dirs[0]!, 'cgroup.kill'))) {
      try {
        writeFileSync(join(this.dirs[0]!, 'cgroup.kill'), '1');
        return;
      } catch {
        // killed one by one below
      }
    }
    for (const p of this.pids()) {
      try {
        process.kill(p, 'SIGKILL');
      } catch {
        // already gone
      }
    }
  }

  /** Tries once to remove its folders (each must be empty); whether all are gone. */
  private tryRemove(): boolean {
    let all = true;
    for (const d of this.dirs) {
      if (!existsSync(d)) continue;
      try {
        rmdirSync(d);
      } catch {
        all = false;
      }
    }
    return all;
  }

  /** Kills what is left in it and removes it (within about 2 s; a process stuck in the kernel may keep it longer). */
  async remove(): Promise<void> {
    if (this.removed) return;
    for (let tries = 0; tries < 200; tries++) {
      this.killAll();
      if (this.tryRemove()) break;
      await new Promise((r) => setTimeout(r, 10));
    }
    this.removed = true;
    live.delete(this);
  }

  /** The same, synchronously (the arena's exit). */
  removeNow(): void {
    if (this.removed) return;
    for (let tries = 0; tries < 50; tries++) {
      this.killAll();
      if (this.tryRemove()) break;
      sleepSync(10);
    }
    this.removed = true;
    live.delete(this);
  }
}

/** Kills and removes every bot cgroup of this thread (the arena is exiting). */
export function removeAllCgroups(): void {
  for (const cg of [...live]) cg.removeNow();
}
