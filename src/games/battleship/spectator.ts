import type { SpectatorRules } from '../../core/game.js';
import type { BattleshipShot, BattleshipState, Strike } from './rules.js';

/** What a spectator of a live match draws: the grid's size, the shot count and each side's strikes, no fleets. */
export interface BattleshipPublicFrame {
  width: number;
  height: number;
  shots: number;
  strikes: Strike[][];
}

/**
 * What a step changed in the public frame, whatever the match's length: the shot count, and per side its strike
 * count with its latest strike (a step adds one strike at most, to one side; the lists only grow).
 */
export interface BattleshipFrameDelta {
  shots: number;
  strikes: { count: number; last: Strike | null }[];
}

const copy = (k: Strike): Strike => ({ target: k.target, result: k.result });

/**
 * Spectators see the shots and what they did (they are on both players' boards) and the grid's size (in every
 * message's board); the fleets stay secret until the match is over. The frame is sent with the first step only
 * (it holds the strikes of a chosen position), each later step its delta: a few dozen bytes, where the whole
 * frame grew by a strike a step (a 40×40 match published 716 MB of frames, quadratic in its length).
 */
export const spectator: SpectatorRules<BattleshipState, BattleshipShot, unknown> = {
  action: (shot) => shot,
  // Copies: a frame published in this process is kept (a late viewer's history) while the state goes on changing.
  frame: (s): BattleshipPublicFrame => ({ width: s.config.width, height: s.config.height, shots: s.shots, strikes: s.strikes.map((l) => l.map(copy)) }),
  delta: (s): BattleshipFrameDelta => ({
    shots: s.shots,
    strikes: s.strikes.map((l) => ({ count: l.length, last: l.length ? copy(l[l.length - 1]!) : null })),
  }),
  fold(frame, delta) {
    const f = frame as BattleshipPublicFrame;
    const d = delta as BattleshipFrameDelta;
    // One step fires one shot at most: two missed steps (a shot each side) would otherwise look like one.
    if (d.shots !== f.shots && d.shots !== f.shots + 1)
      throw new Error(`the step's delta is at shot ${d.shots} where the frame before it is at shot ${f.shots}: a step is missing`);
    d.strikes.forEach(({ count, last }, side) => {
      const list = (f.strikes[side] ??= []);
      if (count === list.length) return;
      if (count !== list.length + 1 || !last)
        throw new Error(`the step's delta has ${count} strikes for P${side + 1} where the frame before it has ${list.length}: a step is missing`);
      list.push(copy(last));
    });
    f.shots = d.shots;
    return f;
  },
};
