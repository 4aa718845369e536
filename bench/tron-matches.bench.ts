// Whole Tron matches from start to end, every process start counted: 4 stdio Node bots on 30×30, one match
// after another (the 2 cores are shared by the arena and the 4 bots), and where a match's time goes.
import { readFileSync } from 'node:fs';
import { runMatch } from '../src/arena/run-match.js';
import { timeOnce } from './startup.bench.js';
import { percentile } from './stats.js';

/**
 * CPU of the waited-for children (the bots: each shell waits for its program), in ms, from /proc/self/stat
 * (cutime + cstime, at 100 ticks a second); null where there is no /proc.
 */
function childrenCpuMs(): number | null {
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[13]) + Number(fields[14])) * 10;
  } catch {
    return null;
  }
}

export async function benchTronMatches(matches = 30): Promise<(string | number)[][]> {
  // What a process start costs on this machine now: the start phase is mostly 4 of them on 2 cores.
  const nodeStarts = Array.from({ length: 7 }, () => timeOnce(['-e', '0']));
  let start = 0;
  let play = 0;
  let end = 0;
  const cpu0 = process.cpuUsage();
  const children0 = childrenCpuMs();
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
  const cpu = process.cpuUsage(cpu0);
  const children1 = childrenCpuMs();
  const ms = (x: number) => (x / matches).toFixed(1);
  return [
    ['Tron 30×30, 4 stdio Node bots, whole matches', 'value'],
    ['matches', matches],
    ['matches per minute (target ≥ 100)', Math.round((60 * matches) / sec)],
    ['start: processes up and every hello answered (ms per match)', ms(start)],
    ['play: first answer to last (ms per match)', ms(play)],
    ['end: last answer to every process gone (ms per match)', ms(end)],
    ['CPU of the arena process (ms per match)', ms((cpu.user + cpu.system) / 1000)],
    ['CPU of the bots, their shells included (ms per match)', children0 === null || children1 === null ? '-' : ms(children1 - children0)],
    ['reference: `node -e 0` on this machine now, median of 7 (ms)', percentile(nodeStarts, 50).toFixed(1)],
  ];
}
