import { urlRefusal } from '../bots/address-policy.js';
import { parseBotSpec, runsCommand } from '../bots/index.js';
import type { AnyGame } from '../core/game.js';
import { badRequest, forbidden } from '../core/request-errors.js';
import { games } from '../games/index.js';
import { PERSON } from './builtins.js';

/** What a server lets bots be. */
export interface EndpointPolicy {
  /** whether bots may be commands (stdio:, exec:) on this machine: only when the operator says so */
  allowCommands: boolean;
  /** whether HTTP bots may be at loopback, private or link-local addresses (--allow-private-bots; off by default) */
  allowPrivateBots: boolean;
}

/** Whether an endpoint is a bot its author links from their own machine (`connect:`, `connect+DIALECT:`): it plays only while linked. */
export function isLinkEndpoint(endpoint: string): boolean {
  return /^connect(\+[a-z0-9-]+)?:\s*$/i.test(endpoint.trim());
}

/** A game by its id, or a 400 naming the games there are. */
export function requireGame(id: string): AnyGame {
  // Own keys only: `__proto__`, `constructor` or `hasOwnProperty` name no game (a plain lookup finds Object's own members).
  const g = typeof id === 'string' && Object.hasOwn(games, id) ? games[id] : undefined;
  if (!g) throw badRequest(`no game "${id}"; the games are ${Object.keys(games).join(', ')}`);
  return g;
}

/** Whether an endpoint may be registered (or seated in a test match) here: a bot spec of this game, commands only when allowed. */
export async function checkEndpoint(game: AnyGame, endpoint: string, policy: EndpointPolicy): Promise<void> {
  let spec;
  try {
    spec = parseBotSpec(endpoint, game);
  } catch (err) {
    throw badRequest(`endpoint: ${err instanceof Error ? err.message : String(err)}`);
  }
  const kind = spec.transport;
  if (runsCommand(spec) && !policy.allowCommands)
    throw forbidden(
      'endpoint: this server runs no commands for bots (stdio:, exec:); give an http(s):// URL, or ask the operator to start the server with --allow-commands',
    );
  if (kind === 'upload')
    throw badRequest(
      'endpoint: uploaded code is sent as a file (multipart POST /api/bots with a "code" file, or `botarena submit`), and a bot\'s own code is seated by its id, not by its upload: spec',
    );
  if (kind === 'builtin') throw badRequest(`endpoint: "${endpoint}" is a built-in bot, registered already; give your bot's http(s):// URL`);
  if (kind === 'tcp') throw badRequest('endpoint: tcp bots connect in: join the smart-dog gateway instead of registering a URL');
  if (kind === 'human' || kind === 'browser')
    throw badRequest(`endpoint: people play from the web page (seat "${PERSON}" of a test match), not through a registered bot`);
  if (kind === 'http' && !policy.allowPrivateBots) {
    let problem: string | null;
    try {
      problem = await urlRefusal(spec.url);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      throw badRequest(
        `endpoint: the name ${new URL(spec.url).hostname} cannot be resolved (${code ?? (err as Error).message}); give a URL whose host name resolves, or an IP address`,
      );
    }
    if (problem)
      throw forbidden(
        `endpoint: ${problem}; this server only calls public addresses: give your bot's URL at a public address (an operator who trusts every bot owner may start the server with --allow-private-bots)`,
      );
  }
}
