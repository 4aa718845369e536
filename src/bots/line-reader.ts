/**
 * Splits a byte stream into lines without ever holding more than `maxBytes` of one line: a longer
 * line is reported once through `onOverflow` and the stream is considered broken.
 */
export class LineReader {
  private parts: Buffer[] = [];
  private partBytes = 0;
  overflowed = false;

  constructor(
    private readonly maxBytes: number,
    private readonly onLine: (line: string) => void,
    private readonly onOverflow: (bytes: number) => void,
  ) {}

  /** Feeds a chunk; calls `onLine` for each complete line (without its \n or \r\n). */
  push(chunk: Buffer): void {
    if (this.overflowed) return;
    let start = 0;
    for (let nl = chunk.indexOf(10, start); nl !== -1; nl = chunk.indexOf(10, start)) {
      const piece = chunk.subarray(start, nl);
      if (this.partBytes + piece.length > this.maxBytes) return this.overflow(this.partBytes + piece.length);
      const line = (this.parts.length ? Buffer.concat([...this.parts, piece]) : piece).toString('utf8');
      this.parts = [];
      this.partBytes = 0;
      start = nl + 1;
      this.onLine(line.endsWith('\r') ? line.slice(0, -1) : line);
      if (this.overflowed) return;
    }
    const rest = chunk.subarray(start);
    if (this.partBytes + rest.length > this.maxBytes) return this.overflow(this.partBytes + rest.length);
    if (rest.length) {
      this.parts.push(rest);
      this.partBytes += rest.length;
    }
  }

  /** What is left of an unfinished line (when the stream ends). */
  pending(): string {
    return Buffer.concat(this.parts).toString('utf8');
  }

  private overflow(bytes: number): void {
    this.overflowed = true;
    this.parts = [];
    this.partBytes = 0;
    this.onOverflow(bytes);
  }
}

/** Shortens a message for the log: huge answers are cut to ~4 KiB with their real size noted. */
export function forLog(text: string, max = 4096): string {
  return text.length <= max ? text : `${text.slice(0, max)}… [${text.length} bytes in all]`;
}
