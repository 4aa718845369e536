import type { AnyGame, AskPhase, Fault, Phase } from '../core/game.js';
import type { AddressPolicy } from './address-policy.js';
import type { BotEnvOptions } from './bot-env.js';
import type { SandboxOptions } from './sandbox.js';

/** One message for a bot: the typed message object, and its encoded form for transports that carry bytes. */
export interface OutgoingMessage {
  phase: Phase;
  turn: number;
  /** the message object (what `game.view` returned); filled for 'value' transports (in-process, human) */
  view: unknown;
  /** the encoded message (the wire dialect's bytes); filled for 'text' transports (http, stdio, exec) */
  text: string;
  /** the dialect's content type, for HTTP */
  contentType: string;
  /** for interactive seats: why an answer would not be accepted here (null when it would), so a person can retry */
  validate?: (answer: unknown) => string | null;
  /** for line transports: why a line is not the answer to this message (a stale nonce), or null when it is */
  skip?: (line: string) => string | null;
  /**
   * a stream step: every line the bot sends goes here as it arrives, until this returns true (the seat's
   * turn is over); the reply is then an empty text. Lines are never taken as the answer themselves.
   */
  converse?: (line: string) => boolean;
}

/** A message that asks for an answer: sent in a phase where seats answer. */
export type AskMessage = OutgoingMessage & { phase: AskPhase };

/**
 * Where the time of one answer went, beside `ms` (the wall time the arena waited), as far as the transport knows:
 * for bot programs (stdio, exec) the CPU time their processes spent on it; for HTTP bots the time spent connecting
 * (0 on a kept-alive connection) and the time until the response's first byte (the rest of `ms` is its body).
 */
export interface AnswerTiming {
  /** CPU time (user and system) of the bot's processes from the message to the answer, ms */
  cpuMs?: number;
  /** HTTP: time spent opening the connection for this message, ms (0: a kept-alive one was used) */
  connectMs?: number;
  /** HTTP: time from sending the message to the response's first byte (its headers), ms; connecting included */
  firstByteMs?: number;
  /** its deadline was judged on its CPU time (`--sandbox-deadline cpu`): a time bank then draws on `cpuMs` too */
  cpuJudged?: true;
}

/** What came back from one ask. Transports never throw for a bot's misbehaviour: they return a fault. */
export type Reply = ({ kind: 'text'; text: string; ms: number } | { kind: 'value'; value: unknown; ms: number } | { kind: 'fault'; fault: Fault; ms: number }) &
  AnswerTiming;

/** Where a transport writes what it sent, received and saw, for `--log` and replay transcripts. */
export type TranscriptSink = (dir: 'send' | 'recv' | 'stderr' | 'note', text: string) => void;

/** What a transport that carries bytes knows of its seat: who it is and its limits, never the game. */
export interface ByteSeatContext {
  slot: number;
  /** the seat's display name */
  name: string;
  log: TranscriptSink;
  /** the largest answer accepted, in bytes (default 1 MiB) */
  maxAnswerBytes: number;
  /** stderr kept per bot, in bytes (the rest is counted and dropped) */
  maxStderrBytes: number;
  /** line transports: every asking message gets exactly one line, so a late line is dropped (the game's `strictPairing`) */
  strictPairing?: boolean;
  /** with strict pairing: which phase's answer a line is by its shape, when the game can tell (the game's `answerPhase`) */
  answerPhase?: (line: string) => AskPhase | null;
  /** at a graceful end, how long a process may take to exit by itself once its stdin is closed (the game's `timeouts.exitMs`) */
  exitMs?: number;
  /**
   * a line a bot may send as its very first one, which the seat then ignores (noted in the log): the join of
   * a bot written to connect in (smart-dog's TCP) that is run over stdio instead. Only stdio uses it.
   */
  greeting?: (line: string) => boolean;
  /** run bot programs (stdio, exec) confined (see `SandboxOptions`); none: as the user, unconfined */
  sandbox?: SandboxOptions;
  /** what the environment of bot programs (stdio, exec) holds besides the allow-list, and their HOME (see `BotEnvOptions`) */
  env?: BotEnvOptions;
  /** which addresses HTTP(S) bots may be called at (see `AddressPolicy`); default 'any'. Other transports ignore it. */
  addressPolicy?: AddressPolicy;
  /** where uploaded code is and how it runs here (see `UploadRunOptions`); none: this process runs no uploaded code */
  uploads?: UploadRunOptions;
  /**
   * stdio bots: stopped (SIGSTOP) once they answered and let run again (SIGCONT) just before their next message,
   * so they cannot compute while the others play (as the AI Challenge's arena did); default off
   */
  pauseBetweenTurns?: boolean;
}

/** How this process runs uploaded code (`upload:` seats): always in the sandbox, whatever it does with commands. */
export interface UploadRunOptions {
  /** the cache: CACHE/SHA256/ is a version's folder, unpacked (by the application layer) before its match plays */
  cache: string;
  /** the command of each language this process runs, `{entry}` for the entry file (run in the version's folder) */
  commands: Record<string, string>;
  /** the sandbox's limits for uploaded bots (its folder and working folder are the version's; nothing else bound) */
  sandbox?: SandboxOptions;
}

/** What an in-process seat (a built-in bot, a person) knows besides: the game, to run its bot or show its board. */
export interface SeatContext extends ByteSeatContext {
  game: AnyGame;
  players: number;
  config: Record<string, unknown>;
  seed: number;
}

/** What a kind of transport can do, which the runner asks instead of checking the kind. */
export interface TransportCapabilities {
  /** it exchanges message objects (`msg.view` in, a value out), not bytes */
  values?: boolean;
  /** a person answers: no deadline is enforced */
  untimed?: boolean;
  /** in a stream step, its lines carry a real arrival time and are applied as they come (tcp) */
  arrivalOrder?: boolean;
  /** the bot connects in: the seat is opened from a connection handed to the runner, never by the spec alone */
  connectIn?: boolean;
  /** its spec may name a wire dialect (`http+form://`, `stdio+DIALECT:`) */
  dialects?: boolean;
}

/**
 * One bot seat's connection. `ask` resolves by its deadline whatever the bot does (a late bot gets a
 * timeout fault); `close` releases everything (processes killed as a group, sockets closed) and is idempotent.
 */
export interface BotTransport {
  /** what it can do: a `values` transport reads `msg.view` and replies a value; the others read `msg.text` and reply text */
  readonly capabilities: TransportCapabilities;
  /** prepares the seat (spawns, opens the pool); failures surface as faults on the first ask, never as throws */
  start(): Promise<void>;
  ask(msg: AskMessage, timeoutMs: number, signal?: AbortSignal): Promise<Reply>;
  /**
   * the longest an ask with this deadline may wait by the transport's own rules, when longer than the deadline
   * (a deadline judged on CPU time waits up to its wall-time cap); absent: the deadline itself
   */
  maxWaitMs?(timeoutMs: number): number;
  /**
   * sends a message that expects no answer (lighthouses' result after each command); resolves once it is
   * handed over (HTTP: once the bot's response, which is ignored, arrived or `timeoutMs` passed). Never throws.
   */
  tell(msg: OutgoingMessage, timeoutMs: number): Promise<void>;
  /**
   * releases the seat. `graceful` (a match that ended normally): a process gets its input closed and the
   * seat's `exitMs` to exit by itself before it is signalled, so it can read its last message and end as
   * over TCP; otherwise (a cancelled or failed match) it is signalled at once.
   */
  close(graceful?: boolean): Promise<void>;
}

/** Defaults for answer and stderr caps. */
export const DEFAULT_MAX_ANSWER_BYTES = 1024 * 1024;
export const DEFAULT_MAX_STDERR_BYTES = 64 * 1024;
