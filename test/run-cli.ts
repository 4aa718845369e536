import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** The repository root (tests run the CLI from there, as a user in a clone would). */
export const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** What a CLI run printed and how it ended. */
export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `bin/botarena ARGS` (the built CLI) with optional stdin text and environment; kills it after `timeoutMs`. */
export function runCli(args: string[], opts: { input?: string; timeoutMs?: number; env?: Record<string, string> } = {}): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['bin/botarena', ...args], { cwd: ROOT, stdio: ['pipe', 'pipe', 'pipe'], env: { ...process.env, ...opts.env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d));
    child.stderr.on('data', (d: Buffer) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), opts.timeoutMs ?? 60_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
    child.stdin.end(opts.input ?? '');
  });
}

/** Runs a CLI command; `ready` resolves once its stderr matches `pattern` (or it has ended), `done` when it ends. */
export function startCli(args: string[], pattern: RegExp): { ready: Promise<void>; done: Promise<CliRun> } {
  const cli = spawn(process.execPath, ['bin/botarena', ...args], { cwd: ROOT });
  let stdout = '';
  let stderr = '';
  let seen: () => void = () => {};
  const ready = new Promise<void>((resolve) => (seen = resolve));
  cli.stdout.on('data', (d: Buffer) => (stdout += d));
  cli.stderr.on('data', (d: Buffer) => {
    stderr += d;
    if (pattern.test(stderr)) seen();
  });
  const done = new Promise<CliRun>((resolve) => cli.on('close', (code) => (seen(), resolve({ code, stdout, stderr }))));
  cli.stdin.end();
  return { ready, done };
}

/**
 * Runs a CLI command that waits for one bot to connect in (`play smartdog tcp …`, `doctor smartdog tcp`) on a port
 * of the system's choosing, then starts the Node client `client` (a script path) on that port. Resolves once the
 * CLI has ended, with its run and the client's exit code (null if it had to be killed).
 */
export async function withConnectingClient(args: string[], client: string): Promise<{ run: CliRun; clientCode: number | null }> {
  const cli = spawn(process.execPath, ['bin/botarena', ...args, '--port', '0'], { cwd: ROOT });
  let stdout = '';
  let stderr = '';
  cli.stdout.on('data', (d: Buffer) => (stdout += d));
  cli.stderr.on('data', (d: Buffer) => (stderr += d));
  const closed = new Promise<number | null>((resolve) => cli.on('close', resolve));
  while (!/waiting for 1 bot.* to connect to 127\.0\.0\.1:\d+/.test(stderr)) {
    if (cli.exitCode !== null) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  const port = /127\.0\.0\.1:(\d+)/.exec(stderr)?.[1] ?? '0';
  const bot = spawn(process.execPath, [client, '--port', port], { cwd: ROOT, stdio: 'ignore' });
  const code = await closed;
  const clientCode = await Promise.race([
    new Promise<number | null>((resolve) => (bot.exitCode !== null ? resolve(bot.exitCode) : bot.on('exit', (c) => resolve(c)))),
    new Promise<null>((resolve) => setTimeout(() => resolve(null), 5000)),
  ]);
  bot.kill('SIGKILL');
  return { run: { code, stdout, stderr }, clientCode };
}
