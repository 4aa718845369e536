import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { runMatch } from '../src/arena/run-match.js';
import { ReplayMismatchError } from '../src/core/errors.js';
import { verifyReplay, type Replay } from '../src/core/replay.js';
import { playBuiltins } from '../src/core/self-play.js';
import { getGame } from '../src/games/index.js';
import type { AnyGame } from '../src/core/game.js';
import type { TronState } from '../src/games/tron/rules.js';

/** A replay with the timings taken out: what must be identical for the same seed and answers. */
function untimed(r: Replay): unknown {
  return JSON.parse(JSON.stringify(r, (k, v) => (k === 'ms' || k === 'durationMs' || k === 't' ? undefined : v)));
}

const clone = (r: Replay): Replay => structuredClone(r);

describe('replays', () => {
  for (const game of ['tictactoe', 'connect4']) {
    it(`${game}: the same seed gives the same replay, another seed another one`, async () => {
      const play = (seed: number) => runMatch({ game, seats: [{ bot: 'random' }, { bot: 'minimax' }], seed });
      const [a, b, c] = await Promise.all([play(5), play(5), play(6)]);
      assert.deepEqual(untimed(a.replay), untimed(b.replay));
      assert.notDeepEqual(untimed(a.replay), untimed(c.replay));
      verifyReplay(getGame(game), a.replay);
    });
  }

  it('a match with a real stdio bot and a forfeit verifies, faults and all', async () => {
    const { replay } = await runMatch({
      game: 'tictactoe',
      seats: [{ bot: 'stdio:python3 test/fixtures/cli/first-empty.py' }, { bot: 'stdio:echo junk' }],
      seed: 8,
      timeouts: { turnMs: 3000 },
    });
    assert.equal(replay.result.winner, 0);
    assert.ok(replay.turns.some((t) => t.moves.some((m) => m.fault)));
    verifyReplay(getGame('tictactoe'), replay);
  });

  it('names the turn where a tampered replay stops reproducing', async () => {
    const { replay } = await runMatch({ game: 'connect4', seats: [{ bot: 'random' }, { bot: 'random' }], seed: 12 });
    const game = getGame('connect4');
    const fails = (r: Replay, pattern: RegExp, turn: number | null) =>
      assert.throws(
        () => verifyReplay(game, r),
        (e: unknown) => e instanceof ReplayMismatchError && pattern.test(e.message) && e.turn === turn,
      );

    const moved = clone(replay);
    const step = moved.turns.find((t) => t.turn === 4)!;
    step.moves[0]!.action = ((step.moves[0]!.action as number) + 1) % 7;
    fails(moved, /^turn 4 \(step \d+ of \d+\): /, 4);

    const illegal = clone(replay);
    illegal.turns.find((t) => t.turn === 2)!.moves[0]!.action = 9;
    fails(illegal, /^turn 2 .*recorded action 9 is illegal/, 2);

    const misranked = clone(replay);
    misranked.result.ranks = [...misranked.result.ranks].reverse();
    fails(misranked, /^the result differs/, null);

    const cut = clone(replay);
    cut.turns.pop();
    fails(cut, /the game is not over/, null);

    const swapped = clone(replay);
    swapped.turns[3]!.moves[0]!.slot = 1 - swapped.turns[3]!.moves[0]!.slot;
    fails(swapped, /the rules ask play turn 2 of seats \[\d\], the replay has play turn 2 of seats \[\d\]/, 2);
  });

  it('a replay marked stopped must have the stopped result, and a game not over (issue 32: "stopped" skipped every check of the result)', async () => {
    const { replay } = await runMatch({ game: 'connect4', seats: [{ bot: 'random' }, { bot: 'random' }], seed: 12 });
    const game = getGame('connect4');
    const fails = (r: Replay, pattern: RegExp) =>
      assert.throws(
        () => verifyReplay(game, r),
        (e: unknown) => e instanceof ReplayMismatchError && pattern.test(e.message) && e.turn === null,
      );
    const nobody = (reason: string) => ({
      ranks: [1, 1],
      scores: null,
      reason: `stopped before the end: ${reason}`,
      winner: null,
      draw: false,
      faults: [null, null],
    });

    // What Ctrl-C writes: the steps so far, nobody's result. It verifies.
    const stopped = { ...clone(replay), turns: replay.turns.slice(0, 5), stopped: 'x', result: nobody('x') };
    verifyReplay(game, stopped);

    // A complete match, marked stopped with a forged winner (the HTML player showed it): refused.
    const forged = { ...clone(replay), stopped: 'x' };
    forged.result = { ...forged.result, winner: 1 - (replay.result.winner ?? 0), reason: 'forged' };
    fails(forged, /^the replay is marked stopped \("x"\), but its game is over after turn \d+: a finished match has a result to check$/);
    // ... even with the result a stopped match gets.
    fails({ ...clone(replay), stopped: 'x', result: nobody('x') }, /but its game is over/);

    // Stopped for real, with anything but the stopped result: refused, naming the field.
    fails(
      { ...clone(stopped), result: { ...nobody('x'), winner: 0 } },
      /^the result differs: recorded winner 0, rebuilt null \(the replay is marked stopped: nobody's result\)$/,
    );
    fails({ ...clone(stopped), result: { ...nobody('x'), ranks: [1, 2] } }, /^the result differs: recorded ranks \[1,2\], rebuilt \[1,1\]/);
    fails({ ...clone(stopped), result: nobody('y') }, /^the result differs: recorded reason "stopped before the end: y", rebuilt "stopped before the end: x"/);
  });
});

describe('chained step fingerprints (hashes: "chain")', () => {
  it('a game with `changes` records them; verify still catches any change of what a step changes', async () => {
    const tron = getGame('tron');
    const { replay } = await runMatch({
      game: 'tron',
      seed: 4,
      config: { width: 20, height: 12 },
      seats: [{ bot: 'stupid' }, { bot: 'random' }, { bot: 'voronoi' }],
    });
    assert.equal(replay.hashes, 'chain');
    verifyReplay(tron, replay);
    const firstDeath = Math.min(...replay.result.scores!); // Tron scores a bot the lap it died on
    // A rules change that only rewords a death, and one that moves a head: each is caught at its step.
    const reworded = {
      ...tron,
      rules: {
        ...tron.rules,
        apply: (s: unknown, moves: never[]) => {
          const r = tron.rules.apply(s, moves) as TronState;
          for (const d of r.death) if (d && d.lap === r.lap) d.cause = 'reworded';
          return r;
        },
      },
    } as AnyGame;
    assert.throws(
      () => verifyReplay(reworded, replay),
      (e: Error) => e instanceof ReplayMismatchError && e.turn === firstDeath,
    );
    const shifted = {
      ...tron,
      rules: {
        ...tron.rules,
        apply: (s: unknown, moves: never[]) => {
          const r = tron.rules.apply(s, moves) as TronState;
          if (r.lap === 3) r.trails[0]!.push([0, 0]);
          return r;
        },
      },
    } as AnyGame;
    assert.throws(
      () => verifyReplay(shifted, replay),
      (e: Error) => e instanceof ReplayMismatchError && e.turn === 3,
    );
  });
});

describe('chained step fingerprints catch a changed state in every game', () => {
  /** The game with `tamper` run on the state after its `at`-th play step (counted from 1). */
  const tampered = (game: AnyGame, at: number, tamper: (s: never) => void): AnyGame => {
    let steps = 0;
    return {
      ...game,
      rules: {
        ...game.rules,
        setup: (input: never) => ((steps = 0), game.rules.setup(input)),
        apply: (s: unknown, moves: never[]) => {
          const r = game.rules.apply(s, moves);
          if (++steps === at) tamper(r as never);
          return r;
        },
      },
    } as AnyGame;
  };
  const caughtOn = (game: AnyGame, replay: Replay, turn: number) =>
    assert.throws(
      () => verifyReplay(game, replay),
      (e: Error) => e instanceof ReplayMismatchError && e.turn === turn && /state/.test(e.message),
    );

  it('Connect Four: a piece dropped into another column, or a cell changed anywhere in the played column', async () => {
    const c4 = getGame('connect4');
    const { replay } = await runMatch({ game: 'connect4', seed: 3, seats: [{ bot: 'random' }, { bot: 'random' }] });
    const play = replay.turns.filter((t) => t.phase === 'play');
    const [fifth] = [play[4]!];
    const col = fifth.moves[0]!.action as number;
    caughtOn(
      tampered(c4, 5, (s: { board: string[][] }) => {
        const row = s.board.findLastIndex((r) => r[col] !== '');
        const other = (col + 1) % 7;
        s.board[row]![other] = s.board[row]![col]!;
        s.board[row]![col] = '';
      }),
      replay,
      fifth.turn,
    );
    caughtOn(
      tampered(c4, 5, (s: { board: string[][] }) => {
        s.board[0]![col] = s.board[0]![col] === 'X' ? 'O' : 'X';
      }),
      replay,
      fifth.turn,
    );
  });

  it('lighthouses: a mid-round change to a player who is not playing shows by the end of that round', async () => {
    const lh = getGame('lighthouses');
    const { replay } = await runMatch({
      game: 'lighthouses',
      seed: 5,
      config: { rounds: 6 },
      seats: [{ bot: 'random' }, { bot: 'random' }, { bot: 'random' }],
    });
    // Play step 7 is round 3's first command (player A's); the round ends on its third.
    caughtOn(
      tampered(lh, 7, (s: { players: { energy: number }[] }) => {
        s.players[2]!.energy += 1000;
      }),
      replay,
      3,
    );
  });

  it('battleship: a shot given another result', async () => {
    const bs = getGame('battleship');
    const { replay } = await runMatch({ game: 'battleship', seed: 2, seats: [{ bot: 'random' }, { bot: 'random' }] });
    const tenth = replay.turns.filter((t) => t.phase === 'play')[9]!;
    caughtOn(
      tampered(bs, 10, (s: { strikes: { result: string }[][] }) => {
        const list = s.strikes.find((l) => l.length === 5)!;
        list[4]!.result = list[4]!.result === 'hit' ? '' : 'hit';
      }),
      replay,
      tenth.turn,
    );
  });
});

describe('self-play', () => {
  it('plays exactly the game the runner plays with the same built-in bots and seed', async () => {
    const { replay } = await runMatch({ game: 'connect4', seats: [{ bot: 'minimax' }, { bot: 'random' }], seed: 31 });
    const engine = playBuiltins(getGame('connect4'), ['minimax', 'random'], 31);
    assert.deepEqual(
      engine.records.map((r) => r.hash),
      replay.turns.map((t) => t.hash),
    );
  });
});
