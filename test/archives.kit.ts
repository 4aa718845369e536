// Archives built byte by byte for the upload tests: a tar (entries of any type, through tar's Header) and a zip
// (stored or deflated entries, any mode, sizes that may lie), so that hostile ones are made exactly as described.
import { deflateRawSync, gzipSync } from 'node:zlib';
import { Header } from 'tar';

/** One tar entry: a file (data), or another type (a link, a device). */
export interface TarEntry {
  path: string;
  type?: 'File' | 'Directory' | 'SymbolicLink' | 'Link' | 'CharacterDevice' | 'BlockDevice' | 'FIFO';
  data?: Buffer | string;
  mode?: number;
  linkpath?: string;
}

/** The bytes of an uncompressed tar. */
export function tarBytes(entries: readonly TarEntry[]): Buffer {
  const parts: Buffer[] = [];
  for (const e of entries) {
    const data = e.data === undefined ? Buffer.alloc(0) : Buffer.from(e.data);
    const type = e.type ?? 'File';
    const h = new Header({
      path: e.path,
      type,
      size: type === 'File' ? data.length : 0,
      mode: e.mode ?? (type === 'Directory' ? 0o755 : 0o644),
      mtime: new Date(0),
      uid: 0,
      gid: 0,
      linkpath: e.linkpath,
      devmaj: 0,
      devmin: 0,
    });
    const block = Buffer.alloc(512);
    h.encode(block, 0);
    parts.push(block);
    if (type === 'File' && data.length) {
      parts.push(data, Buffer.alloc((512 - (data.length % 512)) % 512));
    }
  }
  parts.push(Buffer.alloc(1024));
  return Buffer.concat(parts);
}

/** The bytes of a .tar.gz. */
export const tarGz = (entries: readonly TarEntry[]): Buffer => gzipSync(tarBytes(entries));

/** One zip entry: data stored or deflated; `mode` a unix mode (type bits too); `declared` a size to claim instead of the real one. */
export interface ZipEntry {
  name: string;
  data?: Buffer | string;
  /** deflate the data (default: store it) */
  deflate?: boolean;
  /** the already-compressed data to put (with `declared` and `deflate`): a bomb made without holding it */
  raw?: Buffer;
  mode?: number;
  declared?: number;
  crc?: number;
}

function crc32(buf: Buffer): number {
  let c = ~0;
  for (const b of buf) {
    c ^= b;
    for (let k = 0; k < 8; k++) c = c & 1 ? (c >>> 1) ^ 0xedb88320 : c >>> 1;
  }
  return ~c >>> 0;
}

/** The bytes of a zip whose entries are as given. */
export function zipBytes(entries: readonly ZipEntry[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const e of entries) {
    const data = e.data === undefined ? Buffer.alloc(0) : Buffer.from(e.data);
    const body = e.raw ?? (e.deflate ? deflateRawSync(data) : data);
    const name = Buffer.from(e.name);
    const size = e.declared ?? data.length;
    const crc = e.crc ?? crc32(data);
    const method = e.deflate || e.raw ? 8 : 0;
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0x800, 6);
    local.writeUInt16LE(method, 8);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(body.length, 18);
    local.writeUInt32LE(size, 22);
    local.writeUInt16LE(name.length, 26);
    locals.push(local, name, body);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE((3 << 8) | 20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0x800, 8);
    central.writeUInt16LE(method, 10);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(body.length, 20);
    central.writeUInt32LE(size, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(((e.mode ?? (e.name.endsWith('/') ? 0o040755 : 0o100644)) << 16) >>> 0, 38);
    central.writeUInt32LE(offset, 42);
    centrals.push(central, name);
    offset += 30 + name.length + body.length;
  }
  const cd = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(Math.min(entries.length, 0xffff), 8);
  end.writeUInt16LE(Math.min(entries.length, 0xffff), 10);
  end.writeUInt32LE(cd.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, cd, end]);
}
