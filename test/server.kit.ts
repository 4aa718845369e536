import assert from 'node:assert/strict';

// What the server tests share: a JSON client of the API and a wait for a condition.

/** An API answer: its status and its parsed JSON body (null when empty). */
export interface ApiAnswer {
  status: number;
  body: (Record<string, unknown> & { error?: { message: string } }) | null;
}

/** A JSON client of a server at `base()` (a function, so it follows a server that restarts on a new port). */
export function apiClient(base: () => string) {
  return async (method: string, path: string, body?: unknown, token?: string): Promise<ApiAnswer> => {
    const res = await fetch(base() + path, {
      method,
      headers: { ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, body: text ? (JSON.parse(text) as ApiAnswer['body']) : null };
  };
}

/** Polls `f` every 100 ms until it gives a truthy value; fails the test naming `what` after `ms`. */
export async function until<T>(what: string, f: () => Promise<T | null | undefined | false>, ms = 30_000): Promise<T> {
  const t0 = Date.now();
  for (;;) {
    const v = await f();
    if (v) return v;
    assert.ok(Date.now() - t0 < ms, `timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
