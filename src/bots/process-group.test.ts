import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { isGone, livePidsWith } from '../../test/processes.js';
import { sumGame } from '../arena/sum-game.kit.js';
import { pidsByEnv } from './proc.js';
import { StdioTransport } from './stdio-transport.js';
import type { AskMessage, SeatContext } from './transport.js';

/**
 * What a bot leaves behind when it exits: each of its processes carries its mark, and the arena looks for them
 * in /proc (bots exiting together share one look) and kills them, even those that left its process group and
 * are deaf to SIGTERM.
 */
const dir = mkdtempSync(join(tmpdir(), 'botarena-leaver-'));
after(() => rmSync(dir, { recursive: true, force: true }));

// node leaver.mjs MODE MARKER: at each message, starts a child in a new session (out of the bot's process
// group; child-MARKER on its command line) that ignores SIGTERM and holds the bot's stdout and stderr, waits
// until it runs, then answers {"echo":n} (MODE answer: the bot exits by itself when its input closes) or exits
// with code 3 (MODE crash).
const leaver = join(dir, 'leaver.mjs');
writeFileSync(
  leaver,
  `import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
const [mode, marker] = process.argv.slice(2);
const child = "process.on('SIGTERM', () => {}); require('node:fs').writeSync(3, 'up'); setInterval(() => {}, 1000)";
createInterface({ input: process.stdin }).on('line', (line) => {
  const left = spawn('setsid', [process.execPath, '-e', child, \`child-\${marker}\`], { stdio: ['ignore', 'inherit', 'inherit', 'pipe'] });
  left.stdio[3].once('data', () => {
    left.stdio[3].destroy();
    left.unref();
    if (mode === 'crash') process.exit(3);
    process.stdout.write(JSON.stringify({ echo: JSON.parse(line).n }) + '\\n');
  });
});
`,
);

function open(mode: 'answer' | 'crash', exitMs = 2000) {
  const marker = `leaver-${randomUUID()}`;
  const log: { dir: string; text: string }[] = [];
  const ctx: SeatContext = {
    game: sumGame,
    slot: 0,
    players: 1,
    config: {},
    seed: 1,
    name: 'bot',
    exitMs,
    log: (dir, text) => log.push({ dir, text }),
    maxAnswerBytes: 1 << 20,
    maxStderrBytes: 1 << 16,
  };
  return { transport: new StdioTransport(`node ${leaver} ${mode} ${marker}`, ctx), marker, log };
}

const msg = (n: number): AskMessage => ({ phase: 'play', turn: n, view: null, text: JSON.stringify({ n }), contentType: 'application/json' });

describe("a bot's leftover processes", () => {
  it('bots that exit together each leave a SIGTERM-deaf child in a new session: all are killed once the seats are closed', async () => {
    const seats = Array.from({ length: 4 }, () => open('answer'));
    try {
      await Promise.all(seats.map((s) => s.transport.start()));
      const replies = await Promise.all(seats.map((s) => s.transport.ask(msg(1), 10_000)));
      for (const r of replies) assert.deepEqual(r.kind === 'text' && r.text, '{"echo":1}', JSON.stringify(r));
      // Each child is running, outside its bot's group, before the match ends.
      for (const s of seats) assert.equal(livePidsWith(`child-${s.marker}`).length, 1, `${s.marker}: the child runs`);
    } catch (err) {
      await Promise.all(seats.map((s) => s.transport.close()));
      throw err;
    }
    const t0 = performance.now();
    await Promise.all(seats.map((s) => s.transport.close(true)));
    for (const s of seats) {
      assert.ok(
        s.log.some((e) => e.dir === 'note' && e.text.startsWith('process exited with code 0')),
        s.log.map((e) => e.text).join('\n'),
      );
      assert.deepEqual(livePidsWith(s.marker), [], `${s.marker}: the child outlived its bot`);
    }
    assert.ok(performance.now() - t0 < 5000, `closing took ${Math.round(performance.now() - t0)} ms`);
  });

  it('a bot that crashes leaving such a child: the child is killed by the time its seat is closed', async () => {
    const seat = open('crash');
    await seat.transport.start();
    const r = await seat.transport.ask(msg(1), 10_000);
    await seat.transport.close();
    assert.equal(r.kind === 'fault' && r.fault.kind, 'crash', JSON.stringify(r));
    assert.deepEqual(livePidsWith(seat.marker), []);
  });

  for (const when of ['just after its bot exited', 'while its bot runs'] as const) {
    it(`an arena that exits ${when} kills what the bot left outside its group`, async () => {
      const marker = `leaver-${randomUUID()}`;
      // The arena exits as soon as its bot exits (before the look planned for the next turn of its event loop),
      // or as soon as its bot answers (its child is up, out of the group).
      const arena = join(dir, `arena-${randomUUID()}.ts`);
      const processGroup = fileURLToPath(new URL('./process-group.ts', import.meta.url));
      const mode = when === 'while its bot runs' ? 'answer' : 'crash';
      writeFileSync(
        arena,
        `import { BotProcess } from ${JSON.stringify(processGroup)};
const bot = new BotProcess(${JSON.stringify(`node ${leaver} ${mode} ${marker}`)}, [], () => {}, 1 << 16);
bot.child.once('exit', () => process.exit(0));
bot.child.stdout!.once('data', () => process.exit(0));
bot.child.stdin!.write('{"n":1}\\n');
`,
      );
      const child = spawn(process.execPath, ['--import', 'tsx', arena], {
        stdio: ['ignore', 'inherit', 'inherit'],
        env: { ...process.env, NODE_TEST_CONTEXT: undefined },
      });
      const code = await new Promise((resolve) => child.once('exit', resolve));
      assert.equal(code, 0);
      // SIGKILL was sent as the arena exited; give the kernel a moment to carry it out.
      for (let waited = 0; waited < 2000 && livePidsWith(marker).length; waited += 20) await new Promise((r) => setTimeout(r, 20));
      assert.deepEqual(livePidsWith(marker), []);
    });
  }

  it("pidsByEnv finds every process carrying a value of a variable, by value, at an entry's start only", async () => {
    const tag = `T${randomUUID().slice(0, 8)}.`;
    const run = (env: Record<string, string>) =>
      spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore', env: { PATH: process.env.PATH, ...env } });
    const a = run({ BOTARENA_TEST_MARK: `${tag}1` });
    const b = run({ BOTARENA_TEST_MARK: `${tag}2`, OTHER: 'x' });
    const c = run({ XBOTARENA_TEST_MARK: `${tag}3`, OTHER: `BOTARENA_TEST_MARK=${tag}4` });
    try {
      await new Promise((r) => setTimeout(r, 300));
      const found = pidsByEnv('BOTARENA_TEST_MARK', tag);
      assert.deepEqual(Object.fromEntries(found), { [`${tag}1`]: [a.pid], [`${tag}2`]: [b.pid] });
    } finally {
      for (const p of [a, b, c]) p.kill('SIGKILL');
    }
    for (const p of [a, b, c]) for (let waited = 0; waited < 2000 && !isGone(p.pid!); waited += 20) await new Promise((r) => setTimeout(r, 20));
  });
});
