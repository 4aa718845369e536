// Quoting values in error messages: short, bounded in cost whatever the value (a bot's answer, a crafted file).

/**
 * The most of a bot's answer a fault quotes. Faults are public (the match API, replays, live events), and a bot
 * URL can be made to point at a service that was never meant to answer the public (an arena started with
 * --allow-private-bots), so a fault shows a short, labelled prefix; the bot's owner reads the whole answer in
 * the seat's message log.
 */
export const QUOTED_CHARS = 64;

/**
 * A short, single-line preview of a bot's raw answer for error messages: the answer whole when it is short,
 * else its first `max` characters labelled as such: `"…"… (the first 64 of 5000 characters)`.
 */
export function preview(text: string, max = QUOTED_CHARS): string {
  if (text.length <= max) return JSON.stringify(text);
  return `${JSON.stringify(text.slice(0, max))}… (the first ${max} of ${text.length} characters)`;
}

/** A raw piece of text in `describeValue`'s work list (brackets, commas, keys). */
class Raw {
  constructor(readonly text: string) {}
}

/**
 * A value as an error message quotes it: short JSON-like text, at most `max` characters (then "…"), built
 * without recursion and without stringifying the whole value, so a huge or deeply nested value (a bot's
 * answer, a crafted file) costs little; numbers JSON cannot write show as they are (`Infinity`, not `null`),
 * and no value shows as `nothing`. Never throws. By default as much as a fault may quote of a bot's answer
 * (QUOTED_CHARS).
 */
export function describeValue(value: unknown, max = QUOTED_CHARS): string {
  if (value === undefined) return 'nothing';
  let out = '';
  const todo: unknown[] = [value];
  while (todo.length && out.length <= max) {
    const v = todo.pop();
    if (v instanceof Raw) out += v.text;
    else if (typeof v === 'string') out += JSON.stringify(v.length > max ? v.slice(0, max + 1) : v);
    else if (v === null || typeof v === 'number' || typeof v === 'boolean') out += String(v);
    else if (Array.isArray(v)) {
      // Every item shows at least one character: more than `max` of them cannot show.
      const items: unknown[] = [new Raw('[')];
      for (let i = 0; i < v.length && i <= max; i++) items.push(...(i ? [new Raw(','), v[i]] : [v[i]]));
      items.push(new Raw(v.length > max + 1 ? ',…]' : ']'));
      todo.push(...items.reverse());
    } else if (typeof v === 'object') {
      const items: unknown[] = [new Raw('{')];
      let n = 0;
      for (const key in v) {
        if (!Object.hasOwn(v, key)) continue;
        if (n++ > max) break;
        items.push(new Raw(`${n > 1 ? ',' : ''}${JSON.stringify(key.length > max ? key.slice(0, max + 1) : key)}:`), (v as Record<string, unknown>)[key]);
      }
      items.push(new Raw('}'));
      todo.push(...items.reverse());
    } else out += typeof v === 'undefined' ? 'undefined' : `a ${typeof v}`;
  }
  return out.length > max ? `${out.slice(0, max)}…` : out;
}
