import { rngCreate, rngInt } from '../../core/rng.js';
import { readStart, readTurn } from './bot-view.js';
import { createHerder } from './herder.js';
import { DIRECTIONS } from './state.js';

/** A built-in bot in play: a turn's view lines (`state` … `turn`) in, that turn's command lines (ending in `end`) out. */
export type SmartDogBot = (viewLines: readonly string[]) => string[];

/** A named built-in bot: made from the `start` and `landscape` lines and a seed; deterministic given both. */
export interface SmartDogBotFactory {
  description: string;
  create(startLines: readonly string[], seed: number): SmartDogBot;
}

/** Each dog moves a random way (or stays) and barks one turn in four. */
const random: SmartDogBotFactory = {
  description: 'each dog moves a random way or stays, and barks one turn in four',
  create(startLines, seed) {
    const g = readStart(startLines);
    const rng = rngCreate(seed);
    return (viewLines) => {
      const { objects } = readTurn(viewLines);
      const out: string[] = [];
      for (const d of objects.filter((o) => o.type === 'Dog' && o.owner === g.you).sort((a, b) => a.id! - b.id!)) {
        const way = rngInt(rng, 0, 4);
        if (way < 4) out.push(`do ${d.id} move ${DIRECTIONS[way]}`);
        if (rngInt(rng, 0, 3) === 0) out.push(`do ${d.id} bark`);
      }
      out.push('end');
      return out;
    };
  },
};

/** Drives stray sheep into its pen, keeps its penned sheep in, and barks at enemy dogs near its pen. */
const herder: SmartDogBotFactory = {
  description: 'drives stray sheep into its pen from behind, never barks its penned sheep out, barks at intruders',
  create: (startLines) => createHerder(startLines),
};

/** The built-in bots by name. */
export const BOTS: Readonly<Record<string, SmartDogBotFactory>> = { random, herder };
