// Paint against the original engine, the Ruby gem multipaint_engine (makeorbreak-io/mob-ai-engine-ruby), issue 14.
// Both engines play the same games: the same starting board (ours, written in the wire form and loaded by the
// gem's GameStateSerializer), every player acting every turn with the same actions (walk or shoot in one of the
// 8 directions, drawn from the same 32-bit LCG on both sides, all drawn before any timing). Both must end every
// game on the same board, and once per board every state of one game (the message a runner sends, before each
// turn and after the last) must be the same bytes on both sides. The gem runs in bench/multipaint-gem.rb, which
// times its own turn loop. The gem is not in this repository: BOTARENA_MULTIPAINT_GEM names a copy of it
// (bench/RESULTS.md says how to make one); without it, or without ruby, the table says so and nothing fails.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MatchEngine } from '../src/core/engine.js';
import type { Move, ViewContext } from '../src/core/game.js';
import { getGame } from '../src/games/index.js';
import { DIRECTIONS, scores, type PaintAction, type PaintState } from '../src/games/paint/rules.js';
import { encodeJson } from '../src/games/paint/wire.js';
import { bestMs, timePair } from './stats.js';

/** What bench/multipaint-gem.rb prints. */
interface GemRun {
  ruby: string;
  turns: number;
  games: number;
  us_per_turn: number;
  scores: Record<string, number>;
  final: { player_positions: Record<string, [number, number]>; colors: (string | null)[][]; turns_left: number };
}

/** The actions of a whole game, as the Ruby driver draws them: x = x·1664525 + 1013904223 mod 2^32, k = (x >> 16) & 15. */
function lcgMoves(seed: number, players: number, turns: number): Move<PaintAction>[][] {
  let x = seed >>> 0;
  return Array.from({ length: turns }, () =>
    Array.from({ length: players }, (_, slot) => {
      x = (Math.imul(x, 1664525) + 1013904223) >>> 0;
      const k = (x >>> 16) & 15;
      const [di, dj] = DIRECTIONS[k & 7]!;
      return { slot, action: { type: k < 8 ? 'walk' : 'shoot', direction: [di, dj] } };
    }),
  );
}

/** The end of a game as the gem dumps it: the avatars and the colour grid, by player id. */
function finalOf(s: PaintState): Pick<GemRun['final'], 'player_positions' | 'colors'> {
  return {
    player_positions: Object.fromEntries(s.ids.map((id, k) => [id, [s.positions[k]![0], s.positions[k]![1]]])),
    colors: Array.from({ length: s.height }, (_, i) =>
      Array.from({ length: s.width }, (_, j) => (s.colors[i * s.width + j]! >= 0 ? s.ids[s.colors[i * s.width + j]!]! : null)),
    ),
  };
}

const PLAY: ViewContext = { phase: 'play', matchId: '', names: [] };

/**
 * Turns per second of our engine and of the gem on the same games, timed in turn (`timePair`: the best of
 * `reps` runs each). Ours: `MatchEngine` (decision and commit, the step's record and fingerprint included)
 * with the drawn moves, no bots. The gem: `state = state.apply_actions(actions)`, as its runner did. With the
 * message, both also build each turn's state message once, before the turn (ours: `encodeJson`, the text our
 * runner sends; the gem's runner: `JSON.generate(GameStateSerializer.dump(state))`, which it did for each
 * player). Each side's time covers the turn loop only; the gem's is measured inside Ruby.
 */
export function benchPaintGem(reps = 5): (string | number)[][] {
  const header = [
    'Paint: our engine against the multipaint gem, same boards and actions',
    'turns',
    'ours µs/turn',
    'gem µs/turn',
    'ours turns/s',
    'gem turns/s',
    'ratio',
    'same game (states; final squares)',
  ];
  const gemDir = process.env.BOTARENA_MULTIPAINT_GEM;
  if (!gemDir)
    return [header, ['(not measured: set BOTARENA_MULTIPAINT_GEM to a copy of the multipaint_engine gem; see bench/RESULTS.md)', '', '', '', '', '', '', '']];
  const version = spawnSync('ruby', ['-v'], { encoding: 'utf8' });
  if (version.error || version.status !== 0)
    return [header, [`(not measured: no ruby on this machine: ${version.error?.message ?? version.stderr.trim()})`, '', '', '', '', '', '', '']];
  const trial = spawnSync(
    'ruby',
    ['bench/multipaint-gem.rb', '--width', '3', '--height', '3', '--players', '2', '--turns', '2', '--games', '1', '--warmup', '0'],
    { encoding: 'utf8', env: process.env },
  );
  if (trial.status !== 0)
    return [
      header,
      [
        `(not measured: the gem does not load from BOTARENA_MULTIPAINT_GEM=${gemDir}: ${trial.stderr.trim().split('\n')[0]?.slice(0, 200)})`,
        '',
        '',
        '',
        '',
        '',
        '',
        '',
      ],
    ];

  const paint = getGame('paint');
  const setups = [
    { label: '10×10 reference board (alice, bob), 100 turns', players: 2, config: { board: '10x10' } },
    { label: '10×10 generated, 4 players, 100 turns', players: 4, config: { width: 10, height: 10, turns: 100 } },
    { label: '60×60 generated, 4 players, 400 turns', players: 4, config: { width: 60, height: 60, turns: 400 } },
    // Crowded: walkers aim at one square, shots meet and hit avatars; mostly here to check the rules agree.
    { label: '8×8 generated, 10 players, 64 turns (crowded)', players: 10, config: { width: 8, height: 8, turns: 64 } },
  ];
  const rows: (string | number)[][] = [header];
  const dir = mkdtempSync(join(tmpdir(), 'botarena-paint-gem-'));
  try {
    for (const [n, { label, players, config }] of setups.entries()) {
      const seed = 1;
      const lcgSeed = 1 + n;
      const start = new MatchEngine(paint, { config, seed, players }).state as PaintState;
      const boardFile = join(dir, `board-${n}.json`);
      writeFileSync(boardFile, encodeJson(start, 0, PLAY));
      const moves = lcgMoves(lcgSeed, players, start.turnsLeft);
      const turns = moves.length;
      const ruby = (extra: string[]): unknown => {
        const out = spawnSync('ruby', ['bench/multipaint-gem.rb', '--board', boardFile, '--seed', String(lcgSeed), ...extra], {
          encoding: 'utf8',
          env: process.env,
        });
        if (out.status !== 0) throw new Error(`bench/multipaint-gem.rb failed (${out.status}): ${out.stderr.trim().slice(0, 400)}`);
        return JSON.parse(out.stdout.trim().split('\n').pop()!);
      };

      // The same game, state by state: our message's SHA-256 before every turn and after the last, against the gem's.
      const sha = (text: string) => createHash('sha256').update(text).digest('hex');
      const traced = new MatchEngine(paint, { config, seed, players });
      const hello = traced.decision()!;
      traced.commit(
        hello,
        hello.seats.map((slot) => ({ slot, action: null })),
      );
      const ourTrace = moves.map((m) => {
        const h = sha(encodeJson(traced.state as PaintState, 0, PLAY));
        traced.commit(traced.decision()!, m);
        return h;
      });
      ourTrace.push(sha(encodeJson(traced.state as PaintState, 0, PLAY)));
      const gemTrace = (ruby(['--trace']) as { trace: string[] }).trace;
      const differs = ourTrace.findIndex((h, t) => h !== gemTrace[t]);
      const sameStates =
        differs < 0 && gemTrace.length === ourTrace.length
          ? `every state (${ourTrace.length})`
          : `NO: states differ from turn ${differs < 0 ? ourTrace.length : differs + 1}`;

      for (const message of [false, true]) {
        // Ours: engines made (and past the ready handshake) before each timed run.
        const fresh = () => {
          const e = new MatchEngine(paint, { config, seed, players });
          const d = e.decision()!;
          e.commit(
            d,
            d.seats.map((slot) => ({ slot, action: null })),
          );
          return e;
        };
        // The message as a runner writes it: one flat string (V8 builds it as a rope; counting its bytes flattens it).
        const playOne = (e: MatchEngine) => {
          for (const m of moves) {
            const d = e.decision()!;
            if (message) Buffer.byteLength(encodeJson(e.state as PaintState, 0, PLAY));
            e.commit(d, m);
          }
        };
        // V8's optimising tiers take hundreds of games to settle: games are played for 300 ms first, then the
        // timed runs are sized to about 80 ms of games.
        const w0 = performance.now();
        for (let k = 0; k < 20 || performance.now() - w0 < 300; k++) playOne(fresh());
        const t0 = performance.now();
        for (let k = 0; k < 3; k++) playOne(fresh());
        const games = Math.max(1, Math.min(5000, Math.ceil(80 / Math.max(0.001, (performance.now() - t0) / 3))));
        // One engine at a time, made as the run goes, and what making them costs taken off, as in
        // paint-rules.bench.ts: the gem's driver starts each game from its prebuilt state.
        const last: { engine?: MatchEngine } = {};
        const ours = () => {
          for (let k = 0; k < games; k++) {
            const e = fresh();
            playOne(e);
            last.engine = e;
          }
        };
        const setUpMs = bestMs(5, () => {
          for (let k = 0; k < games; k++) fresh();
        });
        // The gem: one Ruby process per run, its loop timed inside (about 150 ms of games, at least one, after
        // one untimed); the first run, timePair's warm-up, is not counted.
        const gemRuns: GemRun[] = [];
        const gem = () => void gemRuns.push(ruby(['--games', '1', '--min-ms', '150', ...(message ? ['--message'] : [])]) as GemRun);
        const [wholeMs] = timePair(ours, gem, message && turns * players > 1000 ? Math.min(reps, 3) : reps);
        const oursMs = wholeMs - setUpMs;
        const oursUs = (oursMs * 1000) / (games * turns);
        const gemUs = Math.min(...gemRuns.slice(1).map((r) => r.us_per_turn));

        // The same games? Our last engine's board against the gem's last one.
        const end = last.engine;
        if (!end) throw new Error(`${label}: no game was played`);
        if (end.decision() !== null) throw new Error(`${label}: our game did not end after ${turns} turns`);
        const s = end.state as PaintState;
        const g = gemRuns[gemRuns.length - 1]!;
        const mine = finalOf(s);
        const same =
          g.turns === turns &&
          g.final.turns_left === 0 &&
          JSON.stringify(mine.player_positions) === JSON.stringify(g.final.player_positions) &&
          JSON.stringify(mine.colors) === JSON.stringify(g.final.colors);
        const sc = scores(s);
        const verdict = same
          ? `${sameStates}; squares ${sc.join('/')}`
          : `NO: final boards differ; squares ours ${sc.join('/')}, gem ${s.ids.map((id) => g.scores[id] ?? 0).join('/')}`;
        rows.push([
          `${label}${message ? ', with the turn message' : ''}`,
          turns,
          oursUs.toFixed(2),
          gemUs.toFixed(1),
          Math.round(1e6 / oursUs),
          Math.round(1e6 / gemUs),
          (gemUs / oursUs).toFixed(1) + '×',
          verdict,
        ]);
      }
    }
    rows.push([`(${version.stdout.trim()}; the gem from ${gemDir})`, '', '', '', '', '', '', '']);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return rows;
}
