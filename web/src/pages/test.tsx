import { useEffect, useState } from 'preact/hooks';
import type { BotList, GameFacts, GameList, NewMatchAnswer, NewMatchBody } from '../../../src/api/index.js';
import { api, ApiError } from '../api.js';
import { keepPersonSeats } from '../player/person.js';
import { href, navigate, type Route } from '../router.js';
import { PERSON_ENDPOINT } from './game.js';
import { draftConfig, Settings, settingsProblem, type SettingsDraft } from './settings.js';

type Opponent = 'itself' | 'weak' | 'strong' | 'you';

/** The weak and the strong built-in bot of a game: the original's random or stupid bot, and the last one listed. */
export function builtinPair(facts: GameFacts): { weak: string; strong: string } {
  const names = Object.keys(facts.bots);
  const weak = names.find((n) => n === 'random') ?? names.find((n) => n === 'stupid') ?? names[0]!;
  return { weak, strong: names[names.length - 1]! };
}

/**
 * The test page: a bot (picked, or a URL) against itself, a weak or a strong built-in bot, or you; never rated,
 * every message kept for the log. With no bot picked, you play the game yourself against the chosen bot.
 */
export function TestPage(p: { route: Route }) {
  const [games, setGames] = useState<GameList>([]);
  const [game, setGame] = useState(p.route.query.get('game') ?? 'tictactoe');
  const [bots, setBots] = useState<BotList>([]);
  const [bot, setBot] = useState(p.route.query.get('bot') ?? '');
  const [url, setUrl] = useState('');
  const [opponent, setOpponent] = useState<Opponent>('strong');
  const [error, setError] = useState<string | null>(null);
  // The settings typed for the game chosen (a new game starts from its defaults).
  const [draft, setDraft] = useState<SettingsDraft>({});
  useEffect(() => setDraft({}), [game]);
  useEffect(() => void api<GameList>('GET', '/api/games').then(setGames), []);
  useEffect(() => void api<BotList>('GET', `/api/bots?game=${encodeURIComponent(game)}`).then(setBots, () => setBots([])), [game]);
  const facts = games.find((g) => g.id === game);
  /** The seats of the match the form describes now. */
  const seatsOf = (facts: GameFacts) => {
    const pair = builtinPair(facts);
    const subject = url.trim() || bot || (opponent === 'you' ? pair.strong : 'person');
    const other = opponent === 'itself' ? subject : opponent === 'you' ? 'person' : pair[opponent];
    const seats = facts.lobby ? [other === 'person' || subject === 'person' ? 'person' : subject] : [subject, other];
    while (seats.length < facts.players.min) seats.push(pair.weak);
    return seats;
  };
  // Checked for the seats asked for, as the server checks a match request.
  const problem = facts ? settingsProblem(facts, draft, seatsOf(facts).length) : null;
  const start = async (e: Event) => {
    e.preventDefault();
    if (!facts || problem) return;
    setError(null);
    const seats = seatsOf(facts);
    const config = draftConfig(facts.config, draft);
    try {
      const m = await api<NewMatchAnswer>('POST', '/api/matches', {
        body: { game, test: true, seats, ...(Object.keys(config).length ? { config } : {}) } satisfies NewMatchBody,
      });
      if (m.persons?.length) keepPersonSeats(m.id, m.persons);
      if (m.viewerToken) localStorage.setItem(`botarena.viewer.${m.id}`, m.viewerToken);
      navigate(href('matches', m.id));
    } catch (err) {
      setError(err instanceof ApiError ? err.message : String(err));
    }
  };
  return (
    <main>
      <h1>Test a bot</h1>
      <p>
        A test match is never rated; every message to and from the bot is kept, byte for byte, in the match's log. Leave the bot empty to play the game
        yourself.
      </p>
      <form class="test" onSubmit={start}>
        <label>
          game{' '}
          <select value={game} onChange={(e) => setGame((e.target as HTMLSelectElement).value)} data-testid="test-game">
            {games.map((g) => (
              <option value={g.id}>{g.title}</option>
            ))}
          </select>
        </label>
        <label>
          your bot's URL{' '}
          <input
            value={url}
            onInput={(e) => setUrl((e.target as HTMLInputElement).value)}
            placeholder="http://127.0.0.1:8000/"
            maxLength={2048}
            data-testid="test-url"
          />
        </label>
        <label>
          or a registered bot{' '}
          <select value={bot} onChange={(e) => setBot((e.target as HTMLSelectElement).value)} data-testid="test-bot">
            <option value="">(none: I play)</option>
            {bots
              .filter((b) => b.endpoint !== PERSON_ENDPOINT)
              .map((b) => (
                <option value={b.id}>
                  {b.name}
                  {b.builtin ? ' (built-in)' : ` (${b.status})`}
                </option>
              ))}
          </select>
        </label>
        <fieldset>
          <legend>against</legend>
          {(['itself', 'weak', 'strong', 'you'] as const).map((o) => (
            <label>
              <input type="radio" name="opponent" value={o} checked={opponent === o} onChange={() => setOpponent(o)} data-testid={`against-${o}`} />{' '}
              {o === 'itself' ? 'itself' : o === 'you' ? 'me (I play in this page)' : `the ${o} built-in bot${facts ? ` (${builtinPair(facts)[o]})` : ''}`}
            </label>
          ))}
        </fieldset>
        {facts ? <Settings facts={facts} draft={draft} onChange={setDraft} problem={problem} /> : null}
        <button type="submit" disabled={problem !== null} data-testid="test-start">
          start the test match
        </button>
        {error ? (
          <p class="error" role="alert" data-testid="test-error">
            {error}
          </p>
        ) : null}
      </form>
    </main>
  );
}
