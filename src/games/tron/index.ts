import { defineGame, type Decision } from '../../core/game.js';
import { botsarenaAnswerPhase } from '../botsarena/duel.js';
import { bots } from './bots.js';
import { human } from './human.js';
import { letter, renderBoard } from './render.js';
import { applyLap, deadEnd, DIRECTIONS, living, setup, type Direction, type TronState } from './rules.js';
import { positionState, readPosition, writePosition, type TronConfig } from './position.js';
import { encodeJson, parseAnswer, view, type TronMessage } from './wire.js';

export type { TronInit, TronMessage, TronTurn } from './wire.js';
export type { TronConfig } from './position.js';

/** Tron as on botsarena: 2–12 bots move at once each lap; a bad answer, a trail, a head-on or the edge kills. */
export const tron = defineGame<TronConfig, TronState, Direction, TronMessage, null>({
  id: 'tron',
  title: 'Tron (botsarena)',
  summary: 'light cycles on a grid, every bot moves at once; answer {"play":"x+"|"x-"|"y+"|"y-"}',
  players: { min: 2, max: 12 },
  config: {
    width: { type: 'int', default: 100, min: 2, max: 1000, description: 'grid width (x is 0..width-1); off 100×100 the messages carry "width" and "height"' },
    height: { type: 'int', default: 100, min: 2, max: 1000, description: 'grid height (y is 0..height-1)' },
    starts: { type: 'string', default: '', description: 'chosen starts, one cell per slot: "x,y;x,y;…" (any distinct cells of the grid); empty: seeded' },
    trails: {
      type: 'string',
      default: '',
      file: true,
      description: 'a whole starting board: the wire\'s [[[x,y],…],…] (trails head first, [] dead) or {"lap":N,"trails":[…],"deaths":[…]}',
    },
  },
  timeouts: { initMs: 10_000, turnMs: 10_000, exitMs: 500 },
  bots,
  rules: {
    validateConfig(config, players) {
      try {
        if (readPosition(config, players)) return null;
      } catch (err) {
        return (err as Error).message;
      }
      const { width, height } = config;
      return (width - 1) * (height - 1) < players
        ? `a ${width}×${height} grid has ${(width - 1) * (height - 1)} start cells (x 1..${width - 1}, y 1..${height - 1}), fewer than ${players} players`
        : null;
    },
    // Every answer of a living bot fills a cell (the game ends when fewer than two live), so a match asks for at
    // most one answer per cell (and a hello per seat); each answer's message carries the trails, and a built-in
    // bot such as voronoi searches the whole grid for it: cells × answers, about (width × height)².
    work: ({ width, height }, players) => width * height * (width * height + players),
    setup({ config, players, seed }) {
      const position = readPosition(config, players);
      return position ? positionState(config.width, config.height, position, seed) : setup(config.width, config.height, players, seed);
    },
    next(s): Decision | null {
      const n = s.trails.length;
      if (s.initsLeft > 0) return { phase: 'init', seats: [n - s.initsLeft], turn: 0 };
      const alive = living(s);
      return alive.length < 2 ? null : { phase: 'play', seats: alive, turn: s.lap + 1 };
    },
    // The hello's answers and failures are ignored.
    init: {
      parse: () => ({ ok: true, action: null }),
      apply(s) {
        s.initsLeft--;
        return s;
      },
      faultsIgnored: true,
    },
    parseAnswer,
    apply: applyLap,
    outcome(s) {
      const lastLap = s.lap;
      const scores = s.death.map((d) => (d ? d.lap : lastLap + 1));
      const ranks = scores.map((sc) => 1 + scores.filter((o) => o > sc).length);
      const survivors = living(s).map(letter);
      const deaths = s.death
        .map((d, slot) => ({ d, slot }))
        .filter((x) => x.d)
        .sort((a, b) => a.d!.lap - b.d!.lap || a.slot - b.slot)
        .map(({ d, slot }) => `${letter(slot)} on lap ${d!.lap} (${d!.cause})`);
      const head = survivors.length ? `${survivors.join(', ')} survives` : 'nobody survives';
      return { ranks, scores, reason: `${head} after ${lastLap} laps; died: ${deaths.join('; ')}` };
    },
  },
  wire: {
    // One line answers one message: a late hello answer pays for the hello, never for turn 1.
    strictPairing: true,
    // A line shaped as a turn answer (`play`) is never taken for a missed hello's: that bot skipped the hello.
    answerPhase: botsarenaAnswerPhase,
    view,
    encodeJson,
  },
  presentation: {
    seatLabel: letter,
    render: (s) => renderBoard(s),
    human,
  },
  replay: {
    // The trails grow by the heads only, so the lap, the heads and the deaths identify the state.
    digest: (s) => [s.lap, s.trails.map((t) => t[t.length - 1]), s.death],
    // What a step changes: the hellos left, the lap, every head (as its cell's index; -1 for a trail given
    // empty, a dead bot in a chosen position), and each death (in full on its lap).
    // (Made at its final length: grown by pushes from a two-item literal, it cost three times as much.)
    changes(s) {
      const n = s.trails.length;
      const out: unknown[] = new Array(2 + 2 * n);
      out[0] = s.initsLeft;
      out[1] = s.lap;
      for (let slot = 0; slot < n; slot++) {
        const t = s.trails[slot]!;
        const head = t[t.length - 1];
        out[2 + slot] = head ? head[1] * s.width + head[0] : -1;
        const d = s.death[slot]!;
        out[2 + n + slot] = d === null ? 0 : d.lap === s.lap ? d : d.lap;
      }
      return out;
    },
  },
  tooling: {
    position: { write: writePosition },
    losesAtOnce(s, slot, dir) {
      const why = deadEnd(s, slot, dir);
      const safe = why ? DIRECTIONS.find((d) => !deadEnd(s, slot, d)) : undefined;
      return why && safe ? `${why} (${safe} would not)` : null;
    },
    // voronoi against random: a match of some fifty laps that ends by a crash (voronoi against stupid lasts hundreds).
    doctor: { bots: ['voronoi', 'random'], seed: 2 },
  },
});
