import Database from 'better-sqlite3';
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RetentionService } from '../../../../main/store/retention-service';
import { migrate, openDatabase } from '../../../../main/store/database';
import { EngineHarness, flush } from '../../../support/engine-harness';

const DAY = 86_400_000;
const ask = (description: string) => ({
  action: 'git_push',
  description,
  urgency: 'normal' as const,
  wait: false,
});
const auto = (description: string) => ({ ...ask(description), action: 'read_file' });

describe('retention', () => {
  let h: EngineHarness;
  let retention: RetentionService;
  beforeEach(() => {
    h = new EngineHarness();
    retention = new RetentionService({
      db: h.db,
      clock: h.clock,
      settings: () => h.settings.get(),
      work: h.work,
      transcriptsDir: join(h.dir, 'transcripts'),
      archive: h.archive,
    });
  });
  afterEach(async () => {
    retention.stop();
    await h.close();
  });

  const count = (sql: string) => h.db.prepare(sql).pluck().get() as number;
  const requestIds = () =>
    h.db.prepare('SELECT request_id FROM requests ORDER BY request_key').pluck().all() as string[];

  /** Half a year of history: what may go, and what must stay whatever its age. */
  async function oldHistory() {
    // A session that ended with a request still waiting for the person.
    const waiting = h.hello('agent-a');
    const pending = await h.engine.request(waiting, ask('still waiting'));
    const decided = await h.engine.request(waiting, ask('decided long ago'));
    h.engine.admin.call('decide', {
      requestId: decided.requestId,
      decision: 'approve',
      scope: 'once',
    });
    h.engine.end(waiting, { status: 'completed' });
    // A session that ended with everything decided: it goes, with its transcript file.
    const done = h.hello('agent-b');
    h.engine.classify(done, { action: 'git_push' });
    const allowed = await h.engine.request(done, auto('read a file'));
    h.engine.log(done, { type: 'note', description: 'an old note' });
    h.engine.end(done, { status: 'completed' });
    // A session still running after all that time: everything it has stays.
    const live = h.hello('agent-c');
    const liveRequest = await h.engine.request(live, auto('live read'));
    await h.work.durable();
    h.clock.advance(200 * DAY);
    h.engine.attach(live.sessionId);
    const recent = await h.engine.request(h.hello('agent-d'), auto('recent read'));
    await h.work.durable();
    await h.archive.idle();
    return { waiting, pending, decided, done, allowed, live, liveRequest, recent };
  }

  it('says on a dry run what would go, and changes nothing', async () => {
    const x = await oldHistory();
    const before = { requests: requestIds(), audit: count('SELECT count(*) FROM audit') };
    const transcript = join(h.dir, 'transcripts', `${x.done.sessionId}.json`);
    expect(existsSync(transcript)).toBe(true);

    const r = await retention.prune({ dryRun: true });

    expect(r).toMatchObject({ dryRun: true, days: 180, transcriptFiles: 1, bytesFreed: 0 });
    expect(r.requests.count).toBe(2);
    expect(r.sessions.count).toBe(1);
    expect(r.audit.count).toBeGreaterThan(0);
    expect(r.transcript.count).toBeGreaterThan(0);
    expect(r.requests.oldest).toBe('2026-01-05T09:00:00.000Z');
    expect(requestIds()).toEqual(before.requests);
    expect(count('SELECT count(*) FROM audit')).toBe(before.audit);
    expect(existsSync(transcript)).toBe(true);
    expect(
      h.engine.admin.call('audit.query', { type: 'retention.pruned', limit: 10 }).events,
    ).toEqual([]);
  });

  it('deletes old decided history, keeps what is waiting or live, and audits one summary', async () => {
    const x = await oldHistory();
    const r = await retention.prune({ dryRun: false });

    expect(r).toMatchObject({ dryRun: false, transcriptFiles: 1 });
    expect(requestIds()).toEqual([
      x.pending.requestId,
      x.liveRequest.requestId,
      x.recent.requestId,
    ]);
    // The waiting request is still in the queue (timed out, still waiting) with its session.
    expect(
      h.engine.admin
        .call('pending.list', { order: 'oldest', limit: 1000 })
        .requests.map((q) => q.requestId),
    ).toEqual([x.pending.requestId]);
    expect(h.store.getSession(x.waiting.sessionId)).toBeDefined();
    expect(h.store.getSession(x.done.sessionId)).toBeUndefined();
    expect(h.store.getSession(x.live.sessionId)).toBeDefined();
    expect(existsSync(join(h.dir, 'transcripts', `${x.done.sessionId}.json`))).toBe(false);
    expect(count(`SELECT count(*) FROM transcript WHERE session_id = '${x.done.sessionId}'`)).toBe(
      0,
    );
    // No audit entry older than the cutoff is left but those of the live session.
    const cutoff = Date.parse(r.cutoff);
    const oldAudit = h.db
      .prepare('SELECT DISTINCT session_id FROM audit WHERE at < ?')
      .pluck()
      .all(cutoff);
    expect(oldAudit).toEqual([x.live.sessionId]);
    const summary = h.engine.admin.call('audit.query', {
      type: 'retention.pruned',
      limit: 10,
    }).events;
    expect(summary).toHaveLength(1);
    expect(summary[0]!.data).toMatchObject({ source: 'manual', requests: 2, sessions: 1 });

    // Nothing left to prune: a second run deletes nothing.
    const again = await retention.prune({ dryRun: false });
    expect(again.requests.count + again.sessions.count + again.transcript.count).toBe(0);
  });

  it('keeps a request a live grant came from until the grant is used', async () => {
    // A push that timed out, approved late: a one-time grant for that agent, still unused
    // when its request is half a year old.
    const first = h.hello('agent-g');
    const waiting = Promise.resolve(
      h.engine.request(first, { ...ask('push late'), wait: true, timeoutMs: 1000 }),
    );
    h.clock.advance(1000);
    await flush();
    const timedOut = await waiting;
    expect(timedOut.status).toBe('timed_out');
    const out = h.engine.admin.call('decide', {
      requestId: timedOut.requestId,
      decision: 'approve',
      scope: 'once',
    });
    expect(out.grants!.map((g) => g.kind)).toEqual(['late_approval']);
    h.engine.end(first, { status: 'completed' });
    await h.work.durable();
    h.clock.advance(200 * DAY);

    const kept = await retention.prune({ dryRun: false });
    expect(requestIds()).toContain(timedOut.requestId);
    expect(kept.requests.count).toBe(0);

    // The grant still answers the same push, once; then its request may go.
    const again = await h.engine.request(h.hello('agent-g'), ask('push late'));
    expect(again).toMatchObject({ status: 'approved', decidedBy: 'grant' });
    await h.work.durable();
    h.clock.advance(200 * DAY);
    await retention.prune({ dryRun: false });
    expect(requestIds()).not.toContain(timedOut.requestId);
  });

  it('prunes in small steps, between which the engine keeps writing', async () => {
    h.engine.admin.call('settings.set', { key: 'retention.batchRows', value: 10 });
    const a = h.hello();
    for (let i = 0; i < 100; i++) h.engine.request(a, auto(`read ${i}`));
    h.engine.end(a, { status: 'completed' });
    await h.work.durable();
    h.clock.advance(181 * DAY);
    const agent = h.hello('agent-busy');

    let finished = false;
    const run = retention.prune({ dryRun: false }).then((r) => {
      finished = true;
      return r;
    });
    await flush();
    // An agent's request filed while pruning runs is committed before pruning ends.
    const during = await h.engine.request(agent, auto('during pruning'));
    await h.work.durable();
    expect(finished).toBe(false);
    expect(h.store.getRequest(during.requestId)?.status).toBe('approved');

    const r = await run;
    expect(r.requests.count).toBe(100);
    expect(r.largestStep).toBeLessThanOrEqual(10);
    expect(r.steps).toBeGreaterThanOrEqual(10);
  });

  it('gives the freed pages back: the file shrinks after pruning', async () => {
    const a = h.hello();
    const big = 'x'.repeat(2000);
    for (let i = 0; i < 2000; i++) h.engine.request(a, auto(`${big} ${i}`));
    h.engine.end(a, { status: 'completed' });
    await h.work.durable();
    h.db.pragma('wal_checkpoint(TRUNCATE)');
    const file = join(h.dir, 'gatehouse.db');
    const before = statSync(file).size;
    h.clock.advance(181 * DAY);

    const r = await retention.prune({ dryRun: false });
    h.db.pragma('wal_checkpoint(TRUNCATE)');

    expect(r.requests.count).toBe(2000);
    expect(r.bytesFreed).toBeGreaterThan(2_000_000);
    expect(statSync(file).size).toBeLessThan(before - 2_000_000);
    expect(h.db.pragma('freelist_count', { simple: true })).toBe(0);
  });
});

describe('incremental vacuum', () => {
  it('is on for a new database, and an old one is converted once when opened', async () => {
    const dir = new EngineHarness();
    try {
      expect(dir.db.pragma('auto_vacuum', { simple: true })).toBe(2);
      const file = join(dir.dir, 'old.db');
      const old = new Database(file);
      old.pragma('journal_mode = WAL');
      migrate(old);
      expect(old.pragma('auto_vacuum', { simple: true })).toBe(0);
      old.close();
      const reopened = openDatabase({ file });
      expect(reopened.pragma('auto_vacuum', { simple: true })).toBe(2);
      reopened.close();
    } finally {
      await dir.close();
    }
  });
});
