import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { gameFacts, gamePage } from '../../arena/game-page.js';
import { PACKAGE_ROOT } from '../../arena/package-root.js';
import { games } from '../../games/index.js';
import { errorSchema, notFound } from '../errors.js';

const GameId = Type.Object({ game: Type.String({ maxLength: 64, description: 'a game id, as `GET /api/games` lists them' }) });

/** The games: what `botarena games` shows, as JSON. */
export async function gameRoutes(app: FastifyInstance): Promise<void> {
  const pages = new Map<string, unknown>();
  const schemas = new Map<string, unknown>();
  const rules = new Map<string, unknown>();

  app.get('/api/games', { schema: { tags: ['games'], summary: 'every game: players, deadlines, config keys with defaults, built-in bots' } }, async () => Object.values(games).map(gameFacts));

  app.get(
    '/api/games/:game',
    { schema: { tags: ['games'], summary: "one game's page: its facts and a real message of each phase with an answer", params: GameId, response: { 404: errorSchema } } },
    async (req) => {
      const { game } = req.params as { game: string };
      const g = games[game];
      if (!g) throw notFound(`no game "${game}"; the games are ${Object.keys(games).join(', ')}`);
      if (!pages.has(game)) pages.set(game, gamePage(g));
      return pages.get(game);
    },
  );

  app.get(
    '/api/games/:game/rules',
    { schema: { tags: ['games'], summary: "a game's rules in plain words (Markdown): the introduction and the Rules section of its page in docs/games", params: GameId, response: { 404: errorSchema } } },
    async (req) => {
      const { game } = req.params as { game: string };
      if (!Object.hasOwn(games, game)) throw notFound(`no game "${game}"; the games are ${Object.keys(games).join(', ')}`);
      if (!rules.has(game)) rules.set(game, { markdown: rulesOf(readFileSync(join(PACKAGE_ROOT, 'docs', 'games', `${game}.md`), 'utf8')), page: `docs/games/${game}.md` });
      return rules.get(game);
    },
  );

  app.get(
    '/api/games/:game/schemas',
    { schema: { tags: ['games'], summary: "the JSON Schemas of a game's messages and answers (absent for text-line games)", params: GameId, response: { 404: errorSchema } } },
    async (req) => {
      const { game } = req.params as { game: string };
      if (!games[game]) throw notFound(`no game "${game}"; the games are ${Object.keys(games).join(', ')}`);
      if (!schemas.has(game)) {
        const dir = join(PACKAGE_ROOT, 'schemas', game);
        if (!existsSync(dir)) throw notFound(`${game} speaks text lines, not JSON: its grammar is in docs/games/${game}.md`);
        const files = readdirSync(dir).filter((f) => f.endsWith('.schema.json')).sort();
        schemas.set(game, Object.fromEntries(files.map((f) => [f.replace(/\.schema\.json$/, ''), JSON.parse(readFileSync(join(dir, f), 'utf8')) as unknown])));
      }
      return schemas.get(game);
    },
  );
}

/** The part of a game's docs page a player reads first: everything before the second `## ` heading (the introduction and the Rules section), without the title. */
export function rulesOf(page: string): string {
  const lines = page.split('\n');
  const start = lines[0]?.startsWith('# ') ? 1 : 0;
  const sections = lines.flatMap((l, i) => (l.startsWith('## ') ? [i] : []));
  const end = sections[1] ?? lines.length;
  return lines.slice(start, end).join('\n').trim();
}
