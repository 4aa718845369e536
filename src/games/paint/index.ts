import { defineGame, everySeat, ranksFromScores } from '../../core/game.js';
import { mixInt, mixInts, mixList, mixValue } from '../../core/hash.js';
import { BOARD_NAMES, boardFor, checkBoardConfig, defaultId, initialState, type PaintConfig } from './board.js';
import { bots } from './bots.js';
import { human } from './human.js';
import { renderBoard } from './render.js';
import { applyTurn, scores, type PaintAction, type PaintState } from './rules.js';
import { encodeJson, parseAnswer, parseReady, skipAnswer, view, type PaintMessage } from './wire.js';

export type { PaintInit, PaintMessage, PaintTurn } from './wire.js';

/** A turn's action as a number: -1 none, else 9 × (0 walk, 1 shoot) + 3 × (di + 1) + (dj + 1). */
function actionCode(a: PaintAction | null): number {
  return a ? (a.type === 'walk' ? 0 : 9) + 3 * (a.direction[0] + 1) + (a.direction[1] + 1) : -1;
}

/** What identifies a paint state given the turns so far: the history only grows by each turn's actions. */
const summary = (s: PaintState): unknown[] => [s.turnsLeft, s.positions, s.colors, s.history[s.history.length - 1] ?? null, s.unresponsive];

/**
 * Paint, the multipaint "AI Competition": every player walks or shoots paint at once each turn; the most
 * squares of one's colour at the end wins. JSON lines over stdio, answers matched by the turns_left nonce.
 */
export const paint = defineGame<PaintConfig, PaintState, PaintAction, PaintMessage, null>({
  id: 'paint',
  title: 'Paint (multipaint "AI Competition")',
  summary: 'walk or shoot paint at once on a grid, most squares wins; answer {"turns_left":T,"type":"walk"|"shoot","direction":[di,dj]}',
  players: { min: 2, max: 10_000 },
  config: {
    board: {
      type: 'string',
      default: '',
      file: true,
      description: `a shipped board (${BOARD_NAMES.join(', ')}) or a board's JSON text (a state in the wire form, previous_actions included); empty: a generated board`,
    },
    width: { type: 'int', default: 10, min: 1, max: 200, description: 'columns of a generated board (ignored with a board)' },
    height: { type: 'int', default: 10, min: 1, max: 200, description: 'rows of a generated board (ignored with a board)' },
    turns: {
      type: 'int',
      default: 0,
      min: 0,
      max: 100_000,
      description:
        "turns in all, a board's previous_actions counted as played; 0: the board's previous_actions and turns_left (width×height for a generated board)",
    },
    obstacles: { type: 'int', default: 0, min: 0, description: 'obstacle squares placed from the seed on a generated board (a variant, off by default)' },
    ids: { type: 'string', default: '', description: "player ids separated by commas; empty: alice, bob, charlie, … (or the board's)" },
  },
  timeouts: { initMs: 5000, turnMs: 500, exitMs: 500 },
  bots,
  rules: {
    validateConfig(config, players) {
      try {
        checkBoardConfig(config, players);
        return null;
      } catch (err) {
        return (err as Error).message;
      }
    },
    // Every seat answers every turn left, and each message carries the whole board: cells × seats × turns.
    work(config, players) {
      const board = boardFor(config, players, 0);
      return board.width * board.height * players * Math.max(0, board.turns - board.history.length);
    },
    setup: ({ config, players, seed }) => initialState(boardFor(config, players, seed)),
    next(s) {
      const seats = everySeat(s.ids.length);
      if (!s.started) return { phase: 'init', seats, turn: 0 };
      if (s.unresponsive.length || s.turnsLeft <= 0) return null;
      return { phase: 'play', seats, turn: s.turns - s.turnsLeft + 1 };
    },
    // The hello: every player says it is ready; the match is played only if all of them did.
    init: {
      parse: parseReady,
      apply(s, moves) {
        s.started = true;
        s.unresponsive = moves.flatMap((m) => (m.fault ? [{ slot: m.slot, detail: `${m.fault.kind}: ${m.fault.detail}` }] : []));
        return s;
      },
    },
    parseAnswer: (answer, s) => parseAnswer(answer, s),
    apply: applyTurn,
    // A forgiven timeout (a strike) is what any failed answer is here: no action this turn.
    pass: () => null,
    outcome(s) {
      if (s.unresponsive.length) {
        // The reference ends the match as an error naming the unresponsive players, and plays nothing: so
        // does this, with nobody winning. The players that answered still share the first rank and the
        // unresponsive ones the last, so where ranks are counted a broken bot never gains from its failure.
        const who = s.unresponsive.map((u) => `${s.ids[u.slot]} (${u.detail})`).join('; ');
        // Each by its id (the game's name for it) and its slot (what `--json`'s player entries are listed by).
        const ids = s.unresponsive.map((u) => `${s.ids[u.slot]} (slot ${u.slot})`).join(', ');
        return {
          ranks: helloRanks(s),
          scores: null,
          winner: null,
          error: `unresponsive players: ${ids}`,
          reason: `error: unresponsive players: ${who}; no turn was played`,
        };
      }
      const sc = scores(s);
      const ranks = ranksFromScores(sc);
      const table = s.ids.map((id, slot) => `${id} ${sc[slot]}`).join(', ');
      const best = s.ids.filter((_, slot) => ranks[slot] === 1);
      const head = best.length === 1 ? `${best[0]} wins` : `${best.join(' and ')} share the lead`;
      return { ranks, scores: sc, reason: `${head} after ${s.turns} turns (squares: ${table})` };
    },
  },
  wire: {
    view,
    encodeJson,
    skipAnswer: (text, s, _slot, phase) => skipAnswer(text, s, phase),
  },
  presentation: {
    // The board's player ids (the config's or the board's own), which the bots are told and the original named.
    seatLabel: (slot, s) => s?.ids[slot] ?? defaultId(slot),
    render: renderBoard,
    human,
  },
  replay: {
    digest: summary,
    // What a step changes, mixed into the chain of step fingerprints: the turn and whether the hello was
    // answered, the avatars, the squares the turn painted (not the whole board), the turn's actions as
    // numbers, the players that failed the hello. Mixed as they come, with no list of them built (building and
    // mixing the list took twice as long: 0.11 µs of a 0.8 µs turn on a 10×10 board). The chain is the one
    // paint's `changes` made before (4037ba9) from the list [turnsLeft, started ? 1 : 0, positions, the painted
    // squares (0 before any turn), ...action codes (-2 before any turn), unresponsive.length ? unresponsive : 0].
    mixChanges(h, s) {
      // (A board's turns_left may pass 2^31: such a number is mixed as the list mixed it, as text.)
      const t = s.turnsLeft;
      h = mixInt((t | 0) === t ? mixInt(h, t) : mixValue(h, t), s.started ? 1 : 0);
      const { positions, painted } = s;
      h = mixList(h, positions.length);
      for (let k = 0; k < positions.length; k++) h = mixInts(h, positions[k]!);
      h = painted ? mixInts(h, painted, s.paintedCount) : mixInt(h, 0);
      const last = s.history[s.history.length - 1];
      if (last) for (let k = 0; k < last.length; k++) h = mixInt(h, actionCode(last[k]!));
      else h = mixInt(h, -2);
      return s.unresponsive.length ? mixValue(h, s.unresponsive) : mixInt(h, 0);
    },
    // Replays written before issue 32 ranked a failed hello with a winner when one player answered; those
    // written before its review named the unresponsive players in `error` by their ids only.
    legacyOutcome(s) {
      if (!s.unresponsive.length) return null;
      const who = s.unresponsive.map((u) => `${s.ids[u.slot]} (${u.detail})`).join('; ');
      const ids = s.unresponsive.map((u) => s.ids[u.slot]).join(', ');
      return [
        { ranks: helloRanks(s), scores: null, reason: `unresponsive players: ${who}; no turn was played` },
        {
          ranks: helloRanks(s),
          scores: null,
          winner: null,
          error: `unresponsive players: ${ids}`,
          reason: `error: unresponsive players: ${who}; no turn was played`,
        },
      ];
    },
  },
  tooling: {
    // The board in the wire form, history included: the match's other keys (turns, ids) agree with it.
    position: { write: (s) => ({ board: encodeJson(s, 0, { phase: 'play', matchId: '', names: [] }) }) },
  },
});

/** The ranks of a match whose hello failed: the players that answered share the first, the others the last. */
function helloRanks(s: PaintState): number[] {
  const bad = new Set(s.unresponsive.map((u) => u.slot));
  return s.ids.map((_, slot) => (bad.has(slot) ? 1 + s.ids.length - bad.size : 1));
}
