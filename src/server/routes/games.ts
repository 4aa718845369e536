import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { ErrorBody, GameList, GamePage, GameParams, GameRules, GameSchemas } from '../../api/index.js';
import { gameFacts, gamePage } from '../../arena/game-page.js';
import { PACKAGE_ROOT } from '../../arena/package-root.js';
import { games } from '../../games/index.js';
import { notFound } from '../errors.js';

/** The games: what `botarena games` shows, as JSON. */
export async function gameRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const pages = new Map<string, GamePage>();
  const schemas = new Map<string, GameSchemas>();
  const rules = new Map<string, GameRules>();

  app.get(
    '/api/games',
    { schema: { tags: ['games'], summary: 'every game: players, deadlines, config keys with defaults, built-in bots', response: { 200: GameList } } },
    async () => Object.values(games).map(gameFacts),
  );

  app.get(
    '/api/games/:game',
    {
      schema: {
        tags: ['games'],
        summary: "one game's page: its facts and a real message of each phase with an answer",
        params: GameParams,
        response: { 200: GamePage, 404: ErrorBody },
      },
    },
    async (req) => {
      const { game } = req.params;
      const g = Object.hasOwn(games, game) ? games[game] : undefined;
      if (!g) throw notFound(`no game "${game}"; the games are ${Object.keys(games).join(', ')}`);
      let page = pages.get(game);
      if (!page) pages.set(game, (page = gamePage(g)));
      return page;
    },
  );

  app.get(
    '/api/games/:game/rules',
    {
      schema: {
        tags: ['games'],
        summary: "a game's rules in plain words (Markdown): the introduction and the Rules section of its page in docs/games",
        params: GameParams,
        response: { 200: GameRules, 404: ErrorBody },
      },
    },
    async (req) => {
      const { game } = req.params;
      if (!Object.hasOwn(games, game)) throw notFound(`no game "${game}"; the games are ${Object.keys(games).join(', ')}`);
      let answer = rules.get(game);
      if (!answer)
        rules.set(
          game,
          (answer = { markdown: rulesOf(readFileSync(join(PACKAGE_ROOT, 'docs', 'games', `${game}.md`), 'utf8')), page: `docs/games/${game}.md` }),
        );
      return answer;
    },
  );

  app.get(
    '/api/games/:game/schemas',
    {
      schema: {
        tags: ['games'],
        summary: "the JSON Schemas of a game's messages and answers (absent for text-line games)",
        params: GameParams,
        response: { 200: GameSchemas, 404: ErrorBody },
      },
    },
    async (req) => {
      const { game } = req.params;
      if (!Object.hasOwn(games, game)) throw notFound(`no game "${game}"; the games are ${Object.keys(games).join(', ')}`);
      let answer = schemas.get(game);
      if (!answer) {
        const dir = join(PACKAGE_ROOT, 'schemas', game);
        if (!existsSync(dir)) throw notFound(`${game} speaks text lines, not JSON: its grammar is in docs/games/${game}.md`);
        const files = readdirSync(dir)
          .filter((f) => f.endsWith('.schema.json'))
          .sort();
        schemas.set(
          game,
          (answer = Object.fromEntries(files.map((f) => [f.replace(/\.schema\.json$/, ''), JSON.parse(readFileSync(join(dir, f), 'utf8')) as unknown]))),
        );
      }
      return answer;
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
