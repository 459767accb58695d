// A bare NDJSON echo server: the baseline for what the socket alone costs. Run as a child
// process so that it, like the daemon, does not share a thread with the load generator.
// With a second argument it spins that many microseconds per call before answering: a
// server that does nothing but burn a known CPU time per call, to calibrate latencies.
import { createServer } from 'node:net';
import { unlinkSync } from 'node:fs';

const path = process.argv[2];
const workMs = Number(process.argv[3] ?? 0) / 1000;
try {
  unlinkSync(path);
} catch {
  // no stale socket to remove
}
createServer((socket) => {
  let buffer = '';
  socket.setEncoding('utf8');
  socket.on('data', (d) => {
    buffer += d;
    let nl;
    let out = '';
    while ((nl = buffer.indexOf('\n')) !== -1) {
      const line = buffer.slice(0, nl);
      buffer = buffer.slice(nl + 1);
      // Answer with the request's id, as a JSON-RPC server would, without any work.
      const id = JSON.parse(line).id;
      if (workMs > 0) for (const end = performance.now() + workMs; performance.now() < end;);
      out += `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":${line}}\n`;
    }
    if (out) socket.write(out);
  });
  socket.on('error', () => {});
}).listen(path, () => console.log('echo: ready'));
