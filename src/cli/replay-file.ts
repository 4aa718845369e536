import { readFileSync, writeFileSync } from 'node:fs';
import { gunzipSync, gzipSync } from 'node:zlib';
import { UsageError } from '../core/errors.js';
import { assertReplayShape, type Replay } from '../core/replay.js';

/** Writes a replay as JSON (gzip when the name ends in .gz). */
export function writeReplay(path: string, replay: Replay): void {
  const text = JSON.stringify(replay) + '\n';
  writeFileSync(path, path.endsWith('.gz') ? gzipSync(text) : text);
}

/** Reads and shape-checks a replay file (plain or gzip JSON); errors name the file and the problem. */
export function readReplay(path: string): Replay {
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch (err) {
    throw new UsageError(`cannot read replay ${path}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`);
  }
  const gz = bytes[0] === 0x1f && bytes[1] === 0x8b;
  let value: unknown;
  try {
    value = JSON.parse((gz ? gunzipSync(bytes) : bytes).toString('utf8'));
  } catch (err) {
    throw new UsageError(`replay ${path} is not valid JSON${gz ? ' (gzip)' : ''}: ${err instanceof Error ? err.message : String(err)}`);
  }
  try {
    assertReplayShape(value);
  } catch (err) {
    throw new UsageError(`${path}: ${(err as Error).message}`);
  }
  return value;
}
