// A bot's code as a package: the caps on one upload, a package's files and the paths they may have, the error an
// upload is refused with, and the canonical bytes whose sha256 names a version (the store keeps them; a cache
// unpacks them). intake.ts reads uploads into packages.
import { createHash } from 'node:crypto';

/** The caps on one upload. */
export interface UploadLimits {
  /** the upload's own size (the file or the archive as sent), bytes */
  compressedBytes: number;
  /** the files' contents together once expanded, bytes */
  expandedBytes: number;
  /** files in the package */
  files: number;
  /** a path's length, characters */
  pathLength: number;
  /** a path's depth, folders */
  pathDepth: number;
}

/** The caps when the operator sets none. */
export const UPLOAD_LIMITS: UploadLimits = {
  compressedBytes: 10 * 1024 * 1024,
  expandedBytes: 50 * 1024 * 1024,
  files: 5000,
  pathLength: 240,
  pathDepth: 16,
};

/** One file of a package. */
export interface PackageFile {
  /** relative, '/'-separated, normalized (no '.', '..' or empty parts) */
  path: string;
  /** whether it is executable (any x bit in the archive) */
  exec: boolean;
  data: Buffer;
}

/** A package: its files sorted by path, and its canonical bytes with their sha256. */
export interface CodePackage {
  files: PackageFile[];
  /** the canonical form (see canonicalBytes): what the store keeps and the sha256 is of */
  bytes: Buffer;
  sha256: string;
  /** the files' contents together, bytes */
  expandedBytes: number;
}

/** An upload refused: the message says what was wrong and what is expected. `inflated`: bytes decompressed before it stopped. */
export class UploadError extends Error {
  override name = 'UploadError';
  constructor(
    message: string,
    readonly inflated = 0,
  ) {
    super(message);
  }
}

export const MiB = (n: number) => `${Math.round((n / 1024 / 1024) * 10) / 10} MiB`;

/** What kind of upload a file name says it is. */
export function uploadKind(name: string): 'tar.gz' | 'zip' | 'file' {
  const n = name.toLowerCase();
  if (n.endsWith('.tar.gz') || n.endsWith('.tgz')) return 'tar.gz';
  if (n.endsWith('.zip')) return 'zip';
  return 'file';
}

/** A path as a package keeps it, or an UploadError naming the entry and what a path must be. */
export function normalizePath(raw: string, limits: UploadLimits, what = 'entry'): string {
  const shown = JSON.stringify(raw.length > 120 ? `${raw.slice(0, 120)}…` : raw);
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f\\]/.test(raw)) throw new UploadError(`${what} ${shown}: a path has no control characters or backslashes; use '/' between folders`);
  if (raw.startsWith('/')) throw new UploadError(`${what} ${shown} is an absolute path: every path must be relative, inside the bot's folder`);
  const parts = raw.split('/').filter((p) => p !== '' && p !== '.');
  if (parts.includes('..')) throw new UploadError(`${what} ${shown} goes up a folder (..): every path must stay inside the bot's folder`);
  if (!parts.length) throw new UploadError(`${what} ${shown} names no file`);
  const path = parts.join('/');
  if (path.length > limits.pathLength) throw new UploadError(`${what} ${shown}: the path is ${path.length} characters long; at most ${limits.pathLength}`);
  if (parts.length > limits.pathDepth) throw new UploadError(`${what} ${shown}: the path is ${parts.length} folders deep; at most ${limits.pathDepth}`);
  return path;
}

const MAGIC = 'botarena-code 1\n';

/**
 * The canonical bytes of a package: a header line, then for each file (sorted by path) a line
 * `x|- SIZE PATH` followed by its bytes and a newline. The same files give the same bytes, whatever the
 * archive's order, times, owners or compression: its sha256 names the version.
 */
export function canonicalBytes(files: readonly PackageFile[]): Buffer {
  const parts: Buffer[] = [Buffer.from(MAGIC)];
  for (const f of files) {
    parts.push(Buffer.from(`${f.exec ? 'x' : '-'} ${f.data.length} ${f.path}\n`), f.data, Buffer.from('\n'));
  }
  return Buffer.concat(parts);
}

/** The sha256 of bytes, in hex. */
export const sha256 = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex');

/** Reads canonical bytes back into files (the cache unpacks what the store keeps); checked like an upload. */
export function parseCanonical(bytes: Buffer, limits: UploadLimits = UPLOAD_LIMITS): PackageFile[] {
  if (!bytes.subarray(0, MAGIC.length).equals(Buffer.from(MAGIC)))
    throw new UploadError('not a botarena code package (its first line is not "botarena-code 1")');
  const files: PackageFile[] = [];
  let at = MAGIC.length;
  let total = 0;
  while (at < bytes.length) {
    const nl = bytes.indexOf(0x0a, at);
    if (nl < 0) throw new UploadError('a code package ends inside a file line');
    const m = /^([x-]) (\d+) (.+)$/.exec(bytes.subarray(at, nl).toString('utf8'));
    if (!m) throw new UploadError('a code package has a broken file line');
    const size = Number(m[2]);
    const path = normalizePath(m[3]!, limits);
    total += size;
    if (files.length >= limits.files || total > limits.expandedBytes) throw new UploadError('a code package is over the caps');
    const start = nl + 1;
    if (start + size + 1 > bytes.length || bytes[start + size] !== 0x0a) throw new UploadError(`a code package's file ${path} is cut short`);
    files.push({ path, exec: m[1] === 'x', data: bytes.subarray(start, start + size) });
    at = start + size + 1;
  }
  return files;
}
