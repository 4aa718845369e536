import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import { newJob } from '../src/arena/match-job.js';
import { startServer, type RunningServer } from '../src/server/serve.js';
import { openStore } from '../src/store/index.js';
import { apiClient, until } from './server.kit.js';

// A person at the table: test matches with seat "person", played over the play stream (SSE) and the move
// route of a real server on 127.0.0.1, as the web page does it.

const dir = mkdtempSync(join(tmpdir(), 'botarena-server-person-'));
const quiet = () => (process.env.SERVER_LOG ? process.stderr : new Writable({ write: (_c, _e, cb) => cb() }));
const LEAVE_MS = 1500;
let server: RunningServer;
const api = apiClient(() => server.url);

before(async () => {
  server = await startServer({
    port: 0,
    host: '127.0.0.1',
    database: join(dir, 'person.sqlite'),
    logStream: quiet(),
    ladder: false,
    gateway: false,
    person: { leaveMs: LEAVE_MS },
  });
});
after(async () => {
  await server.close(500);
  rmSync(dir, { recursive: true, force: true });
});

interface PlayEvent {
  event: string;
  data: Record<string, unknown> & { view?: unknown };
}

/** A small SSE reader: `next()` is the next event; `close()` hangs up like a page that is closed. */
async function playStream(path: string) {
  const abort = new AbortController();
  const res = await fetch(server.url + path, { signal: abort.signal });
  if (res.status !== 200) assert.fail(`${path}: ${res.status} ${await res.text()}`);
  assert.equal(res.headers.get('content-type')?.split(';')[0], 'text/event-stream');
  const reader = res.body!.getReader();
  let buffer = '';
  const events: PlayEvent[] = [];
  return {
    async next(): Promise<PlayEvent> {
      for (;;) {
        const block = /^([\s\S]*?)\n\n/.exec(buffer);
        if (block) {
          buffer = buffer.slice(block[0].length);
          const event = /^event: (.+)$/m.exec(block[1]!)?.[1];
          const data = /^data: (.+)$/m.exec(block[1]!)?.[1];
          if (event && data) {
            const e = { event, data: JSON.parse(data) as PlayEvent['data'] };
            events.push(e);
            return e;
          }
          continue; // a keep-alive comment
        }
        const { done, value } = await reader.read();
        if (done) throw new Error(`the play stream ended; events so far: ${events.map((e) => e.event).join(', ')}`);
        buffer += Buffer.from(value).toString();
      }
    },
    /** the next event of a type, the others skipped */
    async nextOf(type: string): Promise<PlayEvent> {
      for (let e = await this.next(); ; e = await this.next()) if (e.event === type) return e;
    },
    close: () => abort.abort(),
    events,
  };
}

/** Starts a test match; returns its id and the person tokens by slot. */
async function start(game: string, seats: string[], extra: Record<string, unknown> = {}) {
  const r = await api('POST', '/api/matches', { game, seats, test: true, ...extra });
  assert.equal(r.status, 201, JSON.stringify(r.body));
  const persons = r.body!.persons as { slot: number; token: string }[];
  return { id: r.body!.id as string, token: (slot: number) => persons.find((p) => p.slot === slot)!.token };
}

const move = (id: string, slot: number, body: unknown, token?: string) => api('POST', `/api/matches/${id}/seats/${slot}/move`, body, token);

describe('a person at the table (seat "person" of a test match)', () => {
  it('plays tic-tac-toe against minimax to the end: asks, a bad line answered with its reason, moves, the end', async () => {
    const { id, token } = await start('tictactoe', ['person', 'minimax']);
    const play = await playStream(`/api/matches/${id}/seats/0/play?token=${token(0)}`);
    let asks = 0;
    for (;;) {
      const e = await play.next();
      if (e.event === 'ended') {
        const result = e.data.result as { players: { slot: number; rank: number; bot: string }[] };
        assert.equal(result.players[0]!.bot, 'browser');
        assert.ok(result.players[0]!.rank >= result.players[1]!.rank, 'minimax never loses: the person loses or draws');
        break;
      }
      if (e.event !== 'ask') continue;
      asks++;
      assert.equal(e.data.matchId, id);
      assert.equal(e.data.slot, 0);
      const view = e.data.view as { action: string; board: Record<string, string> };
      assert.equal(view.action, 'play-turn');
      assert.match(e.data.prompt as string, /your move \(row-col/);
      if (asks === 1) {
        const bad = await move(id, 0, { line: '4-4' }, token(0));
        assert.equal(bad.status, 400);
        assert.match(bad.body!.error!.message, /^"4-4" is not a cell: type row-col/);
        const wrong = await move(id, 0, { line: '0-0', token: 'person_not-the-token' });
        assert.equal(wrong.status, 403, JSON.stringify(wrong.body));
      }
      const cell = Object.keys(view.board).find((k) => view.board[k] === '')!;
      const ok = await move(id, 0, { line: cell, token: token(0) });
      assert.deepEqual(ok, { status: 200, body: { accepted: true } });
      const accepted = await play.nextOf('accepted');
      assert.equal(accepted.data.line, cell);
    }
    assert.ok(asks >= 3);
    const m = await until('the match recorded', async () => {
      const r = await api('GET', `/api/matches/${id}`);
      return r.body!.status === 'finished' ? r.body : null;
    });
    assert.equal(m.rated, false);
    assert.equal(m.kind, 'test');
    const seats = m.seats as { botId: string; name: string; fault: unknown }[];
    const bots = await api('GET', '/api/bots?game=tictactoe');
    const person = (bots.body as unknown as { id: string; name: string; builtin: boolean; endpoint: string }[]).find((b) => b.name === 'person');
    assert.equal(seats[0]!.botId, person?.id, "recorded under the game's person row");
    assert.equal(person?.builtin, true);
    assert.equal(person?.endpoint, 'built-in: browser');
    assert.equal(seats[0]!.fault, null);
    // Just after the end the seat still says so: a late move is told the match is over, a page that comes back gets `ended`.
    const late = await move(id, 0, { line: '0-0' }, token(0));
    assert.equal(late.status, 404, 'the match is over');
    assert.match(late.body!.error!.message, /the match is over for this seat \(its result: \/api\/matches\//);
    const back = await playStream(`/api/matches/${id}/seats/0/play?token=${token(0)}`);
    const ended = await back.next();
    assert.equal(ended.event, 'ended');
    assert.equal(ended.data.reason, 'the match is over');
  });

  it("refuses a move when nothing is asked of the seat (409), another seat's token (403), none (401); a person who leaves forfeits", async () => {
    const { id, token } = await start('tictactoe', ['person', 'person']);
    const first = await playStream(`/api/matches/${id}/seats/0/play?token=${token(0)}`);
    const ask = await first.nextOf('ask');
    assert.equal(ask.data.turn, 1);
    const idle = await move(id, 1, { line: '1-1' }, token(1));
    assert.equal(idle.status, 409);
    assert.match(idle.body!.error!.message, /nothing is asked of this seat now/);
    assert.equal((await move(id, 0, { line: '1-1' }, token(1))).status, 403);
    assert.equal((await move(id, 0, { line: '1-1' })).status, 401);
    assert.equal((await move(id, 7, { line: '1-1' }, token(0))).status, 404);
    assert.equal((await api('GET', `/api/matches/${id}/seats/0/play?token=nope`)).status, 403);
    // The person closes the page and does not come back.
    first.close();
    const m = await until(
      'the forfeit',
      async () => {
        const r = await api('GET', `/api/matches/${id}`);
        return r.body!.status === 'finished' ? r.body : null;
      },
      LEAVE_MS + 10_000,
    );
    const fault = (m.seats as { fault: { kind: string; detail: string } | null }[])[0]!.fault;
    assert.equal(fault?.kind, 'timeout');
    assert.equal(fault?.detail, 'the person left: no page was open for this seat for 1.5 s');
  });

  it('refuses hostile bodies at bounded cost, and "person" outside test matches', async () => {
    const { id, token } = await start('tictactoe', ['minimax', 'person']);
    const huge = await move(id, 1, JSON.stringify({ line: 'x'.repeat(1024 * 1024) }), token(1));
    assert.equal(huge.status, 413);
    assert.match(huge.body!.error!.message, /larger than the 8 KiB/);
    const long = await move(id, 1, { line: 'x'.repeat(2001) }, token(1));
    assert.equal(long.status, 400);
    assert.match(long.body!.error!.message, /body\.line: must be at most 2000 characters/);
    for (const body of [
      { game: 'tictactoe', seats: ['person', 'random'] },
      { game: 'tictactoe', seats: ['person', 'random'], rated: true },
    ]) {
      const r = await api('POST', '/api/matches', body);
      assert.equal(r.status, 400, JSON.stringify(body));
      assert.match(r.body!.error!.message, /seats\[0\]: a person plays test matches only: give "test": true/);
    }
    const reg = await api('POST', '/api/bots', { game: 'tictactoe', name: 'me', endpoint: 'browser' });
    assert.equal(reg.status, 400);
    assert.match(reg.body!.error!.message, /people play from the web page/);
  });

  it("plays smart-dog with built-in bots: the ask is smart-dog's own lines, and each line is taken as it comes", async () => {
    const { id, token } = await start('smartdog', ['person', 'random'], { config: { options: '{"turnsLimit":3}' } });
    const play = await playStream(`/api/matches/${id}/seats/0/play?token=${token(0)}`);
    const ask = await play.nextOf('ask');
    assert.equal(ask.data.stream, true);
    const lines = ask.data.view as string[];
    assert.ok(Array.isArray(lines) && lines.some((l) => /^start /.test(l)), JSON.stringify(lines).slice(0, 200));
    assert.deepEqual(await move(id, 0, { line: 'end' }, token(0)), { status: 200, body: { accepted: true } });
    assert.equal((await play.nextOf('accepted')).data.more, false);
    for (let turn = 2; ; turn++) {
      const e = await play.next();
      if (e.event === 'ended') break;
      if (e.event === 'ask') await move(id, 0, { line: 'end' }, token(0));
    }
    const refused = await api('POST', '/api/matches', { game: 'smartdog', seats: ['person', 'random'] });
    assert.equal(refused.status, 400, "a smart-dog match that is not a test is still the gateway's");
  });

  it('tells a lighthouses person the result of each command', async () => {
    const { id, token } = await start('lighthouses', ['person', 'random']);
    const play = await playStream(`/api/matches/${id}/seats/0/play?token=${token(0)}`);
    await play.nextOf('ask');
    assert.equal((await move(id, 0, { line: 'pass' }, token(0))).status, 200);
    const told = await play.nextOf('told');
    assert.deepEqual(told.data.view, { success: true });
    play.close();
  });

  it("aborts a person's match left queued by a killed server when it starts again, with the reason", async () => {
    const database = join(dir, 'restart.sqlite');
    const quietOnce = { port: 0, host: '127.0.0.1', database, logStream: quiet(), ladder: false, gateway: false } as const;
    await (await startServer(quietOnce)).close(100); // the person rows
    const store = await openStore(database);
    const person = (await store.getBotByName('tictactoe', 'person'))!;
    const random = (await store.getBotByName('tictactoe', 'random'))!;
    const job = newJob({
      matchId: crypto.randomUUID(),
      game: 'tictactoe',
      seed: 1,
      config: {},
      seats: [
        { bot: 'browser', name: 'person' },
        { bot: 'random', name: 'random' },
      ],
      timeouts: {},
    });
    await store.createMatch({ id: job.matchId, game: 'tictactoe', kind: 'test', rated: false, seed: 1, config: {}, job, seats: [person.id, random.id] });
    await store.close();
    const again = await startServer(quietOnce);
    try {
      const m = (await (await fetch(`${again.url}/api/matches/${job.matchId}`)).json()) as { status: string; abortReason: string };
      assert.equal(m.status, 'aborted');
      assert.equal(m.abortReason, 'a person played in it from a web page, and the page is gone: it cannot be started again');
    } finally {
      await again.close(100);
    }
  });

  it('never puts the person on the ladder', async () => {
    const ladder = await startServer({
      port: 0,
      host: '127.0.0.1',
      database: join(dir, 'ladder.sqlite'),
      logStream: quiet(),
      gateway: false,
      allowCommands: true,
      checkBots: false,
      ladderBurst: 20,
      perBotPerHour: 1000,
      concurrency: 4,
    });
    const call = apiClient(() => ladder.url);
    try {
      const r = await call('POST', '/api/bots', {
        game: 'tictactoe',
        name: 'pace',
        endpoint: `stdio:python3 ${join(process.cwd(), 'test/fixtures/tournament/ttt-pace.py')} 0`,
      });
      assert.equal(r.status, 201, JSON.stringify(r.body));
      const played = await until(
        'twelve ladder matches',
        async () => {
          const m = await call('GET', '/api/matches?game=tictactoe&kind=ladder&limit=100');
          const items = m.body!.items as { seats: { name: string }[] }[];
          return items.length >= 12 ? items : null;
        },
        60_000,
      );
      assert.deepEqual(
        played.flatMap((m) => m.seats.filter((s) => s.name === 'person')),
        [],
        'the ladder picked the person',
      );
    } finally {
      await ladder.close(500);
    }
  });
});
