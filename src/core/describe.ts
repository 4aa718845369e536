// Quoting values in error messages: short, bounded in cost whatever the value (a bot's answer, a crafted file).

/** A short, single-line preview of a bot's raw answer for error messages. */
export function preview(text: string, max = 80): string {
  const oneLine = JSON.stringify(text.length > max ? text.slice(0, max) : text);
  return text.length > max ? `${oneLine}… (${text.length} bytes)` : oneLine;
}

/** A raw piece of text in `describeValue`'s work list (brackets, commas, keys). */
class Raw {
  constructor(readonly text: string) {}
}

/**
 * A value as an error message quotes it: short JSON-like text, at most `max` characters (then "…"), built
 * without recursion and without stringifying the whole value, so a huge or deeply nested value (a bot's
 * answer, a crafted file) costs little; numbers JSON cannot write show as they are (`Infinity`, not `null`),
 * and no value shows as `nothing`. Never throws.
 */
export function describeValue(value: unknown, max = 80): string {
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
