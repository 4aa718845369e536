import { runMatch } from '../src/arena/run-match.js';
import { MatchEngine, movesOf } from '../src/core/engine.js';
import { playBuiltins } from '../src/core/self-play.js';
import { getGame } from '../src/games/index.js';

/**
 * Paint turns per second: built-in bots through the pure engine (the 10×10 board; 4 bots on a generated
 * 60×60 board, where the state sent every turn is large; the painter's own cost), then 2 stdio bots through
 * the runner, in games of 100 turns (process start and stop included) and of 1000 turns. Then the 60×60
 * state message apart from the rules (`messageRows`).
 */
export async function benchPaint(budgetMs = 3000): Promise<(string | number)[][]> {
  const paint = getGame('paint');
  const rows: (string | number)[][] = [['Paint, whole games', 'games', 'turns', 'turns/s', 'µs/turn']];
  const measure = async (label: string, playOne: (seed: number) => Promise<number> | number) => {
    let turns = 0;
    let games = 0;
    const t0 = performance.now();
    while (performance.now() - t0 < budgetMs) turns += await playOne(games++);
    const sec = (performance.now() - t0) / 1000;
    rows.push([label, games, turns, Math.round(turns / sec), ((sec * 1e6) / turns).toFixed(1)]);
  };
  const engineOnly = (bots: string[], config: Record<string, unknown>) => (seed: number) => playBuiltins(paint, bots, seed, { config }).records.length - 1;
  await measure('engine only, random ×2, board 10x10', engineOnly(['random', 'random'], { board: '10x10' }));
  await measure(
    'engine only, random ×4, generated 60×60, 400 turns',
    engineOnly(['random', 'random', 'random', 'random'], { width: 60, height: 60, turns: 400 }),
  );
  await measure('engine only, painter vs random, board 10x10', engineOnly(['painter', 'random'], { board: '10x10' }));
  for (const turns of [0, 1000]) {
    await measure(`runner + 2 stdio bots (examples/paint-node), board 10x10, ${turns || 100} turns a game`, async (seed) => {
      const seats = Array.from({ length: 2 }, () => ({ bot: 'stdio:node examples/paint-node/bot.mjs' }));
      const { replay } = await runMatch({ game: paint.id, seed, config: { board: '10x10', turns }, seats }, { game: paint });
      return replay.turns.filter((t) => t.phase === 'play').length;
    });
  }
  rows.push(...messageRows(paint, budgetMs));
  return rows;
}

/**
 * The 60×60 state message's cost per turn next to the rules' (issue 14): recorded games of 4 `random`
 * replayed through the engine, each turn's message made before the turn as a runner writes it (the text,
 * flattened and measured in UTF-8 bytes) for one seat in a game, for each of the 4 seats in the next (they
 * get one shared text); the rules (decision and commit) are timed apart on every game. After 300 ms of games.
 */
function messageRows(paint: ReturnType<typeof getGame>, budgetMs: number): (string | number)[][] {
  const config = { width: 60, height: 60, turns: 400 };
  const recorded = [1, 2, 3].map((seed) => ({ seed, records: playBuiltins(paint, ['random', 'random', 'random', 'random'], seed, { config }).records }));
  const ctx = { phase: 'play' as const, matchId: '', names: [] };
  const zero = { rules: 0, one: 0, all: 0, turns: 0, turnsOne: 0, turnsAll: 0, games: 0 };
  const sum = { ...zero };
  const playOne = () => {
    const { seed, records } = recorded[sum.games % recorded.length]!;
    const seats = sum.games++ % 2 ? 4 : 1;
    const e = new MatchEngine(paint, { config, seed, players: 4 });
    for (const r of records) {
      let t1 = performance.now();
      const d = e.decision()!;
      sum.rules += performance.now() - t1;
      if (d.phase === 'play') {
        const t0 = performance.now();
        for (let slot = 0; slot < seats; slot++) Buffer.byteLength(paint.wire.encodeJson!(e.state, slot, ctx));
        const t = performance.now() - t0;
        if (seats === 1) {
          sum.one += t;
          sum.turnsOne++;
        } else {
          sum.all += t;
          sum.turnsAll++;
        }
        sum.turns++;
      }
      t1 = performance.now();
      e.commit(d, movesOf(r));
      sum.rules += performance.now() - t1;
    }
  };
  const w0 = performance.now();
  while (performance.now() - w0 < 300) playOne();
  Object.assign(sum, zero);
  const t0 = performance.now();
  while (performance.now() - t0 < budgetMs || sum.games < 2) playOne();
  const row = (label: string, ms: number, turns: number, games: number) => [
    label,
    games,
    turns,
    Math.round((turns * 1000) / ms),
    ((ms * 1000) / turns).toFixed(1),
  ];
  return [
    row('60×60, random ×4 replayed, 400 turns: the rules alone (decision + commit)', sum.rules, sum.turns, sum.games),
    row('same: the state message text for one seat (encodeJson, flattened)', sum.one, sum.turnsOne, Math.ceil(sum.games / 2)),
    row('same: the state message text for each of the 4 seats (one shared text), all 4 per turn', sum.all, sum.turnsAll, Math.floor(sum.games / 2)),
  ];
}
