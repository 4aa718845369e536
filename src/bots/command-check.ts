// Whether this machine can run a bot's command as it is written: its program found (a path, or on PATH) and
// the files it names present. A worker asks before it takes a match, so a match whose bot needs a runtime or a
// file this machine lacks goes to a worker that has them rather than failing here (worker/worker.ts).
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { commandWords, findProgram } from './sandbox-mounts.js';

/** The extensions of the words that name a script the command runs (a word with a '/' names a file too). */
const SCRIPT = /\.(py|pyc|js|mjs|cjs|ts|rb|pl|php|lua|sh|jar|class|exe|bin|R|jl|dart|ex|exs|go|hs|ml)$/i;

/**
 * What this machine lacks to run `command` from `cwd` with `path` for its PATH, in a sentence naming it, or
 * null when nothing is missing as far as can be told: the program, then each word that names a file (it has a
 * '/', or a script's extension, and is not an option). Environment assignments before the program are skipped.
 */
export function commandMissing(command: string, cwd: string, path: string): string | null {
  const words = commandWords(command);
  let i = 0;
  while (i < words.length && /^[A-Za-z_][A-Za-z0-9_]*=/.test(words[i]!)) i++;
  const program = words[i];
  if (!program) return null;
  if (!findProgram(program, cwd, path))
    return program.includes('/') ? `its program ${program} is not on this machine (from ${cwd})` : `its program ${program} is not on this machine's PATH`;
  for (const w of words.slice(i + 1)) {
    if (w.startsWith('-') || w.includes('://')) continue;
    if (!w.includes('/') && !SCRIPT.test(w)) continue;
    if (!existsSync(resolve(cwd, w))) return `it names ${w}, which is not on this machine (from ${cwd})`;
  }
  return null;
}
