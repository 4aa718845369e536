/**
 * The server's API as the app uses it: JSON in and out, errors as `ApiError` with the server's sentence. The
 * shapes of its requests and answers are the server's own schemas' types: `import type` them from src/api
 * (nothing of the server is bundled).
 */

/** An answer the server refused, with its status and the message it gave. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** Calls the API: `body` is sent as JSON, `token` as a bearer token; resolves with the parsed answer (undefined for 204). */
export async function api<T = unknown>(method: string, path: string, o: { body?: unknown; token?: string } = {}): Promise<T> {
  const headers: Record<string, string> = {};
  if (o.body !== undefined) headers['content-type'] = 'application/json';
  return send<T>(method, path, headers, o.body === undefined ? undefined : JSON.stringify(o.body), o.token);
}

/** Calls the API with a multipart form (a bot's code and its fields): the browser sets the content type and its boundary. */
export function apiForm<T = unknown>(method: string, path: string, form: FormData, token?: string): Promise<T> {
  return send<T>(method, path, {}, form, token);
}

async function send<T>(method: string, path: string, headers: Record<string, string>, body: string | FormData | undefined, token?: string): Promise<T> {
  if (token) headers.authorization = `Bearer ${token}`;
  let res: Response;
  try {
    res = await fetch(path, { method, headers, body });
  } catch (err) {
    throw new ApiError(0, `the server could not be reached (${err instanceof Error ? err.message : String(err)})`);
  }
  if (res.status === 204) return undefined as T;
  const text = await res.text();
  let data: unknown = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    throw new ApiError(res.status, `the server answered ${res.status} with something that is not JSON: ${text.slice(0, 200)}`);
  }
  if (!res.ok) {
    const message = (data as { error?: { message?: string } } | null)?.error?.message ?? `${res.status} ${res.statusText}`;
    throw new ApiError(res.status, message);
  }
  return data as T;
}

/**
 * Listens to a server-sent-events URL: `on(type, data)` for each event (data parsed as JSON); resolves the
 * returned function that closes it. The browser reconnects by itself after a network drop; `onError` hears of it.
 */
export function listen(url: string, types: readonly string[], on: (type: string, data: unknown) => void, onError?: () => void): () => void {
  const source = new EventSource(url);
  for (const type of types) {
    source.addEventListener(type, (e) => {
      try {
        on(type, JSON.parse((e as MessageEvent<string>).data));
      } catch (err) {
        console.error(`bad ${type} event from ${url}`, err);
      }
    });
  }
  if (onError) source.onerror = onError;
  return () => source.close();
}
