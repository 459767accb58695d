// A concurrent agent on its own thread (its own event loop, as another process would be):
// files auto-approved `request`s in a closed loop on one socket connection and reports each
// call's latency. The parent posts { phase } to start a phase and { stop: true } to end it;
// the worker answers { phase, latencies } once the call in flight is answered.
import { parentPort, workerData } from 'node:worker_threads';
import { openConnections } from './socket-load.mjs';

const [agent] = await openConnections(workerData.socketPath, 1);
await agent.call('hello', { agent: 'bench-agent' });
let current;
let n = 0;
parentPort.on('message', (m) => {
  if (m.stop) current.stopped = true;
  else void run(m.phase);
});
parentPort.postMessage({ ready: true });

async function run(phase) {
  const state = { stopped: false };
  current = state;
  const latencies = [];
  while (!state.stopped) {
    const t0 = performance.now();
    const answer = await agent.call('request', {
      action: 'read_file',
      description: `read ${n++}`,
    });
    if (answer.status !== 'approved') throw new Error(`request answered ${answer.status}`);
    latencies.push(performance.now() - t0);
  }
  parentPort.postMessage({ phase, latencies });
  if (phase === 'last') {
    agent.close();
    parentPort.close();
  }
}
