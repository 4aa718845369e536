import { useMemo } from 'preact/hooks';
import type { ConfigKey, GameFacts } from '../../../src/api/index.js';
import { configProblem } from '../../../src/core/config-check.js';
import { games } from '../../../src/games/index.js';

/** What the person typed or chose for each key they changed (the text of a number as typed). */
export type SettingsDraft = Record<string, string | boolean>;

/** The longest text a key takes in a match request (the API's `config` schema: strings up to 4096 characters). */
const MAX_TEXT = 4096;

/**
 * The request's `config` from the draft: each key changed from its default, a number key's text as the number it
 * reads as (or left as text when it is none, so the check names it), a box's state as true or false.
 */
export function draftConfig(schema: Record<string, ConfigKey>, draft: SettingsDraft): Record<string, string | number | boolean> {
  const out: Record<string, string | number | boolean> = {};
  for (const [key, raw] of Object.entries(draft)) {
    const field = schema[key];
    if (!field) continue;
    if (field.type === 'int' && typeof raw === 'string') {
      const text = raw.trim();
      const value = /^-?\d+$/.test(text) ? Number(text) : text;
      if (value !== field.default) out[key] = value;
    } else if (raw !== field.default) out[key] = raw;
  }
  return out;
}

/**
 * What is wrong with the draft for this many players, in the API's words (the same `configProblem` the server
 * refuses a match request with), or null. A game this app has no rules for is left to the server.
 */
export function settingsProblem(facts: GameFacts, draft: SettingsDraft, players: number): string | null {
  const game = games[facts.id];
  return game ? configProblem(game, draftConfig(facts.config, draft), players) : null;
}

/**
 * The game's settings from its config schema (`GET /api/games`), each key with its default shown and its meaning;
 * `problem` (from `settingsProblem`) is shown under them, naming the key and what it expects.
 */
export function Settings(p: { facts: GameFacts; draft: SettingsDraft; onChange(draft: SettingsDraft): void; problem: string | null }) {
  const keys = useMemo(() => Object.entries(p.facts.config), [p.facts]);
  if (!keys.length) return null;
  const set = (key: string, value: string | boolean) => p.onChange({ ...p.draft, [key]: value });
  return (
    <fieldset class="settings" data-testid="settings">
      <legend>settings</legend>
      {keys.map(([key, field]) => {
        const value = p.draft[key] ?? (field.type === 'bool' ? Boolean(field.default) : String(field.default as string | number));
        const bounds = field.type === 'int' && (field.min !== undefined || field.max !== undefined) ? ` (${field.min ?? '…'}..${field.max ?? '…'})` : '';
        const shownDefault = typeof field.default === 'string' && (field.default.includes('\n') || field.default.length > 40) ? null : String(field.default);
        const about = (
          <span class="muted">
            {' '}
            {field.description}
            {bounds}
            {shownDefault !== null ? ` · default ${shownDefault === '' ? '(empty)' : shownDefault}` : ''}
          </span>
        );
        if (field.type === 'bool')
          return (
            <label>
              <input type="checkbox" checked={value === true} onChange={(e) => set(key, (e.target as HTMLInputElement).checked)} data-testid={`set-${key}`} />{' '}
              {key}
              {about}
            </label>
          );
        const choices = field.choices;
        return (
          <label>
            {key}
            {about}
            <br />
            {choices ? (
              <select value={String(value)} onChange={(e) => set(key, (e.target as HTMLSelectElement).value)} data-testid={`set-${key}`}>
                {choices.map((c) => (
                  <option value={c}>{c}</option>
                ))}
              </select>
            ) : field.file ? (
              <textarea
                rows={String(value).includes('\n') ? 6 : 2}
                value={String(value)}
                maxLength={MAX_TEXT}
                spellcheck={false}
                onInput={(e) => set(key, (e.target as HTMLTextAreaElement).value)}
                data-testid={`set-${key}`}
              />
            ) : (
              <input
                type="text"
                inputMode={field.type === 'int' ? 'numeric' : undefined}
                value={String(value)}
                maxLength={field.type === 'int' ? 20 : MAX_TEXT}
                onInput={(e) => set(key, (e.target as HTMLInputElement).value)}
                data-testid={`set-${key}`}
              />
            )}
          </label>
        );
      })}
      {p.problem ? (
        <p class="error" role="alert" data-testid="settings-problem">
          {p.problem}
        </p>
      ) : null}
    </fieldset>
  );
}
