import { useEffect, useState } from 'preact/hooks';
import type {
  BotList,
  GameFacts,
  GamePage as GamePageAnswer,
  Leaderboard,
  MatchPage,
  NewMatchAnswer,
  NewMatchBody,
  PublicBot,
} from '../../../src/api/index.js';
import { api, ApiError } from '../api.js';
import { href, navigate } from '../router.js';
import { MatchList } from './match-list.js';
import { Rules } from './rules.js';
import { draftConfig, Settings, settingsProblem, type SettingsDraft } from './settings.js';

/** How the API shows the seat a person takes from a page: not a bot a match can be started with. */
export const PERSON_ENDPOINT = 'built-in: browser';

/** A game: its rules in a few words, its leaderboards (ELO and OpenSkill), recent matches, and a form to start a match. */
export function GamePage(p: { id: string }) {
  const [facts, setFacts] = useState<GamePageAnswer | null>(null);
  const [system, setSystem] = useState<'elo' | 'openskill'>('elo');
  const [board, setBoard] = useState<Leaderboard>([]);
  // The other system's lines, shown beside (a bot's ELO with its ± and its OpenSkill μ and σ, as the tournament table).
  const [other, setOther] = useState<Leaderboard>([]);
  const [bots, setBots] = useState<BotList>([]);
  const [recent, setRecent] = useState<MatchPage['items']>([]);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    void api<GamePageAnswer>('GET', `/api/games/${encodeURIComponent(p.id)}`).then(setFacts, (err: unknown) =>
      setError(err instanceof ApiError ? err.message : String(err)),
    );
    void api<BotList>('GET', `/api/bots?game=${encodeURIComponent(p.id)}`).then((b) =>
      setBots(b.filter((x) => (x.status === 'active' || x.builtin) && x.endpoint !== PERSON_ENDPOINT)),
    );
    void api<MatchPage>('GET', `/api/matches?game=${encodeURIComponent(p.id)}&limit=15`).then((r) => setRecent(r.items));
  }, [p.id]);
  useEffect(() => {
    void api<Leaderboard>('GET', `/api/leaderboards/${encodeURIComponent(p.id)}?system=${system}`).then(setBoard, () => setBoard([]));
    const otherSystem = system === 'elo' ? 'openskill' : 'elo';
    void api<Leaderboard>('GET', `/api/leaderboards/${encodeURIComponent(p.id)}?system=${otherSystem}`).then(setOther, () => setOther([]));
  }, [p.id, system]);
  if (error)
    return (
      <p class="error" role="alert">
        {error}
      </p>
    );
  if (!facts) return <p class="muted">loading…</p>;
  const beside = new Map(other.map((o) => [o.botId, o]));
  return (
    <main>
      <h1>{facts.title}</h1>
      <p>{facts.summary}</p>
      <p class="muted">
        {facts.players.min === facts.players.max ? facts.players.min : `${facts.players.min} to ${facts.players.max}`} players · {facts.timeouts.turnMs / 1000}{' '}
        s per answer · <a href={href('test')}>test your bot</a>
      </p>
      <Rules game={p.id} />
      <h2>
        Leaderboard{' '}
        <select aria-label="rating system" value={system} onChange={(e) => setSystem((e.target as HTMLSelectElement).value as 'elo')}>
          <option value="elo">ELO (botsarena)</option>
          <option value="openskill">OpenSkill (μ − 3σ)</option>
        </select>
      </h2>
      {board.length ? (
        <table class="board-table" data-testid="leaderboard">
          <thead>
            <tr>
              <th>#</th>
              <th>bot</th>
              <th>ELO ± (95 %)</th>
              <th>OpenSkill μ − 3σ (μ, σ)</th>
              <th>games</th>
              <th>won / drawn / lost</th>
            </tr>
          </thead>
          <tbody>
            {board.map((l, i) => (
              <tr>
                <td>{i + 1}</td>
                <td>
                  <a href={href('bots', l.botId)}>{l.name}</a>
                  {/* A bot linked from its author's machine (`botarena connect`) that is not linked now. */}
                  {l.status === 'away' ? <span class="muted"> · away</span> : null}
                  {/* Uploaded code: the version that plays. */}
                  {l.version ? (
                    <span class="muted" data-testid="version">
                      {' '}
                      v{String(l.version)}
                    </span>
                  ) : null}
                </td>
                <td data-testid="elo">{eloText(system === 'elo' ? l : beside.get(l.botId))}</td>
                <td data-testid="openskill">{skillText(system === 'openskill' ? l : beside.get(l.botId))}</td>
                <td>{l.games}</td>
                <td>
                  {String(l.wins)} / {String(l.draws)} / {String(l.losses)}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : (
        <p class="muted">No rated matches yet.</p>
      )}
      <StartMatch key={facts.id} facts={facts} bots={bots} />
      <h2>Recent matches</h2>
      <MatchList items={recent} />
    </main>
  );
}

/** A bot's ELO with its 95 % ± (none at a score share of 0 or 1), as the tournament table shows it. */
const eloText = (l: Leaderboard[number] | undefined) => (l ? `${Math.round(l.rating)}${l.eloMargin != null ? ` ±${Math.round(l.eloMargin)}` : ''}` : '–');

/** A bot's OpenSkill ordinal μ − 3σ, with μ and σ, as the tournament table shows it. */
const skillText = (l: Leaderboard[number] | undefined) => (l ? `${l.rating.toFixed(1)} (μ ${l.mu?.toFixed(1) ?? '?'}, σ ${l.sigma?.toFixed(1) ?? '?'})` : '–');

/** "Fight!": pick a bot per seat and start a match (unrated: rated matches are the ladder's). */
function StartMatch(p: { facts: GameFacts; bots: PublicBot[] }) {
  const [count, setCount] = useState(p.facts.players.min);
  const [seats, setSeats] = useState<string[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [draft, setDraft] = useState<SettingsDraft>({});
  if (p.facts.lobby)
    return (
      <p class="muted">Smart-dog bots connect in over TCP to the server's gateway and play when their hub fills; a person can play one on the test page.</p>
    );
  const pick = (i: number) => seats[i] ?? p.bots[i % Math.max(1, p.bots.length)]?.id ?? '';
  const problem = settingsProblem(p.facts, draft, count);
  const start = async (e: Event) => {
    e.preventDefault();
    if (problem) return;
    setError(null);
    const config = draftConfig(p.facts.config, draft);
    try {
      const m = await api<NewMatchAnswer>('POST', '/api/matches', {
        body: {
          game: p.facts.id,
          seats: Array.from({ length: count }, (_, i) => pick(i)),
          ...(Object.keys(config).length ? { config } : {}),
        } satisfies NewMatchBody,
      });
      navigate(href('matches', m.id));
    } catch (err) {
      setError(err instanceof ApiError ? err.message : String(err));
    }
  };
  return (
    <form class="start" onSubmit={start}>
      <h2>Start a match</h2>
      {p.facts.players.max > p.facts.players.min ? (
        <label>
          players{' '}
          <input
            type="number"
            min={p.facts.players.min}
            max={p.facts.players.max}
            value={count}
            onInput={(e) => setCount(Number((e.target as HTMLInputElement).value))}
          />
        </label>
      ) : null}
      {Array.from({ length: count }, (_, i) => (
        <label>
          seat {i}{' '}
          <select
            value={pick(i)}
            onChange={(e) => setSeats(Object.assign([...seats], { [i]: (e.target as HTMLSelectElement).value }))}
            data-testid={`seat-${i}`}
          >
            {p.bots.map((b) => (
              <option value={b.id}>
                {b.name}
                {b.builtin ? ' (built-in)' : ''}
              </option>
            ))}
          </select>
        </label>
      ))}
      <Settings facts={p.facts} draft={draft} onChange={setDraft} problem={problem} />
      <button type="submit" disabled={problem !== null} data-testid="fight">
        Fight!
      </button>
      {error ? (
        <p class="error" role="alert" data-testid="start-error">
          {error}
        </p>
      ) : null}
    </form>
  );
}
