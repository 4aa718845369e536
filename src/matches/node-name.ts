import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';

/**
 * The name a process that plays matches goes by: the store keeps it as the match's `worker` while it plays, and a
 * shared queue's heartbeat says whether it is alive. `role@host:pid:random`, so two starts never share one.
 */
export function nodeName(role: 'server' | 'worker'): string {
  return `${role}@${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;
}
