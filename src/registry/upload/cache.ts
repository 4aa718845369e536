// Where uploaded code is placed on the process that plays it (the server, or any worker): a folder per version,
// CACHE/SHA256/, fetched from the store when it is missing, its sha256 checked, unpacked (files read-only), and
// evicted least recently used once the cache is over its size. A version a match is playing is never evicted.
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { MatchJob } from '../../arena/match-job.js';
import { parseBotSpec, type SandboxOptions, type UploadRunOptions } from '../../bots/index.js';
import { games } from '../../games/index.js';
import type { Store } from '../../store/index.js';
import { parseCanonical, sha256 } from './intake.js';
import type { Language } from './languages.js';

/** How a process keeps uploaded code. */
export interface UploadCacheOptions {
  /** the cache folder (made if missing) */
  dir: string;
  /** the most the cache holds, bytes of files (default 1 GiB); least recently used versions go past it */
  maxBytes?: number;
  /** the languages this process runs */
  languages: Readonly<Record<string, Language>>;
  /** the sandbox's limits for uploaded bots */
  sandbox?: SandboxOptions;
}

const SHA = /^[0-9a-f]{64}$/;

/** The size of a folder's files. */
function sizeOf(dir: string): number {
  let n = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) n += sizeOf(p);
    else if (e.isFile()) n += statSync(p).size;
  }
  return n;
}

/** The sha256 of each upload seat of a job. */
export function uploadSeats(job: MatchJob): { slot: number; sha256: string; language: string }[] {
  const game = games[job.game];
  if (!game) return [];
  return job.seats.flatMap((s, slot) => {
    try {
      const spec = parseBotSpec(s.bot, game);
      return spec.transport === 'upload' ? [{ slot, sha256: spec.sha256, language: spec.language }] : [];
    } catch {
      return [];
    }
  });
}

/**
 * Why this process cannot run a job's uploaded code, or null when it can (or the job has none): a worker that
 * lacks a seat's language leaves the match for one that has it. `capabilities`: the languages this process
 * runs, or null when it runs no uploaded code.
 */
export function uploadRefusal(job: MatchJob, capabilities: { languages: readonly string[] } | null): string | null {
  for (const seat of uploadSeats(job)) {
    if (!capabilities)
      return `seat ${seat.slot} is uploaded ${seat.language} code and this process runs no uploaded code: start it with --uploads ${seat.language} (as the server)`;
    if (!capabilities.languages.includes(seat.language))
      return `seat ${seat.slot} is uploaded ${seat.language} code and this process does not run ${seat.language} (its languages: ${capabilities.languages.join(', ') || 'none'}): a worker with it plays the match`;
  }
  return null;
}

/** A process's cache of uploaded code. */
export class UploadCache {
  readonly dir: string;
  readonly maxBytes: number;
  private readonly sizes = new Map<string, number>();
  private readonly used = new Map<string, number>();
  private readonly held = new Map<string, number>();
  private readonly placing = new Map<string, Promise<void>>();
  /** versions fetched from the store (for tests and logs) */
  fetched = 0;

  constructor(
    private readonly store: Pick<Store, 'versionCode'>,
    readonly opts: UploadCacheOptions,
  ) {
    this.dir = opts.dir;
    this.maxBytes = opts.maxBytes ?? 1024 * 1024 * 1024;
    mkdirSync(this.dir, { recursive: true, mode: 0o755 });
    chmodSync(this.dir, 0o755);
    for (const name of readdirSync(this.dir)) {
      const p = join(this.dir, name);
      if (name.startsWith('.tmp-')) rmSync(p, { recursive: true, force: true });
      else if (SHA.test(name)) {
        this.sizes.set(name, sizeOf(p));
        this.used.set(name, statSync(p).mtimeMs);
      }
    }
  }

  /** What the runner needs to run uploads here (plain data: it travels to the match threads). */
  runOptions(): UploadRunOptions {
    return {
      cache: this.dir,
      commands: Object.fromEntries(Object.entries(this.opts.languages).map(([id, l]) => [id, l.command])),
      sandbox: this.opts.sandbox,
    };
  }

  /** The languages this process runs. */
  get languages(): string[] {
    return Object.keys(this.opts.languages);
  }

  /** The versions in the cache now, and their total size. */
  contents(): { versions: string[]; bytes: number } {
    return { versions: [...this.sizes.keys()], bytes: [...this.sizes.values()].reduce((a, b) => a + b, 0) };
  }

  /** Places a version (fetched from the store when missing) and holds it until `release()`: it is not evicted meanwhile. */
  async hold(sha: string): Promise<() => void> {
    this.held.set(sha, (this.held.get(sha) ?? 0) + 1);
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      const n = (this.held.get(sha) ?? 1) - 1;
      if (n > 0) this.held.set(sha, n);
      else this.held.delete(sha);
    };
    try {
      await this.place(sha);
    } catch (err) {
      release();
      throw err;
    }
    return release;
  }

  /** Holds every upload seat's version of a job (see hold); resolves with the release of them all. */
  async holdJob(job: MatchJob): Promise<() => void> {
    const releases: (() => void)[] = [];
    try {
      for (const seat of uploadSeats(job)) releases.push(await this.hold(seat.sha256));
    } catch (err) {
      for (const r of releases) r();
      throw err;
    }
    return () => releases.forEach((r) => r());
  }

  /** Makes sure a version is in the cache: fetched from the store, checked against its sha256, unpacked. */
  place(sha: string): Promise<void> {
    if (!SHA.test(sha)) return Promise.reject(new Error(`${JSON.stringify(sha)} is not a version's sha256`));
    const folder = join(this.dir, sha);
    if (this.sizes.has(sha) && existsSync(folder)) {
      this.touch(sha);
      return Promise.resolve();
    }
    let p = this.placing.get(sha);
    if (!p) {
      p = this.fetch(sha).finally(() => this.placing.delete(sha));
      this.placing.set(sha, p);
    }
    return p;
  }

  private touch(sha: string): void {
    const now = Date.now();
    this.used.set(sha, now);
    try {
      utimesSync(join(this.dir, sha), now / 1000, now / 1000);
    } catch {
      // the order in memory is what counts in this process
    }
  }

  private async fetch(sha: string): Promise<void> {
    const bytes = await this.store.versionCode(sha);
    if (!bytes) throw new Error(`the store has no uploaded code with sha256 ${sha}`);
    const got = sha256(bytes);
    if (got !== sha) throw new Error(`the store's bytes for version ${sha} have sha256 ${got}: refused, not run`);
    this.fetched++;
    const files = parseCanonical(bytes);
    const tmp = join(this.dir, `.tmp-${sha.slice(0, 16)}-${randomBytes(4).toString('hex')}`);
    mkdirSync(tmp, { mode: 0o755 });
    try {
      for (const f of files) {
        const p = join(tmp, f.path);
        mkdirSync(dirname(p), { recursive: true, mode: 0o755 });
        // Written new (flag wx): a path is never followed through something already there.
        writeFileSync(p, f.data, { flag: 'wx', mode: f.exec ? 0o555 : 0o444 });
        chmodSync(p, f.exec ? 0o555 : 0o444);
      }
      chmodSync(tmp, 0o755);
      try {
        renameSync(tmp, join(this.dir, sha));
      } catch (err) {
        // Another process sharing the folder placed it first: the same bytes.
        if (!existsSync(join(this.dir, sha))) throw err;
        rmSync(tmp, { recursive: true, force: true });
      }
    } catch (err) {
      rmSync(tmp, { recursive: true, force: true });
      throw err;
    }
    this.sizes.set(
      sha,
      files.reduce((n, f) => n + f.data.length, 0),
    );
    this.touch(sha);
    this.evict();
  }

  /** Removes least recently used versions not held while the cache is over its size. */
  private evict(): void {
    let total = this.contents().bytes;
    if (total <= this.maxBytes) return;
    const order = [...this.sizes.keys()].sort((a, b) => (this.used.get(a) ?? 0) - (this.used.get(b) ?? 0));
    for (const sha of order) {
      if (total <= this.maxBytes) break;
      if (this.held.has(sha)) continue;
      rmSync(join(this.dir, sha), { recursive: true, force: true });
      total -= this.sizes.get(sha) ?? 0;
      this.sizes.delete(sha);
      this.used.delete(sha);
    }
  }
}
