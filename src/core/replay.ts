// Writing replays: the replay of a finished match, or of one stopped before its end. The format is
// replay-format.ts (its schema and types), checking a file replay-shape.ts, re-running one replay-verify.ts,
// the result block replay-result.ts; all but the schema and the check (which load typebox: import them from
// their files) are exported from here.
import type { MatchEngine } from './engine.js';
import type { Replay, ReplayHeader, TranscriptEntry } from './replay-format.js';
import { resultOf, stoppedResult } from './replay-result.js';

export type { MatchTimeouts, RecordedMove, Replay, ReplayHeader, ReplayResult, ReplaySeat, TranscriptEntry, TurnRecord } from './replay-format.js';
export * from './replay-limits.js';
export * from './replay-result.js';
export { replayConfig, ReplayFollower, verifyReplay } from './replay-verify.js';

/**
 * A finished match's replay: its header, the engine's recorded steps and result, and what the runner measured
 * (the duration; the raw messages when they were kept).
 */
export function buildReplay(header: ReplayHeader, engine: MatchEngine, extra: { durationMs?: number; transcripts?: TranscriptEntry[][] } = {}): Replay {
  const { forkedFrom, ...rest } = header;
  const replay: Replay = { ...rest, turns: engine.records, result: resultOf(engine) };
  if (extra.durationMs !== undefined) replay.durationMs = extra.durationMs;
  if (extra.transcripts) replay.transcripts = extra.transcripts;
  if (forkedFrom) replay.forkedFrom = forkedFrom;
  return replay;
}

/**
 * The replay of a match stopped before its end (Ctrl-C): the steps played so far, marked `stopped` with the
 * reason; nobody's result (every seat first, no winner, no draw), the faults so far.
 */
export function stoppedReplay(
  header: ReplayHeader,
  engine: MatchEngine,
  reason: string,
  extra: { durationMs?: number; transcripts?: TranscriptEntry[][] } = {},
): Replay {
  const { forkedFrom, ...rest } = header;
  const replay: Replay = { ...rest, turns: engine.records, result: stoppedResult(engine, reason), stopped: reason };
  if (extra.durationMs !== undefined) replay.durationMs = extra.durationMs;
  if (extra.transcripts) replay.transcripts = extra.transcripts;
  if (forkedFrom) replay.forkedFrom = forkedFrom;
  return replay;
}
