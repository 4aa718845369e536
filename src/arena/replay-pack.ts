import { gzipSync } from 'node:zlib';
import type { Replay, TranscriptEntry } from '../core/replay.js';

/** A finished match's replay as the store keeps it: gzipped without the raw messages, and each seat's messages gzipped apart. */
export interface PackedReplay {
  replayGz: Uint8Array;
  /** by slot: the seat's transcript (its owner's to read) */
  logs: Uint8Array[];
}

/**
 * Packs a replay for the store. For a long match this is the costly part of recording it (megabytes of
 * messages to serialize and gzip), so a match thread packs its own replay before handing it over.
 */
export function packReplay(replay: Replay): PackedReplay {
  const { transcripts, ...publicReplay } = replay;
  return {
    replayGz: gzipSync(JSON.stringify(publicReplay)),
    logs: (transcripts ?? []).map((t: TranscriptEntry[]) => gzipSync(JSON.stringify(t))),
  };
}
