import { accessSync, constants, existsSync, statSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { ReplayMismatchError, UsageError } from '../core/errors.js';
import type { Replay } from '../core/replay.js';
import { assertReplayShape } from '../core/replay-shape.js';
import { MAX_REPLAY_FILE_BYTES, MAX_REPLAY_JSON_BYTES, mib, readFileCapped } from './read-capped.js';

export { MAX_REPLAY_FILE_BYTES, MAX_REPLAY_JSON_BYTES, readFileCapped } from './read-capped.js';

/** Writes a replay as JSON (gzip when the name ends in .gz). */
export function writeReplay(path: string, replay: Replay): void {
  const text = JSON.stringify(replay) + '\n';
  writeFileSync(path, path.endsWith('.gz') ? gzipSync(text) : text);
}

/**
 * Checks, before a match, that a replay can be written to `path`: its folder exists and is writable, and
 * the path is not a folder itself. A usage error names the problem, so no finished match is lost to a typo.
 */
export function checkReplayPath(path: string, flag = '--replay'): void {
  if (existsSync(path) && statSync(path).isDirectory())
    throw new UsageError(`${flag} ${path} is a folder; give a file name, such as ${path.replace(/\/$/, '')}/match.json`);
  const dir = dirname(path);
  if (!existsSync(dir)) throw new UsageError(`${flag} ${path}: the folder ${dir} does not exist`);
  if (!statSync(dir).isDirectory()) throw new UsageError(`${flag} ${path}: ${dir} is not a folder`);
  try {
    accessSync(dir, constants.W_OK);
    if (existsSync(path)) accessSync(path, constants.W_OK);
  } catch {
    throw new UsageError(`${flag} ${path}: no permission to write there`);
  }
}

/**
 * Unpacks gzip bytes, refusing (with a usage error naming the file and the limit) output over `limit` bytes:
 * zlib stops there, so a small crafted file cannot fill the memory.
 */
export function gunzipCapped(bytes: Buffer, path: string, limit = MAX_REPLAY_JSON_BYTES, what = 'replay'): Buffer {
  try {
    return gunzipSync(bytes, { maxOutputLength: limit });
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    if (e.code === 'ERR_BUFFER_TOO_LARGE' || e instanceof RangeError)
      throw new UsageError(`${what} ${path} unpacks to more than ${mib(limit)}, the most a ${what} may hold`);
    throw new UsageError(`${what} ${path} is not valid gzip: ${(e.message ?? String(err)).slice(0, 200)}`);
  }
}

/**
 * Reads and shape-checks a replay file (plain or gzip JSON); errors name the file and the problem. At most
 * `limits.file` bytes are read and at most `limits.json` unpacked, and no error stringifies the file's value.
 */
export function readReplay(path: string, limits: { file?: number; json?: number } = {}): Replay {
  const bytes = readFileCapped(path, limits.file ?? MAX_REPLAY_FILE_BYTES);
  const gz = bytes[0] === 0x1f && bytes[1] === 0x8b;
  const text = gz ? gunzipCapped(bytes, path, limits.json ?? MAX_REPLAY_JSON_BYTES) : bytes;
  let value: unknown;
  try {
    value = JSON.parse(text.toString('utf8'));
  } catch (err) {
    // V8's message quotes at most a few characters of the text; cut it anyway, whatever the engine says.
    const why = err instanceof Error ? err.message : String(err);
    throw new UsageError(`replay ${path} is not valid JSON${gz ? ' (gzip)' : ''}: ${why.length > 200 ? `${why.slice(0, 200)}…` : why}`);
  }
  try {
    assertReplayShape(value);
  } catch (err) {
    if (!(err instanceof ReplayMismatchError)) throw err;
    throw new UsageError(`${path}: ${err.message}`);
  }
  return value;
}
