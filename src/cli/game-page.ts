import { MatchEngine } from '../core/engine.js';
import { getDialect, type AnyGame, type AskPhase } from '../core/game.js';
import { builtinBotSeed } from '../core/self-play.js';

/** One message a bot receives and the answer a built-in bot gave it, as the wire carries them. */
export interface WireExample {
  phase: AskPhase;
  turn: number;
  /** the message's bytes in the game's own wire dialect (JSON for most games) */
  message: string;
  /** the answer's bytes, as a bot would write them */
  answer: string;
}

/** What `botarena games ID` shows, and `--json` prints. */
export interface GamePage {
  id: string;
  title: string;
  summary: string;
  players: { min: number; max: number };
  timeouts: { initMs: number; turnMs: number; slowMs?: number; exitMs?: number };
  dialects: string[];
  config: Record<string, { type: string; default: unknown; description: string; min?: number; max?: number; choices?: readonly string[]; file?: boolean }>;
  bots: Record<string, string>;
  /** the first message of each phase and its answer, from a match between the built-in bots (seed 1) */
  examples: WireExample[];
}

/**
 * A game's page: its facts and one real message of each phase (the hello when it has one, then a turn)
 * with the answer a built-in bot gave, taken from a match played now with the default config, so the page
 * always shows what the game really sends.
 */
export function gamePage(game: AnyGame): GamePage {
  return {
    id: game.id,
    title: game.title,
    summary: game.summary,
    players: game.players,
    timeouts: game.timeouts,
    dialects: ['json', ...Object.keys(game.dialects ?? {})],
    config: Object.fromEntries(Object.entries(game.config).map(([k, f]) => [k, { ...f }])),
    bots: Object.fromEntries(Object.entries(game.bots).map(([k, b]) => [k, b.description])),
    examples: wireExamples(game),
  };
}

/** Plays the built-in bots (the first one in every seat, as few seats as the game allows) to the first turn. */
function wireExamples(game: AnyGame): WireExample[] {
  const players = Math.max(2, game.players.min);
  const seed = 1;
  const engine = new MatchEngine(game, { config: {}, seed, players });
  const dialect = getDialect(game, game.defaultDialect ?? 'json');
  const botName = Object.keys(game.bots)[0]!;
  const names = Array.from({ length: players }, () => botName);
  const bots = names.map((name, slot) => game.bots[name]!.create({ slot, players, config: engine.config, seed: builtinBotSeed(seed, name, slot) }));
  const examples: WireExample[] = [];
  for (let d = engine.decision(); d && examples.length < 2; d = engine.decision()) {
    const decision = d;
    const ctx = { phase: decision.phase, matchId: 'example', names };
    const shown = decision.seats[0]!;
    const answers = decision.seats.map((slot) => bots[slot]!.act(engine.view(slot, ctx), decision.phase));
    if (!examples.some((e) => e.phase === decision.phase)) {
      const answer = answers[0];
      examples.push({
        phase: decision.phase,
        turn: decision.turn,
        message: dialect.encode(engine.state, shown, ctx),
        answer: decision.stream ? (answer as string[]).join('\n') : JSON.stringify(answer),
      });
    }
    if (decision.stream) {
      let n = 0;
      engine.commit(decision, decision.seats.map((slot, k) => ({ slot, action: { lines: (answers[k] as string[]).map((text): [number, string] => [n++, text]) } })));
    } else {
      engine.commit(decision, decision.seats.map((slot, k) => engine.read(slot, decision.phase, answers[k])));
    }
  }
  return examples;
}

/** A text cut to `max` characters, saying how much was left out. */
export function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}… (${text.length - max} more characters)`;
}
