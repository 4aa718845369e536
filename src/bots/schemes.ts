import { UsageError } from '../core/errors.js';
import type { AnyGame } from '../core/game.js';
import { BuiltinTransport } from './builtin-transport.js';
import { ExecTransport } from './exec-transport.js';
import { HttpTransport } from './http-transport.js';
import { HumanTransport } from './human-transport.js';
import { BrowserTransport } from './browser-transport.js';
import {
  BOT_SPEC_HELP,
  browserForm,
  builtinForm,
  connectForm,
  execForm,
  httpForm,
  humanForm,
  stdioForm,
  tcpForm,
  uploadForm,
  type BotSpec,
  type SpecForm,
  type TransportName,
} from './spec.js';

export { BOT_SPEC_HELP } from './spec.js';
import { StdioTransport } from './stdio-transport.js';
import { TcpTransport } from './tcp-transport.js';
import { UploadTransport } from './upload-transport.js';
import { LinkTransport } from './link-transport.js';
import type { BotTransport, SeatContext, TransportCapabilities } from './transport.js';

/** One kind of transport: how its spec is read, how a seat of it is opened, and what it can do. */
export interface TransportScheme<S extends BotSpec = BotSpec> extends SpecForm<S> {
  name: S['transport'];
  capabilities: TransportCapabilities;
  /** opens a seat from its spec (not started yet); connect-in kinds are opened from their connection instead */
  create(spec: S, ctx: SeatContext): BotTransport;
  /** its seats are opened only from a connection handed to the runner (tcp, browser): a stored job alone cannot play again */
  fromConnection?: boolean;
  /** its seats run a program on this machine (stdio, exec): a server, a worker or a replay file's seats run it only when allowed */
  runsCommand?: boolean;
  /** its seats run uploaded code (always sandboxed, from the cache): only where uploads are enabled, never typed by a person */
  runsUpload?: boolean;
}

const scheme = <S extends BotSpec>(
  name: S['transport'],
  form: SpecForm<S>,
  capabilities: TransportCapabilities,
  create: (spec: S, ctx: SeatContext) => BotTransport,
  fromConnection = capabilities.connectIn ?? false,
): TransportScheme<S> => ({
  name,
  ...form,
  capabilities,
  create,
  fromConnection,
});

/**
 * Every kind of transport, in the order a spec is tried against them (a bare word is a built-in bot, so
 * that comes last). A new transport adds its file and one entry here.
 */
export const SCHEMES: readonly TransportScheme[] = [
  scheme('human', humanForm, HumanTransport.capabilities, (_spec, ctx) => new HumanTransport(ctx)),
  scheme('tcp', tcpForm, TcpTransport.capabilities, () => {
    throw new UsageError(
      'a tcp seat is a bot that connected in: it is opened from its connection (`botarena play GAME tcp …` or the server), not from its spec',
    );
  }),
  scheme(
    'browser',
    browserForm,
    BrowserTransport.capabilities,
    () => {
      throw new UsageError(
        'a browser seat is a person at a web page of `botarena serve` (seat "person" of a test match): it cannot be played here; at the terminal, play as `human`',
      );
    },
    true,
  ),
  scheme('connect', connectForm, LinkTransport.capabilities, () => {
    throw new UsageError(
      'a connect: seat is a bot its author links to a server with `botarena connect`: it is played by that server only; here, give the bot itself (stdio:, http://, a built-in)',
    );
  }),
  scheme('http', httpForm, HttpTransport.capabilities, (spec, ctx) => new HttpTransport(spec.url, ctx)),
  { ...scheme('exec', execForm, ExecTransport.capabilities, (spec, ctx) => new ExecTransport(spec.command, ctx)), runsCommand: true },
  { ...scheme('stdio', stdioForm, StdioTransport.capabilities, (spec, ctx) => new StdioTransport(spec.command, ctx)), runsCommand: true },
  { ...scheme('upload', uploadForm, UploadTransport.capabilities, (spec, ctx) => new UploadTransport(spec, ctx)), runsUpload: true },
  scheme('builtin', builtinForm, BuiltinTransport.capabilities, (spec, ctx) => new BuiltinTransport(spec.name, ctx)),
] as TransportScheme[];

/** The table entry of a kind of transport. */
export function schemeOf(spec: BotSpec | TransportName): TransportScheme {
  const name = typeof spec === 'string' ? spec : spec.transport;
  return SCHEMES.find((s) => s.name === name)!;
}

/**
 * Reads a bot spec from the command line. A bare word is a built-in bot of `game`.
 * Errors say what was wrong and show the accepted forms.
 */
export function parseBotSpec(raw: string, game: AnyGame): BotSpec {
  const s = raw.trim();
  for (const kind of SCHEMES) {
    const spec = kind.parse(s, raw, game);
    if (spec) return spec;
  }
  throw new UsageError(
    `cannot read bot spec ${JSON.stringify(raw)}${/\s|\.|\//.test(s) ? ` (to run a program, write stdio:${s} or exec:${s})` : ''}\n${BOT_SPEC_HELP}`,
  );
}

/** A default display name for a seat from its spec (the built-in bot's name, the program's file name, the host). */
export function defaultBotName(spec: BotSpec): string {
  return schemeOf(spec).defaultName(spec as never);
}

/** Whether a seat of this spec runs a program on this machine (stdio:, exec:, file://). */
export function runsCommand(spec: BotSpec): boolean {
  return schemeOf(spec).runsCommand === true;
}

/** Whether a seat of this spec runs uploaded code (upload:…). */
export function runsUpload(spec: BotSpec): boolean {
  return schemeOf(spec).runsUpload === true;
}

/** What a seat of this spec can do, before it is opened. */
export function capabilitiesOf(spec: BotSpec): TransportCapabilities {
  return schemeOf(spec).capabilities;
}

/** Opens the transport a bot spec names (not started yet: call `start()`). */
export function createTransport(spec: BotSpec, ctx: SeatContext): BotTransport {
  return schemeOf(spec).create(spec as never, ctx);
}
