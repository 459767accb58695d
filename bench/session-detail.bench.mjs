// Benchmark: does a session that ran all day open as fast as a short one?
//
// One database holds a short session (10 requests, 10 transcript rows) and a long one
// (100k requests and 100k transcript rows by default, with another session's requests
// filed between them). A real engine and store (createCore, in process) answer through the
// admin service, as every transport calls it. For each session it prints the median time and
// the answer's size of: `session.get` (the detail the dashboard and `gatehouse summary`
// open), the first page of `session.transcript` and of `requests.query` for the session, and
// a transcript page from the middle (by cursor). Baseline in the same run: what
// `session.get` cost before it was bounded, reading the whole session (the summary and the
// archive still do, once, when the session ends).
//
// The indexes this needs (a session's requests in the key table of migration 019, written in
// bulk every 1,024 requests, and the partial indexes of a session's unapproved and
// asked-and-approved requests, migration 014) are more B-trees a request may write: the
// second part times filing requests with and without them, on two fresh databases filled in
// alternating turns in the same run (CPU time, and wall time).
//
// Ending the long session prints the time its summary takes inside the write (target: under
// 300 ms; it read the whole session there before) and until its transcript file is written.
//
// `session.report` of each session is timed too (target: under 300 ms; it read and printed
// the whole session before).
//
// Targets: every call under 50 ms on the long session; its session.get answer no bigger than
// the short one's (1.1x: both hold a page); its session.get within 5x of the short one's time
// (the totals are counted on the session's indexes, about 2.5 ms a count per 100k rows: the
// one part that grows, slowly); filing a request costs at most 1.3x with the index.
//
// Run: node bench/session-detail.bench.mjs [requests=100000]
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { importSources } from './lib/import-sources.mjs';
import { settleTargets, sized } from './lib/quick.mjs';

const REQUESTS = Number(process.argv[2] ?? sized(100_000, 3_000));
/** The short session: just enough to fill every page and session.get's bounds. */
const SHORT = sized(1000, 200);
const ROUNDS = sized(15, 3);
const TARGET_RATIO = 5;
const TARGET_BYTES_RATIO = 1.1;
const TARGET_MS = 50;
const TARGET_INSERT_RATIO = 1.3;
const TARGET_END_MS = 300;
const TARGET_REPORT_MS = 300;
const INSERTS = sized(20_000, 1_000);
const INSERT_ROUNDS = sized(9, 2);

const { createCore, openDatabase, seedLongSession, createSqliteEngineStores, sessionTranscript } =
  await importSources('session-detail', [
    "export { createCore } from './main/core';",
    "export { openDatabase } from './main/store/database';",
    "export { createSqliteEngineStores } from './main/store/sqlite-engine-stores';",
    "export { sessionTranscript } from './main/engine/sessions/transcript';",
    "export { seedLongSession } from './test/support/seed-session';",
  ]);

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** Median milliseconds of `fn` over ROUNDS runs (after one warm-up), and its last answer. */
async function time(fn) {
  let answer = await fn();
  const ms = [];
  for (let i = 0; i < ROUNDS; i++) {
    const t = performance.now();
    answer = await fn();
    ms.push(performance.now() - t);
  }
  return { ms: median(ms), bytes: JSON.stringify(answer).length };
}

let missed = false;
const home = mkdtempSync(join(tmpdir(), 'gh-bench-session-'));
try {
  const seedStart = performance.now();
  const db = openDatabase({ file: join(home, 'gatehouse.db') });
  const now = Date.now();
  const short = seedLongSession(db, {
    startedAt: now - 86_400_000 * 2,
    requests: SHORT,
    logs: SHORT,
    agent: 'short',
  });
  const long = seedLongSession(db, {
    startedAt: now - 86_400_000,
    requests: REQUESTS,
    logs: REQUESTS,
  });
  db.close();
  console.log(
    `seeded a session of ${SHORT} requests (+ ${SHORT} transcript rows) and one of ${REQUESTS} (+ ${REQUESTS} transcript rows, ${Math.floor(REQUESTS / 3)} requests of another session between) in ${((performance.now() - seedStart) / 1000).toFixed(1)} s`,
  );

  const core = createCore({ home, socketPath: join(home, 'agent.sock') });
  const admin = core.admin;
  const figures = {};
  for (const [name, s] of [
    ['short', short],
    ['long', long],
  ]) {
    const sessionId = s.sessionId;
    // A cursor half way down the transcript, walked to in the largest pages.
    let middle;
    for (let seen = 0, total = 1; seen < total / 2;) {
      const page = await admin.invoke('session.transcript', {
        sessionId,
        limit: 5000,
        ...(middle ? { cursor: middle } : {}),
      });
      seen += page.transcript.length;
      total = page.total;
      middle = page.nextCursor;
      if (!middle) break;
    }
    const f = {
      'session.get': await time(() => admin.invoke('session.get', { sessionId })),
      'session.transcript page': await time(() =>
        admin.invoke('session.transcript', { sessionId, limit: 100 }),
      ),
      'session.transcript middle page': await time(() =>
        admin.invoke('session.transcript', {
          sessionId,
          limit: 100,
          ...(middle ? { cursor: middle } : {}),
        }),
      ),
      'requests.query session page': await time(() =>
        admin.invoke('requests.query', { sessionId, limit: 100 }),
      ),
    };
    figures[name] = f;
    console.log(`\n${name} session (${s.requestIds.length} requests):`);
    for (const [what, r] of Object.entries(f)) {
      console.log(
        `  ${what.padEnd(32)} ${r.ms.toFixed(2).padStart(8)} ms  ${String(r.bytes).padStart(8)} bytes`,
      );
      if (r.ms > TARGET_MS) missed = true;
    }
  }
  const ratio = figures.long['session.get'].ms / figures.short['session.get'].ms;
  console.log(
    `\nsession.get long / short: ${ratio.toFixed(2)}x (target <= ${TARGET_RATIO}x, each < ${TARGET_MS} ms)`,
  );
  if (ratio > TARGET_RATIO) missed = true;
  const bytesRatio = figures.long['session.get'].bytes / figures.short['session.get'].bytes;
  console.log(
    `session.get answer long / short: ${bytesRatio.toFixed(2)}x (target <= ${TARGET_BYTES_RATIO}x)`,
  );
  if (bytesRatio > TARGET_BYTES_RATIO) missed = true;
  // The report of each (its figures counted, its lists the session's start).
  for (const [name, sess] of [
    ['short', short],
    ['long', long],
  ]) {
    const r = await time(() => admin.invoke('session.report', { sessionId: sess.sessionId }));
    console.log(
      `session.report, ${name} session: ${r.ms.toFixed(1)} ms, ${r.bytes} bytes (target < ${TARGET_REPORT_MS} ms)`,
    );
    if (r.ms > TARGET_REPORT_MS) missed = true;
  }
  // Ending the long session: its summary is counted in SQL inside the write; the transcript
  // file (the whole session) is written once the end is committed.
  {
    const t = performance.now();
    const { summary } = core.engine.end(
      { sessionId: long.sessionId, agent: 'long-runner' },
      { status: 'completed' },
    );
    const inWrite = performance.now() - t;
    await core.engine.durable();
    // The file is written in the background, a page per turn (bench/transcript-archive.bench.mjs
    // times what that costs other agents).
    await core.transcripts.idle();
    const untilArchived = performance.now() - t;
    console.log(
      `ending the long session: ${inWrite.toFixed(0)} ms in the write (summary of ${summary.doneTotal} done, ${summary.needsReviewTotal} to review), ${untilArchived.toFixed(0)} ms until its transcript file is written`,
    );
    if (inWrite > TARGET_END_MS) missed = true;
  }
  await core.close();

  // Baseline of the old session.get: the whole session read through the store.
  {
    const bdb = openDatabase({ file: join(home, 'gatehouse.db') });
    const store = createSqliteEngineStores(bdb).sessions;
    const t = performance.now();
    const transcript = sessionTranscript(store, long.sessionId);
    const requests = store.listSessionRequests(long.sessionId);
    const ms = performance.now() - t;
    console.log(
      `baseline, the whole long session (what session.get read before): ${ms.toFixed(0)} ms, ${transcript.length} entries and ${requests.length} requests; bounded session.get is ${(ms / figures.long['session.get'].ms).toFixed(0)}x faster`,
    );
    bdb.close();
  }

  // Filing requests with and without the session's indexes: two fresh databases filled in
  // turns (which goes first alternates), so that load on a shared machine falls on both. The
  // target is on CPU time (user + system, what the process spent); wall time is printed too.
  // The key tables (migration 019) are written by the filing itself: `without` writes the
  // agents' alone (as main's comparison kept requests_by_agent on both sides).
  const SESSION_INDEXES = ['requests_unapproved', 'requests_asked_approved'];
  const dirs = [];
  const dbs = {};
  for (const variant of ['without', 'with']) {
    const dir = mkdtempSync(join(tmpdir(), 'gh-bench-insert-'));
    dirs.push(dir);
    dbs[variant] = openDatabase({ file: join(dir, 'gatehouse.db') });
    if (variant === 'without')
      for (const index of SESSION_INDEXES) dbs[variant].exec(`DROP INDEX IF EXISTS ${index}`);
  }
  const cpu = { without: [], with: [] };
  const wall = { without: [], with: [] };
  for (let round = 0; round < INSERT_ROUNDS; round++) {
    const order = round % 2 ? ['with', 'without'] : ['without', 'with'];
    for (const variant of order) {
      const start = Date.now() + round * 10_000_000;
      const c = process.cpuUsage();
      const t = performance.now();
      seedLongSession(dbs[variant], {
        startedAt: start,
        requests: INSERTS,
        logs: 0,
        agent: `insert-${round}`,
        indexKeys: variant === 'with' ? true : 'agent',
      });
      const rows = INSERTS + Math.floor(INSERTS / 3);
      wall[variant].push(((performance.now() - t) * 1000) / rows);
      const used = process.cpuUsage(c);
      cpu[variant].push((used.user + used.system) / rows);
    }
  }
  for (const db of Object.values(dbs)) db.close();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  const insertRatio = median(cpu.with) / median(cpu.without);
  console.log(
    `\nfiling a request (batched inserts, medians of ${INSERT_ROUNDS} alternating rounds of ${INSERTS}): CPU ${median(cpu.without).toFixed(2)} µs without the session's indexes (its key table, ${SESSION_INDEXES.join(', ')}), ${median(cpu.with).toFixed(2)} µs with; ${insertRatio.toFixed(2)}x (target <= ${TARGET_INSERT_RATIO}x); wall ${median(wall.without).toFixed(2)} and ${median(wall.with).toFixed(2)} µs, ${(median(wall.with) / median(wall.without)).toFixed(2)}x`,
  );
  if (insertRatio > TARGET_INSERT_RATIO) missed = true;
} finally {
  rmSync(home, { recursive: true, force: true });
}
if (missed) console.log('MISSED TARGET');
settleTargets(missed);
