import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { adminMethods } from '../../../../shared/protocol/method-map';
import type { TranscriptEntry } from '../../../../shared/domain';
import { ARCHIVE_PAGE, sessionTranscript } from '../../../../main/engine/sessions/transcript';
import { EngineHarness } from '../../../support/engine-harness';
import { allPages } from '../../../support/pages';
import { seedLongSession, type SeededSession } from '../../../support/seed-session';

// A session that ran all day: its detail costs the same as a short one's, and
// every request and transcript entry is still reachable, page by page.

const REQUESTS = 5000;
const LOGS = 5000;

describe('a long session, a page at a time', () => {
  let h: EngineHarness;
  let seeded: SeededSession;
  beforeEach(() => {
    h = new EngineHarness();
    seeded = seedLongSession(h.db, {
      startedAt: h.clock.now() - 86_400_000,
      requests: REQUESTS,
      logs: LOGS,
    });
  });
  afterEach(() => h.close());

  const key = (e: TranscriptEntry) => JSON.stringify(e);

  it('session.get holds the newest requests and entries, in time order, and counts them all', () => {
    const { sessionId } = seeded;
    const whole = sessionTranscript(h.store, sessionId);
    expect(whole).toHaveLength(REQUESTS + LOGS);
    const params = adminMethods['session.get'].params.parse({ sessionId });
    expect(params).toMatchObject({ requestsLimit: 100, transcriptLimit: 200 });
    const detail = h.engine.admin.call('session.get', params);
    expect(detail.requestsTotal).toBe(REQUESTS);
    expect(detail.transcriptTotal).toBe(REQUESTS + LOGS);
    expect(detail.requests.map((r) => r.requestId)).toEqual(seeded.requestIds.slice(-100));
    expect(detail.transcript.map(key)).toEqual(whole.slice(-200).map(key));

    const narrow = h.engine.admin.call('session.get', {
      sessionId,
      requestsLimit: 3,
      transcriptLimit: 0,
    });
    expect(narrow.requests.map((r) => r.requestId)).toEqual(seeded.requestIds.slice(-3));
    expect(narrow.transcript).toEqual([]);
    expect(narrow).toMatchObject({ requestsTotal: REQUESTS, transcriptTotal: REQUESTS + LOGS });
    const countsOnly = h.engine.admin.call('session.get', {
      sessionId,
      requestsLimit: 0,
      transcriptLimit: 0,
    });
    expect(countsOnly).toMatchObject({ requests: [], requestsTotal: REQUESTS });

    // The bounds have a cap, as every list's limit has.
    for (const bad of [{ requestsLimit: 5001 }, { transcriptLimit: 5001 }, { requestsLimit: -1 }])
      expect(adminMethods['session.get'].params.safeParse({ sessionId, ...bad }).success).toBe(
        false,
      );
  });

  it('session.transcript walks the whole transcript newest first, each entry exactly once', () => {
    const { sessionId } = seeded;
    const whole = sessionTranscript(h.store, sessionId).map(key);
    const pages = allPages((at) =>
      h.engine.admin.call('session.transcript', { sessionId, limit: 333, ...at }),
    );
    for (const page of pages) {
      expect(page.total).toBe(REQUESTS + LOGS);
      expect(page.transcript.length).toBeLessThanOrEqual(333);
    }
    const seen = pages.flatMap((page) => page.transcript.map(key));
    expect(pages.length).toBe(Math.ceil((REQUESTS + LOGS) / 333));
    expect(seen).toEqual([...whole].reverse());
    expect(() =>
      h.engine.admin.call('session.transcript', { sessionId, limit: 5, cursor: '12' }),
    ).toThrow(/invalid cursor/);
    expect(() =>
      h.engine.admin.call('session.transcript', { sessionId: 'ses-none', limit: 5 }),
    ).toThrow(/not found/);
  });

  it("requests.query pages a session's requests: all of them once, none of another session's", () => {
    const pages = allPages((at) =>
      h.engine.admin.call('requests.query', { sessionId: seeded.sessionId, limit: 700, ...at }),
    );
    for (const page of pages) expect(page.total).toBe(REQUESTS);
    const ids = pages.flatMap((page) => page.requests.map((r) => r.requestId));
    expect(ids).toEqual([...seeded.requestIds].reverse());
    const other = h.engine.admin.call('requests.query', {
      sessionId: seeded.otherSessionId,
      limit: 10,
    });
    expect(other.total).toBe(Math.floor(REQUESTS / 3));
    expect(other.requests.every((r) => r.sessionId === seeded.otherSessionId)).toBe(true);
  });

  it('a summary saved before its lists were bounded is bounded as it is read (and current)', () => {
    const { sessionId } = seeded;
    const done = Array.from({ length: 1000 }, (_, i) => `thing ${i}`);
    h.db
      .prepare(
        'UPDATE sessions SET status = ?, ended_at = ?, summary_json = ? WHERE session_id = ?',
      )
      .run(
        'completed',
        h.clock.now(),
        JSON.stringify({
          sessionId,
          startedAt: new Date(0).toISOString(),
          endedAt: new Date(0).toISOString(),
          done,
          needsReview: ['one'],
          costUsd: 0,
          text: 'old',
        }),
        sessionId,
      );
    const { summary } = h.engine.admin.call('session.get', {
      sessionId,
      requestsLimit: 0,
      transcriptLimit: 0,
    });
    // The lists are read as the requests are now (a summary is not frozen at the
    // end), bounded; what only the end knew (its time) is kept.
    expect(summary?.done.length).toBe(200);
    expect(summary?.needsReview.length).toBe(200);
    expect(summary?.doneTotal).toBeGreaterThan(1000);
    expect(summary?.endedAt).toBe(new Date(0).toISOString());
    expect(summary?.done).not.toContain('thing 0');
  });

  it('the summary, the report and the archive keep every figure, beyond what session.get holds', async () => {
    const { sessionId } = seeded;
    const denied = Math.ceil(REQUESTS / 5);
    let byHuman = 0;
    for (let i = 0; i < REQUESTS; i++) if (i % 5 !== 0 && i % 7 === 0) byHuman++;
    const { summary } = h.engine.end({ sessionId, agent: 'long-runner' }, { status: 'completed' });
    // Done: every log row and every request a person approved; needs review: every denial.
    // The counts are whole; the lists are bounded (the summary travels in every detail).
    expect(summary).toMatchObject({ doneTotal: LOGS + byHuman, needsReviewTotal: denied });
    expect(summary.done).toHaveLength(200);
    expect(summary.needsReview).toHaveLength(200);
    expect(summary.done[0]).toBe('did step 0');
    expect(summary.text).toContain(`Done (${LOGS + byHuman}):`);
    expect(summary.text).toContain(`Needs review (${denied}):`);
    expect(summary.text).toContain(`  - … and ${denied - 50} more`);
    expect(summary.text.split('\n').length).toBeLessThan(120);

    // The report: every figure, the start of each list, and what the lists leave out.
    const { markdown } = h.engine.admin.call('session.report', { sessionId });
    expect(markdown).toContain(
      `**Requests:** ${REQUESTS} (${REQUESTS - denied} approved, ${denied} denied, 0 waiting)`,
    );
    expect(markdown).toContain(`… and ${REQUESTS - 500} more requests`);
    expect(markdown).toContain(`- … ${REQUESTS + LOGS + 1 - 200} more entries`);
    expect(markdown).toContain(`; and ${denied - 100} more.`);
    expect(markdown.length).toBeLessThan(250_000);
    // The end wrote one more transcript row ("Session ended"); the detail counts it.
    const detail = h.engine.admin.call('session.get', {
      sessionId,
      requestsLimit: 100,
      transcriptLimit: 200,
    });
    expect(detail.transcriptTotal).toBe(REQUESTS + LOGS + 1);
    expect(detail.summary).toMatchObject({ doneTotal: LOGS + byHuman, needsReviewTotal: denied });
    expect(detail.summary?.done).toHaveLength(200);
    h.work.flush();
    const ended = h.events.find((e) => e.type === 'session.ended');
    expect(ended?.type === 'session.ended' && ended.summary.done.length).toBe(200);
    await h.archive.idle();
    const archived = JSON.parse(
      readFileSync(join(h.dir, 'transcripts', `${sessionId}.json`), 'utf8'),
    ) as { requests: unknown[]; transcript: unknown[] };
    expect(archived.requests).toHaveLength(REQUESTS);
    expect(archived.transcript).toHaveLength(REQUESTS + LOGS + 1);
  });
});

describe('ending a long session', () => {
  it('counts its summary in SQL inside the write, and reads the session for its file only after it, a page at a time', async () => {
    /** Whether a write was open at each read of a whole session's list. */
    const wholeReads: boolean[] = [];
    /** Whether a write was open at each read of a page for the transcript file, and its size. */
    const pageReads: { inWrite: boolean; items: number }[] = [];
    const h = new EngineHarness((stores) => {
      const store = stores.sessions;
      const inWrite = () => stores.work.inBatch();
      return {
        ...stores,
        sessions: {
          ...store,
          listSessionRequests: (s) => (wholeReads.push(inWrite()), store.listSessionRequests(s)),
          listTranscript: (s) => (wholeReads.push(inWrite()), store.listTranscript(s)),
          pageSessionTimelineOldestFirst: (s, q) => {
            const page = store.pageSessionTimelineOldestFirst(s, q);
            pageReads.push({ inWrite: inWrite(), items: page.items.length });
            return page;
          },
          pageSessionRequestsOldestFirst: (s, q) => {
            const page = store.pageSessionRequestsOldestFirst(s, q);
            pageReads.push({ inWrite: inWrite(), items: page.items.length });
            return page;
          },
        },
      };
    });
    try {
      const { sessionId } = seedLongSession(h.db, {
        startedAt: h.clock.now() - 86_400_000,
        requests: 2000,
        logs: 150,
      });
      // Two of its log entries say it stopped: they need review, they are not work done.
      for (const n of [1, 2])
        h.store.appendTranscript(sessionId, {
          at: new Date(h.clock.now()).toISOString(),
          kind: 'log',
          text: `stopped ${n}`,
          data: { type: 'stopped' },
        });
      for (const [model, cost] of [
        ['model-a', 0.25],
        ['model-b', 1],
        ['model-a', 0.5],
      ] as const)
        h.store.appendTranscript(sessionId, {
          at: new Date(h.clock.now()).toISOString(),
          kind: 'usage',
          text: `${model}: 1000 in, 10 out, $${cost}`,
          data: { model, costUsd: cost },
        });
      const { summary } = h.engine.end({ sessionId, agent: 'long-runner' }, { status: 'failed' });
      expect(wholeReads).toEqual([]);
      let byHuman = 0;
      for (let i = 0; i < 2000; i++) if (i % 5 !== 0 && i % 7 === 0) byHuman++;
      expect(summary).toMatchObject({ doneTotal: 150 + byHuman, needsReviewTotal: 2 + 400 });
      expect(summary.done.slice(149, 151)).toEqual(['did step 149', 'step 7 (approved by human)']);
      expect(summary.needsReview.slice(0, 3)).toEqual([
        'stopped 1',
        'stopped 2',
        'Denied: step 0 (no 0)',
      ]);
      expect(pageReads).toEqual([]);
      h.work.flush();
      // The transcript file: the whole session, read once the end was committed, in pages
      // (2150 + 5 + 1 entries, then 2000 requests), never a whole list.
      await h.archive.idle();
      expect(wholeReads).toEqual([]);
      const pages = (n: number) => [
        ...Array<number>(Math.floor(n / ARCHIVE_PAGE)).fill(ARCHIVE_PAGE),
        ...(n % ARCHIVE_PAGE ? [n % ARCHIVE_PAGE] : []),
      ];
      expect(pageReads.map((r) => r.items)).toEqual([...pages(2156), ...pages(2000)]);
      expect(pageReads.every((r) => !r.inWrite)).toBe(true);
      // The report reads the session's start and counts, never the whole session.
      wholeReads.length = 0;
      const { markdown } = h.engine.admin.call('session.report', { sessionId });
      expect(wholeReads).toEqual([]);
      expect(markdown).toContain('| model-b | 1 | 1000 | 10 | $1.00 |');
      expect(markdown).toContain('| model-a | 2 | 2000 | 20 | $0.7500 |');
      expect(markdown).toContain('- **Requests:** 2000 (1600 approved, 400 denied, 0 waiting)');
    } finally {
      await h.close();
    }
  });
});
