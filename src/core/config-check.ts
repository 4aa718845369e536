import { resolveConfig } from './config.js';
import type { AnyGame } from './definition.js';
import { describeValue } from './describe.js';

/**
 * What is wrong with a match's configuration, or null: the game's keys, their JSON types and bounds
 * (`resolveConfig`), then the game's own rule (`validateConfig`, as the match engine runs it), in the words the
 * API's 400 says them (`config.width: tron's "width" must be …`, `config: bad config for …`). The server refuses
 * a match request with it before any match is created (`src/matches/launch.ts`); the web app's settings form runs
 * the same function as the person types, so a bad value is refused in the page before anything is sent.
 * A JSON body says what it means: a number key takes a number, not the text of one. The server reads no files:
 * a key that holds a map or a board takes its text, never a path.
 */
export function configProblem(game: AnyGame, config: Record<string, unknown>, players: number): string | null {
  for (const [key, value] of Object.entries(config)) {
    const field = Object.hasOwn(game.config, key) ? game.config[key] : undefined;
    if (!field) continue; // resolveConfig names the unknown key and the known ones
    const want = field.type === 'int' ? 'number' : field.type === 'bool' ? 'boolean' : 'string';
    if (typeof value !== want) {
      const bounds = field.type === 'int' && (field.min !== undefined || field.max !== undefined) ? ` in ${field.min ?? '…'}..${field.max ?? '…'}` : '';
      const what = field.type === 'int' ? `an integer${bounds}` : field.type === 'bool' ? 'true or false' : 'a string';
      return `config.${key}: ${game.id}'s "${key}" must be ${what} (JSON ${want}), got ${describeValue(value, 60)}`;
    }
  }
  let problem: string | null;
  try {
    const full = resolveConfig(game.id, game.config, config);
    problem = game.rules.validateConfig?.(full as never, players) ?? null;
  } catch (err) {
    return `config: ${err instanceof Error ? err.message : String(err)}`;
  }
  if (!problem) return null;
  const files = Object.entries(config).filter(
    ([k, v]) =>
      game.config[k]?.type === 'string' && (game.config[k] as { file?: boolean }).file && typeof v === 'string' && !v.includes('\n') && /[/\\]/.test(v),
  );
  const hint = files.length ? `; this server reads no files: give "${files[0]![0]}" the ${files[0]![0]}'s text itself, not a path` : '';
  return `config: bad config for ${game.id} (${Object.keys(config).join(', ') || 'its defaults'}) with ${players} players: ${problem}${hint}`;
}
