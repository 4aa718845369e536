// A contest's archive: one .tar.gz holding contest.json (the definition and the entrants with their frozen
// versions), matches.jsonl (one ContestMatchLine per finished match, by index), results.json (the published
// results) and replays/MATCHID.json (every match's replay). Written deterministically (fixed times and modes),
// read as hostile input: caps on its size, entries, each file's size and paths, reading stopped as soon as one
// is passed.
import { gzipSync } from 'node:zlib';
import { describeValue } from '../core/describe.js';
import { ReplayMismatchError, UsageError } from '../core/errors.js';
import { resultLine, type Replay } from '../core/replay.js';
import { assertReplayShape } from '../core/replay-shape.js';
import { readUpload, UploadError } from '../registry/upload/intake.js';
import { CONTEST_LIMITS, checkDefinition, checkEntrants, ContestDefinitionError, type ContestDefinition, type ContestEntrant } from './definition.js';
import type { PlannedMatch } from './plan.js';
import { contestResults, resultsJson, type ContestMatchLine } from './results.js';

/** What contest.json holds. */
export interface ContestFile {
  format: typeof CONTEST_FILE_FORMAT;
  definition: ContestDefinition;
  entrants: ContestEntrant[];
}

/** The format tag of contest.json. */
export const CONTEST_FILE_FORMAT = 'botarena-contest/1';

/** The archive's files besides the replays. */
export const ARCHIVE_FILES = { contest: 'contest.json', matches: 'matches.jsonl', results: 'results.json', replays: 'replays' } as const;

/** A match's replay's path in the archive. */
export const replayPath = (matchId: string): string => `${ARCHIVE_FILES.replays}/${matchId}.json`;

/** An archive's contents, as written or as read (the parts read are checked only for their shape). */
export interface ContestArchive {
  contest: ContestFile;
  matches: ContestMatchLine[];
  /** results.json's text as published (verify compares it as JSON with the recomputed one) */
  results: string;
  /** the replays by their path in the archive (replays/MATCHID.json): a Map to write, an ArchiveReplays when read */
  replays: ArchiveReplays | ReadonlyMap<string, Replay>;
}

/** An archive as readArchive returns it: its replays kept as bytes, parsed when asked for. */
export type ReadArchive = ContestArchive & { replays: ArchiveReplays };

/**
 * The replays of an archive by their path. An archive read from bytes keeps each replay's bytes and parses it
 * when asked for, afresh each time (edit what `get` returns, then `set` it back): a final's replays are held
 * as text, and only the one being verified as objects, several times larger.
 */
export class ArchiveReplays {
  private readonly items = new Map<string, Replay | Buffer>();

  constructor(entries: Iterable<readonly [string, Replay | Buffer]> = []) {
    for (const [path, r] of entries) this.items.set(path, r);
  }

  get size(): number {
    return this.items.size;
  }

  has(path: string): boolean {
    return this.items.has(path);
  }

  keys(): IterableIterator<string> {
    return this.items.keys();
  }

  set(path: string, replay: Replay | Buffer): this {
    this.items.set(path, replay);
    return this;
  }

  delete(path: string): boolean {
    return this.items.delete(path);
  }

  /** The replay at `path` (parsed and shape-checked from its bytes; an ArchiveError names what is wrong), or undefined. */
  get(path: string): Replay | undefined {
    const r = this.items.get(path);
    return Buffer.isBuffer(r) ? parseReplay(r, path) : r;
  }

  /** Every replay with its path, each parsed as it comes (as a Map's entries: `new Map(replays)` holds them all parsed). */
  *[Symbol.iterator](): IterableIterator<[string, Replay]> {
    for (const path of this.items.keys()) yield [path, this.get(path)!];
  }

  entries(): IterableIterator<[string, Replay]> {
    return this[Symbol.iterator]();
  }

  /** The replay's bytes in the archive. */
  bytes(path: string): Buffer | undefined {
    const r = this.items.get(path);
    return r === undefined || Buffer.isBuffer(r) ? r : Buffer.from(JSON.stringify(r) + '\n');
  }
}

/** Parses and shape-checks a replay's bytes; an ArchiveError names the file and what is wrong. */
function parseReplay(data: Buffer, path: string): Replay {
  const value = parseJson(data.toString('utf8'), path);
  try {
    assertReplayShape(value);
  } catch (err) {
    if (err instanceof ReplayMismatchError) throw new ArchiveError(`${path}: ${err.message}`);
    throw err;
  }
  return value;
}

/** Caps on an archive read from outside. */
export interface ArchiveLimits {
  /** the .tar.gz's own size */
  compressedBytes: number;
  /** its files together once expanded (counted while inflating: reading stops there) */
  expandedBytes: number;
  /** files in it */
  entries: number;
  /** one file's size (a replay, matches.jsonl, results.json) */
  fileBytes: number;
}

/** The caps when none are given: room for a final of many thousand matches, bounded memory and time. */
export const ARCHIVE_LIMITS: ArchiveLimits = {
  compressedBytes: 256 * 1024 * 1024,
  expandedBytes: 1024 * 1024 * 1024,
  entries: CONTEST_LIMITS.matches + 3,
  fileBytes: 64 * 1024 * 1024,
};

const MiB = (n: number) => (n % (1024 * 1024) === 0 ? `${n / (1024 * 1024)} MiB` : `${n} bytes`);

/**
 * The archive of a finished final: contest.json from the definition and entrants, matches.jsonl from the
 * lines (by index), results.json computed from them, and each line's replay (by match id). Throws when a line
 * has no replay.
 */
export function buildArchive(
  definition: ContestDefinition,
  entrants: readonly ContestEntrant[],
  lines: readonly ContestMatchLine[],
  replays: ReadonlyMap<string, Replay>,
): ContestArchive {
  const matches = [...lines].sort((a, b) => a.index - b.index);
  const byPath = new Map<string, Replay>();
  for (const l of matches) {
    const r = replays.get(l.matchId);
    if (!r) throw new Error(`buildArchive: match ${l.index} (${l.matchId}) has no replay`);
    byPath.set(l.replay, r);
  }
  return {
    contest: { format: CONTEST_FILE_FORMAT, definition, entrants: [...entrants] },
    matches,
    results: resultsJson(contestResults(definition, entrants, matches)),
    replays: byPath,
  };
}

/** One tar header block (ustar) for a regular file, fixed owner, mode and time: the same contents, the same bytes. */
function tarHeader(path: string, size: number): Buffer {
  const h = Buffer.alloc(512);
  const slash = path.lastIndexOf('/');
  const [prefix, name] = Buffer.byteLength(path) > 100 && slash > 0 ? [path.slice(0, slash), path.slice(slash + 1)] : ['', path];
  if (Buffer.byteLength(name) > 100 || Buffer.byteLength(prefix) > 155) throw new Error(`writeArchive: the path ${path} is too long for a tar entry`);
  const octal = (n: number, width: number) => n.toString(8).padStart(width - 1, '0') + '\0';
  h.write(name, 0, 'utf8');
  h.write(octal(0o644, 8), 100, 'ascii');
  h.write(octal(0, 8), 108, 'ascii');
  h.write(octal(0, 8), 116, 'ascii');
  h.write(octal(size, 12), 124, 'ascii');
  h.write(octal(0, 12), 136, 'ascii');
  h.write('        ', 148, 'ascii');
  h.write('0', 156, 'ascii');
  h.write('ustar\0', 257, 'ascii');
  h.write('00', 263, 'ascii');
  h.write(prefix, 345, 'utf8');
  let sum = 0;
  for (const b of h) sum += b;
  h.write(sum.toString(8).padStart(6, '0') + '\0 ', 148, 'ascii');
  return h;
}

/** Writes an archive: the .tar.gz's bytes (contest.json, matches.jsonl, results.json, then the replays by match index). */
export function writeArchive(a: ContestArchive): Buffer {
  const files: [string, Buffer][] = [
    [ARCHIVE_FILES.contest, Buffer.from(JSON.stringify(a.contest, null, 2) + '\n')],
    [ARCHIVE_FILES.matches, Buffer.from(a.matches.map((l) => JSON.stringify(l) + '\n').join(''))],
    [ARCHIVE_FILES.results, Buffer.from(a.results)],
  ];
  const written = new Set<string>();
  for (const path of [...a.matches.map((l) => l.replay), ...a.replays.keys()]) {
    const data = a.replays instanceof ArchiveReplays ? a.replays.bytes(path) : jsonBytes(a.replays.get(path));
    if (!data || written.has(path)) continue;
    written.add(path);
    files.push([path, data]);
  }
  return tarGz(files);
}

const jsonBytes = (r: Replay | undefined): Buffer | undefined => (r === undefined ? undefined : Buffer.from(JSON.stringify(r) + '\n'));

/** A .tar.gz of these files, in this order (ustar, mode 644, owner 0, time 0). */
export function tarGz(files: readonly (readonly [string, Buffer])[]): Buffer {
  const parts: Buffer[] = [];
  for (const [path, data] of files) {
    parts.push(tarHeader(path, data.length), data, Buffer.alloc((512 - (data.length % 512)) % 512));
  }
  parts.push(Buffer.alloc(1024));
  return gzipSync(Buffer.concat(parts));
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
const short = (v: unknown) => describeValue(v, 60);

/** An archive refused: what was wrong and where, and what an archive must be. */
export class ArchiveError extends UsageError {
  override name = 'ArchiveError';
}

function parseJson(text: string, where: string): unknown {
  try {
    return JSON.parse(text);
  } catch (err) {
    const why = err instanceof Error ? err.message : String(err);
    throw new ArchiveError(`${where} is not valid JSON: ${why.length > 200 ? `${why.slice(0, 200)}…` : why}`);
  }
}

/** The uploads' reader's message in a contest archive's words (it speaks of a bot's package). */
function uploadWords(message: string): string {
  return message
    .replace(/ \(vendor only what the bot needs\)/g, '')
    .replace(/the bot's code/g, 'contest.json, matches.jsonl, results.json and replays/')
    .replace(/(a|the) bot's (package|folder)/g, 'the contest archive');
}

/** Checks a parsed matches.jsonl line has the shape results and verify read; returns what is wrong, or null. */
function lineProblem(l: unknown, entrants: number): string | null {
  if (!isObject(l)) return `must be a JSON object, got ${short(l)}`;
  const nonNegInt = (v: unknown) => Number.isSafeInteger(v) && (v as number) >= 0;
  const str = (v: unknown, max: number) => typeof v === 'string' && v.length <= max;
  if (!nonNegInt(l.index)) return `"index" must be a whole number from 0, got ${short(l.index)}`;
  if (!str(l.key, 200)) return `"key" must be a string of at most 200 characters, got ${short(l.key)}`;
  if (!nonNegInt(l.round)) return `"round" must be a whole number from 0, got ${short(l.round)}`;
  if (!str(l.config, CONTEST_LIMITS.labelChars)) return `"config" must be a configuration's label, got ${short(l.config)}`;
  if (typeof l.matchId !== 'string' || !/^[A-Za-z0-9._:-]{1,94}$/.test(l.matchId) || l.matchId.startsWith('.'))
    return `"matchId" must be 1 to 94 letters, digits, dots, colons, dashes or underscores, got ${short(l.matchId)}`;
  if (!str(l.replay, 200)) return `"replay" must be the replay's path in the archive, got ${short(l.replay)}`;
  if (!str(l.game, 64)) return `"game" must be a game id, got ${short(l.game)}`;
  if (!nonNegInt(l.seed)) return `"seed" must be a whole number, got ${short(l.seed)}`;
  if (!nonNegInt(l.turns)) return `"turns" must be a whole number, got ${short(l.turns)}`;
  if (!(l.winner === null || nonNegInt(l.winner))) return `"winner" must be a seat or null, got ${short(l.winner)}`;
  if (typeof l.draw !== 'boolean') return `"draw" must be true or false, got ${short(l.draw)}`;
  if (!(l.error === undefined || l.error === null || str(l.error, 4096))) return `"error" must be null or a string, got ${short(l.error)}`;
  if (!Array.isArray(l.seats) || l.seats.length !== 2 || !l.seats.every((e) => Number.isInteger(e) && e >= 0 && e < entrants))
    return `"seats" must be the two entrants by seat (0..${entrants - 1}), got ${short(l.seats)}`;
  if (!Array.isArray(l.players) || l.players.length !== 2) return `"players" must be the two seats' results, got ${short(l.players)}`;
  for (const [i, p] of l.players.entries()) {
    if (!isObject(p)) return `"players[${i}]" must be an object, got ${short(p)}`;
    if (!Number.isInteger(p.rank) || (p.rank as number) < 1 || (p.rank as number) > 2) return `"players[${i}].rank" must be 1 or 2, got ${short(p.rank)}`;
    for (const k of ['fault', 'note'] as const) {
      const f = p[k];
      if (f === undefined || f === null) continue;
      if (!isObject(f) || !str(f.kind, 64) || !str(f.detail, 4096) || !Number.isInteger(f.turn))
        return `"players[${i}].${k}" must be null or {turn, kind, detail}, got ${short(f)}`;
    }
  }
  return null;
}

/**
 * Reads an archive's bytes as hostile input: the .tar.gz is read in memory by the uploads' reader (caps on its
 * size, the expanded bytes counted while inflating, entries, paths: no absolute path, no '..', no link or
 * device), then each part is checked: contest.json's definition and entrants as the server checks them,
 * every matches.jsonl line's shape, every replay's shape. Throws an ArchiveError naming the file, the line or
 * the field, and the cap or the shape expected. What the parts say is not judged here: that is verify.ts.
 */
export async function readArchive(bytes: Buffer, limits: Partial<ArchiveLimits> = {}): Promise<ReadArchive> {
  const caps = { ...ARCHIVE_LIMITS, ...limits };
  if (bytes.length > caps.compressedBytes) throw new ArchiveError(`the archive is ${MiB(bytes.length)}; at most ${MiB(caps.compressedBytes)}`);
  let files: { path: string; data: Buffer }[];
  try {
    const pkg = await readUpload('contest.tar.gz', bytes, {
      compressedBytes: caps.compressedBytes,
      expandedBytes: caps.expandedBytes,
      files: caps.entries,
      pathLength: 200,
      pathDepth: 2,
    });
    files = pkg.files;
  } catch (err) {
    if (err instanceof UploadError) throw new ArchiveError(`the archive cannot be read: ${uploadWords(err.message)}`);
    throw err;
  }
  const byPath = new Map(files.map((f) => [f.path, f.data]));
  const need = (path: string): string => {
    const data = byPath.get(path);
    if (!data)
      throw new ArchiveError(
        `the archive has no ${path}; a contest archive holds ${ARCHIVE_FILES.contest}, ${ARCHIVE_FILES.matches}, ${ARCHIVE_FILES.results} and ${ARCHIVE_FILES.replays}/`,
      );
    return data.toString('utf8');
  };
  for (const f of files) {
    const known =
      f.path === ARCHIVE_FILES.contest || f.path === ARCHIVE_FILES.matches || f.path === ARCHIVE_FILES.results || /^replays\/[^/]+\.json$/.test(f.path);
    if (!known)
      throw new ArchiveError(
        `the archive holds ${JSON.stringify(f.path)}, which is no part of a contest archive (contest.json, matches.jsonl, results.json, replays/ID.json)`,
      );
    if (f.data.length > caps.fileBytes) throw new ArchiveError(`${f.path} is ${MiB(f.data.length)}; at most ${MiB(caps.fileBytes)} a file`);
  }
  const contest = parseJson(need(ARCHIVE_FILES.contest), ARCHIVE_FILES.contest);
  if (!isObject(contest) || contest.format !== CONTEST_FILE_FORMAT)
    throw new ArchiveError(
      `${ARCHIVE_FILES.contest} must be {"format": "${CONTEST_FILE_FORMAT}", "definition": …, "entrants": […]}, got format ${short(isObject(contest) ? contest.format : contest)}`,
    );
  let definition: ContestDefinition;
  let entrants: ContestEntrant[];
  try {
    definition = checkDefinition(contest.definition);
    entrants = checkEntrants(contest.entrants);
  } catch (err) {
    if (err instanceof ContestDefinitionError) throw new ArchiveError(`${ARCHIVE_FILES.contest}: ${err.message}`);
    throw err;
  }
  const matches: ContestMatchLine[] = [];
  const text = need(ARCHIVE_FILES.matches);
  const raw = text.split('\n');
  if (raw.length > CONTEST_LIMITS.matches + 1)
    throw new ArchiveError(`${ARCHIVE_FILES.matches} has more than ${CONTEST_LIMITS.matches} lines, the most a final has`);
  raw.forEach((line, i) => {
    if (!line.trim()) return;
    const where = `${ARCHIVE_FILES.matches} line ${i + 1}`;
    const value = parseJson(line, where);
    const problem = lineProblem(value, entrants.length);
    if (problem) throw new ArchiveError(`${where}: ${problem}`);
    matches.push(value as unknown as ContestMatchLine);
  });
  const results = need(ARCHIVE_FILES.results);
  // Each replay is parsed and shape-checked now (a bad one is refused here), then kept as its bytes only.
  const replays = new ArchiveReplays();
  for (const f of files) {
    if (!f.path.startsWith(`${ARCHIVE_FILES.replays}/`)) continue;
    parseReplay(f.data, f.path);
    replays.set(f.path, f.data);
  }
  return { contest: { format: CONTEST_FILE_FORMAT, definition, entrants }, matches, results, replays };
}

/** A finished match's line in matches.jsonl: its place in the plan, its id and replay's path, and its replay's result. */
export function contestLine(m: PlannedMatch, matchId: string, replay: Replay): ContestMatchLine {
  return { index: m.index, key: m.key, round: m.round, config: m.config, seats: [...m.seats], matchId, replay: replayPath(matchId), ...resultLine(replay) };
}
