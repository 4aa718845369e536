import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { LINK_LOST } from '../bots/link-transport.js';
import { pauseReason } from '../ladder/pick.js';
import { playedOutcomes } from './play.js';

// A bot linked from its author's machine whose link drops mid-match loses those matches by the fault rule, and is
// away until it links again: it is not paused for them (the pause rule reads the matches it played).

const lost = { fault: { kind: 'transport', detail: `${LINK_LOST}: the connection closed (1006)`, turn: 3 } };
const timeout = { fault: { kind: 'timeout', detail: 'no answer within 500 ms', turn: 2 } };
const clean = { fault: null };

describe('the pause rule and linked bots', () => {
  it('does not pause a bot for the matches its link was lost in', () => {
    const recent = [...Array(8).fill(lost), ...Array(10).fill(clean)];
    assert.ok(pauseReason(recent) !== null, 'read as they are, eight faults in ten would pause it');
    assert.equal(pauseReason(playedOutcomes(recent)), null);
  });

  it('still pauses a linked bot that faults in the matches it plays', () => {
    const recent = [...Array(4).fill(lost), ...Array(7).fill(timeout), ...Array(3).fill(clean)];
    assert.match(pauseReason(playedOutcomes(recent)) ?? '', /7 of its last 10 ladder matches ended with its fault \(timeout ×7\)/);
  });
});
