// The HTTP API's schemas (src/api) as a client sees them: the OpenAPI document is the one served before the
// schemas moved, plus a schema for every 2xx answer; and since a response schema also serialises (it drops what
// it does not name), every answer still carries every field the server builds from what it keeps.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { gunzipSync } from 'node:zlib';
import { after, before, describe, it } from 'node:test';
import { gameFacts, gamePage } from '../src/arena/game-page.js';
import { games } from '../src/games/index.js';
import { publicBot } from '../src/server/routes/bots.js';
import { rulesOf } from '../src/server/routes/games.js';
import { publicMatch, withEloMargin } from '../src/server/routes/matches.js';
import { startServer, type RunningServer } from '../src/server/serve.js';
import { openStore, type Store } from '../src/store/index.js';
import { apiClient, until } from './server.kit.js';

type Doc = {
  info: { version: string };
  paths: Record<string, Record<string, { responses: Record<string, { content?: Record<string, { schema: Record<string, unknown> }> }> }>>;
};

/** The OpenAPI document without its 2xx answers: what the schemas' move must leave as it was. */
function without2xx(doc: Doc): Doc {
  const copy = JSON.parse(JSON.stringify(doc)) as Doc;
  for (const operations of Object.values(copy.paths)) {
    for (const op of Object.values(operations)) op.responses = Object.fromEntries(Object.entries(op.responses).filter(([status]) => !status.startsWith('2')));
  }
  return copy;
}

/**
 * The document without what later issues added on purpose: issue 36's uploads (PUT /api/bots/{id}/code,
 * GET /api/bots/{id}/versions, and POST /api/bots's 413 for an upload over its cap).
 */
function withoutLaterRoutes(doc: Doc): Doc {
  const copy = JSON.parse(JSON.stringify(doc)) as Doc;
  delete copy.paths['/api/bots/{id}/code'];
  delete copy.paths['/api/bots/{id}/versions'];
  delete copy.paths['/api/uploads'];
  delete copy.paths['/api/bots']?.post?.responses['413'];
  // Issue 38's contests: their routes, their tag, the admin token's scheme, and the match kind 'contest'.
  for (const path of Object.keys(copy.paths)) if (path.startsWith('/api/contests')) delete copy.paths[path];
  const extra = copy as unknown as { tags?: { name: string }[]; components?: { securitySchemes?: Record<string, unknown> } };
  extra.tags = extra.tags?.filter((t) => t.name !== 'contests');
  delete extra.components?.securitySchemes?.admin;
  const noContestKind = (v: unknown): unknown => {
    if (Array.isArray(v))
      return v
        .filter((x) => x !== 'contest' && !(x && typeof x === 'object' && JSON.stringify((x as { enum?: unknown }).enum) === '["contest"]'))
        .map(noContestKind);
    if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, noContestKind(x)]));
    return v;
  };
  copy.paths = noContestKind(copy.paths) as Doc['paths'];
  // Issue 36's connect: a bot's endpoint may be "connect:", said in its description.
  return JSON.parse(
    JSON.stringify(copy).replaceAll('; \\"connect:\\" for a bot its author links from their own machine (`botarena connect`: docs/connect.md)', ''),
  ) as Doc;
}

/** A value as JSON carries it (what a client compares with). */
const asJson = (v: unknown): unknown => JSON.parse(JSON.stringify(v));

const quiet = () => new Writable({ write: (_c, _e, cb) => cb() });

const ADMIN = 'admin-secret-api-0123456789';

describe('the HTTP API and its schemas', () => {
  let dir: string;
  let server: RunningServer;
  let store: Store;
  let broken: ChildProcess;
  let url: string;
  const api = apiClient(() => server.url);

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'botarena-api-'));
    const database = join(dir, 'arena.sqlite');
    // Its broken bot listens on 127.0.0.1: private addresses are allowed explicitly (they are off by default).
    server = await startServer({
      port: 0,
      host: '127.0.0.1',
      database,
      logStream: quiet(),
      ladder: false,
      gateway: false,
      allowPrivateBots: true,
      adminToken: ADMIN,
    });
    // A second connection to the same file: what the server keeps, read apart from the server's code path.
    store = await openStore(database);
    broken = spawn(process.execPath, ['test/fixtures/broken-http-bot.mjs'], { stdio: ['ignore', 'pipe', 'inherit'] });
    const port = await new Promise<number>((resolve) => broken.stdout!.once('data', (d: Buffer) => resolve(Number(String(d).trim()))));
    url = `http://127.0.0.1:${port}/`;
  });
  after(async () => {
    broken?.kill('SIGKILL');
    await store?.close();
    await server?.close(2000);
    rmSync(dir, { recursive: true, force: true });
  });

  it('keeps its schemas in a pure module: src/api imports typebox, itself, and only types of src/core and src/games', () => {
    for (const file of readdirSync('src/api')) {
      const code = readFileSync(join('src/api', file), 'utf8');
      for (const [, typeOnly, from] of code.matchAll(/^(?:import|export)\s+(type\s+)?[^'";]*?from\s+'([^']+)'/gm)) {
        const allowed = from === 'typebox' || /^\.\/[a-z-]+\.js$/.test(from!) || (!!typeOnly && /^\.\.\/(core|games)\//.test(from!));
        assert.ok(
          allowed,
          `src/api/${file} imports ${typeOnly ? 'types of ' : ''}${from}: the web app bundles what src/api imports (it may use typebox, itself, and types of src/core and src/games)`,
        );
      }
      assert.doesNotMatch(code, /\b(process|Buffer|require)\b|node:/, `src/api/${file} uses Node`);
    }
  });

  it('serves the OpenAPI document it served before the schemas moved, plus a schema for every 2xx answer', async () => {
    const served = await api('GET', '/docs/json');
    assert.equal(served.status, 200);
    const doc = served.body as unknown as Doc;
    const before = JSON.parse(readFileSync('test/fixtures/api/openapi-before.json', 'utf8')) as Doc;
    // The version is the engine's (it moves with releases); nothing else may differ but the 2xx answers.
    assert.deepEqual(without2xx(withoutLaterRoutes({ ...doc, info: { ...doc.info, version: before.info.version } })), without2xx(before));
    for (const [path, operations] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(operations)) {
        const ok = Object.entries(op.responses).filter(([status]) => status.startsWith('2'));
        assert.equal(ok.length, 1, `${method} ${path} has one 2xx answer`);
        const [status, answer] = ok[0]!;
        if (status === '204') continue;
        const schemas = Object.values(answer.content ?? {}).map((c) => c.schema);
        assert.ok(schemas.length > 0 && schemas.every((s) => Object.keys(s).length > 0), `${method} ${path}: its ${status} answer has a schema`);
      }
    }
  });

  it('answers with every field of what it keeps: games, bots, doctor reports, matches, logs, ratings, leaderboards', async () => {
    // Games: the facts and pages `botarena games` shows, the rules, the JSON Schemas.
    assert.deepEqual((await api('GET', '/api/games')).body, asJson(Object.values(games).map(gameFacts)));
    // The web app offers no registration and a one-seat test for a game whose bots connect in: it reads `lobby`, never a game's id.
    assert.deepEqual(
      ((await api('GET', '/api/games')).body as unknown as { id: string; lobby: boolean }[]).filter((g) => g.lobby).map((g) => g.id),
      ['smartdog'],
    );
    for (const g of Object.values(games)) {
      assert.deepEqual((await api('GET', `/api/games/${g.id}`)).body, asJson(gamePage(g)), g.id);
      const page = `docs/games/${g.id}.md`;
      assert.deepEqual((await api('GET', `/api/games/${g.id}/rules`)).body, { markdown: rulesOf(readFileSync(page, 'utf8')), page });
      const schemaDir = join('schemas', g.id);
      const schemas = await api('GET', `/api/games/${g.id}/schemas`);
      if (!existsSync(schemaDir)) assert.equal(schemas.status, 404);
      else {
        const files = readdirSync(schemaDir).filter((f) => f.endsWith('.schema.json'));
        assert.deepEqual(
          schemas.body,
          Object.fromEntries(files.map((f) => [f.replace(/\.schema\.json$/, ''), JSON.parse(readFileSync(join(schemaDir, f), 'utf8')) as unknown])),
        );
      }
    }

    // A bot that fails its check: its doctor report (failed checks with their fixes) comes back whole.
    const created = await api('POST', '/api/bots', { game: 'tictactoe', name: 'broken', endpoint: url, description: 'answers prose', owner: 'me@example.org' });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const id = (created.body!.bot as { id: string }).id;
    const token = created.body!.token as string;
    assert.deepEqual(Object.keys(created.body!).sort(), ['bot', 'note', 'token']);
    assert.deepEqual(Object.keys(created.body!.bot as object).sort(), Object.keys(publicBot((await store.getBot(id))!)).sort());
    await until('the check', async () => (await store.getBot(id))!.status !== 'checking');
    const detail = async (botId: string) => {
      const row = (await store.getBot(botId))!;
      return asJson({ ...publicBot(row), ratings: await store.ratingsOf(botId), doctor: row.doctorReport ? (JSON.parse(row.doctorReport) as unknown) : null });
    };
    const shown = await api('GET', `/api/bots/${id}`);
    assert.deepEqual(shown.body, await detail(id));
    const report = shown.body!.doctor as { ok: boolean; checks: { fix?: string }[] };
    assert.equal(report.ok, false);
    assert.ok(
      report.checks.some((c) => c.fix),
      'a failed check says what to change',
    );

    const checked = await api('POST', `/api/bots/${id}/check`, undefined, token);
    assert.equal(checked.status, 200, JSON.stringify(checked.body));
    const row = (await store.getBot(id))!;
    assert.deepEqual(checked.body, asJson({ report: JSON.parse(row.doctorReport!) as unknown, bot: publicBot(row) }));

    const patched = await api('PATCH', `/api/bots/${id}`, { description: 'still answers prose', capacity: 3 }, token);
    assert.equal(patched.status, 200, JSON.stringify(patched.body));
    assert.deepEqual(patched.body, asJson(publicBot((await store.getBot(id))!)));

    // A rated match between built-in bots (the admin's: nobody else asks for one): the match, its result, its seats, and the ratings it leaves.
    const rated = await api('POST', '/api/matches', { game: 'tictactoe', seats: ['minimax', 'random'], rated: true, seed: 7 }, ADMIN);
    assert.equal(rated.status, 201, JSON.stringify(rated.body));
    const ratedId = rated.body!.id as string;
    assert.deepEqual(Object.keys(rated.body!).sort(), Object.keys(publicMatch((await store.getMatch(ratedId))!)).sort());
    await until('the rated match to end', async () => (await store.getMatch(ratedId))!.status === 'finished');
    assert.deepEqual((await api('GET', `/api/matches/${ratedId}`)).body, asJson(publicMatch((await store.getMatch(ratedId))!)));

    // A test match of a bot given by its URL: a seat with a fault, the viewer token, the seat's log.
    const test = await api('POST', '/api/matches', { game: 'tictactoe', test: true, seats: [url, 'minimax'] });
    assert.equal(test.status, 201, JSON.stringify(test.body));
    const testId = test.body!.id as string;
    const viewer = test.body!.viewerToken as string;
    assert.match(viewer, /^viewer_/);
    assert.deepEqual(Object.keys(test.body!).sort(), [...Object.keys(publicMatch((await store.getMatch(testId))!)), 'viewerToken'].sort());
    await until('the test match to end', async () => (await store.getMatch(testId))!.status === 'finished');
    const finished = (await api('GET', `/api/matches/${testId}`)).body!;
    assert.deepEqual(finished, asJson(publicMatch((await store.getMatch(testId))!)));
    assert.equal((finished.seats as { fault: { kind: string } | null }[])[0]!.fault?.kind, 'not-json');
    const log = await api('GET', `/api/matches/${testId}/logs/0`, undefined, viewer);
    assert.equal(log.status, 200);
    assert.deepEqual(log.body, JSON.parse(gunzipSync((await store.getLogs(testId, 0))!).toString('utf8')));

    // A test match with a person at the table: the person seat's token, shown once.
    const person = await api('POST', '/api/matches', { game: 'tictactoe', test: true, seats: ['person', 'random'] });
    assert.equal(person.status, 201, JSON.stringify(person.body));
    const persons = person.body!.persons as { slot: number; token: string }[];
    assert.deepEqual(
      persons.map((p) => p.slot),
      [0],
    );
    assert.match(persons[0]!.token, /^person_/);
    assert.deepEqual(
      Object.keys(person.body!).sort(),
      [...Object.keys(publicMatch((await store.getMatch(person.body!.id as string))!)), 'persons', 'viewerToken'].sort(),
    );

    // Lists, ratings, records, leaderboards.
    const page = await store.listMatches({ game: 'tictactoe', status: 'finished', limit: 1 });
    assert.deepEqual(
      (await api('GET', '/api/matches?game=tictactoe&status=finished&limit=1')).body,
      asJson({ items: page.items.map(publicMatch), next: page.next }),
    );
    const bots = (await store.listBots({ game: 'tictactoe' })).map(publicBot);
    assert.deepEqual((await api('GET', '/api/bots?game=tictactoe')).body, asJson(bots));
    const minimax = bots.find((b) => b.builtin && b.endpoint === 'built-in: minimax')!;
    const minimaxShown = await api('GET', `/api/bots/${minimax.id}`);
    assert.deepEqual(minimaxShown.body, await detail(minimax.id));
    assert.equal((minimaxShown.body!.ratings as unknown[]).length, 2, 'rated in ELO and OpenSkill');
    assert.deepEqual(
      (await api('GET', `/api/bots/${minimax.id}/ratings`)).body,
      asJson({ elo: await store.ratingHistory(minimax.id, 'elo'), openskill: await store.ratingHistory(minimax.id, 'openskill') }),
    );
    const h2h = await api('GET', `/api/bots/${minimax.id}/head-to-head`);
    assert.deepEqual(h2h.body, asJson(await store.headToHead(minimax.id)));
    assert.equal((h2h.body as unknown as unknown[]).length, 1);
    // ELO lines come with their ± (the tournament table's).
    assert.deepEqual((await api('GET', '/api/leaderboards/tictactoe')).body, asJson((await store.leaderboard('tictactoe', 'elo', 100)).map(withEloMargin)));
    const skill = await api('GET', '/api/leaderboards/tictactoe?system=openskill&limit=1');
    assert.deepEqual(skill.body, asJson(await store.leaderboard('tictactoe', 'openskill', 1)));
    assert.equal(typeof (skill.body as unknown as { mu: number }[])[0]!.mu, 'number');

    // Deleting answers 204 with no body.
    const deleted = await fetch(`${server.url}/api/bots/${id}`, { method: 'DELETE', headers: { authorization: `Bearer ${token}` } });
    assert.equal(deleted.status, 204);
    assert.equal(await deleted.text(), '');
  });
});
