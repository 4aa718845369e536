import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Command } from 'commander';
import { UsageError } from '../core/errors.js';
import { games, getGame } from '../games/index.js';
import { PACKAGE_ROOT, table } from './format.js';
import { clip, gameFacts, gamePage, type GameFacts } from '../arena/game-page.js';

/** `botarena games [ID]`: every game with its player counts, config keys and built-in bots; or one game's page. */
export function registerGames(program: Command): void {
  program
    .command('games')
    .description(
      "list the games, their player counts, config keys (with defaults) and built-in bots; with a game's id, its page: also a real message of each phase and a built-in bot's answer",
    )
    .argument('[game]', 'a game id: show that game only')
    .option('--json', 'print the list (or the page) as JSON')
    .option('--schema', "with a game's id: print the JSON Schemas of its messages and answers (the files in schemas/ID/)")
    .action((id: string | undefined, o: { json?: boolean; schema?: boolean }) => {
      if (o.schema) return showSchemas(id);
      if (id !== undefined) return showPage(id, o.json ?? false);
      const list = Object.values(games).map(gameFacts);
      if (o.json) {
        process.stdout.write(JSON.stringify(list, null, 2) + '\n');
        return;
      }
      const blocks = list.map((g) => {
        const lines = [
          `${g.id} — ${g.title} (${playerCount(g)} players)`,
          `  ${g.summary}`,
          `  timeouts: ${g.hello ? `init ${g.timeouts.initMs} ms, ` : ''}turn ${g.timeouts.turnMs} ms; wire dialects: ${g.dialects.join(', ')}`,
          `  built-in bots: ${Object.entries(g.bots)
            .map(([k, d]) => `${k} (${d})`)
            .join('; ')}`,
        ];
        lines.push(...configLines(g, '  '));
        return lines.join('\n');
      });
      process.stdout.write(blocks.join('\n\n') + '\n');
    });
}

const SCHEMAS = join(PACKAGE_ROOT, 'schemas');

/** `--schema`: a game's schemas as one JSON object, file name (without .schema.json) → schema. */
function showSchemas(id: string | undefined): void {
  if (id === undefined) throw new UsageError("--schema goes with a game's id: botarena games tron --schema");
  const game = getGame(id);
  const dir = join(SCHEMAS, game.id);
  if (!existsSync(dir)) throw new UsageError(`${game.id} speaks text lines, not JSON: its lines and their grammar are in docs/games/${game.id}.md`);
  const files = readdirSync(dir)
    .filter((f) => f.endsWith('.schema.json'))
    .sort();
  const schemas = Object.fromEntries(files.map((f) => [f.replace(/\.schema\.json$/, ''), JSON.parse(readFileSync(join(dir, f), 'utf8')) as unknown]));
  process.stdout.write(JSON.stringify(schemas, null, 2) + '\n');
}

/** One game's page: what the list says of it, then a real message of each phase and the answer it got. */
function showPage(id: string, json: boolean): void {
  const page = gamePage(getGame(id));
  if (json) {
    process.stdout.write(JSON.stringify(page, null, 2) + '\n');
    return;
  }
  const t = page.timeouts;
  const lines = [
    `${page.id} — ${page.title} (${playerCount(page)} players)`,
    `  ${page.summary}`,
    '',
    `timeouts: ${page.hello ? `hello ${t.initMs} ms, ` : ''}turn ${t.turnMs} ms${t.slowMs ? ` (answers after ${t.slowMs} ms are noted as slow)` : ''}; after the end a bot has ${t.exitMs ?? 1000} ms to exit`,
    `wire dialects: ${page.dialects.join(', ')}`,
    '',
    'built-in bots (play one with its name as the bot spec):',
    ...Object.entries(page.bots).map(([k, d]) => `  ${k.padEnd(10)} ${d}`),
    '',
  ];
  lines.push(...configLines(page, ''), '');
  lines.push(`what a bot receives and answers (from a match between built-in bots, default config, seed 1):`);
  for (const e of page.examples) {
    const what = e.phase === 'init' ? 'the hello (init), before the first turn' : `turn ${e.turn}`;
    lines.push('', `  ${what}: the bot receives`, clip(e.message, 1200).replace(/^/gm, '    '), `  and answers`, clip(e.answer, 400).replace(/^/gm, '    '));
  }
  process.stdout.write(lines.join('\n') + '\n');
}

/** "2" or "2–12". */
function playerCount(g: GameFacts): string {
  return g.players.min === g.players.max ? `${g.players.min}` : `${g.players.min}–${g.players.max}`;
}

/** The config keys as a table under a heading, each line after `indent`. */
function configLines(g: GameFacts, indent: string): string[] {
  const cfg = Object.entries(g.config);
  if (!cfg.length) return [`${indent}config: none`];
  const rows = [['key', 'default', 'meaning'], ...cfg.map(([k, f]) => [k, String(f.default), describe(f)])];
  return [`${indent}config (--set key=value):`, table(rows).replace(/^/gm, `${indent}  `)];
}

function describe(f: { type: string; description: string; min?: number; max?: number; choices?: readonly string[]; file?: boolean }): string {
  const range = f.type === 'int' && (f.min !== undefined || f.max !== undefined) ? ` (${f.min ?? '…'}..${f.max ?? '…'})` : '';
  const choices = f.choices ? ` (${f.choices.join('|')})` : '';
  const file = f.file ? ' (or a FILE path)' : '';
  return `${f.description}${range}${choices}${file}`;
}
