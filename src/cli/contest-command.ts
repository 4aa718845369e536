import type { Command } from 'commander';
import { UsageError } from '../core/errors.js';
import { parsePositiveInt } from './options.js';
import { readFileCapped } from './read-capped.js';

/**
 * `botarena contest …`: contests. `verify ARCHIVE` checks a contest's archive here, trusting nothing the server
 * says: the subcommands that talk to a server are registered beside it (contest-server.ts). Returns the
 * `contest` command, so they can be.
 */
export function registerContest(program: Command): Command {
  const contest = program.command('contest').description("contests: check a final's archive (verify); organise one on a server");
  contest
    .command('verify')
    .description(
      "re-play every replay of a contest's archive, check every match line's result is its replay's, the matches are the plan's for the definition (none missing, added or twice), and the results recomputed from the replays equal the published results.json; exit 1 naming every difference",
    )
    .argument('<archive>', "the contest's archive (.tar.gz: contest.json, matches.jsonl, results.json, replays/)")
    .option('--max-mib <n>', 'the most the archive may hold once expanded, MiB (default 1024)', parsePositiveInt('--max-mib'))
    .option('--json', 'print the report as JSON')
    .action(async (file: string, o: { maxMib?: number; json?: boolean }) => {
      const { ARCHIVE_LIMITS, readArchive, ArchiveError } = await import('../contests/archive.js');
      const { verifyArchive } = await import('../contests/verify.js');
      const bytes = readFileCapped(file, ARCHIVE_LIMITS.compressedBytes, 'contest archive');
      let archive;
      try {
        archive = await readArchive(bytes, o.maxMib ? { expandedBytes: o.maxMib * 1024 * 1024 } : {});
      } catch (err) {
        if (err instanceof ArchiveError) throw new UsageError(`contest archive ${file}: ${err.message}`);
        throw err;
      }
      const report = verifyArchive(archive);
      const def = archive.contest.definition;
      if (o.json) process.stdout.write(JSON.stringify({ archive: file, contest: def.id, ...report }, null, 2) + '\n');
      else {
        const head = `contest ${def.id} (${def.name}): ${def.game}, ${def.format}, ${archive.contest.entrants.length} entrants, ${archive.matches.length} matches`;
        const lines = [head, ...report.checked.map((c) => `  checked: ${c}`)];
        if (report.ok) lines.push(`ok: ${file} verifies: every replay reproduces and the published results are the recomputed ones`);
        process.stdout.write(lines.join('\n') + '\n');
        if (!report.ok)
          process.stderr.write(
            `${file} does not verify: ${report.differences.length} difference${report.differences.length === 1 ? '' : 's'}\n${report.differences.map((d) => `  ${d}`).join('\n')}\n`,
          );
      }
      if (!report.ok) process.exitCode = 1;
    });
  return contest;
}
