import { createTransport, DEFAULT_MAX_ANSWER_BYTES, DEFAULT_MAX_STDERR_BYTES, schemeOf } from '../bots/index.js';
import type {
  AddressPolicy,
  AnswerTiming,
  AskMessage,
  BotEnvOptions,
  SandboxOptions,
  BotSpec,
  BotTransport,
  ByteSeatContext,
  OutgoingMessage,
  Reply,
  SeatContext,
  TranscriptSink,
  TransportCapabilities,
  UploadRunOptions,
} from '../bots/index.js';
import type { MatchEngine } from '../core/engine.js';
import { UsageError } from '../core/errors.js';
import { getDialect, type AnyGame, type LobbyRules, type Decision, type Move, type Phase, type ViewContext, type WireDialect } from '../core/game.js';
import type { MatchTimeouts } from '../core/replay.js';

/** The caps a seat's transport enforces on what a bot sends. */
export interface SeatLimits {
  maxAnswerBytes?: number;
  maxStderrBytes?: number;
  /** confine bot programs (stdio, exec) in bubblewrap with these limits */
  sandbox?: SandboxOptions;
  /** what bot programs' environment holds besides the allow-list, and their HOME (default: the user's) */
  botEnv?: BotEnvOptions;
  /** which addresses HTTP(S) bots may be called at: 'public-only' for an arena open to anyone's URLs; default 'any' */
  addressPolicy?: AddressPolicy;
  /** where uploaded code is and how it runs here (upload: seats); none: no uploaded code runs here */
  uploads?: UploadRunOptions;
  /** stdio bots stopped (SIGSTOP) between their answer and their next message (see `ByteSeatContext.pauseBetweenTurns`) */
  pauseBetweenTurns?: boolean;
}

/**
 * A bot that is already there (it connected in: smart-dog's TCP), handed to the runner beside the job since a
 * socket cannot travel in one. `open` makes the seat's transport from it.
 */
export interface SeatConnection {
  open(ctx: ByteSeatContext): BotTransport;
}

/** How long a stdio bot gets to exit by itself at a match's normal end when its game does not say. */
export const DEFAULT_EXIT_MS = 1000;

/** What a seat's transport is told about its seat; the game's pairing and exit rules included. */
export function seatContext(
  game: AnyGame,
  seat: { slot: number; players: number; config: Record<string, unknown>; seed: number; name: string; log: TranscriptSink },
  caps: SeatLimits = {},
): SeatContext {
  return {
    game,
    ...seat,
    maxAnswerBytes: caps.maxAnswerBytes ?? DEFAULT_MAX_ANSWER_BYTES,
    maxStderrBytes: caps.maxStderrBytes ?? DEFAULT_MAX_STDERR_BYTES,
    strictPairing: game.wire.strictPairing ?? false,
    answerPhase: game.wire.answerPhase ? (line) => game.wire.answerPhase!(line) : undefined,
    exitMs: game.timeouts.exitMs ?? DEFAULT_EXIT_MS,
    greeting: game.wire.lobby ? (line) => isJoin(game.wire.lobby!, line) : undefined,
    sandbox: caps.sandbox,
    pauseBetweenTurns: caps.pauseBetweenTurns,
    env: caps.botEnv,
    addressPolicy: caps.addressPolicy,
    uploads: caps.uploads,
  };
}

/** Whether a line is the lobby's join (which a bot written to connect in sends first). */
function isJoin(lobby: LobbyRules, line: string): boolean {
  const r = lobby.read(line, false);
  return r !== null && 'join' in r;
}

/** The wire dialect a seat speaks: its spec's, or the game's default for seats whose spec names none. */
export function dialectFor(game: AnyGame, spec: BotSpec): WireDialect<unknown, unknown, unknown> {
  const named = 'dialect' in spec && spec.dialect ? spec.dialect : (game.wire.defaultDialect ?? 'json');
  return getDialect(game, named);
}

/**
 * A step's answer deadline. Hellos: the init deadline. Turns: the match's own turn deadline when it chose
 * one, else the step's own (smart-dog's waitForTurn), else the game's. The runner and refeed both use it, so
 * a re-fed bot gets the deadlines it had.
 */
export function deadlineFor(decision: Pick<Decision, 'phase' | 'deadlineMs'>, timeouts: MatchTimeouts): number {
  const ms = decision.phase === 'init' ? timeouts.initMs : timeouts.turnSet ? timeouts.turnMs : (decision.deadlineMs ?? timeouts.turnMs);
  // Jobs and options are checked to an hour; a timer would fire at once past 2³¹−1 ms, so never go there.
  return Math.min(ms, MAX_TIMER_MS);
}

/** The longest delay a Node timer can count (longer ones fire at once). */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** A move as answered, with how long the answer took (and where the time went, when the transport knows: `AnswerTiming`). */
export type TimedMove = Move<unknown> & { ms: number } & AnswerTiming;

/** A reply's timing beside its wall time, rounded to the microsecond (only what the transport told). */
export function answerTiming(reply: AnswerTiming): AnswerTiming {
  const out: AnswerTiming = {};
  if (reply.cpuMs !== undefined) out.cpuMs = round(reply.cpuMs);
  if (reply.connectMs !== undefined) out.connectMs = round(reply.connectMs);
  if (reply.firstByteMs !== undefined) out.firstByteMs = round(reply.firstByteMs);
  if (reply.cpuJudged) out.cpuJudged = true;
  return out;
}

/**
 * One open seat of a match: its transport and how to talk to it. Asking enforces the deadline (with a
 * backstop against a transport that breaks its promise; people have none), reads the answer in the
 * seat's dialect and the phase's rules, and notes slow answers. In-process seats exchange objects, which are
 * written to the seat's log only when `echo` is on (byte transports log what they send and get themselves).
 */
export class OpenSeat {
  readonly capabilities: TransportCapabilities;

  constructor(
    readonly slot: number,
    readonly name: string,
    readonly spec: BotSpec,
    readonly transport: BotTransport,
    readonly dialect: WireDialect<unknown, unknown, unknown>,
    readonly log: TranscriptSink,
    /** true, or a function saying whether the log takes a message now (false once it is full: the message is then not made) */
    private readonly echo: boolean | (() => boolean),
  ) {
    this.capabilities = transport.capabilities;
  }

  /**
   * Opens a seat from its spec, or from its connection for bots that connected in; a connect-in seat without
   * one is a usage error (the bot must connect first).
   */
  static open(game: AnyGame, spec: BotSpec, ctx: SeatContext, opts: { connection?: SeatConnection; echo?: boolean | (() => boolean) } = {}): OpenSeat {
    const caps = schemeOf(spec).capabilities;
    let transport: BotTransport;
    if (opts.connection) transport = opts.connection.open(ctx);
    else if (caps.connectIn)
      throw new UsageError(
        `seat ${ctx.slot} is "${spec.raw}": that bot connects in, so it must connect before the match starts (\`botarena play ${game.id} ${spec.raw} …\` or the server)`,
      );
    else transport = createTransport(spec, ctx);
    return new OpenSeat(ctx.slot, ctx.name, spec, transport, dialectFor(game, spec), ctx.log, opts.echo ?? false);
  }

  /** The message for this seat now: the dialect's bytes (with the game's stale-answer rule), or the message object. */
  message(engine: MatchEngine, decision: Decision, view: ViewContext): AskMessage {
    const { game } = engine;
    const msg: AskMessage = { phase: decision.phase, turn: decision.turn, view: null, text: '', contentType: this.dialect.contentType };
    if (this.capabilities.values) {
      msg.view = engine.view(this.slot, view);
      // The game's own JSON when it has one: Tron's extends the board's text lap by lap, where stringifying the
      // view again made every lap cost the whole board (a 600×600 match of six bots: minutes, not seconds).
      // Only when the log takes it (a message that grows with the match, made for a log that is full, made every
      // Battleship step quadratic), and in the game's own JSON when it has one (Tron's extends the board's text
      // lap by lap, where stringifying the view again cost the whole board every lap).
      if (this.echoing()) this.log('send', game.wire.encodeJson ? game.wire.encodeJson(engine.state, this.slot, view) : JSON.stringify(msg.view));
      return msg;
    }
    msg.text = this.dialect.encode(engine.state, this.slot, view);
    if (game.wire.skipAnswer) msg.skip = (line) => game.wire.skipAnswer!(line, engine.state, this.slot, decision.phase);
    return msg;
  }

  private echoing(): boolean {
    return typeof this.echo === 'function' ? this.echo() : this.echo;
  }

  /** Sends a message and waits for its reply, by the deadline (people: as long as they take). */
  async send(msg: AskMessage, deadlineMs: number, signal?: AbortSignal): Promise<Reply> {
    const asked = this.transport.ask(msg, deadlineMs, signal);
    // The backstop waits as long as the transport may by its own rules (a deadline judged on CPU time has a longer wall cap).
    const reply = this.capabilities.untimed ? await asked.catch(transportBug) : await withBackstop(asked, this.transport.maxWaitMs?.(deadlineMs) ?? deadlineMs);
    const ms = round(reply.ms);
    if (reply.kind === 'value' && this.echoing()) this.log('recv', JSON.stringify(reply.value) ?? 'undefined');
    return { ...reply, ms, ...answerTiming(reply) };
  }

  /** Asks this seat for its move in a step (not a stream step): the answer read and judged, or its fault. */
  async ask(engine: MatchEngine, decision: Decision, view: ViewContext, deadlineMs: number, signal?: AbortSignal): Promise<TimedMove> {
    const { slot } = this;
    const { phase } = decision;
    const msg = this.message(engine, decision, view);
    if (this.capabilities.values) {
      msg.validate = (answer) => engine.read(slot, phase, answer).fault?.detail ?? null;
    }
    const reply = await this.send(msg, deadlineMs, signal);
    const timing = answerTiming(reply);
    if (reply.kind === 'fault') return { slot, fault: reply.fault, ms: reply.ms, ...timing };
    const slowMs = engine.game.timeouts.slowMs;
    if (slowMs !== undefined && reply.ms > slowMs && phase !== 'init') {
      this.log('note', `slow answer: ${reply.ms.toFixed(0)} ms (the game asks for ${slowMs} ms; accepted within the ${deadlineMs} ms deadline)`);
    }
    const parsed = reply.kind === 'text' ? engine.decode(slot, phase, this.dialect, reply.text) : engine.parse(slot, phase, reply.value);
    return { ...engine.judge(slot, phase, parsed), ms: reply.ms, ...timing };
  }

  /** Sends a message that expects no answer: a text line as it is, anything else as JSON. */
  async tell(notice: unknown, phase: Phase, turn: number, deadlineMs: number): Promise<void> {
    const text = typeof notice === 'string' ? notice : JSON.stringify(notice);
    if (this.capabilities.values && this.echoing()) this.log('send', text);
    const msg: OutgoingMessage = { phase, turn, view: notice, text, contentType: 'application/json' };
    await this.transport.tell(msg, deadlineMs).catch(() => {});
  }

  /** Shuts the bot down (`graceful` at a normal end: see `BotTransport.close`); never throws. */
  async close(graceful = false): Promise<void> {
    await this.transport.close(graceful).catch(() => {});
  }
}

/**
 * Guards against a transport that breaks its promise to answer by the deadline: after the deadline and
 * a grace second, the seat gets a timeout anyway and the match goes on.
 */
export async function withBackstop(pending: Promise<Reply>, deadlineMs: number): Promise<Reply> {
  let timer: NodeJS.Timeout | undefined;
  const backstop = new Promise<Reply>((resolve) => {
    timer = setTimeout(
      () => resolve({ kind: 'fault', fault: { kind: 'timeout', detail: `no answer within ${deadlineMs} ms` }, ms: deadlineMs }),
      deadlineMs + 1000,
    );
  });
  try {
    return await Promise.race([pending.catch(transportBug), backstop]);
  } finally {
    clearTimeout(timer);
  }
}

function transportBug(err: unknown): Reply {
  return { kind: 'fault', fault: { kind: 'transport', detail: `transport error: ${err instanceof Error ? err.message : String(err)}` }, ms: 0 };
}

/** Milliseconds kept to the microsecond. */
export function round(ms: number): number {
  return Math.round(ms * 1000) / 1000;
}
