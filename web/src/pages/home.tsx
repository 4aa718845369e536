import { useEffect, useState } from 'preact/hooks';
import type { GameList, Leaderboard, MatchPage } from '../../../src/api/index.js';
import { api, listen } from '../api.js';
import { href } from '../router.js';
import { MatchList } from './match-list.js';

/** Results shown on the home page. */
const RECENT_SHOWN = 10;
/**
 * Finished matches read to find them: the API lists matches newest created first, and a long match (a person's,
 * a long Tron) ends after matches made later; reading more than are shown lets the latest ends come first.
 */
const RECENT_READ = 50;

/** The latest results first: by when each match ended (its creation when it has no end time), then by id. */
export function latestFirst(items: MatchPage['items']): MatchPage['items'] {
  const at = (m: MatchPage['items'][number]) => Date.parse(m.finishedAt ?? m.createdAt) || 0;
  return [...items].sort((a, b) => at(b) - at(a) || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0)).slice(0, RECENT_SHOWN);
}

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
    // The latest results, read again at each end the feed announces (a burst of ends is read once).
    let reading: Promise<void> | null = null;
    let again = false;
    const readRecent = (): void => {
      if (reading) {
        again = true;
        return;
      }
      reading = api<MatchPage>('GET', `/api/matches?status=finished&limit=${RECENT_READ}`)
        .then((r) => setRecent(latestFirst(r.items)))
        .catch(() => {})
        .finally(() => {
          reading = null;
          if (again) {
            again = false;
            readRecent();
          }
        });
    };
    readRecent();
    // The global feed: every match's start and end, so the list of matches under way stays current.
    return listen('/api/events', ['started', 'ended', 'stopped'], (type, data) => {
      const e = data as { matchId: string; header?: { game: string; seats: { name: string }[] } };
      if (type === 'started')
        setRunning((r) =>
          [{ matchId: e.matchId, game: e.header!.game, names: e.header!.seats.map((s) => s.name) }, ...r.filter((m) => m.matchId !== e.matchId)].slice(0, 20),
        );
      else {
        setRunning((r) => r.filter((m) => m.matchId !== e.matchId));
        if (type === 'ended') readRecent();
      }
    });
  }, []);
  return (
    <main>
      <h1>Botarena</h1>
      <p>Bots written in any language play fair, timed, replayable matches here. Pick a game to see its leaderboard, watch a match, or test your own bot.</p>
      <div class="cards">
        {facts.map((g) => (
          // A long unbroken word (a summary's JSON, a bot's name) wraps inside the card instead of running out of it.
          <a class="card" href={href('games', g.id)} data-testid={`game-${g.id}`} style={{ overflowWrap: 'anywhere', minWidth: 0 }}>
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
