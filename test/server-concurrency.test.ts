import assert from 'node:assert/strict';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import { startServer, type RunningServer } from '../src/server/serve.js';
import { ROOT } from './run-cli.js';
import { apiClient, until } from './server.kit.js';

// `--concurrency` bounds every match the server plays, on-demand ones too: those asked for beyond it wait,
// queued, for their turn, and all of them are played.

let server: RunningServer;
const api = apiClient(() => server.url);

before(async () => {
  const quiet = process.env.SERVER_LOG ? process.stderr : new Writable({ write: (_c, _e, cb) => cb() });
  server = await startServer({
    port: 0,
    host: '127.0.0.1',
    database: ':memory:',
    logStream: quiet,
    ladder: false,
    gateway: false,
    concurrency: 1,
    allowCommands: true,
    checkBots: false,
  });
});

after(async () => {
  await server.close(0);
});

describe('botarena serve --concurrency 1', () => {
  it('plays on-demand matches one at a time, the others queued meanwhile, and plays them all', async () => {
    const reg = await api('POST', '/api/bots', {
      game: 'tictactoe',
      name: 'pace',
      endpoint: `stdio:python3 ${join(ROOT, 'test/fixtures/tournament/ttt-pace.py')} 0.1`,
    });
    assert.equal(reg.status, 201, JSON.stringify(reg.body));
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const r = await api('POST', '/api/matches', { game: 'tictactoe', seats: ['pace', 'minimax'] });
      assert.equal(r.status, 201, JSON.stringify(r.body));
      ids.push(r.body!.id as string);
    }
    let most = 0;
    const statuses = await until(
      'every match to end',
      async () => {
        const all = await Promise.all(ids.map(async (id) => (await api('GET', `/api/matches/${id}`)).body!.status as string));
        most = Math.max(most, all.filter((s) => s === 'running').length);
        return all.every((s) => s === 'finished' || s === 'aborted') ? all : null;
      },
      60_000,
    );
    assert.deepEqual(statuses, ['finished', 'finished', 'finished']);
    assert.equal(most, 1, 'never two at once');
  });
});
