import type { Command } from 'commander';
import { games } from '../games/index.js';
import { table } from './format.js';

/** `botarena games`: every game with its player counts, config keys and built-in bots. */
export function registerGames(program: Command): void {
  program
    .command('games')
    .description('list the games, their player counts, config keys (with defaults) and built-in bots')
    .option('--json', 'print the list as JSON')
    .action((o: { json?: boolean }) => {
      const list = Object.values(games).map((g) => ({
        id: g.id,
        title: g.title,
        summary: g.summary,
        players: g.players,
        timeouts: g.timeouts,
        config: Object.fromEntries(Object.entries(g.config).map(([k, f]) => [k, { ...f }])),
        bots: Object.fromEntries(Object.entries(g.bots).map(([k, b]) => [k, b.description])),
        dialects: ['json', ...Object.keys(g.dialects ?? {})],
      }));
      if (o.json) {
        process.stdout.write(JSON.stringify(list, null, 2) + '\n');
        return;
      }
      const blocks = list.map((g) => {
        const players = g.players.min === g.players.max ? `${g.players.min}` : `${g.players.min}–${g.players.max}`;
        const cfg = Object.entries(g.config);
        const lines = [
          `${g.id} — ${g.title} (${players} players)`,
          `  ${g.summary}`,
          `  timeouts: init ${g.timeouts.initMs} ms, turn ${g.timeouts.turnMs} ms; wire dialects: ${g.dialects.join(', ')}`,
          `  built-in bots: ${Object.entries(g.bots).map(([k, d]) => `${k} (${d})`).join('; ')}`,
        ];
        if (cfg.length) {
          const rows = [['key', 'default', 'meaning'], ...cfg.map(([k, f]) => [k, String(f.default), describe(f)])];
          lines.push('  config (--set key=value):', table(rows).replace(/^/gm, '    '));
        } else lines.push('  config: none');
        return lines.join('\n');
      });
      process.stdout.write(blocks.join('\n\n') + '\n');
    });
}

function describe(f: { type: string; description: string; min?: number; max?: number; choices?: readonly string[]; file?: boolean }): string {
  const range = f.type === 'int' && (f.min !== undefined || f.max !== undefined) ? ` (${f.min ?? '…'}..${f.max ?? '…'})` : '';
  const choices = f.choices ? ` (${f.choices.join('|')})` : '';
  const file = f.file ? ' (or a FILE path)' : '';
  return `${f.description}${range}${choices}${file}`;
}
