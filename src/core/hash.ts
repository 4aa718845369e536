/** A short, stable fingerprint of a JSON-serialisable value (FNV-1a, 32 bits, hex): used to check replays frame by frame. */
export function fingerprint(value: unknown): string {
  return fnv(JSON.stringify(value));
}

/**
 * The fingerprint of a step chained on the one before (as a number; `hex` writes it): FNV-1a, started from
 * the previous fingerprint, over what the step changed, item by item: a 32-bit integer as its four bytes,
 * an array as its length then its items (so a board of numbers costs no JSON), anything else as its JSON
 * text. Equal chains mean every step changed the same things from the same start.
 */
export function chainFingerprint(previous: number, changes: readonly unknown[]): number {
  return mix(previous >>> 0, changes) >>> 0;
}

function mixInt(h: number, n: number): number {
  h = Math.imul(h ^ (n & 0xff), 0x01000193);
  h = Math.imul(h ^ ((n >>> 8) & 0xff), 0x01000193);
  h = Math.imul(h ^ ((n >>> 16) & 0xff), 0x01000193);
  return Math.imul(h ^ (n >>> 24), 0x01000193);
}

function mix(h: number, items: readonly unknown[]): number {
  for (const item of items) {
    if (typeof item === 'number' && (item | 0) === item) {
      h = mixInt(h, item);
    } else if (Array.isArray(item)) {
      h = mix(mixInt(h, item.length), item);
    } else {
      const text = JSON.stringify(item) ?? 'undefined';
      for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
    }
  }
  return h;
}

const BYTE_HEX = Array.from({ length: 256 }, (_, b) => b.toString(16).padStart(2, '0'));

/** A 32-bit fingerprint as the 8 hex digits replays keep. */
export function hex(h: number): string {
  return BYTE_HEX[h >>> 24]! + BYTE_HEX[(h >>> 16) & 0xff]! + BYTE_HEX[(h >>> 8) & 0xff]! + BYTE_HEX[h & 0xff]!;
}

function fnv(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0).toString(16).padStart(8, '0');
}
