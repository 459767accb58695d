import Database from 'better-sqlite3';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { TestDaemon } from '../../support/daemon';
import { errorCode, rawSession } from '../../support/raw-socket';

const DAY = 86_400_000;

/**
 * Moves everything the daemon wrote 200 days into the past (the daemon is stopped), the audit
 * chain's signed checkpoints included: retention prunes only what a checkpoint covers.
 */
function ageHistory(home: string): void {
  const db = new Database(join(home, 'gatehouse.db'));
  const back = 200 * DAY;
  db.exec(`
    UPDATE requests SET created_at = created_at - ${back}, decided_at = decided_at - ${back};
    UPDATE audit SET at = at - ${back};
    UPDATE audit_checkpoints SET at = at - ${back}, through_at = through_at - ${back};
    UPDATE transcript SET at = at - ${back};
    UPDATE sessions SET status = 'completed', started_at = started_at - ${back},
      ended_at = last_seen_at - ${back}, last_seen_at = last_seen_at - ${back};
  `);
  db.close();
}

describe('gatehouse prune', () => {
  let d: TestDaemon | undefined;
  afterEach(async () => {
    await d?.stop();
    d = undefined;
  });

  it('says what would go, deletes old decided history, keeps what is waiting', async () => {
    d = await TestDaemon.start({}, ['--no-dashboard']);
    const agent = await d.agent({ agent: 'builder' });
    const read = await agent.request({ action: 'read_file', description: 'read', wait: false });
    const push = await agent.request({ action: 'git_push', description: 'push', wait: false });
    agent.close();
    await d.signal('SIGTERM');
    ageHistory(d.home);
    await d.launch(['--no-dashboard']);
    // The aged session ended long ago: with the default, retention would first close its
    // waiting request as abandoned (abandoned-requests.test.ts). Here: what still waits stays.
    expect((await d.cli(['config', 'set', 'retention.abandonAfterMs', '0'])).code).toBe(0);

    const dry = await d.cli(['prune', '--dry-run']);
    expect(dry.code).toBe(0);
    expect(dry.stdout).toContain('Would delete history older than 180 days');
    expect(dry.stdout).toMatch(/\s1 decided requests\s/);
    expect(JSON.parse((await d.cli(['show', read.requestId, '--json'])).stdout)).toMatchObject({
      requestId: read.requestId,
    });

    const run = await d.cli(['prune', '--json']);
    expect(run.code).toBe(0);
    const result = JSON.parse(run.stdout) as { dryRun: boolean; requests: { count: number } };
    expect(result).toMatchObject({ dryRun: false, requests: { count: 1 } });
    expect((await d.cli(['show', read.requestId])).code).toBe(3);
    const pending = JSON.parse((await d.cli(['list', '--json'])).stdout) as {
      requestId: string;
    }[];
    expect(pending.map((r) => r.requestId)).toEqual([push.requestId]);
    const admin = await d.admin();
    const { events } = await admin.call('audit.query', { type: 'retention.pruned' });
    admin.close();
    expect(events).toHaveLength(1);
    expect(events[0]!.data).toMatchObject({ source: 'manual', requests: 1 });
  });

  it('is not an agent method: an agent connection cannot prune', async () => {
    d = await TestDaemon.start({}, ['--no-dashboard']);
    const raw = rawSession(d.socketPath);
    await raw.connected;
    expect((await raw.call('hello', { agent: 'pruner' }))?.result).toBeDefined();
    expect(errorCode(await raw.call('retention.prune', { dryRun: false }))).toBe(-32601);
    raw.socket.destroy();
  });
});
