import { useEffect, useState } from 'preact/hooks';
import type { GameList, Leaderboard, MatchPage } from '../../../src/api/index.js';
import { api, listen } from '../api.js';
import { href } from '../router.js';
import { MatchList } from './match-list.js';

/** Home: the games with the top of each leaderboard, the matches running now, the latest results. */
export function HomePage() {
  const [facts, setFacts] = useState<GameList>([]);
  const [tops, setTops] = useState<Record<string, Leaderboard>>({});
  const [running, setRunning] = useState<{ matchId: string; game: string; names: string[] }[]>([]);
  const [recent, setRecent] = useState<MatchPage['items']>([]);
  useEffect(() => {
    void api<GameList>('GET', '/api/games').then(async (list) => {
      setFacts(list);
      const entries = await Promise.all(list.map(async (g) => [g.id, await api<Leaderboard>('GET', `/api/leaderboards/${g.id}?limit=3`)] as const));
      setTops(Object.fromEntries(entries));
    });
    void api<MatchPage>('GET', '/api/matches?status=finished&limit=10').then((r) => setRecent(r.items));
    // The global feed: every match's start and end, so the list of matches under way stays current.
    return listen('/api/events', ['started', 'ended', 'stopped'], (type, data) => {
      const e = data as { matchId: string; header?: { game: string; seats: { name: string }[] } };
      if (type === 'started')
        setRunning((r) =>
          [{ matchId: e.matchId, game: e.header!.game, names: e.header!.seats.map((s) => s.name) }, ...r.filter((m) => m.matchId !== e.matchId)].slice(0, 20),
        );
      else setRunning((r) => r.filter((m) => m.matchId !== e.matchId));
    });
  }, []);
  return (
    <main>
      <h1>Botarena</h1>
      <p>Bots written in any language play fair, timed, replayable matches here. Pick a game to see its leaderboard, watch a match, or test your own bot.</p>
      <div class="cards">
        {facts.map((g) => (
          <a class="card" href={href('games', g.id)} data-testid={`game-${g.id}`}>
            <h2>{g.title}</h2>
            <p class="muted">{g.summary}</p>
            <ol class="top">
              {(tops[g.id] ?? []).map((l) => (
                <li>
                  {l.name} <span class="muted">{Math.round(l.rating)}</span>
                </li>
              ))}
            </ol>
          </a>
        ))}
      </div>
      <h2>Playing now</h2>
      {running.length ? (
        <ul data-testid="running">
          {running.map((m) => (
            <li>
              <a href={href('matches', m.matchId)}>
                {m.game}: {m.names.join(' vs ')}
              </a>
            </li>
          ))}
        </ul>
      ) : (
        <p class="muted">No match is being played right now.</p>
      )}
      <h2>Latest results</h2>
      <MatchList items={recent} />
    </main>
  );
}
