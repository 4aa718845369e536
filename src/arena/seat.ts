import { DEFAULT_MAX_ANSWER_BYTES, DEFAULT_MAX_STDERR_BYTES, type BotSpec, type OutgoingMessage, type SeatContext, type TranscriptSink } from '../bots/index.js';
import type { MatchEngine } from '../core/engine.js';
import { getDialect, type AnyGame, type Decision, type ViewContext, type WireDialect } from '../core/game.js';

/** What a seat's transport is told about its seat; the game's pairing and exit rules included. */
export function seatContext(
  game: AnyGame,
  seat: { slot: number; players: number; config: Record<string, unknown>; seed: number; name: string; log: TranscriptSink },
  caps: { maxAnswerBytes?: number; maxStderrBytes?: number } = {},
): SeatContext {
  return {
    game,
    ...seat,
    maxAnswerBytes: caps.maxAnswerBytes ?? DEFAULT_MAX_ANSWER_BYTES,
    maxStderrBytes: caps.maxStderrBytes ?? DEFAULT_MAX_STDERR_BYTES,
    strictPairing: game.strictPairing ?? false,
    exitMs: game.timeouts.exitMs ?? 0,
  };
}

/** The wire dialect a seat speaks: its spec's, or the game's default for seats whose spec names none. */
export function dialectFor(game: AnyGame, spec: BotSpec): WireDialect<unknown, unknown> {
  const named = spec.transport === 'http' || spec.transport === 'stdio' || spec.transport === 'exec' ? spec.dialect : (game.defaultDialect ?? 'json');
  return getDialect(game, named);
}

/**
 * The message for `slot` now: the dialect's bytes for transports that carry text (with the game's stale-
 * answer rule), the message object for in-process seats.
 */
export function messageFor(engine: MatchEngine, slot: number, decision: Decision, view: ViewContext, wants: 'text' | 'value', dialect: WireDialect<unknown, unknown>): OutgoingMessage {
  const game = engine.game;
  const msg: OutgoingMessage = { phase: decision.phase, turn: decision.turn, view: null, text: '', contentType: dialect.contentType };
  if (wants === 'value') {
    msg.view = engine.view(slot, view);
    return msg;
  }
  msg.text = dialect.encode(engine.state, slot, view);
  if (game.skipAnswer) msg.skip = (line) => game.skipAnswer!(line, engine.state, slot, decision.phase);
  return msg;
}
