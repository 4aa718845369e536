import { MatchEngine } from './engine.js';
import { streamOrder, type AnyGame, type AskPhase } from './game.js';
import { deriveSeed } from './rng.js';

/** The seed a built-in bot gets in a match: the same here and in the runner, so both play the same game. */
export function builtinBotSeed(matchSeed: number, botName: string, slot: number): number {
  return deriveSeed(matchSeed, `builtin:${botName}:${slot}`);
}

/**
 * Plays a whole match between built-in bots straight through the pure engine: no transports, no
 * clock. For tests, benchmarks and strength measurements. A built-in bot's bad answer is recorded as a
 * fault like any other; `onFault` lets a test fail loudly on it instead.
 */
export function playBuiltins(
  game: AnyGame,
  bots: string[],
  seed: number,
  opts: {
    config?: Record<string, unknown>;
    onFault?: (slot: number, detail: string) => void;
    /** sees every seat's message before its bot answers it (tests of what a seat is offered in real positions) */
    watch?: (engine: MatchEngine, slot: number, view: unknown, phase: AskPhase) => void;
  } = {},
): MatchEngine {
  const engine = new MatchEngine(game, { config: opts.config ?? {}, seed, players: bots.length });
  const players = bots.map((name, slot) => {
    const factory = game.bots[name];
    if (!factory) throw new Error(`${game.id} has no built-in bot "${name}"`);
    return factory.create({ slot, players: bots.length, config: engine.config, seed: builtinBotSeed(seed, name, slot) });
  });
  const matchId = String(seed);
  for (let d = engine.decision(); d; d = engine.decision()) {
    const decision = d;
    if (decision.stream) {
      // As the runner does for seats without an arrival time: one seat's lines after another, the seat
      // order rotated by the turn, every view taken before any line is applied.
      const order = streamOrder(decision);
      const lines = new Map(
        decision.seats.map((slot) => [
          slot,
          players[slot]!.act(engine.view(slot, { phase: decision.phase, matchId, names: bots }), decision.phase) as string[],
        ]),
      );
      let n = 0;
      const numbered = new Map(order.map((slot) => [slot, lines.get(slot)!.map((text): [number, string] => [n++, text])]));
      engine.commit(
        decision,
        decision.seats.map((slot) => ({ slot, action: { lines: numbered.get(slot)! } })),
      );
      continue;
    }
    const moves = decision.seats.map((slot) => {
      const view = engine.view(slot, { phase: decision.phase, matchId, names: bots });
      opts.watch?.(engine, slot, view, decision.phase);
      const answer = players[slot]!.act(view, decision.phase);
      const move = engine.read(slot, decision.phase, answer);
      if (move.fault) opts.onFault?.(slot, move.fault.detail);
      return move;
    });
    engine.commit(decision, moves);
  }
  return engine;
}
