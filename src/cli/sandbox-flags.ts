// The `--sandbox*` options, shared by play (and replay fork), serve and worker: declared once, read once.
import { InvalidArgumentError, type Command } from 'commander';
import { SANDBOX_DEFAULTS, type SandboxOptions } from '../bots/sandbox-options.js';
import { UsageError } from '../core/errors.js';
import { parsePositiveInt } from './options.js';

/** What the `--sandbox*` options hold once commander has read them. */
export interface SandboxFlags {
  sandbox?: boolean;
  sandboxBind?: string[];
  sandboxMemory?: number;
  sandboxProcesses?: number;
  sandboxCpus?: number;
  sandboxTmp?: number;
  sandboxDeadline?: 'wall' | 'cpu';
}

function parseCpus(v: string): number {
  const n = Number(v);
  if (!/^\d+(\.\d+)?$/.test(v.trim()) || !(n >= 0.01 && n <= 1024))
    throw new InvalidArgumentError(`--sandbox-cpus: expected a number of CPUs from 0.01 to 1024 (0.5: half a core), got ${v}`);
  return n;
}

function parseDeadline(v: string): 'wall' | 'cpu' {
  if (v !== 'wall' && v !== 'cpu')
    throw new InvalidArgumentError(`--sandbox-deadline: expected wall (the time the arena waits) or cpu (the CPU time the bot spends), got ${v}`);
  return v;
}

/** Adds the `--sandbox*` options to a command; `what` says what --sandbox confines there. */
export function withSandboxOptions(command: Command, what: string, within = 'with --sandbox'): Command {
  const d = SANDBOX_DEFAULTS;
  return command
    .option(
      '--sandbox',
      `${what} in bubblewrap: no network; only the system, the bot's runtime and its folder visible, read-only; a private /tmp; nothing left running; limits on memory, processes and CPU for the bot's whole process tree (a cgroup; per process where the machine gives none, said at start)`,
    )
    .option('--sandbox-bind <dir>', `${within}: a folder the bots may read (repeatable)`, (v: string, prev: string[] = []) => [...prev, v])
    .option(
      '--sandbox-memory <MiB>',
      `${within}: memory of a bot's processes together, its /tmp included (default ${d.memoryMb}; without a cgroup: address space per process)`,
      parsePositiveInt('--sandbox-memory', 1 << 20),
    )
    .option(
      '--sandbox-processes <n>',
      `${within}: processes and threads a bot may have at once (default ${d.processes})`,
      parsePositiveInt('--sandbox-processes', 1 << 20),
    )
    .option('--sandbox-cpus <n>', `${within}: a bot's share of the CPUs, 0.5 for half a core (default ${d.cpus}; needs a cgroup)`, parseCpus)
    .option('--sandbox-tmp <MiB>', `${within}: size of a bot's private /tmp (default ${d.tmpMb})`, parsePositiveInt('--sandbox-tmp', 1 << 20))
    .option(
      '--sandbox-deadline <wall|cpu>',
      `${within}: judge a stdio bot's turn deadline on the wall time the arena waits (wall, the default) or on the CPU time its processes spend on the answer (cpu: a loaded machine does not time out a bot that waits for a core; the wall time is then capped at 3× the deadline and a second)`,
      parseDeadline,
    );
}

/** The `--sandbox-*` options given, by name. */
function limitFlags(o: SandboxFlags): string[] {
  const named: [keyof SandboxFlags, string][] = [
    ['sandboxBind', '--sandbox-bind'],
    ['sandboxMemory', '--sandbox-memory'],
    ['sandboxProcesses', '--sandbox-processes'],
    ['sandboxCpus', '--sandbox-cpus'],
    ['sandboxTmp', '--sandbox-tmp'],
    ['sandboxDeadline', '--sandbox-deadline'],
  ];
  return named.filter(([k]) => o[k] !== undefined).map(([, flag]) => flag);
}

/** The sandbox the options ask for (`on`: whether there is one), with the limits given; a limit without one is a usage error. */
export function sandboxFrom(o: SandboxFlags, on: boolean, withWhat = '--sandbox'): SandboxOptions | undefined {
  if (!on) {
    const given = limitFlags(o);
    if (given.length) throw new UsageError(`${given.join(' and ')} ${given.length > 1 ? 'go' : 'goes'} with ${withWhat}`);
    return undefined;
  }
  return {
    binds: o.sandboxBind,
    memoryMb: o.sandboxMemory,
    processes: o.sandboxProcesses,
    cpus: o.sandboxCpus,
    tmpMb: o.sandboxTmp,
    ...(o.sandboxDeadline ? { deadline: o.sandboxDeadline } : {}),
  };
}

/** What `serve` and `worker` read of the sandbox besides the `--sandbox*` options. */
export interface CommandsSandboxFlags extends SandboxFlags {
  allowCommands?: boolean;
  unsandboxedCommands?: boolean;
  pauseBetweenTurns?: boolean;
}

/** Adds the sandbox's options of a server or worker: `--sandbox*` and `--unsandboxed-commands`. */
export function withCommandsSandboxOptions(command: Command): Command {
  return withSandboxOptions(command, 'with --allow-commands (where it is the default): run the bots that are commands', 'in the sandbox')
    .option(
      '--unsandboxed-commands',
      "with --allow-commands: run the bots that are commands unconfined, as this user, seeing all it sees (only for bot owners you trust: a command bot could read this machine's files, its database included)",
    )
    .option(
      '--pause-between-turns',
      'stop sandboxed stdio bots (commands and uploads) once they answered, and let them run again with their next message, so none computes while the others play',
    );
}
