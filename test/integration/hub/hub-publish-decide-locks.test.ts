import { describe, expect, it } from 'vitest';
import { insertDecision } from '../../../main/hub/store/decisions-repo';
import { registerMachine } from '../../../main/hub/store/machines-repo';
import { getHubRequest, storePublished } from '../../../main/hub/store/requests-repo';
import type { SqlDatabase } from '../../../main/hub/store/sql';
import { hubDatabases } from '../../support/hub-databases';
import { pendingRecord } from '../../support/hub-service-stage';

const T0 = Date.parse('2026-03-02T09:00:00.000Z');
const dbs = hubDatabases();

const asked = (requestId: string) =>
  pendingRecord({ requestId, agent: 'builder', action: 'git_push', description: 'push', at: T0 });

/** Resolves once some connection of the database waits for a row lock. */
async function someoneWaitsForALock(db: SqlDatabase): Promise<void> {
  for (let i = 0; i < 200; i++) {
    const rows = await db.query<{ n: string | number }>(
      "SELECT count(*) AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock'",
    );
    if (Number(rows[0]!.n) > 0) return;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error('no connection waited for a lock');
}

/**
 * A person's decision and the machine's publishing of the same request at once: the decision
 * holds the request's row while it stores the decision (whose machine must exist, so
 * PostgreSQL locks the machine's row against its deletion), while the publish holds the
 * machine's row and waits for the request's to store the request's picture. With the publish
 * locking the machine row FOR UPDATE, the two waited for each other and PostgreSQL ended one
 * with "deadlock detected": the hub answered the person's decision 500 (CI86).
 */
describe('a decision and a publish of the same request at once (PostgreSQL)', () => {
  it('both complete: the publish does not lock out the check that the machine exists', async () => {
    const db = await dbs.fresh('postgres');
    await registerMachine(db, { machineId: 'm1', name: 'laptop', publicKey: 'k', now: T0 });
    await db.transaction((tx) =>
      storePublished(tx, 'm1', [{ seq: 1, kind: 'request.asked', request: asked('r1') }], T0),
    );
    let publishing: Promise<number> | undefined;
    const decided = await db.transaction(async (tx) => {
      expect(await getHubRequest(tx, 'm1', 'r1', { lock: true })).toBeDefined();
      const pictured = { ...asked('r1'), picture: { omitted: ['the push'] } };
      publishing = db.transaction((other) =>
        storePublished(
          other,
          'm1',
          [{ seq: 2, kind: 'request.pictured', request: pictured }],
          T0 + 1,
        ),
      );
      await someoneWaitsForALock(db);
      return insertDecision(tx, {
        decisionId: 'd1',
        machineId: 'm1',
        requestId: 'r1',
        person: 'ann',
        payload: '{}',
        signature: 'sig',
        createdAt: T0 + 2,
      });
    });
    expect(decided).toBe(true);
    expect(await publishing).toBe(2);
    const stored = await getHubRequest(db, 'm1', 'r1');
    expect(stored?.record.picture).toEqual({ omitted: ['the push'] });
  });
});
