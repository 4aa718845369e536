import type { Command } from 'commander';
import { ReplayMismatchError } from '../core/errors.js';
import { verifyReplay } from '../core/replay.js';
import { getGame } from '../games/index.js';
import { matchHeader } from './format.js';
import { parseNonNegativeInt } from './options.js';
import { readReplay } from './replay-file.js';

/** `botarena replay show|verify FILE`: text playback, and exact re-run checks. */
export function registerReplay(program: Command): void {
  const replay = program.command('replay').description('play back or verify a replay file');

  replay
    .command('show')
    .description('print the match step by step: the moves of each turn and the board after it')
    .argument('<file>', 'replay file (.json or .gz)')
    .option('--turn <n>', 'show only the board after this turn', parseNonNegativeInt('--turn'))
    .action((file: string, o: { turn?: number }) => {
      const r = readReplay(file);
      const game = getGame(r.game);
      const out: string[] = [`${matchHeader(r)} · ${r.seats.map((s) => `${s.name} (${s.bot})`).join(' vs ')}`];
      verifyReplay(game, r, (engine, rec) => {
        if (o.turn !== undefined && rec.turn !== o.turn) return;
        const moves = rec.moves.map((m) => {
          const who = r.seats[m.slot]?.name ?? `slot ${m.slot}`;
          const ms = m.ms !== undefined ? ` in ${m.ms} ms` : '';
          return `${who}: ${m.fault ? `${m.fault.kind} — ${m.fault.detail}` : JSON.stringify(m.action)}${ms}`;
        });
        out.push(`\n── turn ${rec.turn} (${rec.phase}) ${moves.join('; ')}\n${game.render(engine.state)}`);
      });
      out.push(`\n${r.result.reason}`);
      process.stdout.write(out.join('\n') + '\n');
    });

  replay
    .command('verify')
    .description('re-run the replay with its recorded moves; exit 1 naming the first difference')
    .argument('<file>', 'replay file (.json or .gz)')
    .action((file: string) => {
      const r = readReplay(file);
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
}
