import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdminClient } from '../../../clients/cli/admin-client';
import type { RequestRecord } from '../../../shared/domain';
import { TestDaemon, waitForPending } from '../../support/daemon';
import { TestHub, waitForLink } from '../../support/hub';
import { TestPostgres } from '../../support/postgres';
import { TcpProxy } from '../../support/tcp-proxy';

/** How long the machine is cut off from the hub (the "a minute"). */
const CUT_MS = 60_000;

interface HubRow {
  requestId: string;
  status: string;
  record: { decidedVia?: string };
}

const portOf = (url: string): number => Number(new URL(url).port);

/**
 * Faults between a machine and the hub, with a load balancer the test controls in front of
 * two replicas on one PostgreSQL: a replica killed with SIGKILL while decisions flow, and the
 * machine cut off for a minute while requests are filed and decided on both sides. After
 * recovery both sides agree on every request; nothing is lost and nothing applied twice.
 */
describe('hub faults (two replicas, a real daemon behind a proxy)', () => {
  let pgServer: TestPostgres;
  let dbUrl: string;
  let a: TestHub;
  let b: TestHub;
  let proxy: TcpProxy;
  let daemon: TestDaemon;
  let admin: AdminClient;
  let ann: string;

  const hubRows = async (): Promise<HubRow[]> =>
    (await b.api('GET', '/api/requests', { token: ann })).body.requests as HubRow[];
  const decideOnB = (requestId: string, decision: 'approve' | 'deny') =>
    b.api('POST', '/api/decide', {
      token: ann,
      body: { machine: 'laptop', requestId, decision },
    });
  const local = async (requestId: string): Promise<RequestRecord> =>
    (await admin.call('request.get', { requestId })).request;
  /** How many times the machine applied a decision to this request (its audit). */
  const appliedLocally = async (requestId: string): Promise<number> => {
    let n = 0;
    for (const type of ['request.approved', 'request.denied'])
      n += (await admin.call('audit.query', { type, requestId })).events.length;
    return n;
  };
  async function hubDecisions(): Promise<{ request_id: string; outcome: string | null }[]> {
    const client = new pg.Client({ connectionString: dbUrl });
    await client.connect();
    try {
      return (
        await client.query<{ request_id: string; outcome: string | null }>(
          'SELECT request_id, outcome FROM decisions ORDER BY created_at',
        )
      ).rows;
    } finally {
      await client.end();
    }
  }

  /** Waits until the hub shows each request with the machine's status and channel. */
  async function bothSidesAgree(ids: string[]): Promise<void> {
    await expect
      .poll(
        async () => {
          const rows = new Map((await hubRows()).map((r) => [r.requestId, r]));
          const differ: string[] = [];
          for (const id of ids) {
            const mine = await local(id);
            const theirs = rows.get(id);
            if (theirs?.status !== mine.status || theirs.record.decidedVia !== mine.decidedVia)
              differ.push(`${id}: ${mine.status}/${mine.decidedVia} vs ${theirs?.status}`);
          }
          return differ;
        },
        { timeout: 30_000, interval: 300 },
      )
      .toEqual([]);
  }

  beforeAll(async () => {
    pgServer = await TestPostgres.start();
    dbUrl = pgServer.createDatabase('faults');
    a = await TestHub.start({ databaseUrl: dbUrl });
    b = await TestHub.start({ databaseUrl: dbUrl, sameHubAs: a });
    proxy = await TcpProxy.start(portOf(a.url));
    daemon = await TestDaemon.start({}, ['--no-dashboard']);
    admin = await daemon.admin();
    ann = await a.person('ann');
    const code = await a.invite('laptop');
    const joined = await daemon.cli(['hub', 'join', proxy.url, code]);
    if (joined.code !== 0) throw new Error(joined.stderr);
    await waitForLink(daemon, true);
  }, 120_000);
  afterAll(async () => {
    admin?.close();
    await daemon?.stop();
    await proxy?.stop();
    await a?.stop();
    await b?.stop();
    pgServer?.stop();
  });

  it('kill -9 of the replica holding the link while decisions flow: every request decided once', async () => {
    const N = 16;
    const agent = await daemon.agent({ agent: 'builder', project: '/work/p' });
    const answers = Array.from({ length: N }, (_, i) =>
      agent.request({ action: 'git_push', description: `flow ${i}` }),
    );
    const ids = new Set<string>();
    const decided = new Set<string>();
    let killed = false;
    const deadline = Date.now() + 60_000;
    // A person decides on replica B as requests appear; A (holding the link) dies midway and
    // the balancer sends the machine to B.
    while (decided.size < N && Date.now() < deadline) {
      for (const r of (await hubRows()).filter((r) => r.status === 'pending')) {
        if (!r.requestId || decided.has(r.requestId)) continue;
        const answer = await decideOnB(r.requestId, 'approve');
        if (answer.status === 200 || answer.status === 409) decided.add(r.requestId);
        ids.add(r.requestId);
        if (!killed && decided.size >= N / 2) {
          killed = true;
          await a.signal('SIGKILL');
          proxy.pointAt(portOf(b.url));
        }
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(killed).toBe(true);
    expect(decided.size).toBe(N);
    const outcomes = await Promise.all(answers);
    expect(outcomes.map((o) => o.status)).toEqual(Array(N).fill('approved'));
    // Count and compare: each request applied once on the machine, one decision on the hub,
    // answered `applied`; both sides show the same status and channel.
    for (const id of ids) {
      expect(await appliedLocally(id), id).toBe(1);
      expect((await local(id)).decidedVia).toBe('hub:ann');
    }
    const decisions = (await hubDecisions()).filter((d) => ids.has(d.request_id));
    expect(decisions).toHaveLength(N);
    await expect
      .poll(async () =>
        (await hubDecisions()).filter((d) => ids.has(d.request_id) && d.outcome === 'applied'),
      )
      .toHaveLength(N);
    await bothSidesAgree([...ids]);
    agent.close();
  }, 150_000);

  it('cut off for a minute while requests are filed and decided on both sides: they agree after', async () => {
    await waitForLink(daemon, true);
    const agent = await daemon.agent({ agent: 'builder', project: '/work/p' });
    const file = async (description: string) => {
      const answer = agent.request({ action: 'deploy', target: 'staging', description });
      const id = (await waitForPending(admin, (r) => r.description === description)).requestId;
      return { id, answer };
    };
    // Published before the cut.
    const both = await file('before cut: decided on both sides');
    const onHubOnly = await file('before cut: decided on the hub');
    await expect
      .poll(async () =>
        (await hubRows()).filter((r) => [both.id, onHubOnly.id].includes(r.requestId)),
      )
      .toHaveLength(2);
    proxy.cut();
    const cutAt = Date.now();
    await waitForLink(daemon, false);
    // Filed and decided while cut off: the local gate works on its own.
    const localApproved = await file('during cut: approved here');
    const localDenied = await file('during cut: denied here');
    const laterOnHub = await file('during cut: later decided on the hub');
    const laterHere = await file('during cut: later decided here');
    expect((await daemon.cli(['approve', localApproved.id])).code).toBe(0);
    expect((await daemon.cli(['deny', localDenied.id, '--reason', 'cut off'])).code).toBe(0);
    expect(await localApproved.answer).toMatchObject({ status: 'approved' });
    expect(await localDenied.answer).toMatchObject({ status: 'denied' });
    // The same request decided here and on the hub while they cannot talk: the machine's
    // decision came first, so the hub's is refused when it arrives.
    expect((await daemon.cli(['approve', both.id])).code).toBe(0);
    expect((await decideOnB(both.id, 'deny')).status).toBe(200);
    expect((await decideOnB(onHubOnly.id, 'approve')).status).toBe(200);
    await new Promise((r) => setTimeout(r, Math.max(0, CUT_MS - (Date.now() - cutAt))));
    proxy.restore();
    await waitForLink(daemon, true, 60_000);
    expect(await both.answer).toMatchObject({ status: 'approved' });
    expect((await local(both.id)).decidedVia).toBe('cli');
    expect(await onHubOnly.answer).toMatchObject({ status: 'approved' });
    expect((await local(onHubOnly.id)).decidedVia).toBe('hub:ann');
    // What was filed during the cut reached the hub, decided or waiting as it is here.
    await bothSidesAgree([localApproved.id, localDenied.id, laterOnHub.id, laterHere.id]);
    expect((await decideOnB(laterOnHub.id, 'approve')).status).toBe(200);
    expect((await daemon.cli(['deny', laterHere.id])).code).toBe(0);
    expect(await laterOnHub.answer).toMatchObject({ status: 'approved' });
    expect((await local(laterOnHub.id)).decidedVia).toBe('hub:ann');
    expect(await laterHere.answer).toMatchObject({ status: 'denied' });
    const all = [both, onHubOnly, localApproved, localDenied, laterOnHub, laterHere].map(
      (r) => r.id,
    );
    await bothSidesAgree(all);
    // Count: each applied once here; on the hub, the refused decision stands refused.
    for (const id of all) expect(await appliedLocally(id), id).toBe(1);
    await expect
      .poll(async () =>
        (await hubDecisions())
          .filter((d) => all.includes(d.request_id))
          .map((d) => [d.request_id, d.outcome]),
      )
      .toEqual([
        [both.id, 'refused'],
        [onHubOnly.id, 'applied'],
        [laterOnHub.id, 'applied'],
      ]);
    // Nothing lost: the hub holds every request that asked here, and only those.
    const asked = (await admin.call('requests.query', { limit: 500 })).requests
      .filter((r) => r.tier === 'ask')
      .map((r) => r.requestId)
      .sort();
    expect((await hubRows()).map((r) => r.requestId).sort()).toEqual(asked);
    agent.close();
  }, 240_000);
});
