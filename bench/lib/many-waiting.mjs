// The decision path with many agents waiting at once (the socket scale figure): `waiting`
// connections each say hello and wait in `request` for a person; then `sample` of them,
// spread over the queue, are decided one at a time through the admin service, each timed
// from the decision to its agent's answer; then the rest are decided as fast as the admin
// service takes them.
import { openConnections } from './socket-load.mjs';

export async function decideWithManyWaiting({ core, waiting, sample }) {
  const conns = await openConnections(core.socketPath, waiting);
  await Promise.all(conns.map((c, i) => c.call('hello', { agent: `waiter-${i % 50}` })));
  const ids = new Map();
  let allFiled;
  const filed = new Promise((r) => (allFiled = r));
  const unsubscribe = core.admin.subscribe((e) => {
    if (e.type !== 'request.created' || !e.request.description.startsWith('many ')) return;
    ids.set(Number(e.request.description.slice(5)), e.request.requestId);
    if (ids.size === waiting) allFiled();
  });
  const t0 = performance.now();
  const answers = conns.map((c, i) =>
    c
      .call('request', {
        action: 'deploy',
        description: `many ${i}`,
        urgency: 'normal',
        timeoutMs: 600_000,
      })
      .then((answer) => ({ answer, at: performance.now() })),
  );
  await filed;
  const filedMs = performance.now() - t0;
  const decide = (i) =>
    core.admin.invoke('decide', { requestId: ids.get(i), decision: 'approve', via: 'cli' });

  const step = Math.max(1, Math.floor(waiting / sample));
  const sampled = new Set();
  const latencies = [];
  for (let i = 0; i < waiting && latencies.length < sample; i += step) {
    sampled.add(i);
    const start = performance.now();
    await decide(i);
    const { answer, at } = await answers[i];
    if (answer.status !== 'approved') throw new Error(`expected approved, got ${answer.status}`);
    latencies.push(at - start);
  }
  const restStart = performance.now();
  let rest = 0;
  for (let i = 0; i < waiting; i++) {
    if (sampled.has(i)) continue;
    await decide(i);
    rest++;
  }
  const settled = await Promise.all(answers);
  const restMs = performance.now() - restStart;
  if (settled.some((s) => s.answer.status !== 'approved'))
    throw new Error('an agent was not approved');
  unsubscribe();
  conns.forEach((c) => c.close());
  return { latencies, filedMs, rest, restMs };
}
