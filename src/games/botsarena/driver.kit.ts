import { MatchEngine } from '../../core/engine.js';
import type { AnyGame, Outcome } from '../../core/game.js';

/** What a scripted match produced: every message sent (as JSON text) and the outcome. */
export interface ScriptedMatch {
  sent: string[];
  outcome: Outcome;
  engine: MatchEngine;
}

/**
 * Plays a match through the real engine with scripted answers: each entry is the answer object a bot
 * gives to the next message (in asking order), or `{fault}` for a transport-level failure. Tests use
 * it to check messages byte for byte and rules move by move without any process.
 */
export function playScript(
  game: AnyGame,
  answers: (unknown | { fault: { kind: 'timeout' | 'crash'; detail: string } })[],
  opts: { matchId?: string; names?: string[]; seed?: number; config?: Record<string, unknown> } = {},
): ScriptedMatch {
  const engine = new MatchEngine(game, { config: opts.config ?? {}, seed: opts.seed ?? 1, players: 2 });
  const names = opts.names ?? ['a', 'b'];
  const sent: string[] = [];
  let next = 0;
  for (let d = engine.decision(); d; d = engine.decision()) {
    const decision = d;
    const moves = decision.seats.map((slot) => {
      sent.push(JSON.stringify(engine.view(slot, { phase: decision.phase, matchId: opts.matchId ?? '1', names })));
      if (next >= answers.length) throw new Error(`script ran out of answers at message ${sent.length}: ${sent[sent.length - 1]}`);
      const a = answers[next++] as { fault?: { kind: 'timeout' | 'crash'; detail: string } };
      if (a && typeof a === 'object' && 'fault' in a && a.fault) return { slot, fault: a.fault };
      return engine.read(slot, decision.phase, a);
    });
    engine.commit(decision, moves);
  }
  if (next !== answers.length) throw new Error(`the game ended with ${answers.length - next} scripted answers unused`);
  return { sent, outcome: engine.outcome(), engine };
}
