// What a sandbox is asked for and its defaults, apart from the code that makes it (which loads child_process):
// the command line's help reads these at start-up.

/**
 * How untrusted bot programs (stdio and exec seats) are confined: bubblewrap with no network, a read-only
 * root, a private /tmp, the home folders hidden, their own PID namespace (nothing they start outlives
 * them), and resource limits. The working folder and `binds` are visible read-only.
 */
export interface SandboxOptions {
  /** folders the bot may read besides the system (the working folder is always bound) */
  binds?: string[];
  /** address space per process, MiB */
  memoryMb?: number;
  /** CPU time per process, seconds */
  cpuSeconds?: number;
  /** processes the bot may have at once (its own uid counts them) */
  processes?: number;
  /** largest file it may write (in its private /tmp), MiB */
  fileMb?: number;
  /** open files per process */
  openFiles?: number;
}

/** The limits a sandbox has when none are given. */
export const SANDBOX_DEFAULTS: Required<Omit<SandboxOptions, 'binds'>> = { memoryMb: 2048, cpuSeconds: 600, processes: 64, fileMb: 64, openFiles: 256 };
