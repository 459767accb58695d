// Benchmark: does writing a long session's transcript file hold up other agents?
//
// A closed session's file (`$GATEHOUSE_HOME/transcripts/<id>.json`) is written once its end
// is committed. The writer before paging read the whole session (every transcript row and
// request) and wrote one JSON.stringify synchronously: for a session of 100k requests and
// 100k transcript rows that blocked the daemon's event loop for seconds, so every agent
// waited. Now it is written a page per turn to a temp file, then renamed into place.
//
// A real core (createCore, in this process) listens on its agent socket; a concurrent agent
// on its own thread (bench/lib/agent-loop-worker.mjs) files auto-approved `request`s in a
// closed loop. Two long sessions are ended with their writes held back, then, in the same
// run: the agent's latency with nothing written (baseline, before and after), while the old
// writer (inlined below, the code before paging) writes one session's file, and while the
// new writer writes the other's. Also printed: the longest event-loop stall of the core's
// thread (perf_hooks.monitorEventLoopDelay) in each phase, and each file's size and time.
//
// Target: the new writer adds at most 20 ms to the agent's p99. Exits 1 when missed.
//
// Run: node bench/transcript-archive.bench.mjs [requests=100000]
import { mkdirSync, mkdtempSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';
import { importSources } from './lib/import-sources.mjs';
import { settleTargets, sized } from './lib/quick.mjs';

const REQUESTS = Number(process.argv[2] ?? sized(100_000, 2_000));
const BASELINE_MS = sized(2000, 150);
const TARGET_P99_DELAY_MS = 20;

const {
  createCore,
  openDatabase,
  seedLongSession,
  createSqliteEngineStores,
  sessionTranscript,
  toRequestRecord,
} = await importSources('transcript-archive', [
  "export { createCore } from './main/core';",
  "export { openDatabase } from './main/store/database';",
  "export { createSqliteEngineStores } from './main/store/sqlite-engine-stores';",
  "export { sessionTranscript } from './main/engine/sessions/transcript';",
  "export { toRequestRecord } from './main/engine/kernel/records';",
  "export { seedLongSession } from './test/support/seed-session';",
]);

const pct = (xs, p) => {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
};
/** The largest value; not Math.max(...xs), which overflows the stack past ~100k values. */
const maxOf = (xs) => xs.reduce((m, x) => (x > m ? x : m), -Infinity);
const fmt = (ms) => (ms >= 100 ? ms.toFixed(0) : ms.toFixed(2));

/** The writer before paging: the whole session read at once, one JSON document, written synchronously. */
function oldWriter(store, dir) {
  return (doc) => {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const file = join(dir, `${doc.session.sessionId}.json`);
    const tmp = `${file}.tmp-${process.pid}`;
    const whole = {
      session: doc.session,
      summary: doc.summary,
      transcript: sessionTranscript(store, doc.session.sessionId),
      requests: store.listSessionRequests(doc.session.sessionId).map(toRequestRecord),
    };
    writeFileSync(tmp, `${JSON.stringify(whole, null, 2)}\n`, { mode: 0o600 });
    renameSync(tmp, file);
    return Promise.resolve();
  };
}

let missed = false;
const home = mkdtempSync(join(tmpdir(), 'gh-bench-archive-'));
let worker;
try {
  const seedStart = performance.now();
  const db = openDatabase({ file: join(home, 'gatehouse.db') });
  const now = Date.now();
  // One request a second each: the second session starts after the first one's last.
  const span = (REQUESTS + 60) * 1000;
  const sessions = [2, 1].map((k) =>
    seedLongSession(db, {
      startedAt: now - span * k,
      requests: REQUESTS,
      logs: REQUESTS,
    }),
  );
  db.close();
  console.log(
    `seeded two sessions of ${REQUESTS} requests and ${REQUESTS} transcript rows each in ${((performance.now() - seedStart) / 1000).toFixed(1)} s`,
  );

  const socketPath = join(home, 'agent.sock');
  const core = createCore({ home, socketPath });
  await core.listen();
  const dir = join(home, 'transcripts');
  const newWrite = core.transcripts.write;
  // Both sessions end with their files held back, so each phase times the file alone.
  const held = [];
  core.transcripts.write = (doc) => (held.push(doc), Promise.resolve());
  for (const s of sessions)
    core.engine.end({ sessionId: s.sessionId, agent: 'long-runner' }, { status: 'completed' });
  await core.engine.durable();
  core.transcripts.write = newWrite;

  worker = new Worker(new URL('./lib/agent-loop-worker.mjs', import.meta.url), {
    workerData: { socketPath },
  });
  // Listened for from the start: the worker's last message and its exit can come in one turn.
  const exited = new Promise((r) => worker.once('exit', r));
  const messages = [];
  let wake;
  worker.on('message', (m) => (messages.push(m), wake?.()));
  worker.on('error', (e) => {
    console.error(e);
    process.exit(1);
  });
  const next = async () => {
    while (!messages.length) await new Promise((r) => (wake = r));
    return messages.shift();
  };
  await next();

  /** Runs the agent while `during()` runs (or for `ms`), with the core's longest stall. */
  async function phase(name, during) {
    const loop = monitorEventLoopDelay({ resolution: 1 });
    worker.postMessage({ phase: name });
    // Let the agent's loop begin before the work does.
    await new Promise((r) => setTimeout(r, 100));
    loop.enable();
    const t0 = performance.now();
    await during();
    const ms = performance.now() - t0;
    loop.disable();
    worker.postMessage({ stop: true });
    const { latencies } = await next();
    return { latencies, ms, stallMs: loop.max / 1e6 };
  }
  const idle = () => new Promise((r) => setTimeout(r, BASELINE_MS));

  const base1 = await phase('baseline', idle);
  // The new writer first: the old one's 80 MB of garbage is not collected on its time.
  const after = await phase('new writer', async () => {
    await new Promise((r) => setTimeout(r, 50));
    await newWrite(held[1]);
    await new Promise((r) => setTimeout(r, 100));
  });
  const newFile = statSync(join(dir, `${held[1].session.sessionId}.json`)).size;
  const before = await phase('old writer', async () => {
    await new Promise((r) => setTimeout(r, 50));
    await oldWriter(createSqliteEngineStores(core.db).sessions, dir)(held[0]);
    // A few more calls after the stall, as the new writer's phase has.
    await new Promise((r) => setTimeout(r, 100));
  });
  const oldFile = statSync(join(dir, `${held[0].session.sessionId}.json`)).size;
  const base2 = await phase('last', idle);
  const baseline = [...base1.latencies, ...base2.latencies];

  const line = (name, r) =>
    console.log(
      `${name.padEnd(34)} p50 ${fmt(pct(r.latencies, 50)).padStart(7)} ms  p99 ${fmt(pct(r.latencies, 99)).padStart(7)} ms  max ${fmt(maxOf(r.latencies)).padStart(7)} ms  (${r.latencies.length} calls)  longest stall of the core ${fmt(r.stallMs)} ms`,
    );
  console.log(`\nconcurrent agent's request latency (its own thread, over the socket):`);
  line('no file written (before)', base1);
  line('no file written (after)', base2);
  line(
    'old writer (whole session at once)',
    before.latencies.length ? before : { ...before, latencies: [NaN] },
  );
  line('new writer (a page per turn)', after);
  console.log(
    `\nold writer: ${(oldFile / 1048576).toFixed(1)} MB in ${fmt(before.ms - 150)} ms; new writer: ${(newFile / 1048576).toFixed(1)} MB in ${fmt(after.ms - 150)} ms`,
  );
  // A stall holds up one call of a closed loop: the old writer's shows in the max, not the p99
  // of the calls around it; both are printed.
  const oldDelay = pct(before.latencies, 99) - pct(baseline, 99);
  const newDelay = pct(after.latencies, 99) - pct(baseline, 99);
  console.log(
    `the agent's p99 is delayed ${fmt(oldDelay)} ms by the old writer (its longest call ${fmt(maxOf(before.latencies))} ms), ${fmt(newDelay)} ms by the new writer (its longest call ${fmt(maxOf(after.latencies))} ms); target ≤ ${TARGET_P99_DELAY_MS} ms`,
  );
  console.log(
    `longest stall of the core while the file is written: old ${fmt(before.stallMs)} ms, new ${fmt(after.stallMs)} ms (${(before.stallMs / after.stallMs).toFixed(0)}x shorter)`,
  );
  if (!(newDelay <= TARGET_P99_DELAY_MS)) missed = true;
  await exited;
  worker = undefined;
  await core.close();
} finally {
  await worker?.terminate();
  rmSync(home, { recursive: true, force: true });
}
if (missed) console.log('MISSED TARGET');
settleTargets(missed);
