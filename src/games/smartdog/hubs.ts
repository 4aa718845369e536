import { parseMapPart } from './map.js';
import { MAPS } from './maps.js';
import { mapText } from './index.js';

/**
 * A smart-dog hub, as the reference server had them: bots join it by name, and its matches are played with
 * `min`..`max` players on its maps in rotation, with its options (turnsLimit, waitForTurn…).
 */
export interface SmartdogHub {
  name: string;
  min: number;
  max: number;
  /** shipped map names or map part texts, played in turn */
  maps: string[];
  options: Record<string, unknown>;
}

/** The reference server's hubs: `default` takes 2–4 players, the others a fixed count. */
export function defaultHubs(maps: string[] = Object.keys(MAPS), options: Record<string, unknown> = {}): SmartdogHub[] {
  const hub = (name: string, min: number, max: number): SmartdogHub => ({ name, min, max, maps, options });
  return [hub('default', 2, 4), hub('solo', 1, 1), hub('duet', 2, 2), hub('trio', 3, 3), hub('quartet', 4, 4)];
}

/** How many dogs a match on `map` (a shipped name or a map part's text) has with `players` players: one tile each. */
export function dogCount(map: string, players: number): number {
  const part = parseMapPart(mapText(map));
  return players * part.rows.reduce((n, row) => n + [...row].filter((ch) => ch === '@').length, 0);
}

/**
 * What each match a hub server starts is played with: the hub's next map (each hub rotates through its
 * own), its options, the leave rule, and dog ids that keep counting across the server's matches, as the
 * reference server's did.
 */
export class SmartdogHubPlan {
  private readonly rotation = new Map<string, number>();
  private nextDogId = 1;

  constructor(private readonly leave: 'out' | 'abort' = 'out') {}

  next(hub: SmartdogHub, players: number): Record<string, unknown> {
    const turn = this.rotation.get(hub.name) ?? 0;
    this.rotation.set(hub.name, turn + 1);
    const map = hub.maps[turn % hub.maps.length]!;
    const firstDogId = this.nextDogId;
    this.nextDogId += dogCount(map, players);
    return this.config(hub, map, firstDogId);
  }

  configs(hub: SmartdogHub): Record<string, unknown>[] {
    return hub.maps.map((map) => this.config(hub, map, this.nextDogId));
  }

  private config(hub: SmartdogHub, map: string, firstDogId: number): Record<string, unknown> {
    return { map, options: JSON.stringify(hub.options), firstDogId, leave: this.leave };
  }
}
