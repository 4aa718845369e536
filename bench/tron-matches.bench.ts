// Whole Tron matches from start to end, every process start counted: 4 stdio Node bots on 30×30, one match
// after another (the 2 cores are shared by the arena and the 4 bots), and where a match's time goes.
import { runMatch } from '../src/arena/run-match.js';

export async function benchTronMatches(matches = 30): Promise<(string | number)[][]> {
  let start = 0;
  let play = 0;
  let end = 0;
  const t0 = performance.now();
  for (let seed = 0; seed < matches; seed++) {
    const w0 = performance.now();
    const { replay } = await runMatch({
      game: 'tron',
      seed,
      config: { width: 30, height: 30 },
      transcripts: true,
      seats: Array.from({ length: 4 }, () => ({ bot: 'stdio:node bench/tron-bot.mjs 30 30' })),
    });
    const wall = performance.now() - w0;
    // From the bots' logs: the first answer ends the start-up (process starts, hellos), the last answer the play.
    const recv = replay.transcripts!.flatMap((t) => t.filter((e) => e.dir === 'recv').map((e) => e.t));
    const first = Math.max(...replay.transcripts!.map((t) => t.find((e) => e.dir === 'recv')?.t ?? 0));
    const last = Math.max(...recv);
    start += first;
    play += last - first;
    end += wall - last;
  }
  const sec = (performance.now() - t0) / 1000;
  const ms = (x: number) => (x / matches).toFixed(1);
  return [
    ['Tron 30×30, 4 stdio Node bots, whole matches', 'value'],
    ['matches', matches],
    ['matches per minute (target ≥ 100)', Math.round((60 * matches) / sec)],
    ['start: processes up and every hello answered (ms per match)', ms(start)],
    ['play: first answer to last (ms per match)', ms(play)],
    ['end: last answer to every process gone (ms per match)', ms(end)],
  ];
}
