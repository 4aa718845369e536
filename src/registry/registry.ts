import type { FastifyBaseLogger } from 'fastify';
import { doctor, type DoctorReport } from '../arena/doctor.js';
import { parseBotSpec } from '../bots/index.js';
import type { SandboxOptions } from '../bots/sandbox-options.js';
import { badRequest, forbidden, notFound, unauthorized } from '../core/request-errors.js';
import type { AnyGame } from '../core/game.js';
import type { BotRow, BotVersionRow, Store } from '../store/index.js';
import { readUpload, UploadError, UPLOAD_LIMITS } from './upload/intake.js';
import type { RegistryUploads } from './upload/setup.js';
import { planRun, uploadSpec } from './upload/languages.js';
import { checkEndpoint, isLinkEndpoint, requireGame, type EndpointPolicy } from './endpoints.js';
import { AuthThrottle, type AuthThrottleOptions } from './throttle.js';
import { hashToken, isAdminToken, newToken, verifyToken } from './tokens.js';

/** What a person registers. */
export interface NewBot {
  game: string;
  name: string;
  endpoint: string;
  description?: string;
  owner?: string;
  capacity?: number;
}

export type { RegistryUploads } from './upload/setup.js';

/** Uploaded code as the uploader sends it: the file (its name and bytes), and what it says besides. */
export interface CodeUpload {
  fileName: string;
  bytes: Buffer;
  language?: string;
  entry?: string;
}

/** A bot registered from uploaded code. */
export type NewUploadedBot = Omit<NewBot, 'endpoint'> & { code: CodeUpload };

/** How the registry runs. */
export interface RegistryOptions extends EndpointPolicy {
  /** the admin token (BOTARENA_ADMIN_TOKEN): may do everything an owner may, to every bot */
  adminToken?: string;
  /** whether doctor checks run before a bot plays (default true; tests of other parts may turn it off) */
  checkBots?: boolean;
  /** variables the operator passes to the environment of the bot programs checked (`--bot-env`); their HOME is private */
  botEnv?: Record<string, string>;
  /** how the bot programs checked are confined (see `SandboxOptions`); none: unconfined */
  sandbox?: SandboxOptions;
  /** failed owner-token checks allowed per client address (default 10 a minute) */
  authThrottle?: AuthThrottleOptions;
  /** uploaded code (`--uploads`); none: this server takes no uploads */
  uploads?: RegistryUploads;
  /** whether a bot is linked to this server now (`botarena connect`): a `connect:` bot is active while it is, away otherwise */
  isLinked?: (botId: string) => boolean;
}

/** What an uploader is told when the server takes no uploaded code. */
export const UPLOADS_OFF =
  "this server takes no uploaded code: give your bot's http(s):// URL, or ask the operator to start the server with --uploads LANGUAGES (e.g. --uploads python3,node)";

/** Why a `connect:` bot is away, for its owner. */
export const AWAY_REASON = "not connected: its author's `botarena connect` is not linked to the server (it plays once it is)";

/**
 * The bot registry: registering a bot (its endpoint checked against what the server allows, its owner
 * token shown once and kept hashed), the doctor check that activates it (or pauses it, saying why), editing,
 * and who may act on a bot (its owner's token, or the admin's).
 */
export class BotRegistry {
  /** doctor checks under way (settle() waits for them) */
  private readonly checks = new Set<Promise<unknown>>();
  /** failed owner-token checks by client address: each costs an scrypt hash */
  private readonly throttle: AuthThrottle;

  constructor(
    private readonly store: Store,
    private readonly opts: RegistryOptions,
    private readonly log: FastifyBaseLogger,
  ) {
    this.throttle = new AuthThrottle(opts.authThrottle);
  }

  /** Registers a bot: checked (doctor) before it plays; returns its row and the owner token, shown once. */
  async register(input: NewBot): Promise<{ bot: BotRow; token: string }> {
    const game = requireGame(input.game);
    await checkEndpoint(game, input.endpoint, this.opts);
    const token = newToken();
    // A bot linked from its author's machine cannot be checked here: it is away until it connects, then plays.
    const linked = isLinkEndpoint(input.endpoint);
    const bot = await this.store.createBot({
      game: game.id,
      name: input.name,
      endpoint: input.endpoint,
      description: input.description ?? '',
      ownerContact: input.owner ?? '',
      tokenHash: await hashToken(token),
      status: linked ? 'away' : this.opts.checkBots === false ? 'active' : 'checking',
      capacity: input.capacity ?? 2,
    });
    if (linked) await this.store.updateBot(bot.id, { statusReason: AWAY_REASON });
    this.log.info({ bot: bot.id, game: bot.game, name: bot.name }, 'bot registered');
    if (linked) return { bot: { ...bot, statusReason: AWAY_REASON }, token };
    if (this.opts.checkBots !== false) this.checkLater(bot.id);
    return { bot, token };
  }

  /** Runs the doctor check on a bot; it is activated when every check passes, and the report is kept. */
  async check(botId: string): Promise<DoctorReport | null> {
    const bot = await this.store.getBot(botId);
    if (!bot) return null;
    let report: DoctorReport;
    try {
      report = await this.runDoctor(requireGame(bot.game), bot.endpoint);
    } catch (err) {
      await this.store.updateBot(botId, { status: 'paused', statusReason: `the check could not run: ${err instanceof Error ? err.message : String(err)}` });
      return null;
    }
    const failed = report.checks.filter((c) => c.status === 'fail');
    const reason = failed.length ? `the doctor check failed: ${failed.map((c) => `${c.name}: ${c.detail}`).join('; ')}` : null;
    const current = await this.store.getBot(botId);
    if (!current || current.status === 'deleted') return report;
    await this.store.updateBot(botId, {
      status: reason ? 'paused' : current.status === 'checking' ? 'active' : current.status,
      statusReason: reason,
      doctorReport: JSON.stringify(report),
    });
    this.log.info({ bot: botId, ok: !reason }, reason ? `bot check failed: ${reason.slice(0, 300)}` : 'bot check passed');
    return report;
  }

  /** The doctor's check of a bot spec; an upload's version is placed in the cache (and held) while it runs. */
  private async runDoctor(game: AnyGame, endpoint: string): Promise<DoctorReport> {
    const spec = parseBotSpec(endpoint, game);
    const uploads = this.opts.uploads;
    let release: (() => void) | undefined;
    if (spec.transport === 'upload') {
      if (!uploads) throw new Error('this server runs no uploaded code now (it was started without --uploads)');
      release = await uploads.cache.hold(spec.sha256);
    }
    try {
      return await doctor(game, endpoint, {
        log: () => {},
        addressPolicy: this.opts.allowPrivateBots ? 'any' : 'public-only',
        // Another person's program: a HOME of its own, not the server's.
        botEnv: { pass: this.opts.botEnv, home: 'private' },
        sandbox: this.opts.sandbox,
        uploads: uploads?.cache.runOptions(),
      });
    } finally {
      release?.();
    }
  }

  /** Reads an upload into a version's package and spec, or a 400/413 saying what was wrong. */
  private async intake(code: CodeUpload): Promise<{ sha256: string; bytes: Buffer; expanded: number; language: string; spec: string }> {
    const uploads = this.opts.uploads;
    if (!uploads) throw forbidden(UPLOADS_OFF);
    try {
      const pkg = await readUpload(code.fileName, code.bytes, uploads.limits ?? UPLOAD_LIMITS);
      const plan = planRun(pkg.files, { language: code.language, entry: code.entry }, uploads.cache.opts.languages);
      return { sha256: pkg.sha256, bytes: pkg.bytes, expanded: pkg.expandedBytes, language: plan.language, spec: uploadSpec(pkg.sha256, plan) };
    } catch (err) {
      if (err instanceof UploadError) throw badRequest(`code: ${err.message}`);
      throw err;
    }
  }

  /**
   * Registers a bot from uploaded code: its first version is checked (doctor, sandboxed as a match runs it)
   * before the bot plays; returns the bot, its owner token (shown once) and the version.
   */
  async registerUpload(input: NewUploadedBot): Promise<{ bot: BotRow; token: string; version: BotVersionRow }> {
    const game = requireGame(input.game);
    const v = await this.intake(input.code);
    // The spec must be a seat of this game (a dialect it has).
    parseBotSpec(v.spec, game);
    const token = newToken();
    const bot = await this.store.createBot({
      game: game.id,
      name: input.name,
      endpoint: v.spec,
      description: input.description ?? '',
      ownerContact: input.owner ?? '',
      tokenHash: await hashToken(token),
      status: 'checking',
      capacity: input.capacity ?? 2,
    });
    const version = await this.store.addBotVersion(bot.id, { sha256: v.sha256, code: v.bytes, expanded: v.expanded, language: v.language, spec: v.spec });
    this.log.info({ bot: bot.id, game: bot.game, name: bot.name, version: version.version, sha256: v.sha256 }, 'bot registered from uploaded code');
    this.checkVersionLater(bot.id, version.version);
    return { bot, token, version };
  }

  /** Adds a version of a bot's code: checked before it becomes the active one; a refused one leaves the active one playing. */
  async addVersion(bot: BotRow, code: CodeUpload): Promise<BotVersionRow> {
    const game = requireGame(bot.game);
    if (bot.builtin) throw forbidden('built-in bots have no uploaded code');
    const v = await this.intake(code);
    parseBotSpec(v.spec, game);
    const version = await this.store.addBotVersion(bot.id, { sha256: v.sha256, code: v.bytes, expanded: v.expanded, language: v.language, spec: v.spec });
    this.log.info({ bot: bot.id, version: version.version, sha256: v.sha256 }, 'a new version of a bot uploaded');
    this.checkVersionLater(bot.id, version.version);
    return version;
  }

  /**
   * Checks a version (doctor, sandboxed, as a match would run it): passed, it becomes the bot's active version
   * (the bot's endpoint its spec, a bot still checking becomes active); failed, it is refused with the report,
   * and the bot's active version stays (a bot that has none is paused, saying why).
   */
  async checkVersion(botId: string, n: number): Promise<BotVersionRow | null> {
    const bot = await this.store.getBot(botId);
    const version = await this.store.getBotVersion(botId, n);
    if (!bot || !version || bot.status === 'deleted') return version;
    let report: DoctorReport | null = null;
    let reason: string | null;
    try {
      const failures = (r: DoctorReport) => r.checks.filter((c) => c.status === 'fail');
      report = await this.runDoctor(requireGame(bot.game), version.spec);
      // A check whose only failures are timeouts runs once more: a loaded server (its thread busy with other
      // checks) can delay an answer past the deadline, and a good version should not be refused for that.
      const first = failures(report);
      if (first.length && first.every((c) => /timeout: no answer/.test(c.detail))) {
        this.log.info({ bot: botId, version: n }, `version ${n}: its check timed out (${first[0]!.detail.slice(0, 120)}); checking it once more`);
        report = await this.runDoctor(requireGame(bot.game), version.spec);
      }
      const failed = failures(report);
      reason = failed.length ? `the doctor check failed: ${failed.map((c) => `${c.name}: ${c.detail}`).join('; ')}` : null;
    } catch (err) {
      reason = `the check could not run: ${err instanceof Error ? err.message : String(err)}`;
    }
    if (reason) {
      await this.store.refuseBotVersion(botId, n, JSON.stringify({ reason, report }));
      const current = await this.store.getBot(botId);
      if (current && current.status !== 'deleted' && current.activeVersion === null)
        await this.store.updateBot(botId, {
          status: 'paused',
          statusReason: `version ${n} was refused: ${reason}`,
          doctorReport: report && JSON.stringify(report),
        });
      this.log.info({ bot: botId, version: n }, `version ${n} refused: ${reason.slice(0, 300)}`);
    } else {
      const restartRatings = this.opts.uploads?.ratings === 'restart';
      if (!(await this.store.activateBotVersion(botId, n, JSON.stringify(report), { restartRatings }))) return this.store.getBotVersion(botId, n);
      const current = (await this.store.getBot(botId))!;
      await this.store.updateBot(botId, {
        status: current.status === 'checking' || (current.status === 'paused' && current.statusReason?.startsWith('version ')) ? 'active' : current.status,
        statusReason: current.status === 'paused' && !current.statusReason?.startsWith('version ') ? current.statusReason : null,
        doctorReport: JSON.stringify(report),
      });
      this.log.info({ bot: botId, version: n }, `version ${n} passed its check: it plays now`);
    }
    return this.store.getBotVersion(botId, n);
  }

  /**
   * Checks again the versions whose check was cut off (the server stopped mid-check): at start, so that no
   * version stays 'checking' for ever. Without uploads here, they wait for a server that has them.
   */
  async resumeChecks(): Promise<number> {
    if (!this.opts.uploads) return 0;
    const pending = await this.store.checkingVersions();
    for (const v of pending) this.checkVersionLater(v.botId, v.version);
    if (pending.length) this.log.info(`${pending.length} uploaded version(s) whose check was cut off are checked again`);
    return pending.length;
  }

  private checkVersionLater(botId: string, n: number): void {
    const p = this.checkVersion(botId, n)
      .catch((err: unknown) => this.log.error({ bot: botId, version: n, err }, 'the version check could not finish'))
      .finally(() => this.checks.delete(p));
    this.checks.add(p);
  }

  /**
   * Checks the caller may act on a bot: its owner token or the admin token. `client` is the caller's address:
   * one that has failed too many checks lately is answered 429 (saying when to retry) before any token is hashed.
   */
  async authorise(botId: string, bearer: string | undefined, client?: string): Promise<BotRow> {
    const bot = await this.store.getBot(botId);
    if (!bot || bot.status === 'deleted') throw notFound(`no bot ${botId}`);
    if (!bearer) throw unauthorized('this needs the bot\'s owner token: send "Authorization: Bearer TOKEN" (the token shown when the bot was registered)');
    const ok = await this.throttle.check(
      client,
      async () => isAdminToken(bearer, this.opts.adminToken) || (!bot.builtin && (await verifyToken(bearer, bot.tokenHash))),
    );
    if (ok) return bot;
    if (bot.builtin) throw forbidden('built-in bots are changed by the admin only');
    throw forbidden(`the token is not the owner token of bot ${botId}`);
  }

  /** Whether a bearer token is the admin's. */
  isAdmin(bearer: string | undefined): boolean {
    return !!bearer && isAdminToken(bearer, this.opts.adminToken);
  }

  /** Edits a bot; a new endpoint is checked again before the bot plays rated matches. */
  async update(
    bot: BotRow,
    patch: { endpoint?: string; description?: string; owner?: string; capacity?: number; status?: 'active' | 'paused' },
  ): Promise<BotRow> {
    const game = requireGame(bot.game);
    const changes: Parameters<Store['updateBot']>[1] = {};
    if (patch.description !== undefined) changes.description = patch.description;
    if (patch.owner !== undefined) changes.ownerContact = patch.owner;
    if (patch.capacity !== undefined) changes.capacity = patch.capacity;
    let recheck = false;
    const endpoint = patch.endpoint ?? bot.endpoint;
    // A `connect:` bot is never checked here: it is active while linked, away otherwise.
    const linkedNow = () =>
      Object.assign(changes, this.opts.isLinked?.(bot.id) ? { status: 'active', statusReason: null } : { status: 'away', statusReason: AWAY_REASON });
    if (patch.endpoint !== undefined && patch.endpoint !== bot.endpoint) {
      await checkEndpoint(game, patch.endpoint, this.opts);
      changes.endpoint = patch.endpoint;
      recheck = this.opts.checkBots !== false && !isLinkEndpoint(endpoint);
      if (recheck) Object.assign(changes, { status: 'checking', statusReason: null });
      else if (isLinkEndpoint(endpoint) && bot.status !== 'paused') linkedNow();
    }
    if (patch.status === 'paused') Object.assign(changes, { status: 'paused', statusReason: 'paused by its owner' });
    if (patch.status === 'active' && isLinkEndpoint(endpoint)) linkedNow();
    else if (patch.status === 'active' && !recheck) {
      if (this.opts.checkBots === false) Object.assign(changes, { status: 'active', statusReason: null });
      else {
        // Re-activating goes through the check again: the reason it was paused may be fixed or not.
        Object.assign(changes, { status: 'checking', statusReason: null });
        recheck = true;
      }
    }
    const updated = await this.store.updateBot(bot.id, changes);
    if (recheck) this.checkLater(bot.id);
    return updated;
  }

  /** Resolves once the checks under way have ended (the server's stop waits for them within its grace). */
  async settle(): Promise<void> {
    await Promise.allSettled([...this.checks]);
  }

  /** Runs the check in the background; a failure of the arena itself (the store closing under it) is logged. */
  private checkLater(botId: string): void {
    const p = this.check(botId)
      .catch((err: unknown) => this.log.error({ bot: botId, err }, 'the bot check could not finish'))
      .finally(() => this.checks.delete(p));
    this.checks.add(p);
  }
}
