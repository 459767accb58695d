// Closed-loop load over Unix sockets: each connection keeps one call in flight.
import { connect } from 'node:net';

/** The protocol's -32004 (docs/protocol.md). */
const RATE_LIMITED = -32004;

/** Opens `n` NDJSON connections to `path`. */
export async function openConnections(path, n) {
  const conns = [];
  for (let i = 0; i < n; i++) {
    conns.push(
      await new Promise((resolve, reject) => {
        const s = connect(path);
        s.once('connect', () => resolve(s));
        s.once('error', reject);
      }),
    );
  }
  return conns.map((socket) => {
    let buffer = '';
    let nextId = 1;
    const pending = new Map();
    socket.setEncoding('utf8');
    socket.on('data', (d) => {
      buffer += d;
      let nl;
      while ((nl = buffer.indexOf('\n')) !== -1) {
        const line = buffer.slice(0, nl);
        buffer = buffer.slice(nl + 1);
        const msg = JSON.parse(line);
        const p = pending.get(msg.id);
        if (p) {
          pending.delete(msg.id);
          if (msg.error) p.reject(Object.assign(new Error(msg.error.message), msg.error));
          else p.resolve(msg.result);
        }
      }
    });
    const send = (method, params) => {
      const id = nextId++;
      return new Promise((resolve, reject) => {
        pending.set(id, { resolve, reject });
        socket.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`);
      });
    };
    const conn = {
      /** Calls refused by the connection's rate limit and sent again after the wait named. */
      rateLimited: 0,
      /**
       * One call, as a well-behaved agent makes it: a refusal of the per-connection rate
       * limit (-32004 with data.retryAfterMs) is waited out and the call sent again, so a
       * fast machine that passes the limit slows the agent down instead of crashing the bench.
       */
      async call(method, params) {
        for (;;) {
          try {
            return await send(method, params);
          } catch (error) {
            const waitMs = error.code === RATE_LIMITED ? error.data?.retryAfterMs : undefined;
            if (typeof waitMs !== 'number') throw error;
            conn.rateLimited++;
            await new Promise((r) => setTimeout(r, Math.min(Math.max(1, waitMs), 1000)));
          }
        }
      },
      close: () => socket.destroy(),
    };
    return conn;
  });
}

const pct = (sorted, p) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

/**
 * Runs `makeCall(conn)` on every connection in a closed loop for `ms` milliseconds after a
 * warm-up, returning requests per second and latency percentiles in milliseconds.
 */
export async function measure(conns, makeCall, { ms = 2000, warmupMs = 300 } = {}) {
  const run = async (durationMs, record) => {
    const latencies = [];
    const end = performance.now() + durationMs;
    await Promise.all(
      conns.map(async (c) => {
        while (performance.now() < end) {
          const t0 = performance.now();
          await makeCall(c);
          if (record) latencies.push(performance.now() - t0);
        }
      }),
    );
    return latencies;
  };
  await run(warmupMs, false);
  const t0 = performance.now();
  const latencies = await run(ms, true);
  const elapsed = (performance.now() - t0) / 1000;
  latencies.sort((a, b) => a - b);
  return {
    rps: latencies.length / elapsed,
    p50: pct(latencies, 50),
    p99: pct(latencies, 99),
    count: latencies.length,
  };
}

/**
 * Keeps `depth` calls in flight on every connection for `ms` (after `warmupMs`); returns the
 * calls answered on each connection in the measured window, in connection order.
 */
export async function measurePerConnection(conns, makeCall, { depth, ms, warmupMs = 0 }) {
  const counts = conns.map(() => 0);
  let recording = false;
  let stopped = false;
  const lanes = conns.flatMap((c, i) =>
    Array.from({ length: depth }, async () => {
      while (!stopped) {
        await makeCall(c);
        if (recording && !stopped) counts[i]++;
      }
    }),
  );
  await new Promise((r) => setTimeout(r, warmupMs));
  recording = true;
  await new Promise((r) => setTimeout(r, ms));
  stopped = true;
  await Promise.all(lanes);
  return counts;
}
