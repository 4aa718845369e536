/**
 * Reads a server-sent events stream: `onData` gets each event's `data:` line, parsed as JSON, with the time its
 * chunk arrived (`performance.now()`). `connected` resolves once the response's headers are in; `done` once the
 * stream ends or `close()` is called (a failed request or a broken stream rejects it).
 */
export function readSse(url: string, onData: (data: unknown, at: number) => void): { connected: Promise<void>; done: Promise<void>; close(): void } {
  const controller = new AbortController();
  let connected!: () => void;
  const isConnected = new Promise<void>((resolve) => (connected = resolve));
  const done = (async () => {
    const res = await fetch(url, { signal: controller.signal });
    connected();
    const decoder = new TextDecoder();
    let buf = '';
    try {
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
        const at = performance.now();
        buf += decoder.decode(chunk, { stream: true });
        let end: number;
        while ((end = buf.indexOf('\n\n')) >= 0) {
          const data = buf
            .slice(0, end)
            .split('\n')
            .find((line) => line.startsWith('data: '));
          buf = buf.slice(end + 2);
          if (data) onData(JSON.parse(data.slice(6)), at);
        }
      }
    } catch (err) {
      if (!controller.signal.aborted) throw err;
    }
  })();
  return { connected: isConnected, done, close: () => controller.abort() };
}
