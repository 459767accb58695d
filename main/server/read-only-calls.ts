import { storageFailure } from './rpc-error-replies';

/**
 * Calls that only read (or, like `auth`, change nothing stored). Their answers wait for the
 * group commit like every other, so that nothing seen is later undone; but when that commit
 * fails for want of space (other calls' writes), a read is simply made again and answered:
 * the person can still look at the queue and the status while the disk is full.
 */
const READ_ONLY = new Set([
  'auth',
  'status',
  'pending.list',
  'request.get',
  'requests.query',
  'agents.list',
  'sessions.list',
  'session.get',
  'session.transcript',
  'settings.get',
  'audit.query',
]);

/** Whether a successful `method` whose commit failed with `error` should be read again. */
export function readAgainAfter(method: string, error: unknown): boolean {
  return READ_ONLY.has(method) && storageFailure(error) !== undefined;
}
