import { defineGame, everySeat, ranksFromScores, type Decision } from '../../core/game.js';
import { bots } from './bots.js';
import { human } from './human.js';
import { parseMap, type LighthouseMap } from './map.js';
import { DEFAULT_MAP, MAPS } from './maps.js';
import { letter, renderIsland } from './render.js';
import { applyCommand, commandError, endRound, lighthouseAt, setupState, type Command, type LighthousesState, type Player, type Triangle } from './rules.js';
import { encodeTurn, parseAnswer, parseAnswerText, parseGreeting, result, view, type LighthousesMessage, type LighthousesTurn } from './wire.js';
import { positionState, writePosition } from './position.js';

export type { PositionFile } from './position.js';
export type { LighthousesInit, LighthousesMessage, LighthousesResult, LighthousesTurn, LighthouseView } from './wire.js';
export { MAPS } from './maps.js';

/** The config of a lighthouses match. */
export interface LighthousesConfig {
  [key: string]: string | number | boolean;
  map: string;
  rounds: number;
  neutral: string;
  position: string;
}

/** The map a config names: a shipped map by name, or a map's own text (what `--set map=FILE` gives). */
export function mapOf(config: { map: string }): LighthouseMap {
  const shipped = Object.hasOwn(MAPS, config.map) ? MAPS[config.map] : undefined;
  if (shipped) return parseMap(shipped.text);
  if (!config.map.includes('\n')) {
    throw new Error(`unknown map ${JSON.stringify(config.map)}: the shipped maps are ${Object.keys(MAPS).join(', ')}; or give the path of a map file`);
  }
  return parseMap(config.map);
}

/** The Euskal Encounter lighthouses game ("Faros Láser"): capture, connect, and score triangles of island. */
/** A player in a step's changes: place, energy, score and keys. */
function listPlayer(out: unknown[], p: Player): void {
  out.push(p.x, p.y, p.energy, p.score, p.keys.length);
  for (const k of p.keys) out.push(k);
}

/** A triangle in a step's changes: its corners, owner and island cells. */
function listTriangle(out: unknown[], t: Triangle): void {
  out.push(t.v[0], t.v[1], t.v[2], t.owner, t.cells);
}

export const lighthouses = defineGame<LighthousesConfig, LighthousesState, Command, LighthousesMessage, string>({
  id: 'lighthouses',
  title: 'Lighthouses (Euskal Encounter "Faros Láser")',
  summary: 'walk the island, collect energy, capture lighthouses, connect them into triangles; JSON lines over stdio',
  players: { min: 2, max: 8 },
  config: {
    map: { type: 'string', default: DEFAULT_MAP, file: true, description: `a shipped map (${Object.keys(MAPS).join(', ')})` },
    rounds: { type: 'int', default: 200, min: 1, max: 100_000, description: 'rounds before the game ends' },
    neutral: { type: 'string', default: '-1', choices: ['-1', 'null'], description: "how a neutral lighthouse's owner is sent" },
    position: {
      type: 'string',
      default: '',
      file: true,
      description: "a position file (JSON: round, players, lighthouses, connections, cell energies) to start from on the map; empty: the map's start",
    },
  },
  // The seed's 100 ms per turn plus the reference engine's grace: answers within 500 ms count, later than 100 ms are noted.
  timeouts: { initMs: 2000, turnMs: 500, slowMs: 100, exitMs: 1000 },
  bots,
  rules: {
    validateConfig(config, players) {
      let map: LighthouseMap;
      try {
        map = mapOf(config);
      } catch (err) {
        return `bad map: ${(err as Error).message}`;
      }
      if (config.position.trim()) {
        try {
          positionState(map, players, config.rounds, false, config.position);
          return null;
        } catch (err) {
          return `bad position: ${(err as Error).message}`;
        }
      }
      return map.starts.length < players ? `the map has ${map.starts.length} start slots, fewer than ${players} players` : null;
    },
    // One answer per seat per round, each about the map (what a seat's view and a built-in bot's search cover).
    work(config, players) {
      const map = mapOf(config);
      return map.width * map.height * players * (config.rounds + 1);
    },
    setup: ({ config, players }) =>
      config.position.trim()
        ? positionState(mapOf(config), players, config.rounds, config.neutral === 'null', config.position)
        : setupState(mapOf(config), players, config.rounds, config.neutral === 'null'),
    next(s): Decision | null {
      if (!s.inited) return { phase: 'init', seats: everySeat(s.players.length), turn: 0 };
      if (s.round > s.rounds) return null;
      return { phase: 'play', seats: [s.current], turn: s.round };
    },
    // The greeting: each bot's name (a failed greeting keeps the default name).
    init: {
      parse: parseGreeting,
      apply(s, moves) {
        for (const m of moves) if (m.action !== undefined) s.players[m.slot]!.name = m.action;
        s.inited = true;
        return s;
      },
      // The greeting is only the bot's name: a new version may well call itself otherwise.
      essence: () => null,
    },
    parseAnswer,
    check: commandError,
    // A forgiven timeout (a strike) is what a timeout is here already: a pass.
    pass: () => ({ command: 'pass' }),
    apply(s, moves) {
      const m = moves[0]!;
      if (m.action !== undefined) applyCommand(s, m.slot, m.action);
      s.current++;
      if (s.current === s.players.length) endRound(s);
      return s;
    },
    outcome(s) {
      const scores = s.players.map((p) => p.score);
      const ranks = ranksFromScores(scores);
      const best = ranks.flatMap((r, i) => (r === 1 ? [`${letter(i)} (${s.players[i]!.name})`] : []));
      const head = best.length === 1 ? `${best[0]} wins` : `${best.join(' and ')} tie`;
      return { ranks, scores, reason: `${head} with ${Math.max(...scores)} points after ${s.rounds} rounds` };
    },
  },
  wire: {
    view: (s, slot, ctx) => view(s, slot, ctx.phase, s.neutralNull ? null : -1),
    encodeJson(s, slot, ctx) {
      const m = view(s, slot, ctx.phase, s.neutralNull ? null : -1);
      return ctx.phase === 'init' ? JSON.stringify(m) : encodeTurn(m as LighthousesTurn);
    },
    parseAnswerText,
    strictPairing: true,
    ack: result,
  },
  presentation: {
    seatLabel: letter,
    // Each player sees its own place, energy and score and the cells near it; every player sees the
    // lighthouses (owner, energy, links) and gets the whole island in its first message. Spectators get
    // those (the island on every step, so a viewer joining late can draw it), and only which command each
    // seat gave: no player's place, energy or score, no cell energy.
    spectator: {
      action: (command) => ({ command: command.command }),
      frame: (s) => ({
        round: s.round,
        width: s.width,
        height: s.height,
        island: s.island,
        lighthouses: s.lighthouses.map((l) => ({ position: [l.x, l.y], owner: l.owner, energy: l.energy })),
        connections: s.connections,
      }),
    },
    render: renderIsland,
    human,
  },
  replay: {
    // The island never changes and the cell energies follow from the rounds and where players stood, so
    // the rest identifies the state: this keeps the per-command fingerprint off the two grids.
    digest: (s) => [s.round, s.current, s.players, s.lighthouses, s.connections, s.triangles],
    // What a step changed, for the chained step fingerprints, as numbers (names as text). A command changes
    // only its player, the lighthouse it stands on and the links; the round's last command (which ends the
    // round: energy for everyone, scores, decay) and the hellos list the whole of `digest`, so any difference
    // shows at the latest at the end of its round.
    changes(s, moves) {
      const out: unknown[] = [s.round, s.current];
      if (moves.length === 1 && s.current !== 0) {
        const slot = moves[0]!.slot;
        const p = s.players[slot]!;
        out.push(slot);
        listPlayer(out, p);
        const here = lighthouseAt(s, p.x, p.y);
        const l = s.lighthouses[here];
        out.push(here, l ? (l.owner ?? -1) : 0, l ? l.energy : 0);
        const link = s.connections[s.connections.length - 1];
        out.push(s.connections.length, link ? link[0] : -1, link ? link[1] : -1);
        const t = s.triangles[s.triangles.length - 1];
        out.push(s.triangles.length);
        if (t) listTriangle(out, t);
        return out;
      }
      out.push(s.players.length);
      for (const p of s.players) listPlayer(out, p);
      // The names are given once, by the hellos, which leave round 1 waiting for player 0.
      if (s.round === 1 && s.current === 0) out.push(s.players.map((p) => p.name));
      for (const l of s.lighthouses) out.push(l.owner ?? -1, l.energy);
      out.push(s.connections.length);
      for (const [a, b] of s.connections) out.push(a, b);
      out.push(s.triangles.length);
      for (const t of s.triangles) listTriangle(out, t);
      return out;
    },
  },
  tooling: {
    // The map, rounds and neutral keys stay the match's own; the position file carries the rest.
    position: { write: (s) => ({ position: writePosition(s) }) },
  },
});
