import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { sumGame } from '../arena/sum-game.kit.js';
import type { AnyGame, HumanPlay } from '../core/game.js';
import { BrowserTransport, PersonDesk, spokenMs, type DeskNotice } from './browser-transport.js';
import { parseBotSpec, schemeOf } from './schemes.js';
import type { AskMessage, SeatContext } from './transport.js';

// A person in the browser, seen from both sides: the runner asks the seat, a page listens to the desk and
// submits lines. Real timers, kept short.

const human: HumanPlay<{ turn: number }> = {
  hello: (_v, name) => ({ hi: name }),
  prompt: (v) => `turn ${v.turn}: a digit?`,
  parse: (line) => (/^\d$/.test(line) ? { answer: { n: Number(line) } } : { error: `"${line}" is not a digit: type 0..9` }),
};
const game = { ...sumGame, presentation: { ...sumGame.presentation, human } } as unknown as AnyGame;

function seat(limits = {}, g: AnyGame = game) {
  const desk = new PersonDesk({ matchId: 'm1', slot: 0 });
  const ctx: SeatContext = {
    game: g,
    slot: 0,
    players: 1,
    config: { turns: 3 },
    seed: 1,
    name: 'ann',
    log: () => {},
    maxAnswerBytes: 1024,
    maxStderrBytes: 1024,
  };
  return { desk, transport: new BrowserTransport(ctx, desk, limits) };
}

const play = (turn: number, extra: Partial<AskMessage> = {}): AskMessage => ({
  phase: 'play',
  turn,
  view: { turn },
  text: '',
  contentType: 'application/json',
  ...extra,
});
const tick = (ms = 0) => new Promise((r) => setTimeout(r, ms));

describe('BrowserTransport', () => {
  it("answers the hello for the person, then asks: a bad line is the submitter's to fix, a good one is the answer", async () => {
    const { desk, transport } = seat();
    const seen: DeskNotice[] = [];
    desk.listen((n) => seen.push(n));
    await transport.start();
    assert.deepEqual(await transport.ask({ ...play(0), phase: 'init' }, 1000), { kind: 'value', value: { hi: 'ann' }, ms: 0 });
    assert.equal(seen.length, 0, 'the hello asks nobody');
    const asked = transport.ask(play(1, { validate: (a) => ((a as { n: number }).n > 5 ? 'at most 5 here' : null) }), 1000);
    assert.deepEqual(seen[0], {
      type: 'ask',
      turn: 1,
      phase: 'play',
      view: { turn: 1 },
      prompt: 'turn 1: a digit?',
      stream: false,
      seat: { config: { turns: 3 }, answered: [] },
      matchId: 'm1',
      slot: 0,
    });
    assert.deepEqual(desk.submit('4-4'), { ok: false, why: 'bad', error: '"4-4" is not a digit: type 0..9' });
    assert.deepEqual(desk.submit('7'), { ok: false, why: 'bad', error: 'at most 5 here' }, "the rules' check too");
    assert.deepEqual(desk.submit(' 3 '), { ok: true });
    const reply = await asked;
    assert.equal(reply.kind, 'value');
    assert.deepEqual(reply.kind === 'value' && reply.value, { n: 3 });
    assert.deepEqual(seen.at(-1), { type: 'accepted', turn: 1, line: ' 3 ', more: false, matchId: 'm1', slot: 0 });
    assert.deepEqual(desk.submit('1'), { ok: false, why: 'idle', error: 'nothing is asked of this seat now: wait for the next `ask` event' });
    await transport.close(true);
  });

  it('gives a page that comes in later the pending ask first; tells notices; announces the end once at close', async () => {
    const { desk, transport } = seat();
    const asked = transport.ask(play(2), 1000);
    const seen: DeskNotice[] = [];
    desk.listen((n) => seen.push(n));
    assert.equal(seen[0]!.type, 'ask');
    await transport.tell({ phase: 'play', turn: 2, view: { success: true }, text: '', contentType: '' }, 1000);
    assert.deepEqual(seen[1], { type: 'told', turn: 2, phase: 'play', view: { success: true }, matchId: 'm1', slot: 0 });
    desk.submit('1');
    await asked;
    await transport.close(true);
    await transport.close(true);
    assert.deepEqual(
      seen.filter((n) => n.type === 'ended'),
      [{ type: 'ended', reason: 'the match is over', matchId: 'm1', slot: 0 }],
    );
    assert.equal(desk.submit('1').ok, false);
    const late: DeskNotice[] = [];
    desk.listen((n) => late.push(n));
    assert.equal(late[0]!.type, 'ended', 'a page that comes after the end is told so');
  });

  it('faults timeout when no page listens for leaveMs while asked; a page that is open stops that clock', async () => {
    const { desk, transport } = seat({ leaveMs: 60 });
    const t0 = Date.now();
    const reply = await transport.ask(play(1), 10);
    assert.equal(reply.kind, 'fault');
    assert.deepEqual(reply.kind === 'fault' && reply.fault, { kind: 'timeout', detail: 'the person left: no page was open for this seat for 0.1 s' });
    assert.ok(Date.now() - t0 >= 55);
    const again = await transport.ask(play(2), 10);
    assert.deepEqual(
      again.kind === 'fault' && { ...again.fault, ms: again.ms },
      { kind: 'timeout', detail: 'the person left: no page was open for this seat for 0.1 s', ms: 0 },
      'one who left is not waited for again',
    );
    // With a page open the person may think past leaveMs (and past the bot deadline given: people have none).
    const stop = desk.listen(() => {});
    const asked = transport.ask(play(3), 10);
    await tick(120);
    stop(); // the page closes; it comes back in time
    await tick(30);
    const back = desk.listen(() => {});
    await tick(60);
    assert.deepEqual(desk.submit('2'), { ok: true });
    assert.equal((await asked).kind, 'value');
    back();
    await transport.close();
  });

  it('faults timeout after personTurnMs, and transport on a cancel, and withdraws the ask', async () => {
    const { desk, transport } = seat({ personTurnMs: 50 });
    desk.listen(() => {});
    const reply = await transport.ask(play(1), 10);
    assert.deepEqual(reply.kind === 'fault' && reply.fault, { kind: 'timeout', detail: 'no move within 0.1 s' });
    assert.equal(desk.submit('1').ok, false, 'the ask is withdrawn');
    const abort = new AbortController();
    const asked = transport.ask(play(2), 10, abort.signal);
    abort.abort();
    const cancelled = await asked;
    assert.deepEqual(cancelled.kind === 'fault' && cancelled.fault, { kind: 'transport', detail: 'cancelled' });
    assert.equal(spokenMs(600_000), '10 min');
    assert.equal(spokenMs(30_000), '30 s');
  });

  it('in a stream step gives every line to the step as it comes, until the game says the turn is over', async () => {
    const { desk, transport } = seat({}, { ...sumGame, presentation: { ...sumGame.presentation, human: undefined } } as unknown as AnyGame);
    const seen: DeskNotice[] = [];
    desk.listen((n) => seen.push(n));
    const lines: string[] = [];
    const asked = transport.ask(play(1, { view: ['turn 1', 'dog 1 2 3'], converse: (l) => (lines.push(l), l === 'end') }), 10);
    const ask = seen[0] as Extract<DeskNotice, { type: 'ask' }>;
    assert.equal(ask.stream, true);
    assert.match(ask.prompt, /^turn 1\ndog 1 2 3\nsend your commands one line at a time, then end$/);
    assert.deepEqual(desk.submit('move 1 up\nend'), { ok: false, why: 'bad', error: 'send one line at a time: this one has a line break in it' });
    assert.deepEqual(desk.submit('move 1 up'), { ok: true });
    assert.deepEqual(seen.at(-1), { type: 'accepted', turn: 1, line: 'move 1 up', more: true, matchId: 'm1', slot: 0 });
    assert.deepEqual(desk.submit('end'), { ok: true });
    assert.deepEqual(await asked.then((r) => r.kind === 'value' && r.value), [], 'the lines went to the step, not in the reply');
    assert.deepEqual(lines, ['move 1 up', 'end']);
    await transport.close();
  });

  it('is the spec "browser", opened only by the server: a seat from the spec alone is a clear usage error', () => {
    const spec = parseBotSpec('browser', game);
    assert.deepEqual(spec, { transport: 'browser', raw: 'browser' });
    assert.equal(schemeOf(spec).fromConnection, true);
    assert.equal(schemeOf('tcp').fromConnection, true);
    assert.equal(schemeOf('http').fromConnection, false);
    assert.throws(
      () => schemeOf(spec).create(spec as never, {} as SeatContext),
      /a browser seat is a person at a web page of `botarena serve`.*play as `human`/,
    );
  });
});
