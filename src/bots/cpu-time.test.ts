// Compute time apart from transport time, and a bot stopped between its turns (issue 38), on real processes.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { describe, it, type TestContext } from 'node:test';
import { livePidsWith } from '../../test/processes.js';
import { sumGame } from '../arena/sum-game.kit.js';
import { ExecTransport } from './exec-transport.js';
import { StdioTransport } from './stdio-transport.js';
import type { AskMessage, Reply, SeatContext } from './transport.js';
import type { SandboxOptions } from './sandbox-options.js';

const bwrap = ['/usr/bin/bwrap', '/bin/bwrap'].some((p) => existsSync(p));

function needSandbox(t: TestContext): boolean {
  if (bwrap) return true;
  if (process.env.BOTARENA_CI) assert.fail('bubblewrap is not installed, and CI must run the sandbox tests (apt-get install bubblewrap)');
  t.skip('bubblewrap is not installed (apt-get install bubblewrap)');
  return false;
}

type Log = { dir: string; text: string }[];

function context(extra: Partial<SeatContext> = {}): { ctx: SeatContext; log: Log } {
  const log: Log = [];
  const ctx: SeatContext = {
    game: sumGame,
    slot: 0,
    players: 1,
    config: {},
    seed: 1,
    name: 'bot',
    log: (dir, text) => log.push({ dir, text }),
    maxAnswerBytes: 1 << 20,
    maxStderrBytes: 1 << 16,
    ...extra,
  };
  return { ctx, log };
}

/** A stdio seat running test/fixtures/bots/cpu-bot.mjs in `mode` (see there), marked so its process can be found. */
async function open(mode: string, extra: Partial<SeatContext> = {}) {
  const marker = `cpu-marker-${randomUUID()}`;
  const { ctx, log } = context(extra);
  const transport = new StdioTransport(`node test/fixtures/bots/cpu-bot.mjs ${mode} ${marker}`, ctx);
  await transport.start();
  return { transport, log, marker };
}

const msg = (n: number): AskMessage => ({ phase: 'play', turn: n, view: null, text: JSON.stringify({ n }), contentType: 'application/json' });

/** The bot's answer: its pid (as it sees it) and the CPU time it measured itself for the answer. */
function answer(r: Reply): { pid: number; cpuMs: number } {
  if (r.kind !== 'text') return assert.fail(`expected an answer, got ${JSON.stringify(r)}`);
  return JSON.parse(r.text) as { pid: number; cpuMs: number };
}

/** utime + stime of a process, in USER_HZ ticks, read from /proc/PID/stat; and whether it is stopped. */
function stat(pid: number): { ticks: number; state: string } {
  const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const f = text.slice(text.lastIndexOf(')') + 2).split(' ');
  return { ticks: Number(f[11]) + Number(f[12]), state: f[0]! };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

for (const sandbox of [undefined, {} as SandboxOptions]) {
  const where = sandbox ? 'sandboxed (its cgroup)' : 'unsandboxed (/proc)';
  describe(`a bot program's CPU time beside the wall time, ${where}`, () => {
    it("a busy-looping bot's CPU time is what it spent, a sleeping bot's is near zero, whatever the wall time", async (t) => {
      if (sandbox && !needSandbox(t)) return;
      const spin = await open('spin 250', { sandbox });
      const nap = await open('sleep 250', { sandbox });
      try {
        // The first answers carry the start of node; the next ones are the answers alone.
        await Promise.all([spin.transport.ask(msg(0), 20_000), nap.transport.ask(msg(0), 20_000)]);
        for (let n = 1; n <= 2; n++) {
          const busy = await spin.transport.ask(msg(n), 20_000);
          const idle = await nap.transport.ask(msg(n), 20_000);
          const own = answer(busy).cpuMs;
          assert.ok(busy.cpuMs !== undefined && idle.cpuMs !== undefined, `both measured: ${JSON.stringify([busy, idle])}`);
          // /proc counts in 10 ms ticks; a cgroup to the microsecond. The bot's own count is the truth.
          assert.ok(Math.abs(busy.cpuMs - own) <= 25, `the spinning bot used ${own} ms by its own count, the arena says ${busy.cpuMs}`);
          assert.ok(busy.cpuMs / busy.ms > 0.05 && busy.cpuMs <= busy.ms + 15, `CPU ${busy.cpuMs} ms within the wall ${busy.ms} ms`);
          assert.ok(idle.ms >= 240, `the sleeping bot took ${idle.ms} ms`);
          assert.ok(idle.cpuMs < 20 && idle.cpuMs / idle.ms < 0.08, `a sleeping bot's CPU time is near zero: ${idle.cpuMs} ms of ${idle.ms}`);
          assert.ok(busy.cpuMs > 10 * Math.max(idle.cpuMs, 1), `spinning ${busy.cpuMs} ms vs sleeping ${idle.cpuMs} ms`);
        }
      } finally {
        await Promise.all([spin.transport.close(), nap.transport.close()]);
      }
    });

    it('a bot stopped between its turns uses no CPU until its next message, then answers it, and exits at the end', async (t) => {
      if (sandbox && !needSandbox(t)) return;
      const paused = await open('after', { sandbox, pauseBetweenTurns: true, exitMs: 5000 });
      const free = await open('after', { sandbox });
      try {
        await Promise.all([paused.transport.ask(msg(0), 20_000), free.transport.ask(msg(0), 20_000)]);
        // Its process as the host sees it (a sandboxed bot has its own pid namespace): found by its command line.
        const [pid] = livePidsWith(paused.marker).filter((p) => readFileSync(`/proc/${p}/cmdline`, 'utf8').startsWith('node\0'));
        const [freePid] = livePidsWith(free.marker).filter((p) => readFileSync(`/proc/${p}/cmdline`, 'utf8').startsWith('node\0'));
        assert.ok(pid && freePid, 'both bots found in /proc');
        for (let n = 1; n <= 2; n++) {
          const before = stat(pid);
          const freeBefore = stat(freePid);
          await sleep(700); // both would spin all this time
          const after = stat(pid);
          const freeAfter = stat(freePid);
          assert.equal(after.state, 'T', 'stopped (SIGSTOP) since its answer');
          assert.equal(after.ticks - before.ticks, 0, `a stopped bot used CPU between turns: ${after.ticks - before.ticks} ticks`);
          assert.ok(freeAfter.ticks - freeBefore.ticks > 0, 'the same bot not stopped does spin meanwhile');
          const r = await paused.transport.ask(msg(n), 20_000);
          assert.equal(answer(r).pid > 0, true, 'resumed for its message, it answers');
          await Promise.all([free.transport.ask(msg(n), 20_000)]);
        }
        // At the end it is let run again to read its input's end and exit by itself (no SIGKILL needed).
        await paused.transport.close(true);
        assert.deepEqual(livePidsWith(paused.marker), [], 'nothing of it left running');
        assert.ok(!paused.log.some((e) => e.dir === 'note' && /killed by signal/.test(e.text)), paused.log.map((e) => e.text).join('\n'));
      } finally {
        await Promise.all([paused.transport.close(), free.transport.close()]);
      }
    });
  });
}

describe('a deadline judged on CPU time (sandboxed stdio bots)', () => {
  it('a bot that sleeps past the turn deadline is not timed out, a spinning one is, at its CPU time', async (t) => {
    if (!needSandbox(t)) return;
    const nap = await open('sleep 700', { sandbox: { deadline: 'cpu' } });
    const spin = await open('spin 3000', { sandbox: { deadline: 'cpu' } });
    const wall = await open('sleep 700', { sandbox: {} });
    try {
      await Promise.all([nap.transport.ask(msg(0), 20_000), spin.transport.ask(msg(0), 20_000), wall.transport.ask(msg(0), 20_000)]);
      const [slept, spun, walled] = await Promise.all([nap.transport.ask(msg(1), 200), spin.transport.ask(msg(1), 200), wall.transport.ask(msg(1), 200)]);
      assert.equal(slept.kind, 'text', `the sleeping bot answered in ${slept.ms} ms on a 200 ms CPU deadline: ${JSON.stringify(slept)}`);
      assert.ok(slept.ms >= 690 && slept.cpuMs! < 100, JSON.stringify(slept));
      assert.equal(spun.kind, 'fault');
      assert.equal(spun.kind === 'fault' && spun.fault.kind, 'timeout');
      assert.match(spun.kind === 'fault' ? spun.fault.detail : '', /^used \d+ ms of CPU time without answering: over the 200 ms deadline, judged on CPU time/);
      assert.ok(spun.cpuMs! >= 200 && spun.cpuMs! < 500, `timed out at its CPU time: ${spun.cpuMs} ms`);
      // Judged on the wall, as before, the same sleeping bot times out.
      assert.equal(walled.kind === 'fault' && walled.fault.kind, 'timeout');
      // The wall time is still capped: 3× the deadline and a second.
      const stuck = await nap.transport.ask(msg(2), 100);
      assert.equal(stuck.kind, 'text', 'slept 700 ms within the 1300 ms cap of a 100 ms CPU deadline');
      const capped = await open('sleep 5000', { sandbox: { deadline: 'cpu' } });
      try {
        await capped.transport.ask(msg(0), 20_000).catch(() => {});
        const late = await capped.transport.ask(msg(1), 200);
        assert.equal(
          late.kind === 'fault' && late.fault.detail.startsWith('no answer within 1600 ms (the wall-time cap of a 200 ms deadline judged on CPU time)'),
          true,
          JSON.stringify(late),
        );
      } finally {
        await capped.transport.close();
      }
    } finally {
      await Promise.all([nap.transport.close(), spin.transport.close(), wall.transport.close()]);
    }
  });
});

describe('an exec bot: the CPU time of its process per message', () => {
  for (const sandbox of [undefined, {} as SandboxOptions]) {
    it(sandbox ? 'sandboxed: from its cgroup' : 'unsandboxed: from /proc while it runs', async (t) => {
      if (sandbox && !needSandbox(t)) return;
      const { ctx } = context({ sandbox });
      const cmd = (ms: number) =>
        `node -e "const c=()=>{const u=process.cpuUsage();return (u.user+u.system)/1000};const s=c();while(c()-s<${ms});console.log(1)"`;
      const busy = await new ExecTransport(cmd(300), ctx).ask(msg(1), 20_000);
      const idle = await new ExecTransport(`sleep 0.4; echo 1`, ctx).ask(msg(1), 20_000);
      assert.equal(busy.kind, 'text', JSON.stringify(busy));
      assert.ok(busy.cpuMs !== undefined && busy.cpuMs >= 280, `an exec bot that spins 300 ms: ${busy.cpuMs} ms of CPU`);
      assert.ok(idle.cpuMs !== undefined && idle.cpuMs < 50 && idle.ms >= 390, `an exec bot that sleeps: ${idle.cpuMs} ms of CPU in ${idle.ms} ms`);
    });
  }
});
