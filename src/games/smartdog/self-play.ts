import { deriveSeed } from '../../core/rng.js';
import { BOTS } from './bots.js';
import { applyCommand, endTurn, setup } from './rules.js';
import type { SmartDogState } from './state.js';
import { startLines, viewOf } from './view.js';

/** The end of a self-play game: the final state (scores, winner) and how many warnings the bots got. */
export interface SelfPlayResult {
  state: SmartDogState;
  warnings: number;
}

/**
 * Plays built-in bots against each other in process. The order is fixed: each turn, player 1's whole
 * command list is applied, then player 2's, and so on (the deterministic order of in-process seats).
 */
export function selfPlay(map: string, bots: readonly string[], seed: number, hubOptions?: Record<string, unknown>): SelfPlayResult {
  const s = setup({ map, players: bots.length, hubOptions });
  const players = bots.map((name, k) => {
    const f = BOTS[name];
    if (!f) throw new Error(`no smart-dog bot "${name}"; built-in bots: ${Object.keys(BOTS).join(', ')}`);
    return f.create(startLines(s, k + 1), deriveSeed(seed, k));
  });
  let warnings = 0;
  while (!s.finished) {
    players.forEach((bot, k) => {
      for (const line of bot(viewOf(s, k + 1))) if (applyCommand(s, k + 1, line).warning !== undefined) warnings++;
    });
    endTurn(s);
  }
  return { state: s, warnings };
}
