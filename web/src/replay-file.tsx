import { render } from 'preact';
import { assertReplayShape } from '../../src/core/replay-shape.js';
import { webGames } from './games/index.js';
import { Player } from './player/player.js';
import { timelineOf } from './timeline.js';
import './styles.css';

/**
 * The player of a replay saved as one HTML file (`botarena replay html`): the replay is in the page, in a
 * `<script type="application/json" id="replay">`, and the page needs no server and no network.
 */
function main(): void {
  const root = document.getElementById('app')!;
  try {
    const replay: unknown = JSON.parse(document.getElementById('replay')!.textContent ?? '');
    assertReplayShape(replay);
    const timeline = timelineOf(replay);
    const web = webGames[replay.game]!;
    const names = replay.seats.map((s) => s.name).join(' vs ');
    const r = replay.result;
    const outcome = r.draw ? 'draw' : r.winner !== null ? `${replay.seats[r.winner]?.name} won` : 'no winner';
    document.title = `${timeline.game.title}: ${names}`;
    // Exposed for tests, benchmarks and curious readers: the fingerprints the browser computed step by step, the
    // time it took, and the timeline and renderer themselves.
    (window as unknown as { botarena: unknown }).botarena = {
      fingerprints: timeline.fingerprints,
      mismatch: timeline.mismatch,
      buildMs: timeline.buildMs,
      timeline,
      web,
    };
    render(
      <main>
        <h1>
          {timeline.game.title}: {names}
        </h1>
        <p class="muted">
          {outcome} · {r.reason} · match {replay.matchId} · seed {replay.seed} · engine {replay.engineVersion}
        </p>
        <Player web={web} timeline={timeline} version={0} live={false} />
      </main>,
      root,
    );
  } catch (err) {
    root.textContent = `This file's replay cannot be played: ${err instanceof Error ? err.message : String(err)}`;
  }
}

main();
