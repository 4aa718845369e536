import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { DeskNotice, PersonAsk } from '../bots/browser-transport.js';
import { DeskHost, PortDesk } from './desk-bridge.js';

// The two ends of a person's desk joined by a real MessageChannel, both on this thread. The end of a match comes
// to the server's thread on the match pool's channel, not the desk's: it may overtake the desk's last messages.
// Here it does so every time: the host is ended at the moment the thread takes the line, before its `taken`
// (posted on the desk's channel) can arrive.

const ask = (turn: number): PersonAsk => ({ turn, phase: 'play', view: { turn }, prompt: `turn ${turn}?`, stream: false, seat: { config: {}, answered: [] } });
const RESULT = { reason: 'the match is over', result: { winner: 0 } };

function desk() {
  const host = new DeskHost({ matchId: 'm', slot: 0 });
  const thread = new PortDesk(host.attach());
  const seen: DeskNotice[] = [];
  host.listen((n) => seen.push(n));
  return { host, thread, seen };
}

/** Lets the messages on the way between the two ends arrive. */
const settle = () => new Promise((r) => setTimeout(r, 20));

describe('a person desk across threads, at the end of the match', () => {
  it('the winning move, taken just before the end arrives, is answered as taken (not "the match is over")', async () => {
    const { host, thread, seen } = desk();
    const taken: string[] = [];
    thread.ask(ask(21), (line) => {
      taken.push(line);
      host.end(RESULT); // the match ended on this move, and its end arrived before the desk's answer
      return null;
    });
    await settle();
    assert.equal(seen[0]?.type, 'ask', 'the page was asked');
    const answer = await host.submit('4');
    assert.deepEqual(taken, ['4'], 'the thread took the line');
    assert.deepEqual(answer, { ok: true }, 'the move the match took is answered as taken');
    assert.deepEqual(
      seen.map((n) => n.type),
      ['ask', 'ended'],
    );
    assert.deepEqual(await host.submit('5'), { ok: false, why: 'over', error: 'the match is over for this seat' }, 'a move after the end: over');
  });

  it('a line sent before the end that the thread did not take is answered "the match is over", and a later ask is shown to no page', async () => {
    const { host, thread, seen } = desk();
    thread.ask(ask(3), () => null);
    await settle();
    thread.withdraw(); // the seat's ask is gone (the match ended) while the page's line is on its way
    const answer = host.submit('1');
    host.end(RESULT);
    assert.deepEqual(await answer, { ok: false, why: 'over', error: 'the match is over for this seat' });
    thread.ask(ask(5), () => null);
    await settle();
    const late: DeskNotice[] = [];
    host.listen((n) => late.push(n));
    assert.deepEqual(
      seen.map((n) => n.type),
      ['ask', 'ended'],
      'no ask after the end',
    );
    assert.deepEqual(
      late.map((n) => n.type),
      ['ended'],
      'a page that comes later is told it is over',
    );
  });

  it('a line the thread never answers is told "the match is over" when the thread goes', async () => {
    const { host, thread } = desk();
    thread.ask(ask(1), () => null);
    await settle();
    const answer = host.submit('1');
    host.end(RESULT);
    thread.end(); // the thread's side closes with the line unanswered (its port closed first)
    assert.equal((await answer).ok, false);
  });
});
