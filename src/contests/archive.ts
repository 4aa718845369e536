// A contest's archive: one .tar.gz holding contest.json (the definition and the entrants with their frozen
// versions), matches.jsonl (one ContestMatchLine per finished match, by index), results.json (the published
// results) and replays/MATCHID.json (every match's replay). Written deterministically (fixed times and modes),
// read as hostile input: caps on its size, entries, each file's size and paths, reading stopped as soon as one
// is passed.
import type { Replay } from '../core/replay.js';
import type { ContestDefinition, ContestEntrant } from './definition.js';
import type { ContestMatchLine } from './results.js';

/** What contest.json holds. */
export interface ContestFile {
  format: 'botarena-contest/1';
  definition: ContestDefinition;
  entrants: ContestEntrant[];
}

/** An archive's contents, as written or as read (the parts read are checked only for their shape). */
export interface ContestArchive {
  contest: ContestFile;
  matches: ContestMatchLine[];
  /** results.json's text as published (verify compares it as JSON with the recomputed one) */
  results: string;
  /** the replays by their path in the archive (replays/MATCHID.json) */
  replays: Map<string, Replay>;
}

/** Caps on an archive read from outside. */
export interface ArchiveLimits {
  compressedBytes: number;
  expandedBytes: number;
  entries: number;
  /** one file's size once expanded */
  fileBytes: number;
}

/** Writes an archive: the .tar.gz's bytes. */
export function writeArchive(a: ContestArchive): Buffer {
  void a;
  throw new Error('writeArchive: not written yet');
}

/** Reads an archive's bytes; throws a UsageError naming what is wrong and the cap passed. */
export async function readArchive(bytes: Buffer, limits?: Partial<ArchiveLimits>): Promise<ContestArchive> {
  void bytes;
  void limits;
  throw new Error('readArchive: not written yet');
}
