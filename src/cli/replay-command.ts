import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Command } from 'commander';
import type { RefeedReport } from '../arena/refeed.js';
import { resolveConfig } from '../core/config.js';
import { ReplayMismatchError, UsageError } from '../core/errors.js';
import { engineBefore, positionConfig, replayFingerprint } from '../core/position.js';
import { ReplayFollower, verifyReplay } from '../core/replay.js';
import { getGame } from '../games/index.js';
import { matchHeader, table } from './format.js';

/** `1 answer`, `4 answers`. */
const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;
import { botEnvHelp, collectBotEnv, parseNonNegativeInt, parsePositiveInt } from './options.js';
import { withMatchOptions, type PlayOptions } from './play-command.js';

// The replay files' code (zlib), the runner and the transports are loaded when a command needs them.
const readReplay = async (file: string) => (await import('./replay-file.js')).readReplay(file);

/** A value on one line: itself, JSON made compact, or null for other text over several lines. */
function oneLine(value: string): string | null {
  if (!value.includes('\n')) return value;
  try {
    return JSON.stringify(JSON.parse(value));
  } catch {
    return null;
  }
}

/** `botarena replay show|verify|position|fork|refeed FILE`: playback, checks, and starting again from a turn. */
export function registerReplay(program: Command): void {
  const replay = program.command('replay').description('play back or verify a replay file');

  replay
    .command('show')
    .description('print the match step by step: what each bot did each turn and the board after it')
    .argument('<file>', 'replay file (.json or .gz)')
    .option(
      '--turn <n>',
      'show only turn N: the board before it (the position `replay position --turn N` prints and `fork --turn N` starts from), its moves, and the board after it',
      parseNonNegativeInt('--turn'),
    )
    .option('--from <n>', 'start at turn N, with the board before it', parseNonNegativeInt('--from'))
    .option('--to <n>', 'stop after turn N', parseNonNegativeInt('--to'))
    .action(async (file: string, o: { turn?: number; from?: number; to?: number }) => {
      const r = await readReplay(file);
      const game = getGame(r.game);
      const turns = r.turns.map((t) => t.turn);
      const span = turns.length ? `${Math.min(...turns)}..${Math.max(...turns)}` : '(none)';
      if (o.turn !== undefined && (o.from !== undefined || o.to !== undefined)) throw new UsageError('--turn N is --from N --to N: give one or the other');
      const from = o.turn ?? o.from;
      const to = o.turn ?? o.to;
      for (const [flag, n] of [
        ['--turn', o.turn],
        ['--from', o.from],
        ['--to', o.to],
      ] as const) {
        if (n !== undefined && !turns.includes(n)) throw new UsageError(`${flag} ${n}: the match has turns ${span}`);
      }
      if (from !== undefined && to !== undefined && to < from) throw new UsageError(`--to ${to} is before --from ${from}`);
      const shown = (turn: number) => (from === undefined || turn >= from) && (to === undefined || turn <= to);
      const out: string[] = [`${matchHeader(r)} · ${r.seats.map((s) => `${s.name} (${s.bot})`).join(' vs ')}`];
      const follower = new ReplayFollower(game, r);
      let before = from === undefined;
      try {
        for (const rec of r.turns) {
          if (!before && rec.turn === from) {
            out.push(`\n── before turn ${rec.turn}\n${game.presentation.render(follower.engine.state)}`);
            before = true;
          }
          follower.step(rec, r.turns.length);
          if (!shown(rec.turn)) continue;
          const moves = rec.moves.map((m) => {
            const who = r.seats[m.slot]?.name ?? `slot ${m.slot}`;
            const ms = m.ms !== undefined ? ` in ${m.ms} ms` : '';
            return `${who}: ${m.fault ? `${m.fault.kind} — ${m.fault.detail}` : JSON.stringify(m.action)}${ms}`;
          });
          out.push(`\n── turn ${rec.turn} (${rec.phase}) ${moves.join('; ')}\n${game.presentation.render(follower.engine.state)}`);
        }
        follower.finish(r.result, r.stopped);
      } catch (err) {
        if (!(err instanceof ReplayMismatchError)) throw err;
        process.stdout.write(out.join('\n') + '\n');
        process.stderr.write(`replay ${file} does not reproduce: ${err.message}\n`);
        process.exitCode = 1;
        return;
      }
      if (to === undefined || to === Math.max(...turns)) out.push(`\n${r.result.reason}`);
      process.stdout.write(out.join('\n') + '\n');
    });

  replay
    .command('html')
    .description('write one self-contained HTML file that plays the replay in a browser, offline (no server, no network)')
    .argument('<file>', 'replay file (.json or .gz)')
    .option('-o, --out <file>', 'where to write it (default: FILE with .html for .json/.gz)')
    .action(async (file: string, o: { out?: string }) => {
      const r = await readReplay(file);
      // The browser re-runs the rules to draw the frames: a replay that does not reproduce would show wrong ones.
      try {
        verifyReplay(getGame(r.game), r);
      } catch (err) {
        if (!(err instanceof ReplayMismatchError)) throw err;
        process.stderr.write(`replay ${file} does not reproduce, so it cannot be played back: ${err.message}\n`);
        process.exitCode = 1;
        return;
      }
      const out = o.out ?? `${file.replace(/(\.json)?(\.gz)?$/i, '')}.html`;
      const { replayHtml } = await import('../arena/replay-html.js');
      const html = replayHtml(r);
      writeFileSync(out, html);
      process.stdout.write(`wrote ${out} (${(Buffer.byteLength(html) / 1024).toFixed(0)} KiB): open it in a browser, no server needed\n`);
    });

  replay
    .command('verify')
    .description('re-run the replay with its recorded moves; exit 1 naming the first difference')
    .argument('<file>', 'replay file (.json or .gz)')
    .action(async (file: string) => {
      const r = await readReplay(file);
      const game = getGame(r.game);
      try {
        verifyReplay(game, r);
      } catch (err) {
        if (!(err instanceof ReplayMismatchError)) throw err;
        process.stderr.write(`replay ${file} does not reproduce: ${err.message}\n`);
        process.exitCode = 1;
        return;
      }
      process.stdout.write(`ok: ${r.game} seed ${r.seed}, ${r.turns.length} steps reproduce exactly; ${r.result.reason}\n`);
    });

  replay
    .command('position')
    .description("print the position before turn N in the form --set takes (key=value lines), to start a match there or keep it beside a bot's tests")
    .argument('<file>', 'replay file (.json or .gz)')
    .requiredOption('--turn <n>', 'the position before turn N is played (what `replay show --turn N` shows first)', parsePositiveInt('--turn'))
    .option('--key <key>', "print only this key's value (for a file: --set KEY=that-file)")
    .option('--out <dir>', 'write each value over several lines to DIR/KEY.txt and print the --set flags for them all')
    .action(async (file: string, o: { turn: number; key?: string; out?: string }) => {
      const r = await readReplay(file);
      const game = getGame(r.game);
      const config = positionConfig(game, engineBefore(game, r, o.turn));
      const defaults = resolveConfig(game.id, game.config, {});
      // The keys that differ from the game's defaults: the position and whatever else the match was set to.
      const keys = Object.keys(config).filter((k) => JSON.stringify(config[k]) !== JSON.stringify(defaults[k]));
      if (o.key !== undefined) {
        if (!Object.hasOwn(config, o.key)) throw new UsageError(`${game.id} has no config key "${o.key}"; its keys: ${Object.keys(config).join(', ')}`);
        process.stdout.write(`${String(config[o.key])}\n`);
        return;
      }
      if (o.out) {
        mkdirSync(o.out, { recursive: true });
        const flags = keys.map((k) => {
          const field = game.config[k];
          // A name (map=islet) stays a name; only text over several lines goes to a file the key can read.
          if (field?.type !== 'string' || !field.file || !String(config[k]).includes('\n')) return `--set '${k}=${String(config[k])}'`;
          const path = join(o.out!, `${k}.txt`);
          writeFileSync(path, `${String(config[k])}\n`);
          return `--set ${k}=${path}`;
        });
        process.stdout.write(`botarena play ${game.id} <bots…> ${flags.join(' ')}\n`);
        return;
      }
      // One line per key: JSON values are printed compact; other text over several lines (a map) needs --out.
      const lines = keys.map((k) => [k, oneLine(String(config[k]))] as const);
      const long = lines.filter(([, v]) => v === null).map(([k]) => k);
      if (long.length)
        throw new UsageError(
          `${long.join(', ')} ${long.length > 1 ? 'are' : 'is'} text over several lines: use --out DIR (one file per key) or --key ${long[0]}`,
        );
      process.stdout.write(lines.map(([k, v]) => `${k}=${v}\n`).join(''));
      process.stderr.write(
        `start there: botarena play ${game.id} <bots…> ${keys.map((k) => `--set '${k}=…'`).join(' ')} (or: botarena replay fork ${file} --turn ${o.turn})\n`,
      );
    });

  const fork = replay
    .command('fork')
    .description(
      're-run the replay to turn N and play on from there with the given bots (the same seats by default); the new replay records where it was forked from',
    )
    .argument('<file>', 'replay file (.json or .gz)')
    .argument('[bots...]', "one bot spec per seat (default: the replay's own)")
    .requiredOption('--turn <n>', 'the turn the new match starts with: it plays on from the position before turn N', parsePositiveInt('--turn'))
    .option(
      '--same-bots',
      "run the replay's own seats even when they are commands (stdio:, exec:, file://): a replay file names programs, and forking runs them",
    );
  withMatchOptions(fork).action(async (file: string, bots: string[], o: PlayOptions & { turn: number; sameBots?: boolean }) => {
    const r = await readReplay(file);
    const game = getGame(r.game);
    // A replay file may come from anyone: the commands its seats name are run only when the user says so.
    const { parseBotSpec, runsCommand } = await import('../bots/schemes.js');
    const runs = (bot: string): boolean => {
      try {
        return runsCommand(parseBotSpec(bot, game));
      } catch {
        return false; // a spec that does not read runs nothing (playing it fails with the reason)
      }
    };
    const commands = bots.length ? [] : r.seats.filter((s) => runs(s.bot));
    if (commands.length && !o.sameBots) {
      const shown = commands.map((s) => `slot ${s.slot}: ${JSON.stringify(s.bot.length > 200 ? `${s.bot.slice(0, 200)}…` : s.bot)}`).join(', ');
      throw new UsageError(`the replay's seats run commands (${shown}): pass --same-bots to run them, or give the bots (one spec per seat)`);
    }
    const seats = bots.length ? bots : r.seats.map((s) => s.bot);
    if (seats.length !== r.seats.length) throw new UsageError(`the replay has ${r.seats.length} seats, got ${seats.length} bots`);
    const config = positionConfig(game, engineBefore(game, r, o.turn));
    const names = Object.fromEntries(r.seats.map((s, i) => [String(i), s.name]));
    const { playMatch } = await import('./play-match.js');
    await playMatch(
      game,
      seats,
      { ...o, seed: o.seed ?? r.seed, name: bots.length ? o.name : { ...names, ...(o.name ?? {}) } },
      {
        config,
        forkedFrom: { matchId: r.matchId, seed: r.seed, turn: o.turn, fingerprint: replayFingerprint(r) },
      },
    );
  });

  replay
    .command('refeed')
    .description(
      'send the messages slot S got to another bot (a new version) without changing the game, and print the turns where its answers differ; exit 1 when any does',
    )
    .argument('<file>', 'replay file (.json or .gz)')
    .argument('<bot>', 'the bot to ask (a bot spec)')
    .requiredOption('--slot <n>', 'the seat whose messages are sent again', parseNonNegativeInt('--slot'))
    .option('--bot-env <NAME[=VALUE]>', botEnvHelp('yours'), collectBotEnv)
    .action(async (file: string, bot: string, o: { slot: number; botEnv?: Record<string, string> }) => {
      const r = await readReplay(file);
      const game = getGame(r.game);
      if (o.slot >= r.seats.length) throw new UsageError(`--slot ${o.slot}: the replay has seats 0..${r.seats.length - 1}`);
      const { refeed, RefeedFailedError } = await import('../arena/refeed.js');
      let report: RefeedReport;
      try {
        report = await refeed(game, r, o.slot, bot, { botEnv: { pass: o.botEnv, home: 'user' } });
      } catch (err) {
        if (!(err instanceof RefeedFailedError)) throw err;
        process.stderr.write(`botarena: refeed failed: ${err.message}\n`);
        process.exitCode = 3;
        return;
      }
      const who = `slot ${o.slot} (${r.seats[o.slot]!.name})`;
      if (!report.differences.length) {
        process.stdout.write(`${who}: ${plural(report.asked, 'message')} sent again to ${bot}; every answer is the recorded one\n`);
        return;
      }
      const rows = [['turn', 'phase', 'recorded', 'now'], ...report.differences.map((d) => [String(d.turn), d.phase, d.recorded, d.now])];
      const n = report.differences.length;
      process.stdout.write(
        `${who}: ${plural(report.asked, 'message')} sent again to ${bot}; ${plural(n, 'answer')} ${n === 1 ? 'differs' : 'differ'}:\n\n${table(rows)}\n`,
      );
      process.exitCode = 1;
    });
}
