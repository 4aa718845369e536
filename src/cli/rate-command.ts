import { Option, type Command } from 'commander';
import { UsageError } from '../core/errors.js';
import type { MatchOutcome } from '../ratings/results.js';

// `botarena rate` reads files (zlib for .gz replays, the replay checks) and loads a rating system only when it
// runs: the command line itself stays light, and OpenSkill (with its dependencies) is loaded by --system openskill.

/** The rating systems `rate` knows. */
export const RATING_SYSTEMS = ['elo', 'openskill'] as const;
export type RatingSystem = (typeof RATING_SYSTEMS)[number];

export interface RateOptions {
  system: RatingSystem;
  game?: string;
  json?: boolean;
}

/** One bot's line in `rate`'s output: `rating` is the ELO, or OpenSkill's ordinal (μ − 3σ) beside μ and σ. */
export interface RateRow {
  name: string;
  rating: number;
  mu?: number;
  sigma?: number;
  games: number;
  wins: number;
  draws: number;
  losses: number;
}

/** `botarena rate [--system elo|openskill] [--game ID] [--json] FILE…`: ratings from finished matches. */
export function registerRate(program: Command): void {
  program
    .command('rate')
    .description(
      "rate the bots of finished matches, per game: botsarena ELO (default) or OpenSkill, from `play --json` output, a tournament's results.jsonl, or replays (.json, .json.gz), in the order given",
    )
    .argument(
      '<files...>',
      "files of JSON result lines (`botarena play --json`, results.jsonl) or replays, rated in file order, then line order (a tournament's lines in match order, as its table: results.jsonl lists them as they finished)",
    )
    .addOption(
      new Option('--system <system>', 'elo: the botsarena ladder (start 1500, duels lap by lap); openskill: Weng-Lin μ/σ, ranked by μ − 3σ')
        .choices(RATING_SYSTEMS)
        .default('elo'),
    )
    .option('--game <id>', 'rate only the matches of this game')
    .option(
      '--json',
      'print { system, games: { GAME: [rows, best first] } } as one JSON object (and skippedErrors: { GAME: N } when matches that ended as an error were skipped)',
    )
    .action(async (files: string[], o: RateOptions) => {
      process.stdout.write(await rateFiles(files, o));
    });
}

/**
 * Reads every file, then rates their matches in file order and line order (a tournament's run of lines in match
 * order, its `index`: see readOutcomes), and returns what `rate` prints: per
 * game (in the order the games first appear) a table of the bots, best first; or the JSON object. Every file
 * is read before anything is rated, so a bad line anywhere stops the command with nothing printed but the
 * error (a UsageError naming the file and the line).
 */
export async function rateFiles(files: string[], o: RateOptions): Promise<string> {
  if (!files.length) throw new UsageError('give at least one file: `botarena play --json` output, a results.jsonl or a replay');
  const outcomes: MatchOutcome[] = [];
  for (const file of files) outcomes.push(...(await readOutcomeFile(file)));
  const counts = new Map<string, number>();
  for (const m of outcomes) counts.set(m.game, (counts.get(m.game) ?? 0) + 1);
  if (o.game !== undefined && !counts.has(o.game)) {
    throw new UsageError(`--game ${o.game}: no match of that game in ${files.join(', ')}; they hold matches of ${[...counts.keys()].join(', ')}`);
  }
  // A match that ended as an error (paint's failed ready handshake) has no game to rate: it is skipped, and counted.
  const errors = new Map<string, number>();
  for (const m of outcomes) if (m.error) errors.set(m.game, (errors.get(m.game) ?? 0) + 1);
  const rated = outcomes.filter((m) => !m.error && (o.game === undefined || m.game === o.game));
  const tables = await rateWith(o.system, rated);
  const games = [...counts.keys()].filter((g) => o.game === undefined || g === o.game);
  const skippedErrors = games.filter((g) => errors.has(g)).map((g) => [g, errors.get(g)!]);
  if (o.json)
    return (
      JSON.stringify({
        system: o.system,
        games: Object.fromEntries(games.map((g) => [g, tables(g)])),
        ...(skippedErrors.length ? { skippedErrors: Object.fromEntries(skippedErrors) } : {}),
      }) + '\n'
    );
  const { table } = await import('./format.js');
  const blocks = games.map((g) => {
    const rows = tables(g);
    const n = counts.get(g)!;
    const skipped = errors.get(g) ?? 0;
    const head = `${g} · ${n} match${n === 1 ? '' : 'es'}${skipped ? ` (${skipped} skipped: ended as an error, not rated)` : ''} · ${o.system === 'elo' ? 'ELO' : 'OpenSkill'}`;
    if (!rows.length) return `${head}\n(nothing to rate: ${skipped === n ? 'every match ended as an error' : 'each match had a single bot in every seat'})`;
    const cells: (string | number)[][] = [['#', 'name', o.system === 'elo' ? 'rating' : 'ordinal (μ, σ)', 'games', 'W-D-L']];
    rows.forEach((r, i) => {
      const rating = o.system === 'elo' ? r.rating.toFixed(1) : `${r.rating.toFixed(1)} (μ ${r.mu!.toFixed(1)} σ ${r.sigma!.toFixed(1)})`;
      cells.push([i + 1, r.name, rating, r.games, `${r.wins}-${r.draws}-${r.losses}`]);
    });
    return `${head}\n${table(cells)}`;
  });
  return blocks.join('\n\n') + '\n';
}

/** Rates the outcomes in order with one system; returns each game's rows, best first. */
async function rateWith(system: RatingSystem, outcomes: MatchOutcome[]): Promise<(game: string) => RateRow[]> {
  if (system === 'openskill') {
    const { SkillLadder } = await import('../ratings/openskill.js');
    const ladder = new SkillLadder();
    for (const m of outcomes) ladder.rate(m);
    return (game) =>
      ladder.table(game).map(({ name, ordinal, mu, sigma, games, wins, draws, losses }) => ({ name, rating: ordinal, mu, sigma, games, wins, draws, losses }));
  }
  const { EloLadder } = await import('../ratings/elo.js');
  const ladder = new EloLadder();
  for (const m of outcomes) ladder.rate(m);
  return (game) => ladder.table(game);
}

/**
 * One file's matches: gzip (told by its first bytes, not its name) is unpacked as a replay is, to at most
 * MAX_REPLAY_JSON_BYTES; a plain file may hold as much (a long tournament's results). Errors name the file
 * (and the line).
 */
async function readOutcomeFile(file: string): Promise<MatchOutcome[]> {
  const { gunzipCapped, readFileCapped, MAX_REPLAY_JSON_BYTES } = await import('./replay-file.js');
  const { readOutcomes } = await import('../ratings/results.js');
  const bytes = readFileCapped(file, MAX_REPLAY_JSON_BYTES, 'results');
  const gz = bytes[0] === 0x1f && bytes[1] === 0x8b;
  const text = gz ? gunzipCapped(bytes, file) : bytes;
  return readOutcomes(text.toString('utf8'), file);
}
