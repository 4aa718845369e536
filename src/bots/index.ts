import { UsageError } from '../core/errors.js';
import { BuiltinTransport } from './builtin-transport.js';
import { ExecTransport } from './exec-transport.js';
import { HttpTransport } from './http-transport.js';
import { HumanTransport } from './human-transport.js';
import type { BotSpec } from './spec.js';
import { StdioTransport } from './stdio-transport.js';
import type { BotTransport, SeatContext } from './transport.js';

export * from './spec.js';
export * from './transport.js';
export { TcpTransport } from './tcp-transport.js';

/** Opens the transport a bot spec names (not started yet: call `start()`). */
export function createTransport(spec: BotSpec, ctx: SeatContext): BotTransport {
  switch (spec.transport) {
    case 'builtin':
      return new BuiltinTransport(spec.name, ctx);
    case 'human':
      return new HumanTransport(ctx);
    case 'http':
      return new HttpTransport(spec.url, ctx);
    case 'stdio':
      return new StdioTransport(spec.command, ctx);
    case 'exec':
      return new ExecTransport(spec.command, ctx);
    case 'tcp':
      throw new UsageError('a tcp seat is a bot that connected in: the server or `botarena play` opens it, not createTransport');
  }
}
