import { useEffect, useState } from 'preact/hooks';
import type { BotList, GameList, MatchPage } from '../../../src/api/index.js';
import { api, ApiError } from '../api.js';
import { MatchList } from './match-list.js';
import { href, navigate, type Route } from '../router.js';
import { adminToken } from './owner.js';

const message = (err: unknown) => (err instanceof ApiError ? err.message : String(err));

/** An address with a query: empty values are left out, so a cleared filter leaves the address. */
function withQuery(base: string, query: Record<string, string | undefined>): string {
  const q = new URLSearchParams(Object.entries(query).filter((e): e is [string, string] => !!e[1]));
  const s = q.toString();
  return s ? `${base}?${s}` : base;
}

/** `#/games`: every game, with its players and a link to its page. */
export function GamesPage() {
  const [games, setGames] = useState<GameList | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    void api<GameList>('GET', '/api/games').then(setGames, (err: unknown) => setError(message(err)));
  }, []);
  if (error)
    return (
      <p class="error" role="alert">
        {error}
      </p>
    );
  if (!games) return <p class="muted">loading…</p>;
  return (
    <main>
      <h1>Games</h1>
      <table data-testid="games">
        <thead>
          <tr>
            <th>game</th>
            <th>players</th>
            <th>in a few words</th>
          </tr>
        </thead>
        <tbody>
          {games.map((g) => (
            <tr>
              <td>
                <a href={href('games', g.id)}>{g.title}</a>
              </td>
              <td>{g.players.min === g.players.max ? g.players.min : `${g.players.min}–${g.players.max}`}</td>
              <td>
                {g.summary} ·{' '}
                <a href={withQuery(href('matches'), { game: g.id })} class="muted">
                  its matches
                </a>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </main>
  );
}

const KINDS = ['ladder', 'challenge', 'test'] as const;
const STATUSES = ['queued', 'running', 'finished', 'aborted'] as const;
const PAGE = 20;

/**
 * `#/matches?game=&bot=&kind=&status=&limit=&cursor=`: matches, newest first, a page at a time (the API's cursor), filtered
 * by game, bot, kind and status. The filters and the page are in the address, so a link shares them and the
 * browser's back button goes back a page.
 */
export function MatchesPage(p: { route: Route }) {
  const q = p.route.query;
  const filters = { game: q.get('game') ?? '', bot: q.get('bot') ?? '', kind: q.get('kind') ?? '', status: q.get('status') ?? '' };
  const cursor = q.get('cursor') ?? '';
  // Matches a page (the API takes 1 to 100); kept across pages and filters when the address gives it.
  const limit = /^\d{1,3}$/.test(q.get('limit') ?? '') && Number(q.get('limit')) >= 1 && Number(q.get('limit')) <= 100 ? q.get('limit')! : '';
  const [games, setGames] = useState<GameList>([]);
  const [bots, setBots] = useState<BotList>([]);
  const [page, setPage] = useState<MatchPage | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    void api<GameList>('GET', '/api/games').then(setGames, () => {});
  }, []);
  useEffect(() => {
    void api<BotList>('GET', withQuery('/api/bots', { game: filters.game })).then(setBots, () => setBots([]));
  }, [filters.game]);
  const key = JSON.stringify([filters, cursor, limit]);
  useEffect(() => {
    setError(null);
    setPage(null);
    void api<MatchPage>('GET', withQuery('/api/matches', { ...filters, limit: limit || String(PAGE), cursor })).then(setPage, (err: unknown) =>
      setError(message(err)),
    );
  }, [key]);
  const go = (change: Partial<typeof filters>) => navigate(withQuery(href('matches'), { ...filters, limit, ...change }));
  const select = (name: keyof typeof filters, label: string, options: { value: string; label: string }[]) => (
    <label>
      {label}{' '}
      <select
        aria-label={label}
        data-testid={`filter-${name}`}
        value={filters[name]}
        onChange={(e) => go({ [name]: (e.target as HTMLSelectElement).value, ...(name === 'game' ? { bot: '' } : {}) })}
      >
        <option value="">all</option>
        {options.map((o) => (
          <option value={o.value}>{o.label}</option>
        ))}
        {/* A bot from a link that the list of the game's bots does not hold (deleted, another game). */}
        {filters[name] && !options.some((o) => o.value === filters[name]) ? <option value={filters[name]}>{filters[name]}</option> : null}
      </select>
    </label>
  );
  return (
    <main>
      <h1>Matches</h1>
      <form class="inline filters" onSubmit={(e) => e.preventDefault()}>
        {select(
          'game',
          'game',
          games.map((g) => ({ value: g.id, label: g.title })),
        )}
        {select(
          'bot',
          'bot',
          bots.map((b) => ({ value: b.id, label: filters.game ? b.name : `${b.name} (${b.game})` })),
        )}
        {select(
          'kind',
          'kind',
          KINDS.map((k) => ({ value: k, label: k })),
        )}
        {select(
          'status',
          'status',
          STATUSES.map((s) => ({ value: s, label: s })),
        )}
      </form>
      {error ? (
        <p class="error" role="alert">
          {error}
        </p>
      ) : !page ? (
        <p class="muted">loading…</p>
      ) : page.items.length ? (
        <MatchList items={page.items} kinds />
      ) : (
        <p class="muted" data-testid="no-matches">
          No match {cursor ? 'on this page' : 'is like that'}.
        </p>
      )}
      <nav class="pager">
        {cursor ? (
          <a href={withQuery(href('matches'), { ...filters, limit })} data-testid="first-page">
            ← newest
          </a>
        ) : null}{' '}
        {page?.next ? (
          <a href={withQuery(href('matches'), { ...filters, limit, cursor: page.next })} data-testid="next-page">
            older →
          </a>
        ) : null}
      </nav>
    </main>
  );
}

/** `#/bots?game=&status=`: the bots, by game and status; with the admin token kept here, each with its owner's contact. */
export function BotsPage(p: { route: Route }) {
  const game = p.route.query.get('game') ?? '';
  const status = p.route.query.get('status') ?? '';
  const [games, setGames] = useState<GameList>([]);
  const [bots, setBots] = useState<BotList | null>(null);
  const [error, setError] = useState<string | null>(null);
  const admin = adminToken();
  useEffect(() => {
    void api<GameList>('GET', '/api/games').then(setGames, () => {});
  }, []);
  useEffect(() => {
    setError(null);
    void api<BotList>('GET', withQuery('/api/bots', { game, status }), { token: admin || undefined }).then(setBots, (err: unknown) => setError(message(err)));
  }, [game, status]);
  const go = (change: { game?: string; status?: string }) => navigate(withQuery(href('bots'), { game, status, ...change }));
  return (
    <main>
      <h1>Bots</h1>
      <form class="inline filters" onSubmit={(e) => e.preventDefault()}>
        <label>
          game{' '}
          <select aria-label="game" data-testid="filter-game" value={game} onChange={(e) => go({ game: (e.target as HTMLSelectElement).value })}>
            <option value="">all</option>
            {games.map((g) => (
              <option value={g.id}>{g.title}</option>
            ))}
          </select>
        </label>
        <label>
          status{' '}
          <select aria-label="status" data-testid="filter-status" value={status} onChange={(e) => go({ status: (e.target as HTMLSelectElement).value })}>
            <option value="">all</option>
            {['checking', 'active', 'away', 'paused'].map((s) => (
              <option value={s}>{s}</option>
            ))}
          </select>
        </label>
      </form>
      {error ? (
        <p class="error" role="alert">
          {error}
        </p>
      ) : !bots ? (
        <p class="muted">loading…</p>
      ) : bots.length ? (
        <table data-testid="bot-list">
          <thead>
            <tr>
              <th>bot</th>
              <th>game</th>
              <th>status</th>
              <th>about it</th>
              {admin ? <th>owner's contact</th> : null}
            </tr>
          </thead>
          <tbody>
            {bots.map((b) => (
              <tr data-testid="bot-row">
                <td>
                  <a href={href('bots', b.id)}>{b.name}</a>
                  {b.builtin ? <span class="muted"> (built-in)</span> : null}
                </td>
                <td>{b.game}</td>
                <td>
                  {b.status}
                  {b.statusReason ? <span class="muted">: {b.statusReason}</span> : null}
                </td>
                <td>{b.description}</td>
                {admin ? <td data-testid="bot-owner">{b.owner ?? ''}</td> : null}
              </tr>
            ))}
          </tbody>
        </table>
      ) : (
        <p class="muted">No bot is like that.</p>
      )}
    </main>
  );
}
