import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MatchEngine } from '../core/engine.js';
import type { AnyGame } from '../core/game.js';
import { REPLAY_FORMAT, type ReplayHeader } from '../core/replay.js';
import { ENGINE_VERSION } from '../core/version.js';
import { playBuiltins } from '../core/self-play.js';
import { getGame } from '../games/index.js';
import { LocalLiveEvents } from '../live/local.js';
import { MatchFeed } from './match-feed.js';

describe('a match feed', () => {
  // Lighthouses hides the players' keys: its public steps carry a frame made by its spectator rules.
  const real = getGame('lighthouses');
  const played = playBuiltins(real, ['random', 'random'], 3, { config: { map: 'islet', rounds: 5 } });
  const header: ReplayHeader = {
    format: REPLAY_FORMAT,
    engineVersion: ENGINE_VERSION,
    game: 'lighthouses',
    config: played.config,
    seed: 3,
    matchId: 'm1',
    seats: [
      { slot: 0, name: 'a', bot: 'random' },
      { slot: 1, name: 'b', bot: 'random' },
    ],
    timeouts: { initMs: 1000, turnMs: 100 },
  };
  const counting = () => {
    let frames = 0;
    const game = {
      ...real,
      presentation: {
        ...real.presentation,
        spectator: { ...real.presentation.spectator!, frame: (s: unknown) => (frames++, real.presentation.spectator!.frame(s)) },
      },
    } as AnyGame;
    return { game, frames: () => frames };
  };

  it('makes no public frame when it has nowhere to publish', () => {
    const { game, frames } = counting();
    const feed = new MatchFeed(undefined, game, header);
    const e = new MatchEngine(real, { config: played.config, seed: 3, players: 2 });
    for (const rec of played.records) feed.step(e.commit(e.decision()!, rec.moves), e.state);
    assert.equal(frames(), 0);
  });

  it('publishes each step to the full and public audiences, with its frame, when it has live events', async () => {
    const { game, frames } = counting();
    const live = new LocalLiveEvents();
    const seen: string[] = [];
    live.subscribe('m1', 'public', (ev) => {
      seen.push(`public ${ev.type}${'frame' in ev && ev.frame ? ' framed' : ''}`);
    });
    live.subscribe('m1', 'full', (ev) => {
      seen.push(`full ${ev.type}`);
    });
    const feed = new MatchFeed(live, game, header);
    const e = new MatchEngine(real, { config: played.config, seed: 3, players: 2 });
    for (const rec of played.records) feed.step(e.commit(e.decision()!, rec.moves), e.state);
    await new Promise((r) => setImmediate(r));
    await live.close();
    assert.equal(frames(), played.records.length);
    assert.equal(seen.filter((x) => x === 'public step framed').length, played.records.length);
    assert.equal(seen.filter((x) => x === 'full step').length, played.records.length);
  });
});
