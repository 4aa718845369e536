import assert from 'node:assert/strict';
import { it } from 'node:test';
import { runCli } from './run-cli.js';

// `play smartdog tcp` (and `doctor smartdog tcp`) without --init-timeout, and no bot ever joining (a starter that
// connects to another port, a bot never started): they gave up only when told to, and waited for ever
// (issue 32). Now they wait 60 s, say so when they start, then say how many joined on which port, and exit 2.
// The two wait side by side: the test lasts the one minute, not two.

it('play and doctor give up on tcp bots that do not join within the default 60 s, saying where they listened', async () => {
  const t0 = performance.now();
  const limit = { timeoutMs: 150_000 }; // killed then: a wait for ever is a failure, not a hung test
  const [play, doctor] = await Promise.all([runCli(['play', 'smartdog', 'tcp', 'tcp', '--port', '0'], limit), runCli(['doctor', 'smartdog', 'tcp', '--port', '0'], limit)]);
  const ms = performance.now() - t0;
  for (const [what, r, count] of [['play', play, 2], ['doctor', doctor, 1]] as const) {
    assert.equal(r.code, 2, `${what} exits 2 once the wait is over (null: still waiting after ${limit.timeoutMs} ms):\n${r.stderr}`);
    const port = /waiting for \d bot\(s\) to connect to 127\.0\.0\.1:(\d+) and join, 60 s at most/.exec(r.stderr)?.[1];
    assert.ok(port, `${what} says how long it waits:\n${r.stderr}`);
    assert.match(r.stderr, new RegExp(`only 0 of ${count} bots joined on 127\\.0\\.0\\.1:${port} within 60000 ms \\(the default wait: --init-timeout MS gives another\\); nothing was played`));
    assert.doesNotMatch(r.stderr, /internal error|\n {4}at /);
  }
  assert.ok(ms >= 59_000, `the wait is the minute it says (${ms.toFixed(0)} ms)`);
});
