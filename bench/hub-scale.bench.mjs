// Benchmark: the team hub with many machines.
//
// A real PostgreSQL server (Debian's, started in a temp folder as in the tests), two hub
// replicas (`gatehouse hub` processes from dist/) on it, and N simulated machines: WebSocket
// clients in this process that authenticate as a daemon does (Ed25519 signature of the hub's
// challenge), half linked to replica A, half to B. Each machine publishes ROUNDS requests
// (one batch in flight, as the daemon's outbox does): filings per second is every publish
// acknowledged (stored in PostgreSQL) over the wall time. Then a person decides DECISIONS of
// them on replica B through its HTTP API, a few at a time; the clock runs from the POST to
// the machine receiving the signed decision, whichever replica it is linked to (NOTIFY).
// CPU is each process's user+system time over the run (from /proc), memory its RSS;
// PostgreSQL's share is its server processes' CPU against the hubs'.
// Target: p99 < 100 ms from a hub decision to the machine at 1,000 machines.
//
// Run: node scripts/build.mjs && node bench/hub-scale.bench.mjs [50,200,1000]
import { randomUUID } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import WebSocket from 'ws';
import { importSources } from './lib/import-sources.mjs';
import { ROOT, startProcess } from './lib/processes.mjs';
import { settleTargets, sized } from './lib/quick.mjs';

const LEVELS = (process.argv[2] ?? sized('50,200,1000', '20')).split(',').map(Number);
const ROUNDS = sized(5, 2);
const DECISIONS = sized(300, 20);
const TARGET_P99_MS = 100;

const { TestPostgres, registerMachine, generateEd25519, signText, authText } = await importSources(
  'hub-scale',
  [
    "export { TestPostgres } from './test/support/postgres';",
    "export { openHubDatabase } from './main/hub/store/open-database';",
    "export { registerMachine } from './main/hub/store/machines-repo';",
    "export { generateEd25519, signText } from './shared/node/hub-keys';",
    "export { authText } from './shared/hub-protocol';",
  ],
);

const CLI = join(ROOT, 'dist', 'cli', 'gatehouse.js');
/** Clock ticks per second of /proc's CPU times (USER_HZ, 100 on Linux). */
const TICKS = 100;

/** user+system CPU seconds of one process. */
function cpuOf(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / TICKS;
  } catch {
    return 0;
  }
}
function rssMb(pid) {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : 0;
}
/** The PostgreSQL server's processes: the postmaster and its children. */
function postgresPids(dataDir) {
  const main = Number(readFileSync(join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
  const pids = [main];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === main) pids.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return pids;
}
const percentile = (sorted, p) =>
  sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))];

async function startReplica(dir, url) {
  const home = join(dir, `hub-${randomUUID().slice(0, 8)}`);
  let out = '';
  const proc = await startProcess(
    [CLI, 'hub', '--port', '0'],
    {
      GATEHOUSE_HOME: home,
      GATEHOUSE_HUB_DATABASE_URL: url,
    },
    'gatehouse hub: ready',
  );
  proc.stdout.on('data', (d) => (out += d));
  // The address file holds the URL the replica listens on.
  const { url: hubUrl } = JSON.parse(readFileSync(join(home, 'hub', 'hub.json'), 'utf8'));
  // The hub has one admin token, written on the host of the replica that made it (the first).
  const tokenFile = join(home, 'hub', 'admin.token');
  const token = existsSync(tokenFile) ? readFileSync(tokenFile, 'utf8').trim() : undefined;
  return { proc, url: hubUrl, token, output: () => out };
}

/** One simulated machine: links, publishes, receives decisions. */
function machineClient(m, hubUrl, onDecision) {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`${hubUrl.replace('http', 'ws')}/api/machines/link`);
    let seq = 0;
    let waitingAck;
    let failAck;
    let ready = false;
    const client = {
      ws,
      publish(requestId) {
        seq += 1;
        const request = {
          requestId,
          sessionId: 's',
          agent: 'bench',
          action: 'git_push',
          description: `push ${requestId}`,
          urgency: 'normal',
          status: 'pending',
          tier: 'ask',
          rule: 'default',
          ruleReason: 'asks',
          createdAt: new Date().toISOString(),
        };
        const acked = new Promise((r, fail) => {
          waitingAck = r;
          failAck = fail;
        });
        ws.send(
          JSON.stringify({ t: 'publish', entries: [{ seq, kind: 'request.asked', request }] }),
        );
        return acked;
      },
    };
    ws.on('message', (data) => {
      const msg = JSON.parse(String(data));
      if (msg.t === 'challenge')
        ws.send(
          JSON.stringify({
            t: 'auth',
            machineId: m.machineId,
            sig: signText(m.key, authText(msg.nonce, m.machineId)),
          }),
        );
      else if (msg.t === 'ready') {
        ready = true;
        resolve(client);
      } else if (msg.t === 'ack') waitingAck?.();
      else if (msg.t === 'decision') {
        const d = JSON.parse(msg.payload);
        onDecision(d.requestId);
        ws.send(JSON.stringify({ t: 'answer', decisionId: d.decisionId, outcome: 'applied' }));
      } else if (msg.t === 'refused') reject(new Error(msg.message));
    });
    ws.on('error', reject);
    // A link the hub closed (a daemon would reconnect and replay; this client does not): the
    // run fails with why, rather than waiting for an answer that cannot come.
    ws.on('close', (code, reason) => {
      const why = new Error(`machine ${m.name}: the hub closed its link (${code} ${reason})`);
      if (!ready) reject(why);
      else failAck?.(why);
    });
  });
}

const server = await TestPostgres.start();
const figures = [];
let missed = false;
/** The level's two replicas, stopped and their output shown if the run fails. */
const replicas = [];
try {
  for (const n of LEVELS) {
    const url = server.createDatabase(`bench_${n}_${process.pid}`);
    const a = await startReplica(server.dir, url);
    const b = await startReplica(server.dir, url);
    replicas.splice(0, replicas.length, a, b);
    // Machines registered straight in the database (joining is not what is measured); the
    // replicas migrated it.
    const pool = new pg.Pool({ connectionString: url });
    const db = { query: async (text, params) => (await pool.query(text, params)).rows };
    const machines = [];
    for (let i = 0; i < n; i++) {
      const pair = generateEd25519();
      const machineId = randomUUID();
      await registerMachine(db, {
        machineId,
        name: `m${i}`,
        publicKey: pair.publicKey,
        now: Date.now(),
      });
      machines.push({ machineId, name: `m${i}`, key: pair.privateKeyPem });
    }
    await pool.end();
    const person = await fetch(`${b.url}/api/admin/people`, {
      method: 'POST',
      headers: { authorization: `Bearer ${a.token}`, 'content-type': 'application/json' },
      // A personal token for the API (without `token`, the hub makes a sign-in link).
      body: JSON.stringify({ name: 'ann', role: 'approver', token: true }),
    }).then((r) => r.json());
    const pgPids = postgresPids(server.dataDir);
    const cpu0 = {
      a: cpuOf(a.proc.pid),
      b: cpuOf(b.proc.pid),
      pg: pgPids.reduce((s, p) => s + cpuOf(p), 0),
    };

    const rss0 = rssMb(a.proc.pid) + rssMb(b.proc.pid);
    const received = new Map();
    const linkStart = performance.now();
    const clients = await Promise.all(
      machines.map((m, i) =>
        machineClient(m, i % 2 === 0 ? a.url : b.url, (requestId) =>
          received.get(requestId)?.(performance.now()),
        ),
      ),
    );
    const linkMs = performance.now() - linkStart;

    const filed = [];
    const fileStart = performance.now();
    await Promise.all(
      clients.map(async (c, i) => {
        for (let r = 0; r < ROUNDS; r++) {
          const requestId = `r-${i}-${r}`;
          await c.publish(requestId);
          filed.push({ machine: machines[i].name, requestId });
        }
      }),
    );
    const fileMs = performance.now() - fileStart;

    // Decisions on replica B, a few at a time, across machines linked to A and to B.
    const sample = [];
    for (let i = 0; i < Math.min(DECISIONS, filed.length); i++)
      sample.push(filed[Math.floor((i * filed.length) / Math.min(DECISIONS, filed.length))]);
    const latencies = [];
    let next = 0;
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        while (next < sample.length) {
          const f = sample[next++];
          const start = performance.now();
          const got = new Promise((resolve) => received.set(f.requestId, resolve));
          const res = await fetch(`${b.url}/api/decide`, {
            method: 'POST',
            headers: {
              authorization: `Bearer ${person.token}`,
              'content-type': 'application/json',
            },
            body: JSON.stringify({
              machine: f.machine,
              requestId: f.requestId,
              decision: 'approve',
            }),
          });
          if (res.status !== 200)
            throw new Error(`decide answered ${res.status}: ${await res.text()}`);
          latencies.push((await got) - start);
        }
      }),
    );
    latencies.sort((x, y) => x - y);
    const cpu = {
      a: cpuOf(a.proc.pid) - cpu0.a,
      b: cpuOf(b.proc.pid) - cpu0.b,
      pg: pgPids.reduce((s, p) => s + cpuOf(p), 0) - cpu0.pg,
    };
    const rss = rssMb(a.proc.pid) + rssMb(b.proc.pid);
    const p99 = percentile(latencies, 0.99);
    const row = {
      machines: n,
      'link all (ms)': Math.round(linkMs),
      'filings/s': Math.round((n * ROUNDS) / (fileMs / 1000)),
      'decision p50 (ms)': +percentile(latencies, 0.5).toFixed(1),
      'decision p99 (ms)': +p99.toFixed(1),
      'hub CPU (s)': +(cpu.a + cpu.b).toFixed(2),
      'hub RSS per machine (KiB)': Math.round(((rss - rss0) * 1024) / n),
      'hub RSS (MiB, 2 replicas)': Math.round(rss),
      'PostgreSQL CPU share': `${Math.round((100 * cpu.pg) / (cpu.pg + cpu.a + cpu.b))}%`,
    };
    figures.push(row);
    console.log(
      `${n} machines: ${row['filings/s']} filings/s, decision p50 ${row['decision p50 (ms)']} ms p99 ${row['decision p99 (ms)']} ms, hub CPU ${row['hub CPU (s)']} s, RSS ${row['hub RSS (MiB, 2 replicas)']} MiB, PostgreSQL ${row['PostgreSQL CPU share']} of the CPU`,
    );
    if (n >= 1000 && p99 >= TARGET_P99_MS) missed = true;
    for (const c of clients) c.ws.terminate();
    for (const r of [a, b]) {
      const exited = new Promise((resolve) => r.proc.once('exit', resolve));
      r.proc.kill('SIGTERM');
      await exited;
    }
  }
  console.table(figures);
  console.log(`target: decision p99 < ${TARGET_P99_MS} ms at 1,000 machines`);
} catch (error) {
  console.error(String(error));
  for (const r of replicas) console.error(`replica output (tail):\n${r.output().slice(-2000)}`);
  process.exitCode = 1;
} finally {
  for (const r of replicas) r.proc.kill('SIGTERM');
  server.stop();
}
settleTargets(missed);
