import { useEffect, useState } from 'preact/hooks';
import type { ContestDetail, ContestList, ContestProgress, GameFacts, GameList } from '../../../src/api/index.js';
import { api, ApiError } from '../api.js';
import { href, navigate } from '../router.js';
import { adminToken } from './owner.js';
import { draftConfig, Settings, settingsProblem, type SettingsDraft } from './settings.js';

const message = (err: unknown) => (err instanceof ApiError ? err.message : String(err));

/** Where a contest is, in words for its list and its page. */
export const STATUS_WORDS: Record<string, string> = {
  entry: 'entries open',
  frozen: 'frozen: the final is about to start',
  running: 'final under way',
  done: 'final over: results are final',
};

/** The same, short, for the list. */
const STATUS_SHORT: Record<string, string> = { entry: 'entries open', frozen: 'frozen', running: 'final under way', done: 'over' };

/** How far a final is: its matches over, out of all (or out of those planned so far: Swiss and knockout plan round by round). */
export function progressOf(p: ContestProgress): { over: number; total: number; known: boolean } {
  return { over: p.finished + p.aborted, total: p.total ?? p.planned, known: p.total !== null };
}

/** The final's progress bar, with its numbers in words beside it. */
export function ProgressBar(p: { progress: ContestProgress; status: string }) {
  const { over, total, known } = progressOf(p.progress);
  if (p.status === 'entry' || p.status === 'frozen') return <span class="muted">not started</span>;
  const rest = [
    p.progress.running ? `${p.progress.running} running` : '',
    p.progress.queued ? `${p.progress.queued} queued` : '',
    p.progress.aborted ? `${p.progress.aborted} aborted` : '',
  ]
    .filter(Boolean)
    .join(', ');
  return (
    <span class="contest-progress" data-testid="progress" data-over={over} data-total={total}>
      <progress max={Math.max(1, total)} value={over} aria-label="matches of the final over" />{' '}
      <span>
        {over}/{total}
        {known ? '' : ' planned so far'}
        {rest ? ` (${rest})` : ''}
      </span>
    </span>
  );
}

/** `#/contests`: every contest, newest first, with its status and progress; for the admin, the form that creates one. */
export function ContestsPage() {
  const [list, setList] = useState<ContestList | null>(null);
  const [error, setError] = useState<string | null>(null);
  const admin = adminToken();
  useEffect(() => {
    void api<ContestList>('GET', '/api/contests').then(setList, (err: unknown) => setError(message(err)));
  }, []);
  return (
    <main>
      <h1>Contests</h1>
      <p class="muted">
        A contest has an entry window (entrants play the game's ladder meanwhile), a freeze that fixes every entrant's version, and a final whose results and
        replays anyone can check with <code>botarena contest verify</code>.
      </p>
      {error ? (
        <p class="error" role="alert">
          {error}
        </p>
      ) : !list ? (
        <p class="muted">loading…</p>
      ) : list.length ? (
        <table data-testid="contest-list">
          <thead>
            <tr>
              <th>contest</th>
              <th>game</th>
              <th>format</th>
              <th>status</th>
              <th>entrants</th>
              <th>final</th>
            </tr>
          </thead>
          <tbody>
            {list.map((c) => (
              <tr data-testid="contest-row" data-id={c.id}>
                <td>
                  <a href={href('contests', c.id)}>{c.name}</a>
                </td>
                <td>{c.game}</td>
                <td>{c.format}</td>
                <td data-testid="contest-status">{STATUS_SHORT[c.status] ?? c.status}</td>
                <td>{c.entrants}</td>
                <td>
                  <ProgressBar progress={c.progress} status={c.status} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : (
        <p class="muted" data-testid="no-contests">
          No contest yet.
        </p>
      )}
      {admin ? (
        <CreateContest token={admin} />
      ) : (
        <p class="muted">The organiser creates contests here with the admin token (paste it once on any bot's page: this browser keeps it).</p>
      )}
    </main>
  );
}

/** The format's names, as the definition takes them. */
const FORMATS = [
  ['round-robin', 'round robin: every pairing'],
  ['double-round-robin', 'double round robin: every pairing, sides swapped'],
  ['swiss', 'Swiss, N rounds'],
  ['knockout', 'knockout, seeded from the practice ladder'],
] as const;

/** The time rules a contest may set (each left empty: the game's own). */
const TIME_RULES = [
  ['initMs', 'first message (ms)'],
  ['turnMs', 'each answer (ms)'],
  ['firstMs', 'first answer (ms)'],
  ['bankMs', 'time bank (ms)'],
  ['strikes', 'strikes (timeouts forgiven)'],
] as const;

/** An ISO time from a datetime-local field (the browser's time zone), or the text as typed when it is none. */
const isoOf = (local: string) => {
  const t = new Date(local);
  return local && !Number.isNaN(t.getTime()) ? t.toISOString().replace(/\.000Z$/, 'Z') : local;
};
/** A datetime-local field's value for a time: minutes, in the browser's time zone. */
const localOf = (t: Date) => new Date(t.getTime() - t.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);

/** The field the server's refusal names: `contest: "configs[1].label" must …` → configs[1].label. */
export const refusedField = (text: string) => /^contest: "([^"]+)"/.exec(text)?.[1] ?? null;

/**
 * The admin's form: the definition's fields, each map a label and the game's settings (checked as typed, as the
 * match form checks them), the time rules. The server checks the whole definition; its refusal names the key
 * (`contest: "gamesPerPairing" must be a whole number from 1 to 100, got 0`), and the field it names is marked.
 */
function CreateContest(p: { token: string }) {
  const [games, setGames] = useState<GameList>([]);
  const [facts, setFacts] = useState<GameFacts | null>(null);
  const now = new Date();
  const [form, setForm] = useState({
    id: '',
    name: '',
    game: '',
    format: 'double-round-robin',
    rounds: '',
    gamesPerPairing: '2',
    seed: String(Math.floor(Math.random() * 1_000_000)),
    opensAt: localOf(now),
    closesAt: localOf(new Date(now.getTime() + 7 * 24 * 3600_000)),
  });
  const [maps, setMaps] = useState<{ label: string; draft: SettingsDraft }[]>([{ label: 'default', draft: {} }]);
  const [time, setTime] = useState<Record<string, string>>({});
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    void api<GameList>('GET', '/api/games').then((g) => {
      // A contest's final is played in duels.
      const duels = g.filter((x) => x.players.min <= 2 && x.players.max >= 2);
      setGames(duels);
      setForm((f) => (f.game ? f : { ...f, game: duels[0]?.id ?? '' }));
    });
  }, []);
  useEffect(() => {
    setFacts(null);
    if (form.game) void api<GameFacts>('GET', `/api/games/${encodeURIComponent(form.game)}`).then(setFacts, () => {});
  }, [form.game]);
  const set = (key: keyof typeof form) => (e: Event) => setForm({ ...form, [key]: (e.target as HTMLInputElement).value });
  const problems = facts ? maps.map((m) => settingsProblem(facts, m.draft, 2)) : [];
  const field = error ? refusedField(error) : null;
  const bad = (name: string) => (field !== null && (field === name || field.startsWith(`${name}.`) || field.startsWith(`${name}[`)) ? 'true' : undefined);
  const whole = (text: string) => (/^\s*-?\d+\s*$/.test(text) ? Number(text) : text.trim());

  const submit = async (e: Event) => {
    e.preventDefault();
    if (problems.some((x) => x)) return;
    setError(null);
    const timeRules: Record<string, unknown> = {};
    for (const [k] of TIME_RULES) if ((time[k] ?? '').trim()) timeRules[k] = whole(time[k]!);
    const body: Record<string, unknown> = {
      id: form.id.trim(),
      name: form.name.trim(),
      game: form.game,
      configs: maps.map((m) => ({ label: m.label.trim(), config: facts ? draftConfig(facts.config, m.draft) : {} })),
      format: form.format,
      ...(form.format === 'swiss' && form.rounds.trim() ? { rounds: whole(form.rounds) } : {}),
      gamesPerPairing: whole(form.gamesPerPairing),
      timeRules,
      seed: whole(form.seed),
      opensAt: isoOf(form.opensAt),
      closesAt: isoOf(form.closesAt),
    };
    setBusy(true);
    try {
      const c = await api<ContestDetail>('POST', '/api/contests', { body, token: p.token });
      navigate(href('contests', c.id));
    } catch (err) {
      setError(message(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form class="start contest-form" onSubmit={submit} data-testid="create-contest">
      <h2>Create a contest</h2>
      <label>
        id <input value={form.id} onInput={set('id')} aria-invalid={bad('id')} data-testid="contest-id" placeholder="spring-2027" maxLength={64} />
        <span class="muted"> lowercase letters, digits, dashes: its address and its archive's name</span>
      </label>
      <label>
        name <input value={form.name} onInput={set('name')} aria-invalid={bad('name')} data-testid="contest-name" maxLength={200} />
      </label>
      <label>
        game{' '}
        <select value={form.game} onChange={set('game')} aria-invalid={bad('game')} data-testid="contest-game">
          {games.map((g) => (
            <option value={g.id}>{g.title}</option>
          ))}
        </select>
      </label>
      <label>
        format{' '}
        <select value={form.format} onChange={set('format')} aria-invalid={bad('format')} data-testid="contest-format">
          {FORMATS.map(([v, words]) => (
            <option value={v}>{words}</option>
          ))}
        </select>
      </label>
      {form.format === 'swiss' ? (
        <label>
          rounds <input inputMode="numeric" value={form.rounds} onInput={set('rounds')} aria-invalid={bad('rounds')} data-testid="contest-rounds" />
          <span class="muted"> (empty: ⌈log₂ entrants⌉)</span>
        </label>
      ) : null}
      <label>
        games per pairing and map{' '}
        <input
          inputMode="numeric"
          value={form.gamesPerPairing}
          onInput={set('gamesPerPairing')}
          aria-invalid={bad('gamesPerPairing')}
          data-testid="contest-games"
        />
      </label>
      <label>
        seed <input inputMode="numeric" value={form.seed} onInput={set('seed')} aria-invalid={bad('seed')} data-testid="contest-seed" />
      </label>
      <label>
        entries open <input type="datetime-local" value={form.opensAt} onInput={set('opensAt')} aria-invalid={bad('opensAt')} data-testid="contest-opens" />
      </label>
      <label>
        entries close (the freeze){' '}
        <input type="datetime-local" value={form.closesAt} onInput={set('closesAt')} aria-invalid={bad('closesAt')} data-testid="contest-closes" />
      </label>
      <fieldset data-testid="contest-time">
        <legend>time rules (empty: the game's)</legend>
        {TIME_RULES.map(([k, words]) => (
          <label>
            {words}{' '}
            <input
              inputMode="numeric"
              value={time[k] ?? ''}
              onInput={(e) => setTime({ ...time, [k]: (e.target as HTMLInputElement).value })}
              aria-invalid={bad(`timeRules.${k}`)}
              data-testid={`time-${k}`}
            />
          </label>
        ))}
      </fieldset>
      {maps.map((m, i) => (
        <fieldset class="contest-map" data-testid={`map-${i}`}>
          <legend>map {i + 1}</legend>
          <label>
            label{' '}
            <input
              value={m.label}
              onInput={(e) => setMaps(maps.map((x, j) => (j === i ? { ...x, label: (e.target as HTMLInputElement).value } : x)))}
              aria-invalid={bad(`configs[${i}]`)}
              data-testid={`map-label-${i}`}
            />
          </label>
          {facts ? (
            <Settings
              facts={facts}
              draft={m.draft}
              onChange={(d) => setMaps(maps.map((x, j) => (j === i ? { ...x, draft: d } : x)))}
              problem={problems[i] ?? null}
            />
          ) : null}
          {maps.length > 1 ? (
            <button type="button" onClick={() => setMaps(maps.filter((_, j) => j !== i))}>
              remove this map
            </button>
          ) : null}
        </fieldset>
      ))}
      <p>
        <button type="button" data-testid="add-map" onClick={() => setMaps([...maps, { label: `map${maps.length + 1}`, draft: {} }])}>
          add a map
        </button>
      </p>
      <button type="submit" disabled={busy || problems.some((x) => x)} data-testid="create">
        create the contest
      </button>
      {error ? (
        <p class="error" role="alert" data-testid="create-error">
          {error}
        </p>
      ) : null}
    </form>
  );
}
