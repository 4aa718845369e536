import { defineGame } from '../../core/game.js';
import { botsarenaAnswerPhase } from '../botsarena/duel.js';
import { bots } from './bots.js';
import { human } from './human.js';
import { renderBoard } from './render.js';
import { spectator } from './spectator.js';
import { readPosition, rulesOf, writePosition, type BattleshipSettings } from './position.js';
import { apply, checkFleet, placeFleet, setup, validateConfig, type BattleshipFleet, type BattleshipShot, type BattleshipState } from './rules.js';
import { formDialect, parseAnswer, parseHello, view, type BattleshipMessage } from './wire.js';

export type { BattleshipInit, BattleshipMessage, BattleshipTurn } from './wire.js';
export type { BattleshipSettings } from './position.js';
export type { BattleshipFrameDelta, BattleshipPublicFrame } from './spectator.js';

const ship = (len: number, def: number) => ({ type: 'int' as const, default: def, min: 0, max: 10, description: `ships of length ${len}` });

/** Battleship as on botsarena: the fleet is the init answer, then alternating shots; any fault loses. */
export const battleship = defineGame<BattleshipSettings, BattleshipState, BattleshipShot, BattleshipMessage, BattleshipFleet>({
  id: 'battleship',
  title: 'Battleship (botsarena)',
  summary: 'place a fleet in the init answer, then shoot {"play":"x,y"}; 2015 form dialect with http+form://',
  players: { min: 2, max: 2 },
  config: {
    width: { type: 'int', default: 10, min: 1, max: 100, description: 'grid width' },
    height: { type: 'int', default: 10, min: 1, max: 100, description: 'grid height' },
    ship1: ship(1, 0),
    ship2: ship(2, 1),
    ship3: ship(3, 2),
    ship4: ship(4, 1),
    ship5: ship(5, 1),
    ship6: ship(6, 0),
    maxTurns: { type: 'int', default: 0, min: 0, description: 'shots before a draw (0: no cap)' },
    fleets: {
      type: 'string',
      default: '',
      file: true,
      description: 'chosen fleets "x1,y1-x2,y2;…/x1,y1-x2,y2;…" (P1\'s, "/", P2\'s); the init answers\' boats are then not used',
    },
    strikes: {
      type: 'string',
      default: '',
      file: true,
      description: 'shots already fired "x,y;…/x,y;…" (P1\'s, "/", P2\'s, oldest first; needs fleets); the turn goes on from there',
    },
  },
  timeouts: { initMs: 10_000, turnMs: 10_000, exitMs: 500 },
  bots,
  rules: {
    validateConfig(c) {
      const rules = validateConfig(rulesOf(c));
      if (rules) return rules;
      try {
        readPosition(c);
        return null;
      } catch (err) {
        return (err as Error).message;
      }
    },
    // Two fleets, then a shot per turn up to the cap (without one: a shot at every cell of both grids, the most a
    // bot that never shoots twice at a cell can fire), each about the grid: cells × shots.
    work: (c) => c.width * c.height * (2 + (c.maxTurns || 2 * c.width * c.height)),
    setup: ({ config }) => readPosition(config) ?? setup(rulesOf(config)),
    next(s) {
      if (s.forfeit || s.ending) return null;
      if (s.placed < 2) return { phase: 'init', seats: [s.placed], turn: 0 };
      return { phase: 'play', seats: [s.toPlay], turn: s.shots + 1 };
    },
    // The hello places the fleet; any fault in it loses at once.
    init: { parse: parseHello, check: (s, _slot, action) => checkFleet(s.config, action.fleet), apply: placeFleet },
    parseAnswer,
    check(s, _slot, action) {
      const [x, y] = action.shot;
      return x >= s.config.width || y >= s.config.height ? `the shot ${x},${y} is off the ${s.config.width}×${s.config.height} grid` : null;
    },
    apply,
    outcome(s) {
      const sunkBy = [0, 1].map((slot) => s.strikes[slot]!.filter((k) => k.result.includes('sunk')).length);
      if (s.forfeit) {
        const f = s.forfeit;
        const w = 1 - f.slot;
        return {
          ranks: w === 0 ? [1, 2] : [2, 1],
          scores: sunkBy,
          reason: `P${w + 1} wins: P${f.slot + 1} forfeited on turn ${f.turn} (${f.kind}: ${f.detail})`,
        };
      }
      if (s.winner !== null) return { ranks: s.winner === 0 ? [1, 2] : [2, 1], scores: sunkBy, reason: `P${s.winner + 1} wins: ${s.ending}` };
      return { ranks: [1, 1], scores: sunkBy, reason: `draw: ${s.ending}` };
    },
  },
  wire: {
    // One line answers one message: a late hello answer pays for the hello, never for turn 1.
    strictPairing: true,
    // A line shaped as a turn answer (`play`) is never taken for a missed hello's: that bot skipped the hello.
    answerPhase: botsarenaAnswerPhase,
    view,
    dialects: { form: formDialect },
  },
  presentation: {
    seatLabel: (slot) => `P${slot + 1}`,
    spectator,
    render: renderBoard,
    human,
  },
  replay: {
    // A step places a fleet or adds one strike: the bookkeeping, the fleets while they are being placed (they
    // never change after), and each side's strike count with its latest strike (the lists only grow).
    changes(s) {
      const out: unknown[] = [s.placed, s.toPlay, s.shots, s.winner ?? -1, s.ending ?? 0, s.forfeit ?? 0, s.shots === 0 ? s.fleets.map((f) => f ?? []) : 0];
      for (const list of s.strikes) {
        const last = list[list.length - 1];
        out.push(list.length, last ? last.target : 0, last ? last.result : 0);
      }
      return out;
    },
  },
  tooling: {
    position: { write: writePosition },
  },
});
