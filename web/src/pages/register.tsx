import { useEffect, useState } from 'preact/hooks';
import type { GameList, NewBotAnswer, NewBotBody } from '../../../src/api/index.js';
import { api, ApiError } from '../api.js';
import { href } from '../router.js';

/** Register a bot: the form, the API's validation messages, and the owner token shown once with a copy button. */
export function RegisterPage() {
  const [games, setGames] = useState<GameList>([]);
  const [form, setForm] = useState({ game: 'tictactoe', name: '', endpoint: '', description: '', owner: '' });
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<NewBotAnswer | null>(null);
  const [copied, setCopied] = useState(false);
  useEffect(() => void api<GameList>('GET', '/api/games').then(setGames), []);
  const field = (key: keyof typeof form) => ({ value: form[key], onInput: (e: Event) => setForm({ ...form, [key]: (e.target as HTMLInputElement).value }) });
  const submit = async (e: Event) => {
    e.preventDefault();
    setError(null);
    try {
      const r = await api<NewBotAnswer>('POST', '/api/bots', {
        body: { ...form, description: form.description || undefined, owner: form.owner || undefined } satisfies NewBotBody,
      });
      localStorage.setItem(`botarena.owner.${r.bot.id}`, r.token);
      setDone(r);
    } catch (err) {
      setError(err instanceof ApiError ? err.message : String(err));
    }
  };
  if (done) {
    return (
      <main>
        <h1>{done.bot.name} is registered</h1>
        <p>
          It is being checked now; it plays rated matches once every check passes (see{' '}
          <a href={href('bots', done.bot.id)} data-testid="bot-link">
            its page
          </a>
          ).
        </p>
        <p>
          <b>Your owner token</b>, shown only now: editing, pausing or deleting the bot and reading its message logs need it. This browser keeps a copy.
        </p>
        <p class="token">
          <code data-testid="token">{done.token}</code>{' '}
          <button type="button" onClick={() => void navigator.clipboard?.writeText(done.token).then(() => setCopied(true))}>
            {copied ? 'copied' : 'copy'}
          </button>
        </p>
      </main>
    );
  }
  return (
    <main>
      <h1>Register a bot</h1>
      <form class="register" onSubmit={submit}>
        <label>
          game{' '}
          <select {...field('game')} onChange={(e) => setForm({ ...form, game: (e.target as HTMLSelectElement).value })}>
            {games
              .filter((g) => !g.lobby)
              .map((g) => (
                <option value={g.id}>{g.title}</option>
              ))}
          </select>
        </label>
        <label>
          name <input {...field('name')} required maxLength={64} placeholder="letters, digits, space . _ + -" />
        </label>
        <label>
          endpoint <input {...field('endpoint')} required maxLength={2048} placeholder="https://my-bot.example.org/tictactoe" />
        </label>
        <label>
          description <textarea {...field('description')} maxLength={2000} />
        </label>
        <label>
          how to reach you (the admin sees it) <input {...field('owner')} maxLength={200} />
        </label>
        <button type="submit" data-testid="register">
          register
        </button>
        {error ? (
          <p class="error" role="alert" data-testid="register-error">
            {error}
          </p>
        ) : null}
      </form>
      <p class="muted">Smart-dog bots connect in over TCP to the server's gateway instead of registering here.</p>
    </main>
  );
}
