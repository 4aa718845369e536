// How `serve` and `worker` run command bots: sandboxed unless the operator says otherwise (loaded when they run).
import { dirname, resolve } from 'node:path';
import { checkSandbox, type SandboxReport } from '../bots/sandbox.js';
import { SANDBOX_DEFAULTS, type SandboxOptions } from '../bots/sandbox-options.js';
import { UsageError } from '../core/errors.js';
import { DEFAULT_SQLITE_PATH } from '../store/open.js';
import { sandboxFrom, type CommandsSandboxFlags } from './sandbox-flags.js';

/**
 * The sandbox a server or worker runs command bots in (`--allow-commands` runs them sandboxed unless
 * `--unsandboxed-commands`), checked now: a sandbox that cannot run here is a usage error naming both ways
 * out. `database` is hidden from the bots (a SQLite file's folder). Says on stderr what the limits are here.
 */
export function commandsSandbox(app: string, o: CommandsSandboxFlags, database: string | undefined): SandboxOptions | undefined {
  if (o.unsandboxedCommands && !o.allowCommands) throw new UsageError('--unsandboxed-commands goes with --allow-commands');
  if (o.unsandboxedCommands && o.sandbox) throw new UsageError('--sandbox and --unsandboxed-commands contradict each other: give one');
  if (o.sandbox && !o.allowCommands)
    throw new UsageError('--sandbox confines the bots that are commands (stdio:, exec:), which only --allow-commands lets in: give --allow-commands too');
  const on = !!o.allowCommands && !o.unsandboxedCommands;
  const given = sandboxFrom(
    o,
    on,
    o.unsandboxedCommands ? 'the sandbox, which --unsandboxed-commands turns off' : '--allow-commands (which runs commands sandboxed)',
  );
  if (!given) return undefined;
  const target = database?.trim() || DEFAULT_SQLITE_PATH;
  const hide = /^postgres(ql)?:\/\//i.test(target) ? [] : [dirname(resolve(target.replace(/^sqlite:(\/\/)?/i, '')))];
  const sandbox: SandboxOptions = { ...given, folder: 'command', hide, ...(o.pauseBetweenTurns ? { pauseBetweenTurns: true } : {}) };
  let report: SandboxReport;
  try {
    report = checkSandbox(sandbox);
  } catch (err) {
    if (!(err instanceof UsageError) || o.sandbox) throw err;
    throw new UsageError(
      `--allow-commands runs the bots' commands in the sandbox, which cannot run here: ${err.message.replace(/^--sandbox:? ?/, '')}. Install what it needs, or give --unsandboxed-commands to run them unconfined (only for bot owners you trust)`,
    );
  }
  const limits = `${sandbox.memoryMb ?? SANDBOX_DEFAULTS.memoryMb} MiB, ${sandbox.processes ?? SANDBOX_DEFAULTS.processes} processes, ${sandbox.cpus ?? SANDBOX_DEFAULTS.cpus} CPU, /tmp ${sandbox.tmpMb ?? SANDBOX_DEFAULTS.tmpMb} MiB`;
  process.stderr.write(
    report.fallback
      ? `botarena ${app}: commands run sandboxed; warning: ${report.fallback}\n`
      : `botarena ${app}: commands run sandboxed, each bot's processes together limited by a cgroup (v${report.cgroup}): ${limits}\n`,
  );
  return sandbox;
}
