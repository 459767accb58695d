import { ConnectionError } from '../sdk/rpc-client';
import { resolveSocketPath } from '../../shared/node/socket-path';
import { runDemoAgent, type DemoAgentResult } from './demo-agent';

export interface DemoOptions {
  agents: number;
  waitMs: number;
  project?: string;
  print?: (line: string) => void;
}

const MAX_AGENTS = 50;

/**
 * `gatehouse demo`: runs N simulated agents at once against the running Gatehouse and says
 * how to decide what they left in the queue. Returns the exit code.
 */
export async function runDemo(o: DemoOptions): Promise<number> {
  const print = o.print ?? ((line: string) => console.log(line));
  const n = Number.isInteger(o.agents) ? o.agents : NaN;
  if (!(n >= 1 && n <= MAX_AGENTS)) {
    console.error(`gatehouse: --agents must be a whole number from 1 to ${MAX_AGENTS}`);
    return 4;
  }
  const waitMs = Number.isFinite(o.waitMs) && o.waitMs >= 0 ? o.waitMs : 1500;
  const stamp = Date.now().toString(36);
  const socketPath = resolveSocketPath();
  print(`Gatehouse demo: ${n} simulated agent${n === 1 ? '' : 's'} on ${socketPath}`);
  const results = await Promise.allSettled(
    Array.from({ length: n }, (_, i) =>
      runDemoAgent({
        agent: n === 1 ? 'demo-agent' : `demo-agent-${i + 1}`,
        sessionKey: `demo-${stamp}-${i + 1}`,
        project: o.project ?? process.cwd(),
        waitMs,
        socketPath,
        print,
      }),
    ),
  );
  const failed = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failed.length) {
    const first = failed[0]!.reason;
    if (first instanceof ConnectionError) {
      console.error(
        `gatehouse: ${first.message}. Start it with \`gatehouse daemon\` (or \`npm start\`) and run the demo again.`,
      );
      return 2;
    }
    for (const f of failed)
      console.error(
        `gatehouse: a demo agent failed: ${f.reason instanceof Error ? f.reason.message : String(f.reason)}`,
      );
  }
  const done = results
    .filter((r): r is PromiseFulfilledResult<DemoAgentResult> => r.status === 'fulfilled')
    .map((r) => r.value);
  printNextSteps(done, print);
  return failed.length ? 1 : 0;
}

function printNextSteps(done: DemoAgentResult[], print: (line: string) => void): void {
  const pending = done.flatMap((d) => d.pending.map((p) => ({ ...p, agent: d.agent })));
  const tripped = done.filter((d) => d.breaker).length;
  print('');
  print(
    `Demo finished: ${done.length} session${done.length === 1 ? '' : 's'} ended, ${tripped} stopped by a breaker, ${pending.length} request${pending.length === 1 ? '' : 's'} waiting for you.`,
  );
  for (const p of pending)
    print(
      `  ${p.requestId}  ${p.action.padEnd(10)} ${p.agent} (${p.status})  →  gatehouse approve ${p.requestId}   or   gatehouse deny ${p.requestId} --reason "…"`,
    );
  if (pending.length)
    print(
      'Or decide them one by one with `gatehouse review`; `gatehouse sessions` lists the sessions and `gatehouse summary ID` shows one.',
    );
}
