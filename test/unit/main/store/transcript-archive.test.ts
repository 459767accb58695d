import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  symlinkSync,
  lstatSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createCore } from '../../../../main/core';
import { archivedSession } from '../../../../main/engine/sessions/transcript';
import { openDatabase } from '../../../../main/store/database';
import { RetentionService } from '../../../../main/store/retention-service';
import { EngineHarness, flush } from '../../../support/engine-harness';
import { seedLongSession } from '../../../support/seed-session';
import {
  endSession,
  untilWriting as untilWritingFile,
  wholeTranscriptText,
} from '../../../support/transcript-files';

// A closed session's transcript file: written a page per turn to a temp file and
// renamed into place, in exactly the format the single JSON.stringify wrote before.

describe('transcript files', () => {
  let h: EngineHarness;
  const dir = () => join(h.dir, 'transcripts');
  const fileOf = (sessionId: string) => join(dir(), `${sessionId}.json`);
  beforeEach(() => {
    h = new EngineHarness();
  });
  afterEach(() => h.close());

  const end = (sessionId: string, agent?: string) => endSession(h, sessionId, agent);

  let seeded = 0;
  /** A long session, each at another time (its ids are made of its times). */
  const seed = (requests: number, logs: number) =>
    seedLongSession(h.db, {
      startedAt: h.clock.now() - 86_400_000 * (1 + seeded++),
      requests,
      logs,
    });

  const untilWriting = (sessionId: string) => untilWritingFile(fileOf(sessionId));

  it('writes a 5,000-request session byte for byte as the old writer did', async () => {
    const { sessionId } = seed(5000, 5000);
    // Entries of every shape: without data, with quotes, newlines and characters beyond ASCII.
    h.store.appendTranscript(sessionId, {
      at: new Date(h.clock.now()).toISOString(),
      kind: 'log',
      text: 'said "hi"\n\tthen left — ✓',
    });
    h.store.appendTranscript(sessionId, {
      at: new Date(h.clock.now()).toISOString(),
      kind: 'usage',
      text: 'model: $0.5',
      data: { model: 'm', costUsd: 0.5, nested: { list: [1, 'two', null], empty: {} } },
    });
    const { session, summary } = end(sessionId);
    await h.archive.idle();
    const written = readFileSync(fileOf(sessionId), 'utf8');
    expect(written).toBe(wholeTranscriptText(h.store, session, summary));
    const doc = JSON.parse(written) as { transcript: unknown[]; requests: unknown[] };
    expect(doc.requests).toHaveLength(5000);
    expect(doc.transcript).toHaveLength(10_003);
    expect(readdirSync(dir())).toEqual([`${sessionId}.json`]);
  });

  it('writes a session with no requests, and one that fills pages exactly, as the old writer did', async () => {
    const quiet = h.hello('quiet');
    const { session, summary } = end(quiet.sessionId, 'quiet');
    const exact = seed(1000, 0);
    const full = end(exact.sessionId);
    await h.archive.idle();
    expect(readFileSync(fileOf(quiet.sessionId), 'utf8')).toBe(
      wholeTranscriptText(h.store, session, summary),
    );
    expect(readFileSync(fileOf(exact.sessionId), 'utf8')).toBe(
      wholeTranscriptText(h.store, full.session, full.summary),
    );
    expect(JSON.parse(readFileSync(fileOf(quiet.sessionId), 'utf8'))).toMatchObject({
      requests: [],
    });
  });

  it('writes across turns into a temp file and renames it into place at the end', async () => {
    const { sessionId } = seed(3000, 3000);
    end(sessionId);
    // Once begun, the file is written over many turns: only the temp file is there.
    await untilWriting(sessionId);
    for (let i = 0; i < 3; i++) await flush();
    expect(existsSync(fileOf(sessionId))).toBe(false);
    expect(existsSync(`${fileOf(sessionId)}.tmp`)).toBe(true);
    // Agents' calls go on meanwhile: the engine files and commits a request.
    const agent = h.hello('busy');
    await h.engine.request(agent, {
      action: 'read_file',
      description: 'meanwhile',
      urgency: 'normal',
      wait: false,
    });
    await h.work.durable();
    expect(existsSync(fileOf(sessionId))).toBe(false);
    await h.archive.idle();
    expect(readdirSync(dir())).toEqual([`${sessionId}.json`]);
    expect(JSON.parse(readFileSync(fileOf(sessionId), 'utf8')).requests).toHaveLength(3000);
  });

  it('a write stopped half way (a crash) leaves no file under the final name, and its temp file goes on the next start', async () => {
    const { sessionId } = seed(3000, 3000);
    end(sessionId);
    await untilWriting(sessionId);
    // A crash: the process goes; here the temp file is put back as a crash would leave it.
    const crashed = h.archive;
    h.restart();
    await crashed.idle();
    writeFileSync(`${fileOf(sessionId)}.tmp`, '{\n  "session": {');
    writeFileSync(join(dir(), 'ses-older.json.tmp-4242'), '{');
    expect(existsSync(fileOf(sessionId))).toBe(false);
    // The next write (another session) clears every stale temp file first.
    const next = h.hello('next');
    end(next.sessionId, 'next');
    await h.archive.idle();
    expect(readdirSync(dir())).toEqual([`${next.sessionId}.json`]);
  });

  it('a stale temp file of the same session is overwritten, not appended to', async () => {
    const { sessionId } = seed(10, 10);
    mkdirSync(dir(), { recursive: true });
    writeFileSync(`${fileOf(sessionId)}.tmp`, 'x'.repeat(100_000));
    const { session, summary } = end(sessionId);
    await h.archive.idle();
    expect(readFileSync(fileOf(sessionId), 'utf8')).toBe(
      wholeTranscriptText(h.store, session, summary),
    );
  });

  it('a link put at the temp name is replaced, never written through', async () => {
    const first = seed(10, 10);
    end(first.sessionId);
    await h.archive.idle();
    // After the first write's sweep: an agent (the same user) plants a link at the next
    // session's temp name, pointing at a file of the person's.
    const { sessionId } = seed(50, 50);
    const victim = join(h.dir, 'victim.txt');
    writeFileSync(victim, 'precious');
    symlinkSync(victim, `${fileOf(sessionId)}.tmp`);
    const { session, summary } = end(sessionId);
    await h.archive.idle();
    expect(readFileSync(victim, 'utf8')).toBe('precious');
    expect(readFileSync(fileOf(sessionId), 'utf8')).toBe(
      wholeTranscriptText(h.store, session, summary),
    );
    expect(lstatSync(fileOf(sessionId)).isSymbolicLink()).toBe(false);
  });

  it('writes of one session never interleave; those of several sessions all complete', async () => {
    const a = seed(2000, 2000);
    const b = seed(1500, 100);
    const ended = { a: end(a.sessionId), b: end(b.sessionId) };
    // The same session written twice more at once (as a retry would): one after the other.
    const again = [1, 2].map(() =>
      h.archive.write(archivedSession(h.store, ended.a.session, ended.a.summary)),
    );
    await Promise.all(again);
    await h.archive.idle();
    expect(readFileSync(fileOf(a.sessionId), 'utf8')).toBe(
      wholeTranscriptText(h.store, ended.a.session, ended.a.summary),
    );
    expect(readFileSync(fileOf(b.sessionId), 'utf8')).toBe(
      wholeTranscriptText(h.store, ended.b.session, ended.b.summary),
    );
    expect(readdirSync(dir()).sort()).toEqual(
      [`${a.sessionId}.json`, `${b.sessionId}.json`].sort(),
    );
  });

  it('files written side by side make one page per turn of the event loop, never several in one', async () => {
    const ended = [seed(500, 500), seed(450, 300), seed(300, 600), seed(600, 100)].map((s) =>
      end(s.sessionId),
    );
    await h.archive.idle();
    // The turn of the event loop: one more at each check phase (an immediate that renews itself).
    let turn = 0;
    let ticking = true;
    const tick = () => {
      turn++;
      if (ticking) setImmediate(tick);
    };
    setImmediate(tick);
    const pagesAt: number[] = [];
    const docs = ended.map(({ session, summary }) => {
      const doc = archivedSession(h.store, session, summary);
      return {
        ...doc,
        nextTranscriptPage: () => (pagesAt.push(turn), doc.nextTranscriptPage()),
        nextRequestsPage: () => (pagesAt.push(turn), doc.nextRequestsPage()),
      };
    });
    await Promise.all(docs.map((doc) => h.archive.write(doc)));
    ticking = false;
    // Several pages of each file, each made in a turn no other page was made in.
    expect(pagesAt.length).toBeGreaterThan(4 * 5);
    expect(new Set(pagesAt).size).toBe(pagesAt.length);
    for (const { session, summary } of ended)
      expect(readFileSync(fileOf(session.sessionId), 'utf8')).toBe(
        wholeTranscriptText(h.store, session, summary),
      );
  });

  it('retention removing a file while it is written: the write stops and never puts it back', async () => {
    const { sessionId } = seed(3000, 3000);
    end(sessionId);
    await untilWriting(sessionId);
    const removed = h.archive.remove(sessionId);
    await h.archive.idle();
    expect(await removed).toBe(false);
    expect(readdirSync(dir())).toEqual([]);
    // A write queued behind one under way, then removed: the removal still comes last.
    const other = seed(1000, 1000);
    const ended = end(other.sessionId);
    const rewrite = h.archive.write(archivedSession(h.store, ended.session, ended.summary));
    const removal = h.archive.remove(other.sessionId);
    await rewrite;
    expect(await removal).toBe(true);
    await h.archive.idle();
    expect(readdirSync(dir())).toEqual([]);
  });

  it('retention pruning a session whose file is being written leaves neither file nor temp file', async () => {
    const retention = new RetentionService({
      db: h.db,
      clock: h.clock,
      settings: () => h.settings.get(),
      work: h.work,
      transcriptsDir: dir(),
      archive: h.archive,
    });
    const { sessionId } = seed(3000, 3000);
    end(sessionId);
    // Half a year later (the write has not begun yet: its first turn is still to come).
    h.clock.advance(200 * 86_400_000);
    await untilWriting(sessionId);
    const r = await retention.prune({ dryRun: false });
    await h.archive.idle();
    expect(r.sessions.count).toBeGreaterThanOrEqual(1);
    expect(h.store.getSession(sessionId)).toBeUndefined();
    expect(readdirSync(dir())).toEqual([]);
    retention.stop();
  });
});

describe('shutdown while a transcript file is written', () => {
  let home: string;
  beforeEach(() => {
    home = mkdtempSync(join(tmpdir(), 'gatehouse-archive-'));
  });
  afterEach(() => rmSync(home, { recursive: true, force: true }));

  it('finishes the file before the database closes', async () => {
    const db = openDatabase({ file: join(home, 'gatehouse.db') });
    const { sessionId } = seedLongSession(db, {
      startedAt: Date.now() - 86_400_000,
      requests: 3000,
      logs: 3000,
    });
    db.close();
    const core = createCore({ home, socketPath: join(home, 'agent.sock') });
    core.engine.end({ sessionId, agent: 'long-runner' }, { status: 'completed' });
    await core.engine.durable();
    const file = join(home, 'transcripts', `${sessionId}.json`);
    expect(existsSync(file)).toBe(false);
    await core.close();
    expect(readdirSync(join(home, 'transcripts'))).toEqual([`${sessionId}.json`]);
    const doc = JSON.parse(readFileSync(file, 'utf8')) as { requests: unknown[] };
    expect(doc.requests).toHaveLength(3000);
  });
});
