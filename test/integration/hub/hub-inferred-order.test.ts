import { describe, expect, it } from 'vitest';
import { registerMachine } from '../../../main/hub/store/machines-repo';
import { claimUnnotified } from '../../../main/hub/store/notify-repo';
import { hubRequestPage } from '../../../main/hub/store/request-pages-repo';
import { listHubRequests, storePublished } from '../../../main/hub/store/requests-repo';
import type { SqlDatabase } from '../../../main/hub/store/sql';
import type { OutboxEntry } from '../../../shared/hub-protocol';
import type { RequestRecord } from '../../../shared/domain';
import { byRequestAttentionAt } from '../../../shared/queue-order';
import { LONG_WAIT_MS } from '../../../shared/request-picture/inferred-urgency';
import { HUB_BACKENDS, hubDatabases } from '../../support/hub-databases';
import { shellRequest } from '../../support/hub-service-stage';

const T0 = 1_800_000_000_000;

const request = (id: string, at: number, o: Partial<RequestRecord> = {}): RequestRecord =>
  shellRequest(id, at, { agent: 'ops', ...o });

/**
 * The hub's queue, its CLI pages and its notifications rank by the urgency the machine's
 * queue infers (a production target, a force push, an agent blocked for long), computed by the
 * shared inference, not by the agent's own urgency: the same order as the machine's queue, on
 * PGlite and on a real PostgreSQL.
 */
describe.each(HUB_BACKENDS)('hub queue order by inferred urgency (%s)', (backend) => {
  const dbs = hubDatabases();
  let seq = 0;

  async function publish(
    db: SqlDatabase,
    machineId: string,
    entries: OutboxEntry['kind'][],
    rs: RequestRecord[],
    now: number,
  ) {
    await db.transaction((tx) =>
      storePublished(
        tx,
        machineId,
        rs.map((request, i) => ({ seq: ++seq, kind: entries[i] ?? 'request.asked', request })),
        now,
      ),
    );
  }

  it('ranks as the machine does, at any time, and a long wait raises a blocked agent', async () => {
    seq = 0;
    const db = await dbs.fresh(backend);
    const m = await registerMachine(db, {
      machineId: 'm1',
      name: 'laptop',
      publicKey: 'k'.repeat(44),
      now: T0,
    });
    const plain = request('a-plain', T0);
    const prod = request('b-prod', T0 + 1_000, { command: 'kubectl apply -f prod.yaml' });
    const agentHigh = request('c-high', T0 + 2_000, { urgency: 'high' });
    const lowButProd = request('d-low-prod', T0 + 3_000, { urgency: 'low', target: 'production' });
    const blocked = request('e-blocked', T0 + 4_000, {
      timeoutAt: new Date(T0 + 4_000 + 60 * 60_000).toISOString(),
    });
    const risky = request('f-risky', T0 + 5_000, { risk: 'critical' });
    const all = [plain, prod, agentHigh, lowButProd, blocked, risky];
    await publish(db, m.machineId, [], all, T0 + 6_000);

    for (const now of [T0 + 10_000, T0 + 4_000 + LONG_WAIT_MS + 1]) {
      const expected = [...all].sort(byRequestAttentionAt(now)).map((r) => r.requestId);
      const listed = await listHubRequests(db, { waiting: true, now });
      expect(listed.map((r) => r.requestId)).toEqual(expected);
      const page = await hubRequestPage(db, { waiting: true, limit: 50, now });
      expect(page.requests.map((r) => r.requestId)).toEqual(expected);
    }
    // Before the long wait the blocked agent's request ranks by its band, normal urgency;
    // after it, high, above the agent that said high itself (it is blocked).
    const early = await listHubRequests(db, {
      waiting: true,
      now: T0 + 10_000,
      urgencies: ['high'],
    });
    expect(early.map((r) => r.requestId).sort()).toEqual(['b-prod', 'c-high', 'f-risky']);
    const late = await listHubRequests(db, {
      waiting: true,
      now: T0 + 4_000 + LONG_WAIT_MS + 1,
      urgencies: ['high'],
    });
    expect(late.map((r) => r.requestId).sort()).toEqual([
      'b-prod',
      'c-high',
      'e-blocked',
      'f-risky',
    ]);
    // The agent's own `low` stays low: inference never overrides an urgency the agent chose.
    expect(late.map((r) => r.requestId)).not.toContain('d-low-prod');

    // A picture that shows a force push raises a git push published as plain.
    const push = request('g-push', T0 + 7_000, {
      action: 'git_push',
      command: 'git push origin feature',
    });
    await publish(db, m.machineId, [], [push], T0 + 7_000);
    expect(
      (await listHubRequests(db, { waiting: true, now: T0 + 8_000, urgencies: ['high'] })).map(
        (r) => r.requestId,
      ),
    ).not.toContain('g-push');
    await publish(
      db,
      m.machineId,
      ['request.pictured'],
      [
        {
          ...push,
          picture: {
            push: { remote: 'origin', branch: 'feature', force: true, commits: [], commitCount: 0 },
          },
        },
      ],
      T0 + 8_000,
    );
    expect(
      (await listHubRequests(db, { waiting: true, now: T0 + 9_000, urgencies: ['high'] })).map(
        (r) => r.requestId,
      ),
    ).toContain('g-push');
  });

  it('notifies a backlog most urgent first', async () => {
    seq = 0;
    const db = await dbs.fresh(backend);
    const m = await registerMachine(db, {
      machineId: 'm2',
      name: 'ci',
      publicKey: 'k'.repeat(44),
      now: T0,
    });
    const rs = [
      request('a-plain', T0),
      request('b-plain', T0 + 1_000),
      request('c-prod', T0 + 2_000, { target: 'prod-db' }),
    ];
    await publish(db, m.machineId, [], rs, T0 + 3_000);
    const claimed = await db.transaction((tx) => claimUnnotified(tx, T0 + 4_000, 2));
    expect(claimed.map((r) => r.requestId)).toEqual(['c-prod', 'a-plain']);
  });
});
