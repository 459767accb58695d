import type { RequestRecord } from './domain';

/** A request whose agent waits on it: still pending, filed with a wait (it has a deadline). */
export const agentBlocked = (r: Pick<RequestRecord, 'status' | 'timeoutAt'>): boolean =>
  r.status === 'pending' && r.timeoutAt !== undefined;
