// Benchmark: does a Gatehouse with a long history stay small and fast?
//
// 1. Views: builds two databases in the same run, an empty one and one with 200k requests
//    (50k of them still waiting) and 300k audit rows over half a year. For each it starts a
//    real `gatehouse daemon` (best of three starts, each bounded by START_LIMIT_MS: a start
//    that does not finish is killed and reported as a failure, so the bench always ends) and
//    prints: start time (spawn → first `status` answered), idle RSS, and the time and size of the first page
//    of every view a person opens (status, pending.list, requests.query, sessions.list,
//    audit.query unfiltered and filtered by agent).
// 2. Pruning: on a database of its own (only a few requests waiting, so that it measures
//    pruning, not start-up), a concurrent agent's `request` latency (closed loop, one
//    connection) without pruning, then while the daemon prunes about 100k old rows
//    (`retention.prune`, with `retention.days` set so that that many are older).
//
// Targets: big vs empty, start within 1.5× and RSS within 1.5×; every first page under
// 50 ms; pruning adds at most 20 ms to the agent's p99. Exits 1 when one is missed.
//
// Run: node scripts/build.mjs && node bench/scale.bench.mjs [requests=200000] [audit=300000] [pruneRows=100000]
import Database from 'better-sqlite3';
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { importSources } from './lib/import-sources.mjs';
import { settleTargets, sized } from './lib/quick.mjs';
import { ROOT } from './lib/processes.mjs';
import { seedHistory } from './lib/seed-history.mjs';
import { openConnections } from './lib/socket-load.mjs';

const args = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const REQUESTS = Number(args[0] ?? sized(200_000, 2_000));
const AUDIT = Number(args[1] ?? sized(300_000, 3_000));
const PRUNE_ROWS = Number(args[2] ?? sized(100_000, 1_000));
/**
 * Requests left waiting in the pruning part: a few, so that pruning has to step over them,
 * but not so many that the daemon's start-up is what gets measured.
 */
const PRUNE_PENDING = 50;
const PENDING = Math.round(REQUESTS / 4);
// `--views` or `--prune` runs one part only.
const PARTS = process.argv.includes('--views')
  ? ['views']
  : process.argv.includes('--prune')
    ? ['prune']
    : ['views', 'prune'];
const DAYS = 180;
const PAGE = 50;
const START_LIMIT_MS = Number(process.env.SCALE_START_LIMIT_MS ?? 60_000);
const TARGET_START_RATIO = 1.5;
const TARGET_RSS_RATIO = 1.5;
const TARGET_PAGE_MS = 50;
const TARGET_PRUNE_P99_DELAY_MS = 20;
const BASELINE_MS = sized(3000, 150);
/** Starts of each daemon, the best one counted: the first also pays for the file cache. */
const STARTS = sized(3, 1);
const VIEW_RUNS = sized(5, 1);
const SESSIONS = sized(4000, 100);
/** Any admin call slower than this ends its phase as a failure (the bench always ends). */
const CALL_LIMIT_MS = Number(process.env.SCALE_CALL_LIMIT_MS ?? 30_000);

/** Rejects with `what` when `promise` has not settled after `ms`. */
function withLimit(promise, ms, what) {
  let timer;
  const limit = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: no answer in ${ms / 1000} s`)), ms);
  });
  return Promise.race([promise, limit]).finally(() => clearTimeout(timer));
}

const { openDatabase } = await importSources('scale', [
  "export { openDatabase } from './main/store/database';",
]);

/** Starts a daemon; resolves with it, or with undefined (killed) after START_LIMIT_MS. */
function startDaemon(env) {
  return new Promise((resolve) => {
    const proc = spawn(
      process.execPath,
      [join(ROOT, 'dist/cli/gatehouse.js'), 'daemon', '--no-dashboard'],
      { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let out = '';
    const timer = setTimeout(() => {
      proc.kill('SIGKILL');
      resolve(undefined);
    }, START_LIMIT_MS);
    const onData = (d) => {
      out += d;
      if (!out.includes('gatehouse: ready')) return;
      clearTimeout(timer);
      resolve(proc);
    };
    proc.stdout.on('data', onData);
    proc.stderr.on('data', onData);
    proc.once('exit', (code) => {
      clearTimeout(timer);
      if (!out.includes('gatehouse: ready')) {
        console.error(`daemon exited ${code} before ready: ${out.slice(-500)}`);
        resolve(undefined);
      }
    });
  });
}

async function stopDaemon(proc) {
  if (!proc || proc.exitCode !== null) return;
  proc.removeAllListeners('exit');
  const exited = new Promise((r) => proc.once('exit', r));
  proc.kill('SIGTERM');
  const killer = setTimeout(() => proc.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(killer);
}

/** One NDJSON JSON-RPC connection with the admin role. */
async function adminConnection(socketPath, home, authLimitMs = CALL_LIMIT_MS) {
  const [conn] = await openConnections(socketPath, 1);
  const call = async (method, params = {}, limitMs = CALL_LIMIT_MS) => {
    const t0 = performance.now();
    const result = await withLimit(conn.call(method, params), limitMs, method);
    return { result, ms: performance.now() - t0, bytes: JSON.stringify(result).length };
  };
  const token = readFileSync(join(home, 'admin.token'), 'utf8').trim();
  await call('auth', { token }, authLimitMs);
  return { call, close: conn.close };
}

function rssMb(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)[1]) / 1024;
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const pct = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};

const VIEWS = [
  ['status', {}],
  ['pending.list', { limit: PAGE }],
  ['requests.query', { limit: PAGE }],
  ['sessions.list', { limit: PAGE }],
  ['audit.query', { limit: PAGE }],
  ['audit.query agent', { agent: 'triage', limit: PAGE }],
];

/** A temp home with its database seeded (or empty). */
function seededHome(label, seed) {
  const dir = mkdtempSync(join(tmpdir(), `gatehouse-scale-${label}-`));
  const home = join(dir, 'home');
  mkdirSync(home, { mode: 0o700 });
  const db = openDatabase({ file: join(home, 'gatehouse.db') });
  const t0 = performance.now();
  if (seed) seedHistory(db, { now: Date.now(), days: DAYS, ...seed });
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.close();
  const env = { GATEHOUSE_HOME: home, GATEHOUSE_SOCKET: join(dir, 'agent.sock') };
  return { dir, home, env, seededMs: performance.now() - t0 };
}

async function measureViews(label, seed) {
  const { dir, home, env, seededMs } = seededHome(label, seed);
  // Best of three starts: the first also pays for the file cache.
  // A start ends when the daemon answers `status`, not when it prints "ready": work it does
  // after printing (restoring the queue) counts too.
  const starts = [];
  const didNotStart = { failure: `start: did not finish in ${START_LIMIT_MS / 1000} s`, seededMs };
  let daemon;
  let admin;
  try {
    for (let i = 0; i < STARTS; i++) {
      admin?.close();
      await stopDaemon(daemon);
      const t0 = performance.now();
      daemon = await startDaemon(env);
      if (!daemon) return didNotStart;
      const left = () => Math.max(1, START_LIMIT_MS - (performance.now() - t0));
      try {
        admin = await adminConnection(env.GATEHOUSE_SOCKET, home, left());
        await admin.call('status', {}, left());
      } catch {
        return didNotStart;
      }
      starts.push(performance.now() - t0);
    }
    await new Promise((r) => setTimeout(r, sized(1500, 100)));
    const rss = rssMb(daemon.pid);
    const views = {};
    for (const [name, params] of VIEWS) {
      const times = [];
      let bytes = 0;
      for (let i = 0; i < VIEW_RUNS; i++) {
        const r = await admin.call(name.split(' ')[0], params);
        times.push(r.ms);
        bytes = r.bytes;
      }
      views[name] = { ms: median(times), bytes };
    }
    return { startMs: Math.min(...starts), rss, views, seededMs };
  } catch (error) {
    return { failure: error.message, seededMs };
  } finally {
    admin?.close();
    await stopDaemon(daemon);
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A closed loop of auto-approved `request`s on one agent connection until `until()`. */
async function agentLoop(agent, until) {
  const latencies = [];
  let n = 0;
  while (!until()) {
    const t0 = performance.now();
    const call = agent.call('request', { action: 'read_file', description: `read ${n++}` });
    const answer = await withLimit(call, CALL_LIMIT_MS, 'agent request');
    if (answer.status !== 'approved') throw new Error(`request answered ${answer.status}`);
    latencies.push(performance.now() - t0);
  }
  return latencies;
}

/**
 * Waits until the daemon's audit chain covers every entry (audit row or request) older than
 * `cutoff`, read from the database file as another process; false after 60 s.
 */
async function historyChained(home, cutoff) {
  const db = new Database(join(home, 'gatehouse.db'), { readonly: true });
  try {
    const unchained = db
      .prepare(
        `SELECT (SELECT COUNT(*) FROM audit WHERE seq > h.head AND at < @cutoff)
              + (SELECT COUNT(*) FROM requests WHERE audit_seq > h.head AND created_at < @cutoff)
         FROM (SELECT COALESCE(MAX(seq), 0) AS head FROM audit_chain) h`,
      )
      .pluck();
    for (const end = performance.now() + 60_000; performance.now() < end;) {
      if (unchained.get({ cutoff }) === 0) return true;
      await new Promise((r) => setTimeout(r, 50));
    }
    return false;
  } finally {
    db.close();
  }
}

async function measurePruning() {
  const requests = Math.max(PRUNE_ROWS, 1000);
  const audit = requests;
  const h = seededHome('prune', {
    sessions: sized(2000, 50),
    requests,
    pending: PRUNE_PENDING,
    audit,
  });
  const daemon = await startDaemon(h.env);
  if (!daemon) {
    rmSync(h.dir, { recursive: true, force: true });
    return { failure: `start: did not finish in ${START_LIMIT_MS / 1000} s` };
  }
  try {
    const admin = await adminConnection(h.env.GATEHOUSE_SOCKET, h.home);
    const [agent] = await openConnections(h.env.GATEHOUSE_SOCKET, 1);
    await agent.call('hello', { agent: 'bench-agent' });
    // Warm-up, then the baseline (continued after the pruning).
    let end = performance.now() + sized(300, 50);
    await agentLoop(agent, () => performance.now() > end);
    end = performance.now() + BASELINE_MS;
    const baseline = await agentLoop(agent, () => performance.now() > end);
    // Rows are spread evenly over DAYS days: keep the newest share, prune PRUNE_ROWS.
    const share = Math.min(0.9, PRUNE_ROWS / (requests + audit));
    const days = Math.max(1, Math.round(DAYS * (1 - share)));
    // Audit history goes only in whole signed segments of the audit chain, and the daemon
    // chains a seeded history in the background: pruning when only part of it was chained
    // removed only that part (51k of 100k rows in some runs, all in others). Pruned once the
    // history older than the cutoff is chained, as on a daemon that has run for a while.
    const chained = await historyChained(h.home, Date.now() - days * 86_400_000);
    if (!chained) {
      agent.close();
      admin.close();
      return { failure: 'the audit chain did not cover the old history in 60 s' };
    }
    await admin.call('settings.set', { key: 'retention.days', value: days });
    let done = false;
    // Pruning may take a while on a loaded machine: a generous limit, but a limit.
    const pruning = admin
      .call('retention.prune', { dryRun: false }, 10 * CALL_LIMIT_MS)
      .finally(() => (done = true));
    const during = await agentLoop(agent, () => done);
    const { result, ms } = await pruning;
    // The baseline is measured before and after, so that a burst of load on a shared machine
    // lands on both sides of the comparison rather than only on the pruning.
    end = performance.now() + BASELINE_MS;
    baseline.push(...(await agentLoop(agent, () => performance.now() > end)));
    agent.close();
    admin.close();
    return { baseline, during, result, ms, days };
  } catch (error) {
    return { failure: error.message };
  } finally {
    await stopDaemon(daemon);
    rmSync(h.dir, { recursive: true, force: true });
  }
}

const failures = [];
/** A daemon that did not start or answer: a broken bench, which fails a quick run too. */
const broken = [];
if (PARTS.includes('views')) await viewsPart();
if (PARTS.includes('prune')) await prunePart();
for (const f of [...broken, ...failures]) console.log(`FAIL ${f}`);
if (broken.length) process.exitCode = 1;
settleTargets(failures.length > 0);

async function viewsPart() {
  const empty = await measureViews('empty');
  const big = await measureViews('big', {
    sessions: SESSIONS,
    requests: REQUESTS,
    pending: PENDING,
    audit: AUDIT,
  });

  const row = (name, a, b, unit, fmt = (x) => x.toFixed(1)) =>
    console.log(`${name.padEnd(22)} ${fmt(a).padStart(9)} ${fmt(b).padStart(9)} ${unit.padEnd(3)}`);
  console.log(
    `scale: ${REQUESTS} requests (${PENDING} waiting), ${AUDIT} audit rows (seeded in ${(big.seededMs / 1000).toFixed(1)} s)`,
  );
  for (const [label, m] of [
    ['empty', empty],
    ['big', big],
  ]) {
    if (!m.failure) continue;
    console.log(`${label}: ${m.failure}`);
    broken.push(`${label} database: ${m.failure}`);
  }
  if (!empty.failure && !big.failure) {
    console.log(`${'figure'.padEnd(22)} ${'empty'.padStart(9)} ${'big'.padStart(9)}`);
    row('start (best of 3)', empty.startMs, big.startMs, 'ms');
    row('idle RSS', empty.rss, big.rss, 'MB');
    for (const [name] of VIEWS) {
      row(name, empty.views[name].ms, big.views[name].ms, 'ms', (x) => x.toFixed(2));
      row(`  ${name} size`, empty.views[name].bytes / 1024, big.views[name].bytes / 1024, 'KiB');
      if (big.views[name].ms > TARGET_PAGE_MS)
        failures.push(
          `${name} first page ${big.views[name].ms.toFixed(1)} ms > ${TARGET_PAGE_MS} ms`,
        );
    }
    const startRatio = big.startMs / empty.startMs;
    const rssRatio = big.rss / empty.rss;
    console.log(
      `start ratio big/empty ${startRatio.toFixed(2)}× (target ≤ ${TARGET_START_RATIO}×)`,
    );
    console.log(`RSS ratio big/empty   ${rssRatio.toFixed(2)}× (target ≤ ${TARGET_RSS_RATIO}×)`);
    if (startRatio > TARGET_START_RATIO) failures.push(`start ratio ${startRatio.toFixed(2)}×`);
    if (rssRatio > TARGET_RSS_RATIO) failures.push(`RSS ratio ${rssRatio.toFixed(2)}×`);
  }
}

async function prunePart() {
  const prune = await measurePruning();
  if (prune.failure) {
    console.log(`prune: ${prune.failure}`);
    broken.push(`prune database: ${prune.failure}`);
  } else {
    const r = prune.result;
    const rows = r.requests.count + r.audit.count + r.transcript.count + r.sessions.count;
    console.log(
      `prune: ${rows} rows (${r.requests.count} requests, ${r.audit.count} audit, ${r.sessions.count} sessions) older than ${prune.days} days in ${(prune.ms / 1000).toFixed(1)} s, ${r.steps} steps of ≤ ${r.largestStep} rows (longest ${r.longestStepMs} ms), ${(r.bytesFreed / 1048576).toFixed(1)} MB given back`,
    );
    const p = (xs, q) => pct(xs, q).toFixed(2);
    console.log(
      `load average ${loadavg()
        .map((x) => x.toFixed(1))
        .join(' ')}`,
    );
    console.log(
      `agent request without pruning (before and after): p50 ${p(prune.baseline, 50)} ms  p99 ${p(prune.baseline, 99)} ms  (${prune.baseline.length} calls)`,
    );
    console.log(
      `agent request while pruning:   p50 ${p(prune.during, 50)} ms  p99 ${p(prune.during, 99)} ms  (${prune.during.length} calls)`,
    );
    const delay = pct(prune.during, 99) - pct(prune.baseline, 99);
    console.log(
      `pruning adds ${delay.toFixed(2)} ms to the agent's p99 (target ≤ ${TARGET_PRUNE_P99_DELAY_MS} ms)`,
    );
    if (rows < PRUNE_ROWS * 0.9) failures.push(`pruned only ${rows} rows of ${PRUNE_ROWS}`);
    if (prune.during.length < 20) failures.push(`only ${prune.during.length} calls while pruning`);
    if (delay > TARGET_PRUNE_P99_DELAY_MS)
      failures.push(`pruning adds ${delay.toFixed(1)} ms to p99 > ${TARGET_PRUNE_P99_DELAY_MS} ms`);
  }
}
