/**
 * What the reference engine (Python) makes of a bot's JSON answer, where that differs from what
 * JSON.parse keeps: `json.loads` reads `5.0` and `5e0` as floats and `5` as an int, and the engine's
 * messages quote values with `repr` (`None`, `True`, `['pass']`, `{'a': 1}`, `'fly'`). These read the
 * answer's text, which is the only place the difference between 5 and 5.0 survives. The text has already
 * been read by JSON.parse (it is valid JSON, nested at most MAX_ANSWER_DEPTH deep), so they need not
 * report errors; each is one pass over the text.
 */

/** Past this many characters a list or dict's repr stops (`, …`): a fault's detail keeps far less (500). */
const REPR_LIMIT = 1000;

/** Whether a JSON number literal is a float to Python's json.loads (it has a fraction or an exponent). */
export const isFloatLiteral = (literal: string) => /[.eE]/.test(literal);

/** Reads JSON text from a position; every method moves `i` past what it read. */
class Reader {
  i = 0;
  constructor(readonly text: string) {}

  ws(): void {
    while (this.i < this.text.length && ' \t\n\r'.includes(this.text[this.i]!)) this.i++;
  }

  /** Skips a string literal (at its opening quote) and returns its raw text. */
  stringLiteral(): string {
    const start = this.i++;
    while (this.text[this.i] !== '"') this.i += this.text[this.i] === '\\' ? 2 : 1;
    this.i++;
    return this.text.slice(start, this.i);
  }

  /** Skips any value and returns its raw text. */
  skip(): string {
    this.ws();
    const start = this.i;
    const c = this.text[this.i];
    if (c === '"') return this.stringLiteral();
    if (c === '{' || c === '[') {
      let depth = 0;
      do {
        const d = this.text[this.i];
        if (d === '"') {
          this.stringLiteral();
          continue;
        }
        if (d === '{' || d === '[') depth++;
        else if (d === '}' || d === ']') depth--;
        this.i++;
      } while (depth > 0);
    } else while (this.i < this.text.length && !',]} \t\n\r'.includes(this.text[this.i]!)) this.i++;
    return this.text.slice(start, this.i);
  }

  /** Python's repr of the value here, as json.loads would build it. */
  repr(): string {
    this.ws();
    const c = this.text[this.i];
    if (c === '"') {
      const s = JSON.parse(this.stringLiteral()) as string;
      return s.length > REPR_LIMIT ? `${pyStrRepr(s.slice(0, REPR_LIMIT)).slice(0, -1)}…` : pyStrRepr(s);
    }
    if (c === '[' || c === '{') {
      this.i++;
      // A dict keeps a key where it first came, with the value it was given last (as json.loads builds it).
      const items = new Map<string, string>();
      let n = 0;
      let size = 0;
      for (;;) {
        this.ws();
        if (this.text[this.i] === ']' || this.text[this.i] === '}') break;
        if (size > REPR_LIMIT) {
          // Enough to quote: the rest is skipped, so a huge answer costs one pass and little memory.
          if (c === '{') {
            this.skip();
            this.ws();
            this.i++; // ':'
          }
          this.skip();
          items.set('…', '…');
        } else if (c === '{') {
          const key = pyStrRepr(JSON.parse(this.stringLiteral()) as string);
          this.ws();
          this.i++; // ':'
          const item = `${key}: ${this.repr()}`;
          items.set(key, item);
          size += item.length;
        } else {
          const item = this.repr();
          items.set(String(n++), item);
          size += item.length;
        }
        this.ws();
        if (this.text[this.i] === ',') this.i++;
      }
      this.i++;
      const inner = [...items.values()].join(', ');
      return c === '[' ? `[${inner}]` : `{${inner}}`;
    }
    const literal = this.skip();
    if (literal === 'true') return 'True';
    if (literal === 'false') return 'False';
    if (literal === 'null') return 'None';
    // An int's repr is its JSON literal (which has no leading zeros), but for -0.
    if (isFloatLiteral(literal)) return pyFloatRepr(Number(literal));
    return literal === '-0' ? '0' : literal.length > REPR_LIMIT ? `${literal.slice(0, REPR_LIMIT)}…` : literal;
  }
}

/**
 * The raw text of the values of some top-level members of a JSON object's text, by key (the last of equal
 * keys, which is the one both JSON.parse and json.loads keep). Empty when the text is not an object.
 */
export function topLevelMembers(text: string, keys: readonly string[]): Map<string, string> {
  const found = new Map<string, string>();
  const r = new Reader(text);
  r.ws();
  if (text[r.i] !== '{') return found;
  r.i++;
  for (;;) {
    r.ws();
    if (text[r.i] !== '"') return found;
    const key = JSON.parse(r.stringLiteral()) as string;
    r.ws();
    r.i++; // ':'
    const value = r.skip();
    if (keys.includes(key)) found.set(key, value);
    r.ws();
    if (text[r.i] !== ',') return found;
    r.i++;
  }
}

/** Python's repr of the value json.loads reads from `text` (valid JSON). */
export const pyReprJson = (text: string) => new Reader(text).repr();

/** Python's repr of a value that has no text (a built-in bot's): whole numbers show as ints. */
export function pyRepr(v: unknown): string {
  if (v === null || v === undefined) return 'None';
  if (v === true) return 'True';
  if (v === false) return 'False';
  if (typeof v === 'number') return Number.isInteger(v) ? BigInt(v).toString() : pyFloatRepr(v);
  if (typeof v === 'string') return pyStrRepr(v);
  if (Array.isArray(v)) return `[${v.map(pyRepr).join(', ')}]`;
  if (typeof v === 'object')
    return `{${Object.entries(v)
      .map(([k, x]) => `${pyStrRepr(k)}: ${pyRepr(x)}`)
      .join(', ')}}`;
  return pyStrRepr(String(v));
}

/**
 * Python's repr of a float: the shortest digits that read back as the same number (as JavaScript's), in
 * fixed notation with at least one decimal for exponents −4 to 15, else as `1e+16`, `1.5e-05`.
 */
export function pyFloatRepr(x: number): string {
  if (Number.isNaN(x)) return 'nan';
  if (!Number.isFinite(x)) return x > 0 ? 'inf' : '-inf';
  if (x === 0) return Object.is(x, -0) ? '-0.0' : '0.0';
  const [mantissa, expText] = x.toExponential().split('e') as [string, string];
  const exp = Number(expText);
  const sign = x < 0 ? '-' : '';
  const digits = mantissa.replace('-', '').replace('.', '');
  if (exp < -4 || exp >= 16) {
    const m = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits;
    return `${sign}${m}e${exp < 0 ? '-' : '+'}${String(Math.abs(exp)).padStart(2, '0')}`;
  }
  if (exp < 0) return `${sign}0.${'0'.repeat(-exp - 1)}${digits}`;
  const whole = digits.slice(0, exp + 1).padEnd(exp + 1, '0');
  return `${sign}${whole}.${digits.slice(exp + 1) || '0'}`;
}

/** Characters Python's str.isprintable() refuses (other than ASCII, handled apart): repr escapes them. */
const UNPRINTABLE = /^[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}\p{Zs}]$/u;

/** Python's repr of a string: single quotes unless it holds ' and no ", with Python's escapes. */
export function pyStrRepr(s: string): string {
  const quote = s.includes("'") && !s.includes('"') ? '"' : "'";
  let out = quote;
  for (const ch of s) {
    const cp = ch.codePointAt(0)!;
    if (ch === quote || ch === '\\') out += `\\${ch}`;
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (ch === '\t') out += '\\t';
    else if (cp < 0x20 || cp === 0x7f) out += `\\x${cp.toString(16).padStart(2, '0')}`;
    else if (cp < 0x7f || !UNPRINTABLE.test(ch)) out += ch;
    else if (cp < 0x100) out += `\\x${cp.toString(16).padStart(2, '0')}`;
    else if (cp < 0x10000) out += `\\u${cp.toString(16).padStart(4, '0')}`;
    else out += `\\U${cp.toString(16).padStart(8, '0')}`;
  }
  return out + quote;
}
