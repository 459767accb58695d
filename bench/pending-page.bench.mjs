// Benchmark: a page of the review queue in attention order (`pending.list`'s default) on a
// big queue, today's store against the baseline's.
//
// The same history (bench/lib/seed-history.mjs: 200k requests, 50k of them waiting, 4,000
// sessions) is seeded into a database made by each version's own migrations; then each
// version's RequestsRepository pages the queue as the daemon asks for it (inference on, the
// connected sessions given): the first page and the 21st (by its cursor; the 5th in quick mode), with no session
// connected and with 20 of the queue's sessions connected, and with inference off. CPU time
// per page in this process (process.cpuUsage, so a loaded machine does not stretch it), the
// two versions alternating; the pages of both versions must hold the same requests. The
// baseline is commit 958bd75, which ranked every waiting request with a function of the
// connection and sorted them all for each page.
//
// Target: every page < 50 ms (the `scale` bench's target for a first page, here without the
// socket). BENCH_QUICK=1: a small queue, the target not enforced.
//
// Run: node bench/pending-page.bench.mjs [requests=200000]
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { extractBaseline, importSources } from './lib/import-sources.mjs';
import { ROOT } from './lib/processes.mjs';
import { settleTargets, sized } from './lib/quick.mjs';
import { seedHistory } from './lib/seed-history.mjs';

const BASELINE = '958bd75';
const TARGET_PAGE_MS = 50;
const REQUESTS = Number(process.argv[2] ?? sized(200_000, 2_000));
const PAGE = 50;
/** The later page measured: reached by its cursor. */
const LATER = sized(21, 5);
const RUNS = { baseline: sized(5, 1), new: sized(100, 2) };

const load = (name, dir) =>
  importSources(
    name,
    [
      "export { openDatabase } from './main/store/database';",
      "export { RequestsRepository } from './main/store/requests-repository';",
    ],
    dir,
  );
const baselineTree = extractBaseline(BASELINE, ['main', 'shared'], 'pending-page');
const versions = {
  baseline: await load('pending-page-baseline', baselineTree.dir),
  new: await load('pending-page-new', ROOT),
};

const root = mkdtempSync(join(tmpdir(), 'gh-bench-pending-'));
let missed = false;
try {
  const now = Date.now();
  const seed = {
    now,
    days: 180,
    sessions: sized(4000, 100),
    requests: REQUESTS,
    pending: Math.round(REQUESTS / 4),
    audit: 0,
  };
  const repos = {};
  for (const [name, m] of Object.entries(versions)) {
    const db = m.openDatabase({ file: join(root, `${name}.db`) });
    seedHistory(db, seed);
    repos[name] = { db, repo: new m.RequestsRepository(db) };
  }
  const live = repos.new.db
    .prepare(`SELECT DISTINCT session_id FROM requests WHERE status = 'pending' LIMIT 20`)
    .pluck()
    .all();
  console.log(
    `pending-page: ${REQUESTS} requests, ${seed.pending} waiting, ${seed.sessions} sessions; baseline ${BASELINE}`,
  );
  const cases = [
    ['none connected', { connectedSessionIds: [], inferUrgencyAt: now }],
    ['20 sessions connected', { connectedSessionIds: live, inferUrgencyAt: now }],
    ['inference off', { connectedSessionIds: [] }],
  ];

  /** CPU ms per call of `page` over `runs` calls, after one unmeasured call. */
  const cpuPerCall = (runs, page) => {
    page();
    const c0 = process.cpuUsage();
    for (let i = 0; i < runs; i++) page();
    const c = process.cpuUsage(c0);
    return (c.user + c.system) / 1000 / runs;
  };

  console.log(
    `\n${'case'.padEnd(24)}${'page'.padEnd(9)}${'baseline'.padStart(12)}${'new'.padStart(12)}`,
  );
  for (const [name, params] of cases) {
    const q = { order: 'attention', limit: PAGE, ...params };
    // The cursor of the later page in each version (the cursors' texts are each version's own).
    const cursors = {};
    const ids = {};
    for (const v of Object.keys(repos)) {
      let page = repos[v].repo.pageOpenRequests(q);
      ids[v] = [page.items.map((r) => r.requestId)];
      for (let i = 1; i < LATER; i++) {
        if (i === LATER - 1) cursors[v] = page.nextCursor;
        page = repos[v].repo.pageOpenRequests({ ...q, cursor: page.nextCursor });
      }
      ids[v].push(page.items.map((r) => r.requestId));
      if (!page.items.length) throw new Error(`the queue has fewer than ${LATER} pages`);
    }
    if (JSON.stringify(ids.baseline) !== JSON.stringify(ids.new)) {
      console.log(`FAIL ${name}: the versions' pages differ`);
      process.exitCode = 1;
    }
    for (const [label, at] of [
      ['page 1', () => undefined],
      [`page ${LATER}`, (v) => cursors[v]],
    ]) {
      const ms = {};
      for (const v of ['baseline', 'new']) {
        const cursor = at(v);
        ms[v] = cpuPerCall(RUNS[v], () =>
          repos[v].repo.pageOpenRequests(cursor ? { ...q, cursor } : q),
        );
      }
      console.log(
        `${name.padEnd(24)}${label.padEnd(9)}${ms.baseline.toFixed(2).padStart(9)} ms${ms.new.toFixed(2).padStart(9)} ms  (CPU per page; new ${(ms.new / ms.baseline).toFixed(3)}x the baseline's)`,
      );
      if (!(ms.new < TARGET_PAGE_MS)) missed = true;
    }
  }
  console.log(`\ntarget: every page < ${TARGET_PAGE_MS} ms of CPU`);
  for (const { db } of Object.values(repos)) db.close();
} finally {
  rmSync(root, { recursive: true, force: true });
  baselineTree.remove();
}
if (missed) console.log('MISSED TARGET');
settleTargets(missed);
