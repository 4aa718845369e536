import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { runMatch } from '../src/arena/run-match.js';
import { verifyReplay } from '../src/core/replay.js';
import { getGame } from '../src/games/index.js';
import { livePidsWith } from './processes.js';
import { runCli } from './run-cli.js';
import { ZOO_GAMES as GAMES, ZOO_MODES as MODES, zooBot } from './zoo.kit.js';

/**
 * The hostile-bot zoo: every misbehaviour of test/fixtures/zoo/hostile.mjs, in every game a stdio bot can
 * play, against a built-in bot. Each match must end by its deadlines, fault the hostile seat with the
 * right kind, leave no process behind, and record a replay that verifies.
 */
const DEADLINE_MS = 500;

/** Runs `jobs` with at most `k` at once. */
async function pool<T>(jobs: (() => Promise<T>)[], k: number): Promise<T[]> {
  const out: T[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: k }, async () => {
      while (next < jobs.length) {
        const i = next++;
        out[i] = await jobs[i]!();
      }
    }),
  );
  return out;
}

describe('the hostile-bot zoo: every misbehaviour in every game costs only the bot its match', () => {
  for (const [mode, kinds] of Object.entries(MODES)) {
    it(`${mode}: faulted as ${kinds.join(' or ')}, bounded, no process left, in ${GAMES.length} games`, async () => {
      const results = await pool(
        GAMES.map(({ game, opponent, config }) => async () => {
          const marker = `zoo-${process.pid}-${mode}-${game}`;
          const t0 = performance.now();
          const { replay } = await runMatch({
            game,
            seed: 7,
            config,
            transcripts: true,
            // The hello's deadline leaves a loaded machine time to start node; turns stay short.
            timeouts: { initMs: 2 * DEADLINE_MS, turnMs: DEADLINE_MS },
            seats: [{ bot: zooBot(mode, marker), name: mode }, { bot: opponent }],
          });
          return { game, marker, replay, ms: performance.now() - t0 };
        }),
        6,
      );
      let capped = 0;
      for (const { game, marker, replay, ms } of results) {
        const fault = replay.result.faults[0];
        assert.ok(fault && kinds.includes(fault.kind), `${game}: fault ${JSON.stringify(fault)}, expected ${kinds.join('|')}`);
        assert.ok(fault.detail.length <= 600, `${game}: the fault's detail quotes at most a short part (${fault.detail.length})`);
        assert.doesNotMatch(fault.detail, /got null/, `${game}: ${fault.detail}`);
        assert.ok(ms < 20_000, `${game}: the match took ${Math.round(ms)} ms`);
        const kept = replay.transcripts![0]!.reduce((n, e) => n + e.text.length, 0);
        assert.ok(kept < 6 * 1024 * 1024, `${game}: the bot's log is capped (${kept})`);
        if (mode === 'flood' && kept > 4 * 1024 * 1024 - 4096) {
          assert.ok(
            replay.transcripts![0]!.some((e) => /^\d+ log entries \(\d+ bytes\) over the 4194304-byte cap were dropped$/.test(e.text)),
            `${game}: says how much was dropped`,
          );
          capped++;
        }
        verifyReplay(getGame(game), replay);
        assert.deepEqual(livePidsWith(marker), [], `${game}: a process outlived the match`);
      }
      // 200 000 stray lines are noted one by one: in some game the flood must reach the log's cap.
      if (mode === 'flood') assert.ok(capped > 0, "no game's log reached its cap under the flood");
    });
  }

  it('a late hello answer pays for the hello, not for turn 1 (strict pairing in every game)', async () => {
    // The bot answers its hello 700 ms late (the deadline is 400 ms), then every turn at once.
    const bot = 'stdio:node test/fixtures/zoo/slow-start.mjs 700';
    const { replay } = await runMatch({
      game: 'tictactoe',
      seed: 3,
      transcripts: true,
      timeouts: { initMs: 400, turnMs: 2000 },
      seats: [{ bot }, { bot: 'random' }],
    });
    const firstPlay = replay.turns.find((t) => t.phase === 'play' && t.moves[0]!.slot === 0)!;
    assert.equal(firstPlay.moves[0]!.fault, undefined, `turn ${firstPlay.turn}: ${JSON.stringify(firstPlay.moves[0])}`);
    assert.ok(
      replay.transcripts![0]!.some((e) => e.dir === 'note' && e.text.startsWith('dropped a late answer')),
      'the late hello answer is dropped and noted',
    );
  });

  it('exec bots: a grandchild that escapes the process group and keeps stdout cannot hang the match', async () => {
    const marker = `zoo-${process.pid}-exec-escape`;
    const t0 = performance.now();
    const { replay } = await runMatch({
      game: 'tictactoe',
      seed: 1,
      timeouts: { initMs: DEADLINE_MS, turnMs: DEADLINE_MS },
      seats: [{ bot: `exec:node test/fixtures/zoo/hostile.mjs escape ${marker}` }, { bot: 'random' }],
    });
    assert.equal(replay.result.faults[0]?.kind, 'timeout');
    assert.ok(performance.now() - t0 < 10_000);
    assert.deepEqual(livePidsWith(marker), []);
  });

  it('HTTP: a TLS handshake that never completes ends with the match, and the arena exits at once', async () => {
    const { createServer } = await import('node:net');
    const held = new Set<import('node:net').Socket>();
    const server = createServer((s) => (held.add(s), s.on('error', () => {}))).listen(0, '127.0.0.1'); // accepts, never speaks TLS
    await new Promise((r) => server.once('listening', r));
    const port = (server.address() as { port: number }).port;
    try {
      const t0 = performance.now();
      const r = await runCli(['play', 'tictactoe', `https://127.0.0.1:${port}/`, 'random', '--init-timeout', '300', '--timeout', '300', '--json'], {
        timeoutMs: 30_000,
      });
      const ms = performance.now() - t0;
      assert.equal(r.code, 0, r.stderr);
      assert.equal(JSON.parse(r.stdout).players[0].fault.kind, 'timeout');
      assert.ok(ms < 8_000, `the CLI exited after ${Math.round(ms)} ms (the connect timer used to hold it for 60 s)`);
    } finally {
      for (const s of held) s.destroy();
      server.close();
    }
  });
});
