import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { UsageError } from '../core/errors.js';

// Reading a file a user names (a replay, a map) with a cap on its size: apart from the replay code, which
// loads zlib, so that the options' code does not.

/** The most a replay file may hold on disk: reading stops there (a device such as /dev/zero never ends). */
export const MAX_REPLAY_FILE_BYTES = 64 * 1024 * 1024;
/** The most a gzip replay may hold once unpacked (a small file can unpack to gigabytes). */
export const MAX_REPLAY_JSON_BYTES = 256 * 1024 * 1024;

/** A size in MiB when whole, else in bytes. */
export const mib = (bytes: number) => (bytes % (1024 * 1024) === 0 ? `${bytes / (1024 * 1024)} MiB` : `${bytes} bytes`);

/**
 * Reads at most `limit` bytes of a file through a file descriptor, in chunks: a longer file (or a device that
 * never ends) is a usage error naming the file and the limit, found as soon as the limit is passed.
 */
export function readFileCapped(path: string, limit = MAX_REPLAY_FILE_BYTES, what = 'replay'): Buffer {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (err) {
    throw new UsageError(`cannot read ${what} ${path}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`);
  }
  try {
    if (fstatSync(fd).isDirectory()) throw new UsageError(`cannot read ${what} ${path}: EISDIR (it is a folder)`);
    const chunks: Buffer[] = [];
    let total = 0;
    const chunk = Buffer.allocUnsafe(1024 * 1024);
    while (true) {
      let n: number;
      try {
        n = readSync(fd, chunk, 0, chunk.length, null);
      } catch (err) {
        throw new UsageError(`cannot read ${what} ${path}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`);
      }
      if (n === 0) break;
      total += n;
      if (total > limit) throw new UsageError(`${what} ${path} is larger than ${mib(limit)}, the most a ${what} file may hold`);
      chunks.push(Buffer.from(chunk.subarray(0, n)));
    }
    return Buffer.concat(chunks, total);
  } finally {
    closeSync(fd);
  }
}
