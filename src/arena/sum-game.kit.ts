import { defineGame, ranksFromScores, type Move } from '../core/game.js';

/**
 * A tiny simultaneous game for testing the runner without any real game's rules: every seat answers
 * `{"n": 0..9}` each turn, faults score nothing, and the highest total after `turns` turns wins.
 */
export const sumGame = defineGame({
  id: 'sum-test',
  title: 'Sum (runner test game)',
  summary: 'everyone says a number each turn; the highest total wins',
  players: { min: 1, max: 8 },
  config: { turns: { type: 'int', default: 3, min: 1, max: 100, description: 'turns to play' } },
  timeouts: { initMs: 1000, turnMs: 1000 },
  bots: {
    one: { description: 'always 1', create: () => ({ act: () => ({ n: 1 }) }) },
    boom: {
      description: 'throws',
      create: () => ({
        act: () => {
          throw new Error('kaboom');
        },
      }),
    },
  },
  rules: {
    setup: ({ config, players }) => ({ turn: 0, turns: config.turns as number, totals: Array<number>(players).fill(0) }),
    next: (s) => (s.turn >= s.turns ? null : { phase: 'play', seats: s.totals.map((_, i) => i), turn: s.turn + 1 }),
    parseAnswer: (a) => {
      const n = (a as { n?: unknown } | null)?.n;
      return typeof n === 'number' && Number.isInteger(n) && n >= 0 && n <= 9
        ? { ok: true, action: n }
        : { ok: false, kind: 'bad-answer', detail: `expected {"n": 0..9}, got ${JSON.stringify(a)}` };
    },
    apply: (s, moves: Move<number>[]) => {
      for (const m of moves) if (!m.fault) s.totals[m.slot]! += m.action;
      s.turn++;
      return s;
    },
    outcome: (s) => ({ ranks: ranksFromScores(s.totals), scores: s.totals, reason: `totals ${s.totals.join(', ')}` }),
  },
  wire: {
    view: (s, slot) => ({ turn: s.turn + 1, you: slot, totals: s.totals }),
  },
  presentation: {
    render: (s) => s.totals.join(' '),
  },
});
