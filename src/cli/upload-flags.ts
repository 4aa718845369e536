// The `--uploads*` options of `serve` and `worker`: which languages of uploaded code this process runs, and its cache.
import { Option, type Command } from 'commander';
import type { SandboxOptions } from '../bots/sandbox-options.js';
import type { UploadSetup } from '../registry/upload/setup.js';
import { parsePositiveInt } from './options.js';

/** What the `--uploads*` options hold once commander has read them. */
export interface UploadFlags {
  uploads?: string;
  uploadLanguages?: string;
  uploadCache?: string;
  uploadCacheMb?: number;
  uploadRatings?: 'carry' | 'restart';
  /** serve's and worker's --pause-between-turns (uploaded bots are stdio bots in the sandbox) */
  pauseBetweenTurns?: boolean;
}

/** Adds the `--uploads*` options; `who` says what takes uploads here (a server, a worker). */
export function withUploadOptions(command: Command, who: 'serve' | 'worker'): Command {
  if (who === 'serve')
    command.addOption(
      new Option(
        '--upload-ratings <what>',
        "with --uploads: when a new version of a bot's code passes its check, its ratings carry on, or restart from the starting rating (its history stays)",
      )
        .choices(['carry', 'restart'])
        .default('carry'),
    );
  return command
    .option(
      '--uploads <languages>',
      who === 'serve'
        ? 'take bots as uploaded code (a file, .tar.gz or .zip) in these languages, comma-separated (python3, node, or those of --upload-languages); their code always runs in the sandbox, whatever --allow-commands says'
        : "run uploaded code in these languages, comma-separated (as the server; a worker without a seat's language leaves its match to another)",
    )
    .option(
      '--upload-languages <file>',
      'with --uploads: a JSON file of more languages, {"ruby": {"command": "ruby {entry}", "entries": ["bot.rb"], "extensions": [".rb"]}}',
    )
    .option('--upload-cache <dir>', 'with --uploads: where the versions played here are unpacked (default ./data/uploads)')
    .option(
      '--upload-cache-mb <n>',
      "with --uploads: the cache's size; least recently used versions go past it (default 1024)",
      parsePositiveInt('--upload-cache-mb', 1 << 24),
    );
}

/** The upload setup the options ask for (none without --uploads); the sandbox's limits are the commands' when given. */
export function uploadSetup(o: UploadFlags, sandbox: SandboxOptions | undefined): UploadSetup | undefined {
  if (!o.uploads) return undefined;
  const languages = o.uploads
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const limits: SandboxOptions = sandbox
    ? {
        memoryMb: sandbox.memoryMb,
        processes: sandbox.processes,
        cpus: sandbox.cpus,
        tmpMb: sandbox.tmpMb,
        fileMb: sandbox.fileMb,
        cpuSeconds: sandbox.cpuSeconds,
        deadline: sandbox.deadline,
      }
    : {};
  if (o.pauseBetweenTurns) limits.pauseBetweenTurns = true;
  return { languages, languagesFile: o.uploadLanguages, cacheDir: o.uploadCache, cacheMb: o.uploadCacheMb, sandbox: limits, ratings: o.uploadRatings };
}
