import { useEffect, useState } from 'preact/hooks';
import type { GameList, NewBotAnswer, NewBotBody, UploadInfo } from '../../../src/api/index.js';
import { api, ApiError, apiForm } from '../api.js';
import { href } from '../router.js';

/** How a bot enters: the server calls its URL, runs its uploaded code, or its author links it with `botarena connect`. */
type Way = 'url' | 'upload' | 'connect';

/**
 * Register a bot, one of three ways (a URL, uploaded code, linked from the author's machine): the form, the API's
 * messages, and the owner token shown once with a copy button (and, for a linked bot, the command that links it).
 */
export function RegisterPage() {
  const [games, setGames] = useState<GameList>([]);
  const [uploads, setUploads] = useState<UploadInfo | null>(null);
  const [way, setWay] = useState<Way>('url');
  const [form, setForm] = useState({ game: 'tictactoe', name: '', endpoint: '', description: '', owner: '', language: '', entry: '' });
  const [file, setFile] = useState<File | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState<NewBotAnswer | null>(null);
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    void api<GameList>('GET', '/api/games').then(setGames);
    void api<UploadInfo>('GET', '/api/uploads').then(setUploads, () => setUploads(null));
  }, []);
  const field = (key: keyof typeof form) => ({ value: form[key], onInput: (e: Event) => setForm({ ...form, [key]: (e.target as HTMLInputElement).value }) });
  const submit = async (e: Event) => {
    e.preventDefault();
    setError(null);
    const common = { game: form.game, name: form.name, description: form.description || undefined, owner: form.owner || undefined };
    try {
      let r: NewBotAnswer;
      if (way === 'upload') {
        if (!file) throw new ApiError(400, 'choose the file to upload: the bot’s source file, or a .tar.gz or .zip of its folder');
        if (uploads && file.size > uploads.maxBytes)
          throw new ApiError(413, `${file.name} is ${sizeOf(file.size)}; this server takes uploads of ${sizeOf(uploads.maxBytes)} at most`);
        const body = new FormData();
        for (const [k, v] of Object.entries({ ...common, language: form.language || undefined, entry: form.entry || undefined }))
          if (v !== undefined) body.append(k, v);
        body.append('code', file, file.name);
        setBusy(true);
        r = await apiForm<NewBotAnswer>('POST', '/api/bots', body);
      } else {
        setBusy(true);
        r = await api<NewBotAnswer>('POST', '/api/bots', {
          body: { ...common, endpoint: way === 'connect' ? 'connect:' : form.endpoint } satisfies NewBotBody,
        });
      }
      localStorage.setItem(`botarena.owner.${r.bot.id}`, r.token);
      setDone(r);
    } catch (err) {
      setError(err instanceof ApiError ? err.message : String(err));
    } finally {
      setBusy(false);
    }
  };
  if (done) {
    const linked = done.bot.endpoint.startsWith('connect');
    return (
      <main>
        <h1>{done.bot.name} is registered</h1>
        {linked ? (
          <p>
            It plays while you link it from your machine (see{' '}
            <a href={href('bots', done.bot.id)} data-testid="bot-link">
              its page
            </a>
            ): save the token below in a file, then run
            <pre data-testid="connect-command">{`botarena connect ${location.origin} --bot-id ${done.bot.id} --token-file TOKEN_FILE 'stdio:python3 bot.py'`}</pre>
            with your bot's own command in place of the last word.
          </p>
        ) : (
          <p>
            {done.version ? `Version ${done.version.version} of its code is being checked now` : 'It is being checked now'}; it plays rated matches once every
            check passes (see{' '}
            <a href={href('bots', done.bot.id)} data-testid="bot-link">
              its page
            </a>
            ).
          </p>
        )}
        <p>
          <b>Your owner token</b>, shown only now: editing, pausing or deleting the bot, uploading a new version and reading its message logs need it. This
          browser keeps a copy.
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
        <fieldset class="ways" data-testid="ways">
          <legend>how it plays</legend>
          <label>
            <input type="radio" name="way" checked={way === 'url'} onChange={() => setWay('url')} /> at its URL (you host it)
          </label>
          <label title={uploads?.enabled ? undefined : 'this server takes no uploaded code (its operator starts it with --uploads)'}>
            <input type="radio" name="way" checked={way === 'upload'} disabled={!uploads?.enabled} onChange={() => setWay('upload')} /> upload its code
            {uploads && !uploads.enabled ? <span class="muted"> (not on this server)</span> : null}
          </label>
          <label>
            <input type="radio" name="way" checked={way === 'connect'} onChange={() => setWay('connect')} /> link it from my machine
          </label>
        </fieldset>
        {way === 'url' ? (
          <label>
            endpoint <input {...field('endpoint')} required maxLength={2048} placeholder="https://my-bot.example.org/tictactoe" />
          </label>
        ) : null}
        {way === 'upload' && uploads ? (
          <>
            <label>
              code{' '}
              <input
                type="file"
                data-testid="code"
                accept={[...uploads.languages.flatMap((l) => l.extensions), '.tar.gz', '.tgz', '.zip'].join(',')}
                onChange={(e) => setFile((e.target as HTMLInputElement).files?.[0] ?? null)}
              />
            </label>
            <p class="muted">
              One source file, or a .tar.gz or .zip of its folder (with its libraries inside: nothing is installed), {sizeOf(uploads.maxBytes)} at most. It runs
              in a sandbox without network.
            </p>
            <label>
              language{' '}
              <select {...field('language')} onChange={(e) => setForm({ ...form, language: (e.target as HTMLSelectElement).value })}>
                <option value="">from the file's name</option>
                {uploads.languages.map((l) => (
                  <option value={l.id}>{l.id}</option>
                ))}
              </select>
            </label>
            <label>
              entry file <input {...field('entry')} maxLength={240} placeholder={entryHint(uploads, form.language)} />
            </label>
          </>
        ) : null}
        {way === 'connect' ? (
          <p class="muted">
            Nothing to host: after registering, you run <code>botarena connect</code> on your machine with your bot, and it plays over one outbound connection
            while that runs (it is shown as away otherwise).
          </p>
        ) : null}
        <label>
          description <textarea {...field('description')} maxLength={2000} />
        </label>
        <label>
          how to reach you (the admin sees it) <input {...field('owner')} maxLength={200} />
        </label>
        <button type="submit" data-testid="register" disabled={busy}>
          {busy ? 'registering…' : 'register'}
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

/** A size in words: 10 MiB, 512 KiB. */
function sizeOf(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${Math.round((bytes / 1024 / 1024) * 10) / 10} MiB` : `${Math.ceil(bytes / 1024)} KiB`;
}

/** What the entry field says when empty: the files looked for. */
function entryHint(u: UploadInfo, language: string): string {
  const langs = language ? u.languages.filter((l) => l.id === language) : u.languages;
  const names = langs.flatMap((l) => l.entries).slice(0, 4);
  return names.length ? `found by itself: ${names.join(', ')}…` : 'the file to run';
}
