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

/** What `botarena games` lists of a game (and `--json` prints). */
export interface GameFacts {
  id: string;
  title: string;
  summary: string;
  players: { min: number; max: number };
  timeouts: { initMs: number; turnMs: number; slowMs?: number; exitMs?: number };
  /** whether bots are greeted (an init message) before the first turn */
  hello: boolean;
  /** whether bots connect in to a lobby and play when their hub fills (smart-dog's gateway) */
  lobby: boolean;
  dialects: string[];
  config: Record<string, { type: string; default: unknown; description: string; min?: number; max?: number; choices?: readonly string[]; file?: boolean }>;
  bots: Record<string, string>;
}

/** What `botarena games ID` shows: the facts, and a real message of each phase. */
export interface GamePage extends GameFacts {
  /** the first message of each phase and its answer, from a match between the built-in bots (seed 1) */
  examples: WireExample[];
}

/** A game's facts, as the list and the page show them. */
export function gameFacts(game: AnyGame): GameFacts {
  return {
    id: game.id,
    title: game.title,
    summary: game.summary,
    players: game.players,
    timeouts: game.timeouts,
    hello: !!game.rules.init,
    lobby: !!game.wire.lobby,
    dialects: ['json', ...Object.keys(game.wire.dialects ?? {})],
    config: Object.fromEntries(Object.entries(game.config).map(([k, f]) => [k, { ...f }])),
    bots: Object.fromEntries(Object.entries(game.bots).map(([k, b]) => [k, b.description])),
  };
}

/**
 * A game's page: its facts and one real message of each phase (the hello when it has one, then a turn)
 * with the answer a built-in bot gave, taken from a match played now with the default config, so the page
 * always shows what the game really sends.
 */
export function gamePage(game: AnyGame): GamePage {
  return { ...gameFacts(game), examples: wireExamples(game) };
}

/** Which message of a match an example shows: the first of a phase, or the one of a given turn. */
export interface ExampleAt {
  phase: AskPhase;
  turn?: number;
}

/** The hello (when the game has one) and the first turn. */
function wireExamples(game: AnyGame): WireExample[] {
  const wanted: ExampleAt[] = game.rules.init ? [{ phase: 'init' }, { phase: 'play' }] : [{ phase: 'play' }];
  return examplesAt(game, wanted).filter((e): e is WireExample => e !== null);
}

/**
 * Real messages and answers: plays the first built-in bot in every seat (as few seats as the game allows;
 * default config, seed 1) and takes, for each wanted point, the message the first seat asked there gets in
 * the game's own wire dialect and the answer its bot gave. null where the match never got there.
 */
export function examplesAt(game: AnyGame, wanted: readonly ExampleAt[]): (WireExample | null)[] {
  const players = Math.max(2, game.players.min);
  const seed = 1;
  const engine = new MatchEngine(game, { config: {}, seed, players });
  const dialect = getDialect(game, game.wire.defaultDialect ?? 'json');
  const botName = Object.keys(game.bots)[0]!;
  const names = Array.from({ length: players }, () => botName);
  const bots = names.map((name, slot) => game.bots[name]!.create({ slot, players, config: engine.config, seed: builtinBotSeed(seed, name, slot) }));
  const found: (WireExample | null)[] = wanted.map(() => null);
  for (let d = engine.decision(); d && found.includes(null); d = engine.decision()) {
    const decision = d;
    const ctx = { phase: decision.phase, matchId: 'example', names };
    const shown = decision.seats[0]!;
    const message = dialect.encode(engine.state, shown, ctx);
    const answers = decision.seats.map((slot) => bots[slot]!.act(engine.view(slot, ctx), decision.phase));
    wanted.forEach((w, k) => {
      if (found[k] || w.phase !== decision.phase || (w.turn !== undefined && w.turn !== decision.turn)) return;
      const answer = decision.stream ? (answers[0] as string[]).join('\n') : JSON.stringify(answers[0]);
      found[k] = { phase: decision.phase, turn: decision.turn, message, answer };
    });
    if (decision.stream) {
      let n = 0;
      engine.commit(
        decision,
        decision.seats.map((slot, k) => ({ slot, action: { lines: (answers[k] as string[]).map((text): [number, string] => [n++, text]) } })),
      );
    } else {
      engine.commit(
        decision,
        decision.seats.map((slot, k) => engine.read(slot, decision.phase, answers[k])),
      );
    }
  }
  return found;
}

/** The built-in bot the examples are played by. */
export function exampleBot(game: AnyGame): string {
  return Object.keys(game.bots)[0]!;
}

/** A text cut to `max` characters, saying how much was left out. */
export function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}… (${text.length - max} more characters)`;
}
