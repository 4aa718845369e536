// What a sandbox is asked for and its defaults, apart from the code that makes it (which loads child_process):
// the command line's help reads these at start-up.

/**
 * How untrusted bot programs (stdio and exec seats) are confined: bubblewrap with no network, only the system's
 * folders (/usr, /bin, /lib…, what of /etc a runtime reads), the runtime of the bot's command and its folder
 * visible, read-only; a private /tmp of a capped size; their own PID namespace (nothing they start outlives
 * them); and limits on the bot's whole process tree through a cgroup (memory, processes, CPU share) where the
 * machine allows one, else per process (prlimit).
 */
export interface SandboxOptions {
  /** folders the bot may read besides the system and its own folder */
  binds?: string[];
  /**
   * which folder of the bot is visible: `'workdir'` (the default: `botarena play`, where the bots are the
   * user's own) the working folder, whole; `'command'` (a server's, whose working folder holds its data) only
   * the folders of the files the bot's command names (`python3 /srv/bots/a/bot.py`: /srv/bots/a)
   */
  folder?: 'workdir' | 'command';
  /** the bot's working folder (default: this process's); with folder 'workdir', the folder it sees (an upload's version folder) */
  cwd?: string;
  /** folders never visible to a bot, even inside a bound one (a server's database folder) */
  hide?: string[];
  /** memory of the bot's whole process tree (its cgroup, /tmp included), MiB; without a cgroup: address space per process */
  memoryMb?: number;
  /** CPU time per process, seconds */
  cpuSeconds?: number;
  /** the bot's share of the machine's CPUs through its cgroup (1: one core's worth); none without a cgroup */
  cpus?: number;
  /** processes (and threads) the bot may have at once: its cgroup's, or else its own uid's count */
  processes?: number;
  /** size of its private /tmp (a tmpfs, counted in its memory where a cgroup counts it), MiB */
  tmpMb?: number;
  /** largest file it may write (in its private /tmp), MiB */
  fileMb?: number;
  /** open files per process */
  openFiles?: number;
  /**
   * how a stdio bot's turn deadline is judged: `'wall'` (the default) on the time the arena waits; `'cpu'` on the
   * CPU time its processes spend on the answer (from its cgroup, or /proc), so a loaded machine does not time out
   * a bot that was only waiting for a core; the wall time is then capped at 3× the deadline and a second
   */
  deadline?: 'wall' | 'cpu';
  /**
   * stdio bots in this sandbox are stopped between their answer and their next message (a server's and a
   * worker's `--pause-between-turns`; `play`'s applies to every stdio bot: `ByteSeatContext.pauseBetweenTurns`)
   */
  pauseBetweenTurns?: boolean;
}

/** The limits a sandbox has when none are given. */
export const SANDBOX_DEFAULTS: Required<Omit<SandboxOptions, 'binds' | 'hide' | 'folder' | 'cwd' | 'deadline' | 'pauseBetweenTurns'>> = {
  memoryMb: 1024,
  cpuSeconds: 600,
  cpus: 1,
  processes: 64,
  tmpMb: 64,
  fileMb: 64,
  openFiles: 256,
};

/** The names of a sandbox's limits (what an arena's policy carries to its workers; folders stay each machine's). */
const LIMIT_KEYS = ['memoryMb', 'cpuSeconds', 'cpus', 'processes', 'tmpMb', 'fileMb', 'openFiles'] as const;

/** A sandbox's limits, as in effect (the defaults where none was given). */
export function sandboxLimits(o: SandboxOptions): typeof SANDBOX_DEFAULTS {
  const out = { ...SANDBOX_DEFAULTS };
  for (const k of LIMIT_KEYS) if (typeof o[k] === 'number') out[k] = o[k];
  return out;
}

/**
 * A sandbox with the limits `limits` says (an arena's policy: its server's --sandbox-* options), and this
 * machine's folders (its binds, what it hides, which folder of a bot is visible). Limits that are not positive
 * numbers are ignored (the policy is read from a store that anyone with its password could write).
 */
export function withLimits(o: SandboxOptions, limits: Partial<Record<(typeof LIMIT_KEYS)[number], unknown>> | undefined): SandboxOptions {
  if (!limits || typeof limits !== 'object') return o;
  const out: SandboxOptions = { ...o };
  for (const k of LIMIT_KEYS) {
    const v = limits[k];
    if (typeof v === 'number' && Number.isFinite(v) && v > 0) out[k] = v;
  }
  return out;
}
