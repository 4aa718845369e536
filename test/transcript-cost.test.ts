import assert from 'node:assert/strict';
import { test } from 'node:test';
import { runMatch } from '../src/arena/run-match.js';
import type { MatchJob } from '../src/arena/match-job.js';

// Issue 34, part 2: the server records transcripts, and a built-in bot's message (Tron's whole board, Battleship's
// every shot of its side) was written out for its log at every step, long after the log was over its 4 MiB cap:
// each step cost the whole match so far. A 600×600 Tron match of six bots ran for minutes on the server (seconds
// on the CLI). Timed against the same match without transcripts, in this process: a ratio, not a wall time.

async function ms(job: Omit<MatchJob, 'transcripts' | 'timeouts' | 'matchId'>, transcripts: boolean): Promise<{ ms: number; notes: string[] }> {
  const t0 = performance.now();
  const { replay } = await runMatch({ ...job, matchId: 'cost', timeouts: {}, transcripts });
  const notes = (replay.transcripts?.[0] ?? []).filter((e) => e.dir === 'note').map((e) => e.text);
  return { ms: performance.now() - t0, notes };
}

const JOBS: [string, Omit<MatchJob, 'transcripts' | 'timeouts' | 'matchId'>][] = [
  [
    'tron 300×300, six stupid bots',
    { game: 'tron', seed: 1, config: { width: 300, height: 300 }, seats: Array.from({ length: 6 }, () => ({ bot: 'stupid' })) },
  ],
  ['battleship 60×60, two random bots', { game: 'battleship', seed: 1, config: { width: 60, height: 60 }, seats: [{ bot: 'random' }, { bot: 'random' }] }],
];
for (const [name, job] of JOBS) {
  test(`${name}: recording transcripts costs at most three times the match without them`, async (t) => {
    await ms(job, false); // warm up
    const without = await ms(job, false);
    const withLogs = await ms(job, true);
    t.diagnostic(`${without.ms.toFixed(0)} ms without transcripts, ${withLogs.ms.toFixed(0)} ms with them`);
    assert.ok(withLogs.ms < 3 * without.ms + 300, `${withLogs.ms.toFixed(0)} ms with transcripts, ${without.ms.toFixed(0)} ms without`);
    // The log says what it left out.
    assert.ok(
      withLogs.notes.some((n) => /^\d+ log entries \(\d+ bytes\) over the 4194304-byte cap were dropped$/.test(n)),
      withLogs.notes.join('\n'),
    );
    assert.ok(
      withLogs.notes.some((n) => /^and \d+ messages to or from this in-process bot were not written out$/.test(n)),
      withLogs.notes.join('\n'),
    );
  });
}
