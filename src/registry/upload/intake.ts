// A bot's uploaded code, read as hostile input: a single file, a .tar.gz or a .zip (bytes and the file's name)
// becomes a normalized package (files with their paths and exec bits) and its canonical bytes with their sha256,
// or an UploadError saying what was wrong and what is expected. Archives are read entry by entry, in memory,
// never extracted to disk; every cap (compressed size, expanded size counted while inflating, file count, path
// length and depth) stops the reading as soon as it is passed, so a zip bomb costs bounded memory and time. What a
// package is (its caps, paths and canonical bytes) is in package.ts.
import { createGunzip } from 'node:zlib';
import { Parser, type ReadEntry } from 'tar';
import yauzl from 'yauzl';
import {
  canonicalBytes,
  MiB,
  normalizePath,
  sha256,
  UPLOAD_LIMITS,
  UploadError,
  uploadKind,
  type CodePackage,
  type PackageFile,
  type UploadLimits,
} from './package.js';

export {
  canonicalBytes,
  normalizePath,
  parseCanonical,
  sha256,
  UPLOAD_LIMITS,
  UploadError,
  uploadKind,
  type CodePackage,
  type PackageFile,
  type UploadLimits,
} from './package.js';

/** Collects files while enforcing the caps; refuses duplicates and a file that is also a folder. */
class Collector {
  readonly files = new Map<string, PackageFile>();
  readonly dirs = new Set<string>();
  expanded = 0;
  inflated = 0;

  constructor(
    readonly limits: UploadLimits,
    readonly kind: string,
  ) {}

  fail(message: string): never {
    throw new UploadError(message, this.inflated);
  }

  /** Before reading an entry's data: counts it and its declared size. */
  admit(path: string, declared: number): void {
    if (this.files.size + 1 > this.limits.files)
      this.fail(`the ${this.kind} has more than ${this.limits.files} files; at most ${this.limits.files} (vendor only what the bot needs)`);
    if (this.files.has(path)) this.fail(`the ${this.kind} holds "${path}" twice: every path once`);
    this.grow(declared, path);
  }

  /** Counts expanded bytes; past the cap the reading stops. */
  grow(n: number, path: string): void {
    this.expanded += n;
    if (this.expanded > this.limits.expandedBytes)
      this.fail(
        `the ${this.kind} expands to more than ${MiB(this.limits.expandedBytes)} (at "${path}"); at most ${MiB(this.limits.expandedBytes)} of files once expanded`,
      );
  }

  dir(path: string): void {
    this.dirs.add(path);
  }

  add(path: string, exec: boolean, data: Buffer): void {
    this.files.set(path, { path, exec, data });
  }

  /** The files, sorted, with one common top folder taken off; a path both a file and a folder is refused. */
  finish(): PackageFile[] {
    let files = [...this.files.values()];
    if (!files.length) this.fail(`the ${this.kind} holds no file: it must hold the bot's code`);
    const tops = new Set(files.map((f) => f.path.split('/')[0]));
    if (tops.size === 1 && files.every((f) => f.path.includes('/'))) {
      const top = [...tops][0]!;
      files = files.map((f) => ({ ...f, path: f.path.slice(top.length + 1) }));
    }
    files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    const names = new Set(files.map((f) => f.path));
    for (const f of files) {
      const parts = f.path.split('/');
      for (let i = 1; i < parts.length; i++) {
        const dir = parts.slice(0, i).join('/');
        if (names.has(dir)) this.fail(`the ${this.kind} holds "${dir}" both as a file and as a folder`);
      }
    }
    return files;
  }
}

/** Reads a .tar.gz: gunzipped here (counted, stopped at the cap), entries read one by one by tar's parser. */
function readTarGz(bytes: Buffer, c: Collector): Promise<void> {
  if (bytes[0] !== 0x1f || bytes[1] !== 0x8b)
    return Promise.reject(new UploadError('the file is named .tar.gz but is not gzip data: send a .tar.gz made by tar czf'));
  // The tar stream holds headers besides the files: 512 bytes an entry, a pax header or a long name more.
  const rawCap = c.limits.expandedBytes + (c.limits.files + 16) * 2048;
  return new Promise<void>((resolve, reject) => {
    let failed: Error | null = null;
    const gunzip = createGunzip({ chunkSize: 64 * 1024 });
    const parser = new Parser({ strict: true, maxMetaEntrySize: 64 * 1024 });
    const fail = (err: unknown) => {
      if (failed) return;
      failed =
        err instanceof UploadError
          ? err
          : new UploadError(`the .tar.gz cannot be read (${err instanceof Error ? err.message : String(err)}): send a .tar.gz made by tar czf`, c.inflated);
      gunzip.destroy();
      try {
        parser.abort(failed);
      } catch {
        // aborted already
      }
      reject(failed);
    };
    let first = true;
    gunzip.on('data', (chunk: Buffer) => {
      if (failed) return;
      if (first && chunk[0] === 0x1f && chunk[1] === 0x8b) return fail(new UploadError('the .tar.gz holds gzip data inside gzip data: compress the tar once'));
      first = false;
      c.inflated += chunk.length;
      if (c.inflated > rawCap)
        return fail(
          new UploadError(`the .tar.gz expands to more than ${MiB(rawCap)}; at most ${MiB(c.limits.expandedBytes)} of files once expanded`, c.inflated),
        );
      try {
        parser.write(chunk);
      } catch (err) {
        fail(err);
      }
    });
    gunzip.on('error', (err) => fail(new UploadError(`the .tar.gz's gzip data is broken (${err.message}): send a .tar.gz made by tar czf`, c.inflated)));
    gunzip.on('end', () => {
      if (failed) return;
      try {
        parser.end();
      } catch (err) {
        fail(err);
      }
    });
    parser.on('error', (err: Error) => fail(err));
    parser.on('warn', (_code: string, message: string | Error) => fail(message instanceof Error ? message : new Error(message)));
    parser.on('entry', (e: ReadEntry) => {
      if (failed) return e.resume();
      try {
        // The archive's own root (tar -C DIR . writes "./"): nothing to keep.
        if (e.type === 'Directory' && /^(\.\/)*\.?\/?$/.test(e.path)) return e.resume();
        const path = normalizePath(e.path, c.limits);
        switch (e.type) {
          case 'Directory':
            c.dir(path);
            e.resume();
            return;
          case 'File':
          case 'OldFile':
          case 'ContiguousFile':
            break;
          case 'SymbolicLink':
          case 'Link':
            throw new UploadError(
              `entry "${e.path}" is a ${e.type === 'Link' ? 'hard link' : 'symbolic link'} (to ${JSON.stringify(e.linkpath ?? '')}): a bot's package holds files and folders only; copy the file in instead`,
            );
          case 'CharacterDevice':
          case 'BlockDevice':
          case 'FIFO':
            throw new UploadError(`entry "${e.path}" is a ${e.type === 'FIFO' ? 'fifo' : 'device'}: a bot's package holds files and folders only`);
          default:
            throw new UploadError(`entry "${e.path}" is a ${e.type} entry: a bot's package holds files and folders only`);
        }
        c.admit(path, e.size);
        const parts: Buffer[] = [];
        let got = 0;
        e.on('data', (d: Buffer) => {
          got += d.length;
          if (got > e.size) return fail(new UploadError(`entry "${e.path}" holds more bytes than its header says`, c.inflated));
          parts.push(d);
        });
        e.on('end', () => {
          if (!failed) c.add(path, ((e.mode ?? 0) & 0o111) !== 0, Buffer.concat(parts));
        });
      } catch (err) {
        e.resume();
        fail(err);
      }
    });
    parser.on('end', () => {
      if (!failed) resolve();
    });
    gunzip.end(bytes);
  });
}

const S_IFMT = 0o170000;
const S_IFREG = 0o100000;
const S_IFDIR = 0o040000;
const S_IFLNK = 0o120000;

/** Reads a .zip: the central directory first (the entry count is refused before any entry is read), then entry by entry. */
function readZip(bytes: Buffer, c: Collector): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    // decodeStrings: false: the names come as bytes and are checked here, with this module's messages.
    yauzl.fromBuffer(bytes, { lazyEntries: true, decodeStrings: false, validateEntrySizes: true }, (err, zip) => {
      if (err || !zip) return reject(new UploadError(`the .zip cannot be read (${err?.message ?? 'no zip'}): send a .zip made by zip -r`));
      let failed = false;
      const fail = (e: unknown) => {
        if (failed) return;
        failed = true;
        zip.close();
        reject(
          e instanceof UploadError
            ? e
            : new UploadError(`the .zip cannot be read (${e instanceof Error ? e.message : String(e)}): send a .zip made by zip -r`, c.inflated),
        );
      };
      if (zip.entryCount > c.limits.files + 1000)
        return fail(new UploadError(`the .zip has ${zip.entryCount} entries; at most ${c.limits.files} files (vendor only what the bot needs)`));
      zip.on('error', fail);
      zip.on('end', () => {
        if (!failed) resolve();
      });
      zip.on('entry', (entry: yauzl.Entry) => {
        if (failed) return;
        try {
          const nameBytes = entry.fileName as unknown as Buffer;
          const utf8 = (entry.generalPurposeBitFlag & 0x800) !== 0;
          const raw = nameBytes.toString(utf8 ? 'utf8' : 'latin1');
          const path = normalizePath(raw, c.limits);
          const madeOnUnix = entry.versionMadeBy >> 8 === 3;
          const mode = madeOnUnix ? (entry.externalFileAttributes >>> 16) & 0xffff : 0;
          const type = mode & S_IFMT;
          if (raw.endsWith('/') || type === S_IFDIR) {
            c.dir(path);
            return zip.readEntry();
          }
          if (type === S_IFLNK)
            throw new UploadError(`entry "${raw}" is a symbolic link: a bot's package holds files and folders only; copy the file in instead`);
          if (type !== 0 && type !== S_IFREG)
            throw new UploadError(`entry "${raw}" is not a regular file (a device, a fifo or a socket): a bot's package holds files and folders only`);
          if (entry.isEncrypted()) throw new UploadError(`entry "${raw}" is encrypted: send the files unencrypted`);
          c.admit(path, entry.uncompressedSize);
          zip.openReadStream(entry, (e2, stream) => {
            if (e2 || !stream) return fail(e2);
            const parts: Buffer[] = [];
            let got = 0;
            stream.on('data', (d: Buffer) => {
              if (failed) return;
              got += d.length;
              c.inflated += d.length;
              if (got > entry.uncompressedSize) {
                stream.destroy();
                return fail(new UploadError(`entry "${raw}" expands to more than its declared ${entry.uncompressedSize} bytes`, c.inflated));
              }
              parts.push(d);
            });
            stream.on('error', (e3) =>
              fail(
                /too many bytes/.test(e3.message)
                  ? new UploadError(`entry "${raw}" expands to more than its declared ${entry.uncompressedSize} bytes`, c.inflated)
                  : e3,
              ),
            );
            stream.on('end', () => {
              if (failed) return;
              c.add(path, (mode & 0o111) !== 0, Buffer.concat(parts));
              zip.readEntry();
            });
          });
        } catch (e) {
          fail(e);
        }
      });
      zip.readEntry();
    });
  });
}

/**
 * Reads an upload: `name` is the file's name as sent (its ending says a .tar.gz, a .zip, or a single file,
 * kept under that name), `bytes` its content. Resolves with the package, or rejects with an UploadError.
 */
export async function readUpload(name: string, bytes: Buffer, limits: UploadLimits = UPLOAD_LIMITS): Promise<CodePackage> {
  if (bytes.length > limits.compressedBytes)
    throw new UploadError(
      `the upload is ${MiB(bytes.length)}; at most ${MiB(limits.compressedBytes)} (a single file, a .tar.gz or a .zip of the bot's folder)`,
    );
  const kind = uploadKind(name);
  const c = new Collector(limits, kind === 'file' ? 'file' : `.${kind}`);
  if (kind === 'file') {
    const base = name;
    if (!base || base.startsWith('.') || !/^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(base))
      throw new UploadError(
        `the file name ${JSON.stringify(name)} is not one the bot can be run by: letters, digits, '.', '_' and '-' (e.g. bot.py), or a .tar.gz/.zip of the bot's folder`,
      );
    if (bytes.length > limits.expandedBytes) throw new UploadError(`the file is ${MiB(bytes.length)}; at most ${MiB(limits.expandedBytes)}`);
    c.add(base, false, bytes);
  } else if (kind === 'tar.gz') await readTarGz(bytes, c);
  else {
    if (bytes.length < 22 || (bytes.readUInt32LE(0) !== 0x04034b50 && bytes.readUInt32LE(0) !== 0x06054b50))
      throw new UploadError('the file is named .zip but is not zip data: send a .zip made by zip -r');
    await readZip(bytes, c);
  }
  const files = c.finish();
  const canonical = canonicalBytes(files);
  return { files, bytes: canonical, sha256: sha256(canonical), expandedBytes: files.reduce((n, f) => n + f.data.length, 0) };
}
