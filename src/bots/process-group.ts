// Bot processes and their process groups. The exit hooks, the cgroups' cleanup and BotProcess share one registry
// of live groups and private HOMEs (this module's state); the sweep of processes that left a group is
// process-sweep.ts. What a bot's environment holds is decided in bot-env.ts, its sandbox in sandbox*.ts, and how
// its end is told to people in exit-words.ts.
import { spawn, type ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { botEnvironment, makePrivateHome, type BotEnvOptions } from './bot-env.js';
import { ProcTreeCpu } from './cpu-time.js';
import { isRunning } from './proc.js';
import { anyMarked, DRAIN_MS, lookFor, MARK_VAR, newMark, signalPids, sweep } from './process-sweep.js';
import { removeAllCgroups, sandboxPlan, SANDBOX_DEFAULTS, type BotCgroup, type SandboxOptions } from './sandbox.js';
import type { TranscriptSink } from './transport.js';
import { describeExit, errorLine, type ExitInfo } from './exit-words.js';

export { describeExit, errorLine, neverStarted, type ExitInfo } from './exit-words.js';

/** Every bot process group still alive, so none outlives the arena. */
const live = new Set<number>();
let hooked = false;

/** The private HOMEs of this thread's bot processes not yet removed (see BotEnvOptions). */
const homes = new Set<string>();

function killAllNow(): void {
  for (const pgid of live) signalGroup(pgid, 'SIGKILL');
  live.clear();
  // Every process of this thread's bots, those that left their group too, goes now: the arena's timers will not run.
  if (anyMarked()) sweep(true);
  for (const home of homes) removeHome(home, true);
  // And the cgroups of sandboxed bots, with whatever is still in them.
  removeAllCgroups();
}

/** Removes a bot's private HOME (what it wrote there too); a failure leaves it for the system's temporary folder cleaning. */
function removeHome(home: string, now = false): Promise<void> {
  homes.delete(home);
  const how = { recursive: true, force: true, maxRetries: 2 };
  if (!now) return rm(home, how).catch(() => {});
  try {
    rmSync(home, how);
  } catch {
    // left behind
  }
  return Promise.resolve();
}

/**
 * Kills all bot groups when the arena exits or is told to stop, then lets the signal do its usual work, unless
 * someone else handles the signal (the CLI's Ctrl-C, the server's and worker's SIGTERM: they let the matches
 * under way end, and the 'exit' hook kills what is left).
 */
function hookProcessExit(): void {
  if (hooked) return;
  hooked = true;
  process.on('exit', killAllNow);
  for (const sig of ['SIGTERM', 'SIGHUP', 'SIGINT'] as const) {
    const handler = () => {
      // Someone else handles it gracefully: leave it to them. This handler runs first (it is prepended), so it
      // counts the listeners the signal found: a graceful handler that runs before it and removes itself (so
      // that a second signal stops at once) must not make it look like the only one.
      if ((sig === 'SIGINT' || sig === 'SIGTERM') && process.listenerCount(sig) > 1) return;
      killAllNow();
      process.off(sig, handler);
      process.kill(process.pid, sig);
    };
    // Hooked when the first bot starts, mostly after the CLI's handlers were added: in front of them.
    process.prependListener(sig, handler);
  }
}

function signalGroup(pgid: number, sig: NodeJS.Signals): void {
  try {
    process.kill(-pgid, sig);
  } catch {
    // already gone
  }
}

/**
 * A bot program run through `/bin/sh -c` (in the sandbox when one is given) in its own process group: stderr is forwarded to the log
 * (capped), its end is kept for error messages (see `errorLine`), and `kill()` ends the whole group
 * (SIGTERM, then SIGKILL after a grace period), resolving once the process is gone.
 */
export class BotProcess {
  readonly child: ChildProcess;
  exit: ExitInfo | null = null;
  /** a spawn failure (ENOENT, E2BIG…), if any */
  spawnError: NodeJS.ErrnoException | null = null;
  readonly exited: Promise<void>;
  /** the value of the BOTARENA_BOT entry every process of this bot inherits */
  private readonly mark: string;
  private stderrBytes = 0;
  private stderrDropped = 0;
  private stderrTail = '';
  /** the processes carrying its mark when it exited (each sent SIGKILL then), once they were looked for */
  private leftovers: Promise<number[]> = Promise.resolve([]);
  /** under the sandbox, the bot's cgroup (its whole process tree's limits), removed once it is over */
  private readonly cgroup: BotCgroup | null = null;
  /** its cgroup's removal, once it exited (what was left in it is killed first) */
  private cgroupGone: Promise<void> = Promise.resolve();
  /** whether the kernel killed one of its processes for passing the cgroup's memory cap (the whole bot is killed then) */
  private outOfMemory = false;
  /** its CPU time read from /proc, where no cgroup counts it (made at the first read) */
  private tree: ProcTreeCpu | null = null;
  /** the CPU time last read, ms (what is told once it exited: its cgroup's count at its exit) */
  private lastCpu: number | null = null;
  /** while it is stopped between turns: the processes sent SIGSTOP (see `pause`) */
  private stopped: number[] | null = null;

  constructor(
    readonly command: string,
    args: string[],
    private readonly log: TranscriptSink,
    private readonly maxStderrBytes: number,
    private readonly sandbox?: SandboxOptions,
    env?: BotEnvOptions,
  ) {
    hookProcessExit();
    // Every process the bot starts inherits this mark, so those that leave its group or are orphaned are found.
    // The thread is part of it: each worker thread of a match pool counts its bots from 1, and a mark shared by
    // two threads' bots would make one match's teardown kill another match's bot.
    this.mark = newMark();
    // Never the arena's environment (its tokens, its database's URL): an allow-list, its HOME, what the operator passes.
    const home = this.homeFor(env);
    const own = { [MARK_VAR]: this.mark };
    const childEnv = botEnvironment(env, { home: sandbox ? '/tmp' : home.path, sandboxed: !!sandbox, own });
    const plan = sandbox ? sandboxPlan(command, args, sandbox, childEnv.PATH) : null;
    if (plan?.note) log('note', plan.note);
    this.cgroup = plan?.cgroup ?? null;
    const [file, ...argv] = plan ? plan.argv : ['/bin/sh', '-c', command, ...args];
    this.child = spawn(file!, argv, { detached: true, stdio: ['pipe', 'pipe', 'pipe'], env: childEnv });
    const pid = this.child.pid;
    if (pid !== undefined) live.add(pid);
    const watch = this.cgroup && pid !== undefined ? this.watchMemory(pid) : undefined;
    this.exited = new Promise((resolve) => {
      this.child.once('error', (err: NodeJS.ErrnoException) => {
        this.spawnError = err;
        if (this.child.pid === undefined) {
          this.exit ??= { code: null, signal: null };
          this.cgroupGone = this.cgroup?.remove() ?? Promise.resolve();
          resolve();
        }
      });
      // 'close' comes once the process is gone and its pipes are closed; a descendant that left the group
      // (setsid) may hold a pipe open for ever, so 'exit' starts a short drain, then the pipes are dropped:
      // the seat is over when its process is, whoever still holds its output (its marked processes are killed).
      this.child.once('exit', (code, signal) => {
        this.exit = { code, signal };
        clearInterval(watch);
        if (this.cgroup) {
          // Its CPU time is read once more before the cgroup goes: what a process per message spent in all.
          this.lastCpu = this.cgroup.cpuMs() ?? this.lastCpu;
          // Killed for memory before the watch saw it: said all the same. Then what is left in it goes, and it too.
          if (this.cgroup.oomKills() > 0) this.outOfMemory = true;
          this.cgroupGone = this.cgroup.remove();
        }
        if (pid !== undefined) {
          // The shell is gone; anything it left in the group goes with it, and so does what left the group.
          signalGroup(pid, 'SIGKILL');
          live.delete(pid);
          // Its marked processes are looked for at once (with those of the bots exiting with it), then again.
          this.leftovers = lookFor(this.mark);
        }
        const drained = setTimeout(() => {
          for (const s of [this.child.stdout, this.child.stderr]) s?.destroy();
        }, DRAIN_MS);
        drained.unref();
        this.child.once('close', () => clearTimeout(drained));
      });
      this.child.once('close', (code, signal) => {
        this.exit ??= { code, signal };
        resolve();
      });
    });
    this.child.stdin!.on('error', () => {}); // EPIPE when the bot has gone: the exit tells the story
    // A private HOME goes once the bot is over: its process, and what it left running (killed when it exited).
    if (home.made) void this.exited.then(() => this.leftovers).then(() => removeHome(home.made!));
    this.child.stderr!.on('data', (chunk: Buffer) => this.onStderr(chunk));
  }

  /**
   * Watches the bot's cgroup for a process the kernel killed for memory: the whole bot is killed then (cgroup v1
   * kills one process, which its parent may outlive), and its fault says why (see deathNote).
   */
  private watchMemory(pid: number): NodeJS.Timeout {
    const timer = setInterval(() => {
      if (!this.cgroup || this.cgroup.oomKills() === 0) return;
      this.outOfMemory = true;
      clearInterval(timer);
      signalGroup(pid, 'SIGKILL');
      this.cgroup.killAll();
    }, 100);
    timer.unref();
    return timer;
  }

  /**
   * The bot's HOME: the user's (`home: 'user'`, the default), or a private one made now (`made`: to remove when
   * the bot is over). Under the sandbox none is made: its HOME is its private /tmp. A private HOME that cannot be
   * made (a full disk) leaves the bot without HOME, with a note saying so.
   */
  private homeFor(env: BotEnvOptions | undefined): { path: string | undefined; made?: string } {
    if (env?.home !== 'private') return { path: process.env.HOME };
    if (this.sandbox) return { path: undefined };
    try {
      const made = makePrivateHome();
      homes.add(made);
      return { path: made, made };
    } catch (err) {
      this.log('note', `no private HOME could be made for the bot (${(err as NodeJS.ErrnoException).code ?? (err as Error).message}): it runs without HOME`);
      return { path: undefined };
    }
  }

  private onStderr(chunk: Buffer): void {
    const text = chunk.toString('utf8');
    this.stderrTail = (this.stderrTail + text).slice(-2000);
    if (this.stderrBytes < this.maxStderrBytes) {
      const room = this.maxStderrBytes - this.stderrBytes;
      this.log('stderr', chunk.length <= room ? text : chunk.subarray(0, room).toString('utf8'));
      this.stderrBytes += Math.min(room, chunk.length);
      if (chunk.length > room) this.stderrDropped += chunk.length - room;
    } else {
      if (this.stderrDropped === 0) this.log('note', `stderr over ${this.maxStderrBytes} bytes: the rest is not kept`);
      this.stderrDropped += chunk.length;
    }
  }

  /** The stderr line that names the error (see `errorLine`), quoted, for error messages ('' when there was none). */
  lastStderr(): string {
    const line = errorLine(this.stderrTail);
    return line ? `; last stderr: ${JSON.stringify(line.length > 200 ? line.slice(0, 200) + '…' : line)}` : '';
  }

  /** Why the process cannot answer: its exit, or its spawn failure, with the stderr line that names the error. */
  deathNote(when: string): string {
    if (this.spawnError) return `could not start ${JSON.stringify(this.command)}: ${this.spawnError.code ?? this.spawnError.message}`;
    const e = this.exit!;
    if (this.outOfMemory) {
      const mb = this.sandbox?.memoryMb ?? SANDBOX_DEFAULTS.memoryMb;
      return [`killed: out of memory, its processes used more than the sandbox's ${mb} MiB`, when].filter(Boolean).join(' ') + this.lastStderr();
    }
    const hint = e.code === 127 ? ' (command not found?)' : '';
    // In the sandbox the bot sees the system, the working folder and the bound folders only: a program or file
    // it cannot find is most often elsewhere (the bot's own folder, given by its full path).
    const unseen =
      this.sandbox && /no such file|not found|can't open|cannot open|ENOENT/i.test(this.stderrTail)
        ? this.sandbox.folder === 'command'
          ? '; in the sandbox a bot sees only the system, its runtime, the folders of the files its command names and the folders given with --sandbox-bind DIR'
          : `; under --sandbox a bot sees only the system, the working folder (${process.cwd()}) and the folders given with --sandbox-bind DIR`
        : '';
    return [`process ${describeExit(e)}${hint}`, when].filter(Boolean).join(' ') + this.lastStderr() + unseen;
  }

  /**
   * The CPU time (user and system) its processes used so far, ms: its cgroup's count when it has one that counts
   * it (to the microsecond), else its process group's and their descendants' in /proc (to 10 ms). Once it exited,
   * the last count (its cgroup's at its exit). Null where neither can be read.
   */
  cpuMs(): number | null {
    const pid = this.child.pid;
    if (this.exit || pid === undefined) return this.lastCpu;
    if (this.cgroup?.countsCpu) this.lastCpu = this.cgroup.cpuMs() ?? this.lastCpu;
    else this.lastCpu = (this.tree ??= new ProcTreeCpu(pid)).read();
    return this.lastCpu;
  }

  /** Whether its CPU time is counted by its cgroup (exact, whatever its processes do) rather than read from /proc. */
  get cpuFromCgroup(): boolean {
    return this.cgroup?.countsCpu ?? false;
  }

  /**
   * Stops the bot between its turns (SIGSTOP): its process group, then every process of its cgroup (a sandboxed
   * bot runs in a session of its own) or, without one, its group's descendants, looked for again until no new
   * one is found (a stopped process forks no more). `resume` undoes it; nothing happens once it exited.
   */
  pause(): void {
    const pid = this.child.pid;
    if (this.exit || pid === undefined || this.stopped) return;
    signalGroup(pid, 'SIGSTOP');
    const seen = new Set<number>([pid]);
    for (let pass = 0; pass < 5; pass++) {
      const fresh = (this.cgroup ? this.cgroup.pids() : (this.tree ??= new ProcTreeCpu(pid)).pids()).filter((p) => !seen.has(p));
      if (!fresh.length) break;
      for (const p of fresh) seen.add(p);
      signalPids(fresh, 'SIGSTOP');
    }
    this.stopped = [...seen];
  }

  /** Lets a bot stopped by `pause` run again (SIGCONT to its group and every process stopped); nothing when it was not. */
  resume(): void {
    const pid = this.child.pid;
    const stopped = this.stopped;
    if (!stopped || pid === undefined) return;
    this.stopped = null;
    signalGroup(pid, 'SIGCONT');
    signalPids(stopped, 'SIGCONT');
  }

  /** Whether it is stopped between turns now. */
  get paused(): boolean {
    return this.stopped !== null;
  }

  /**
   * Closes the bot's stdin (its cue that the match is over) and waits up to `ms` for it to exit by itself
   * (what it started and left running is killed when it exits: see the constructor).
   */
  async endInput(ms: number): Promise<void> {
    if (this.exit) return;
    this.resume();
    this.child.stdin!.end();
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([this.exited, new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)))]);
    clearTimeout(timer);
  }

  /**
   * Ends the whole process group (SIGTERM, then SIGKILL after `graceMs`); when the bot exits, its marked
   * processes that left the group (setsid) are killed too. Resolves when the bot is gone (its pipes dropped,
   * whoever holds them).
   */
  async kill(graceMs = 500): Promise<void> {
    const pid = this.child.pid;
    if (!this.exit && pid !== undefined) {
      // A bot stopped between turns could not act on its SIGTERM: it runs again first.
      this.resume();
      if (this.stderrDropped > 0) this.log('note', `${this.stderrDropped} bytes of stderr were dropped`);
      this.child.stdin!.end();
      signalGroup(pid, 'SIGTERM');
      const timer = setTimeout(() => signalGroup(pid, 'SIGKILL'), graceMs);
      await this.exited;
      clearTimeout(timer);
    }
    await this.exited;
    await this.cgroupGone;
    // The processes it left were sent SIGKILL as soon as they were found, just after it exited; a loaded
    // machine may take a moment to carry that out: the bot is over once they are gone too (a second at most).
    const leftovers = await this.leftovers;
    for (let waited = 0; waited < 1000 && leftovers.some(isRunning); waited += 5) await new Promise((r) => setTimeout(r, 5));
  }
}
