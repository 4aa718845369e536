import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { BotSpec } from './spec.js';
import { StdioTransport } from './stdio-transport.js';
import type { AskMessage, BotTransport, ByteSeatContext, OutgoingMessage, Reply, TransportCapabilities } from './transport.js';

type UploadSpec = Extract<BotSpec, { transport: 'upload' }>;

/**
 * A seat of uploaded code: a stdio bot run from its version's folder in the cache, ALWAYS in the sandbox (no
 * network, only the system and its own folder visible, read-only, a private /tmp with a cap, the per-bot limits),
 * whatever this process does with commands: uploads are not commands the operator trusts. The version is placed
 * in the cache before the match (the application layer fetches it from the store); a seat whose version or
 * language is not here faults at its first message, saying why.
 */
export class UploadTransport implements BotTransport {
  static readonly capabilities: TransportCapabilities = {};
  readonly capabilities = UploadTransport.capabilities;
  private readonly inner: StdioTransport | null = null;
  /** why this seat cannot run here, or null */
  readonly problem: string | null = null;

  constructor(
    spec: UploadSpec,
    private readonly ctx: ByteSeatContext,
  ) {
    const u = ctx.uploads;
    const command = u && Object.hasOwn(u.commands, spec.language) ? u.commands[spec.language]! : null;
    const dir = u ? join(u.cache, spec.sha256) : '';
    if (!u) this.problem = 'this process runs no uploaded code (its operator starts it with --uploads LANGUAGES)';
    else if (command === null) this.problem = `this process does not run ${spec.language} (its languages: ${Object.keys(u.commands).join(', ') || 'none'})`;
    else if (!existsSync(dir))
      this.problem = `version ${spec.sha256.slice(0, 12)}… is not in this process's cache (${u.cache}): it is placed before its match plays`;
    else {
      const line = spec.run ?? command.replaceAll('{entry}', spec.entry!);
      this.inner = new StdioTransport(line, { ...ctx, sandbox: { ...(u.sandbox ?? {}), cwd: dir, folder: 'workdir', binds: [], hide: [] } });
    }
  }

  async start(): Promise<void> {
    if (this.inner) return this.inner.start();
    this.ctx.log('note', `cannot run this upload here: ${this.problem}`);
  }

  ask(msg: AskMessage, timeoutMs: number, signal?: AbortSignal): Promise<Reply> {
    if (this.inner) return this.inner.ask(msg, timeoutMs, signal);
    return Promise.resolve({ kind: 'fault', fault: { kind: 'crash', detail: `the upload cannot run here: ${this.problem}` }, ms: 0 });
  }

  maxWaitMs(timeoutMs: number): number {
    return this.inner ? this.inner.maxWaitMs(timeoutMs) : timeoutMs;
  }

  tell(msg: OutgoingMessage, timeoutMs: number): Promise<void> {
    return this.inner ? this.inner.tell(msg, timeoutMs) : Promise.resolve();
  }

  close(graceful?: boolean): Promise<void> {
    return this.inner ? this.inner.close(graceful) : Promise.resolve();
  }
}
