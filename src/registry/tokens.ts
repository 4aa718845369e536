import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

// Owner tokens: shown once when a bot is registered, kept only as a salted scrypt hash (node's own, from
// OpenSSL: a maintained implementation, no extra package). `scrypt$N$r$p$salt$hash`, base64url.

const PARAMS = { N: 16384, r: 8, p: 1 } as const;
const KEY_BYTES = 32;

function derive(token: string, salt: Buffer, params: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scrypt(token, salt, KEY_BYTES, { ...params, maxmem: 64 * 1024 * 1024 }, (err, key) => (err ? reject(err) : resolve(key))),
  );
}

/** A new owner token: 32 random bytes, base64url, with a prefix that says what it is. */
export function newToken(): string {
  return `bat_${randomBytes(32).toString('base64url')}`;
}

/** The hash kept for a token. */
export async function hashToken(token: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(token, salt, PARAMS);
  return `scrypt$${PARAMS.N}$${PARAMS.r}$${PARAMS.p}$${salt.toString('base64url')}$${key.toString('base64url')}`;
}

/** Whether `token` is the one `stored` was made from (constant time; false for anything malformed). */
export async function verifyToken(token: string, stored: string | null | undefined): Promise<boolean> {
  if (!stored || typeof token !== 'string' || token.length > 512) return false;
  const parts = stored.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return false;
  const [N, r, p] = parts.slice(1, 4).map(Number) as [number, number, number];
  if (![N, r, p].every(Number.isSafeInteger) || N > 1 << 20 || r > 32 || p > 16) return false;
  const salt = Buffer.from(parts[4]!, 'base64url');
  const want = Buffer.from(parts[5]!, 'base64url');
  if (want.length !== KEY_BYTES) return false;
  const got = await derive(token, salt, { N, r, p });
  return timingSafeEqual(got, want);
}

/** Whether `given` equals the admin token (constant time in the token's length; never true when none is set). */
export function isAdminToken(given: string | undefined, admin: string | undefined): boolean {
  if (!admin || !given) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(admin);
  return a.length === b.length && timingSafeEqual(a, b);
}
