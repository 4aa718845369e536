import type { FastifyBaseLogger } from 'fastify';
import { games } from '../games/index.js';
import type { BotRow, Store } from '../store/index.js';

/** The seat name that puts a person (from the browser) at the table in a test match. */
export const PERSON = 'person';
/** The endpoint of each game's person row: the spec of a browser seat. */
export const PERSON_ENDPOINT = 'browser';

/** Whether a bot row is a game's person row (built in, endpoint `browser`): never on the ladder, never rated. */
export function isPersonBot(b: Pick<BotRow, 'builtin' | 'endpoint'>): boolean {
  return b.builtin && b.endpoint === PERSON_ENDPOINT;
}

/**
 * Registers every game's built-in bots, and for each game a person can play its person row (the bot id a
 * person's seat is recorded under); a name taken by another bot is logged, not fatal.
 */
export async function ensureBuiltins(store: Store, log: FastifyBaseLogger): Promise<void> {
  const { conflicts } = await store.ensureBuiltinBots(
    Object.values(games).flatMap((g) => [
      ...Object.keys(g.bots).map((name) => ({ game: g.id, name, endpoint: name, description: `built-in: ${g.bots[name]!.description}` })),
      ...(g.presentation.human || g.rules.stream
        ? [
            {
              game: g.id,
              name: PERSON,
              endpoint: PERSON_ENDPOINT,
              description: 'a person playing from the web page (test matches only; never on the ladder, never rated)',
            },
          ]
        : []),
    ]),
  );
  for (const c of conflicts) log.warn(c);
}
