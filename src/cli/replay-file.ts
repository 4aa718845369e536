import { accessSync, constants, existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { UsageError } from '../core/errors.js';
import { assertReplayShape, type Replay } from '../core/replay.js';

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
  if (existsSync(path) && statSync(path).isDirectory()) throw new UsageError(`${flag} ${path} is a folder; give a file name, such as ${path.replace(/\/$/, '')}/match.json`);
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
