import type { RequestRecord, SessionRecord } from '../../../shared/domain';
import { iso } from '../../../shared/clock';
import { riskOfRule } from '../policy/protected-paths';
import type { RequestRow } from '../requests/requests-store';
import type { SessionRow } from '../sessions/sessions-store';

/** Drops keys whose value is undefined so records serialise and compare cleanly. */
export function compact<T extends object>(o: T): T {
  // A plain loop: this runs several times on every agent call.
  const out: Record<string, unknown> = {};
  for (const key in o) {
    const value = o[key];
    if (value !== undefined) out[key] = value;
  }
  return out as T;
}

export function toRequestRecord(r: RequestRow): RequestRecord {
  const { fingerprint: _fp, createdAt, timeoutAt, decidedAt, ...rest } = r;
  return compact({
    ...rest,
    risk: riskOfRule(rest.rule),
    createdAt: iso(createdAt),
    timeoutAt: timeoutAt === undefined ? undefined : iso(timeoutAt),
    decidedAt: decidedAt === undefined ? undefined : iso(decidedAt),
  });
}

export function toSessionRecord(s: SessionRow, connections: number): SessionRecord {
  const { startedAt, endedAt, lastSeenAt: _seen, summaryJson: _summary, ...rest } = s;
  return compact({
    ...rest,
    startedAt: iso(startedAt),
    endedAt: endedAt === undefined ? undefined : iso(endedAt),
    connections,
  });
}
