import { spawn, type ChildProcess } from 'node:child_process';
import { ROOT } from './run-cli.js';

// An arena in queue mode as an organiser runs it: `botarena serve --queue` and `botarena worker` processes on
// one Postgres database and one Redis, started from the built CLI (bin/botarena).

/** A started process of the cluster: its output so far, and how to stop it. */
export interface ClusterProcess {
  child: ChildProcess;
  /** stdout and stderr so far */
  log(): string;
  /** SIGKILL, resolves once it has exited */
  kill(): Promise<void>;
  /** SIGTERM, resolves once it has exited */
  stop(): Promise<void>;
}

const running = new Set<ChildProcess>();
process.on('exit', () => {
  for (const c of running) c.kill('SIGKILL');
});

/** Kills every process this kit started (for a test file's `after`). */
export function killAll(): void {
  for (const c of running) c.kill('SIGKILL');
}

function start(args: string[], ready: RegExp, env: Record<string, string> = {}): Promise<ClusterProcess & { match: RegExpExecArray }> {
  const child = spawn(process.execPath, ['bin/botarena', ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } });
  running.add(child);
  let out = '';
  const exited = new Promise<void>((resolve) => child.once('exit', () => (running.delete(child), resolve())));
  const proc: ClusterProcess = {
    child,
    log: () => out,
    kill: async () => {
      child.kill('SIGKILL');
      await exited;
    },
    stop: async () => {
      child.kill('SIGTERM');
      await exited;
    },
  };
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${args[0]} did not start within 20 s:\n${out}`)), 20_000);
    const look = (d: Buffer) => {
      out += d;
      const m = ready.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve({ ...proc, match: m });
      }
    };
    child.stdout!.on('data', look);
    child.stderr!.on('data', look);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${args[0]} exited (${code}) before it was ready:\n${out}`));
    });
  });
}

/** Where the cluster keeps its state. */
export interface ClusterPlace {
  database: string;
  redis: string;
  /** Redis key prefix: each test's own */
  prefix: string;
}

/** The admin token of the servers `startQueueServer` starts (rated matches on demand are the admin's only). */
export const CLUSTER_ADMIN = 'admin-secret-cluster-0123456789';

/** `botarena serve --queue` on a free port; resolves with its URL once it listens. */
export async function startQueueServer(at: ClusterPlace, extra: string[] = []): Promise<ClusterProcess & { url: string }> {
  const p = await start(
    [
      'serve',
      '--port',
      '0',
      '--database',
      at.database,
      '--queue',
      at.redis,
      '--redis-prefix',
      at.prefix,
      '--allow-commands',
      '--no-gateway',
      '--reconcile-ms',
      '1000',
      ...extra,
    ],
    /botarena server at (http:\/\/[\d.:]+)/,
    { BOTARENA_ADMIN_TOKEN: CLUSTER_ADMIN },
  );
  return { ...p, url: p.match[1]! };
}

/** `botarena worker` named `name` (with --allow-commands unless `commands` is false); resolves once it takes matches. */
export async function startWorkerProcess(at: ClusterPlace, name: string, extra: string[] = [], { commands = true } = {}): Promise<ClusterProcess> {
  return start(
    [
      'worker',
      '--queue',
      at.redis,
      '--redis-prefix',
      at.prefix,
      '--database',
      at.database,
      ...(commands ? ['--allow-commands'] : []),
      '--name',
      name,
      '--lock-ms',
      '2000',
      ...extra,
    ],
    /takes matches from/,
  );
}
