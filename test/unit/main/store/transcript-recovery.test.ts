import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { OWED_PAGE_SQL } from '../../../../main/store/owed-transcripts-repository';
import { RetentionService } from '../../../../main/store/retention-service';
import { writeOwedTranscripts } from '../../../../main/store/transcript-recovery';
import { EngineHarness } from '../../../support/engine-harness';
import { seedLongSession } from '../../../support/seed-session';
import {
  endSession,
  untilWriting as untilWritingFile,
  wholeTranscriptText,
} from '../../../support/transcript-files';

// A transcript file a crash kept from being written: the end records that it is
// owed in its own transaction, the rename clears it, and the next start writes what is owed.

describe('transcript files owed across a crash', () => {
  let h: EngineHarness;
  const dir = () => join(h.dir, 'transcripts');
  const fileOf = (sessionId: string) => join(dir(), `${sessionId}.json`);
  const owed = () => h.store.owedTranscriptFiles('', 1000).map((o) => o.sessionId);
  beforeEach(() => {
    h = new EngineHarness();
  });
  afterEach(() => h.close());

  const end = (sessionId: string, agent?: string) => endSession(h, sessionId, agent);
  const seed = (requests: number) =>
    seedLongSession(h.db, { startedAt: h.clock.now() - 86_400_000, requests, logs: requests });

  const untilWriting = (sessionId: string) => untilWritingFile(fileOf(sessionId));

  it('a write cut short by a restart is done at the next start, as the uninterrupted write would have', async () => {
    // A session that ends while its agent is still connected, with requests the engine filed;
    // the daemon goes before its write has begun.
    const live = h.hello('live', { project: '/work/live' });
    for (let i = 0; i < 3; i++)
      await h.engine.request(live, {
        action: 'read_file',
        description: `read ${i}`,
        urgency: 'normal',
        wait: false,
      });
    await h.work.durable();
    const liveEnded = end(live.sessionId, 'live');
    expect(liveEnded.session.connections).toBe(1);
    let crashed = h.archive;
    h.restart();
    await crashed.idle();
    // A long session: the daemon goes half way through its file.
    const long = seed(3000);
    const longEnded = end(long.sessionId);
    await untilWriting(long.sessionId);
    crashed = h.archive;
    h.restart();
    await crashed.idle();
    expect(readdirSync(dir())).toEqual([]);
    expect(owed().sort()).toEqual([long.sessionId, live.sessionId].sort());

    expect(await h.writeOwedTranscripts()).toBe(2);
    await h.archive.idle();
    expect(readFileSync(fileOf(long.sessionId), 'utf8')).toBe(
      wholeTranscriptText(h.store, longEnded.session, longEnded.summary),
    );
    expect(readFileSync(fileOf(live.sessionId), 'utf8')).toBe(
      wholeTranscriptText(h.store, liveEnded.session, liveEnded.summary),
    );
    expect(readdirSync(dir()).sort()).toEqual(
      [`${long.sessionId}.json`, `${live.sessionId}.json`].sort(),
    );
    expect(owed()).toEqual([]);
    // Nothing is owed any more: the next start writes nothing.
    h.restart();
    expect(await h.writeOwedTranscripts()).toBe(0);
  });

  it('writes many owed files a few at a time, every one of them', async () => {
    const ended = Array.from({ length: 30 }, (_, i) => {
      const agent = h.hello(`agent-${i}`);
      return endSession(h, agent.sessionId, agent.agent);
    });
    // The daemon goes before any of their writes has begun.
    const crashed = h.archive;
    h.restart();
    await crashed.idle();
    expect(owed()).toHaveLength(30);
    let writing = 0;
    let most = 0;
    const files = {
      queued: (sessionId: string) => h.archive.queued(sessionId),
      write: async (doc: Parameters<typeof h.archive.write>[0]) => {
        most = Math.max(most, ++writing);
        try {
          await h.archive.write(doc);
        } finally {
          writing--;
        }
      },
    };
    expect(await writeOwedTranscripts({ store: h.store, files, stopped: () => false })).toBe(30);
    expect(most).toBe(8);
    for (const { session, summary } of ended)
      expect(readFileSync(fileOf(session.sessionId), 'utf8')).toBe(
        wholeTranscriptText(h.store, session, summary),
      );
    expect(owed()).toEqual([]);
  });

  it('stops between groups once the daemon shuts down', async () => {
    for (let i = 0; i < 20; i++) {
      const agent = h.hello(`agent-${i}`);
      endSession(h, agent.sessionId, agent.agent);
    }
    const crashed = h.archive;
    h.restart();
    await crashed.idle();
    let groups = 0;
    const written = await writeOwedTranscripts({
      store: h.store,
      files: h.archive,
      stopped: () => groups++ >= 1,
    });
    await h.archive.idle();
    expect(written).toBe(8);
    expect(owed()).toHaveLength(12);
  });

  it('a file written in full is not owed, and a start writes it no second time', async () => {
    const { sessionId } = seed(50);
    end(sessionId);
    expect(owed()).toEqual([sessionId]);
    await h.archive.idle();
    expect(owed()).toEqual([]);
    h.restart();
    expect(await h.writeOwedTranscripts()).toBe(0);
  });

  it('a session whose write this process has queued is left to that write', async () => {
    const { sessionId } = seed(2000);
    end(sessionId);
    expect(await h.writeOwedTranscripts()).toBe(0);
    await h.archive.idle();
    expect(readdirSync(dir())).toEqual([`${sessionId}.json`]);
    expect(owed()).toEqual([]);
  });

  it('retention pruning a session whose file is owed clears the debt: the session is never written back', async () => {
    const pruned = seed(3000);
    end(pruned.sessionId);
    await untilWriting(pruned.sessionId);
    const crashed = h.archive;
    h.restart();
    await crashed.idle();
    expect(owed()).toEqual([pruned.sessionId]);
    const retention = new RetentionService({
      db: h.db,
      clock: h.clock,
      settings: () => h.settings.get(),
      work: h.work,
      transcriptsDir: dir(),
      archive: h.archive,
    });
    // Half a year later, before the owed write is done, retention removes the session.
    h.clock.advance(200 * 86_400_000);
    const r = await retention.prune({ dryRun: false });
    retention.stop();
    expect(r.sessions.count).toBeGreaterThanOrEqual(1);
    expect(h.store.getSession(pruned.sessionId)).toBeUndefined();
    expect(owed()).toEqual([]);
    expect(await h.writeOwedTranscripts()).toBe(0);
    await h.archive.idle();
    expect(existsSync(fileOf(pruned.sessionId))).toBe(false);
  });

  it('finds what is owed on its own primary key, not by reading sessions (EXPLAIN QUERY PLAN)', () => {
    seed(10);
    const plan = (
      h.db.prepare(`EXPLAIN QUERY PLAN ${OWED_PAGE_SQL}`).all('', 8) as { detail: string }[]
    ).map((r) => r.detail);
    expect(plan.join('\n')).not.toMatch(/sessions|TEMP B-TREE/);
    expect(plan).toEqual([
      expect.stringMatching(/^SEARCH transcript_files_owed USING PRIMARY KEY/),
    ]);
  });
});
