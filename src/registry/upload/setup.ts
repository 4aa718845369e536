// How a process (a server, a worker) sets up uploaded code from its options: the sandbox checked, the languages
// enabled (their programs found), the cache of unpacked versions made.
import { resolve } from 'node:path';
import { checkSandbox, type SandboxOptions } from '../../bots/index.js';
import { UsageError } from '../../core/errors.js';
import type { Store } from '../../store/index.js';
import { UploadCache } from './cache.js';
import { UPLOAD_LIMITS, type UploadLimits } from './intake.js';
import { enabledLanguages } from './languages.js';

/** What a process does with uploaded code: its cache (and languages) and the caps on an upload. */
export interface RegistryUploads {
  cache: UploadCache;
  limits?: UploadLimits;
  /** what a bot's ratings do when a new version of its code passes its check: carry on (default), or restart */
  ratings?: 'carry' | 'restart';
}

/** Uploaded code on a server or a worker (`--uploads`): the languages it takes, where it keeps the versions it plays. */
export interface UploadSetup {
  /** the languages enabled (python3, node, or those of `languagesFile`) */
  languages: string[];
  /** a JSON file of more languages (see enabledLanguages) */
  languagesFile?: string;
  /** the cache of unpacked versions (default ./data/uploads) */
  cacheDir?: string;
  /** the cache's size, MiB (default 1024): least recently used versions go past it */
  cacheMb?: number;
  /** the sandbox's limits for uploaded bots (the defaults when none) */
  sandbox?: SandboxOptions;
  /** caps on one upload (the defaults of UPLOAD_LIMITS for those not given) */
  limits?: Partial<UploadLimits>;
  /** a server's: what a bot's ratings do when a new version becomes active (default 'carry') */
  ratings?: 'carry' | 'restart';
}

/** The upload cache and caps a process runs with (a server's, a worker's), checked now: the sandbox must run here. */
export function uploadsOf(store: Store, u: UploadSetup): RegistryUploads {
  try {
    checkSandbox(u.sandbox ?? {});
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    // Uploaded code never runs unconfined: without the sandbox, no uploads.
    throw new UsageError(`--uploads runs uploaded code only in the sandbox, which cannot run here: ${err.message.replace(/^--sandbox:? ?/, '')}`);
  }
  const languages = enabledLanguages(u.languages, u.languagesFile);
  const cache = new UploadCache(store, {
    dir: resolve(u.cacheDir ?? 'data/uploads'),
    maxBytes: (u.cacheMb ?? 1024) * 1024 * 1024,
    languages,
    sandbox: u.sandbox,
  });
  return { cache, limits: { ...UPLOAD_LIMITS, ...u.limits }, ratings: u.ratings ?? 'carry' };
}
