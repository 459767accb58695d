import type { AgentResult } from '../../shared/protocol/method-map';
import type { Verdict } from '../../shared/domain';
import { GatehouseClient } from '../sdk/client';

export interface DemoAgentOptions {
  agent: string;
  sessionKey: string;
  project: string;
  /** How long the email request waits for a human before the agent moves on. */
  waitMs: number;
  /** Upper bound on loop turns while trying to trip a breaker. */
  maxIterations?: number;
  socketPath?: string;
  print: (line: string) => void;
}

export interface DemoAgentResult {
  agent: string;
  sessionId: string;
  /** Requests left for a human: the push (queued) and the email (unless someone was quick). */
  pending: { requestId: string; action: string; status: string }[];
  breaker?: Verdict;
  summary: AgentResult<'end'>['summary'];
}

const FILES = ['README.md', 'package.json', 'src/index.ts'];
const MODEL = 'claude-sonnet-4-5';

/**
 * One simulated agent session, no LLM: it reads files, runs tests, reports usage, asks to
 * push and to send an email, loops without progress until a breaker stops it, and ends its
 * session. Costs are explicit, so it works whether or not a price table is configured.
 */
export async function runDemoAgent(o: DemoAgentOptions): Promise<DemoAgentResult> {
  const say = (line: string) => o.print(`[${o.agent}] ${line}`);
  const gh = await GatehouseClient.connect({
    agent: o.agent,
    sessionKey: o.sessionKey,
    project: o.project,
    labels: { demo: true },
    ...(o.socketPath ? { socketPath: o.socketPath } : {}),
    // The demo runs beside a daemon it knows is up: a refused connection is an error to show.
    reconnect: false,
  });
  const sessionId = gh.sessionId ?? '';
  try {
    say(`session ${sessionId} opened (mode ${gh.hello?.mode ?? 'normal'})`);

    for (const file of FILES) {
      const c = await gh.classify({ action: 'read_file', paths: [file] });
      await gh.log({
        type: 'read_file',
        description: `Read ${file}`,
        tier: c.tier,
        details: { path: file },
      });
      say(`read ${file}: ${c.tier} (${c.rule})`);
    }
    const tests = await gh.classify({ action: 'run_tests', command: 'npm test' });
    await gh.log({
      type: 'run_tests',
      description: 'Ran the unit tests: 42 passed',
      tier: tests.tier,
      details: { passed: 42, failed: 0 },
    });
    say(`ran tests: ${tests.tier} (${tests.rule})`);

    const usage = await gh.usage({
      model: MODEL,
      inputTokens: 12_000,
      outputTokens: 1_800,
      costUsd: 0.063,
      phase: 'coding',
      operation: 'plan the fix',
    });
    say(
      `reported usage: $${usage.costUsd.toFixed(3)} (session $${usage.spent.session.toFixed(3)}, today $${usage.spent.day.toFixed(3)})`,
    );

    const pending: DemoAgentResult['pending'] = [];
    const push = await gh.request({
      action: 'git_push',
      target: 'origin fix/demo-flaky-test',
      command: 'git push origin fix/demo-flaky-test',
      description: 'Push branch fix/demo-flaky-test (2 commits) to origin',
      rationale: 'The flaky test is fixed and the suite passes locally.',
      urgency: 'normal',
      wait: false,
    });
    say(
      `asked to git_push: ${push.status}${push.requestId ? ` as ${push.requestId}` : ''}${push.reason ? ` (${push.reason})` : ''}`,
    );
    if (push.status === 'queued')
      pending.push({ requestId: push.requestId, action: 'git_push', status: push.status });

    say(`asked to send_email, waiting ${(o.waitMs / 1000).toFixed(1)} s for a human…`);
    const email = await gh.request({
      action: 'send_email',
      target: 'team@example.com',
      description: 'Email the team that the flaky test is fixed',
      rationale: 'They asked to hear when CI is green again.',
      urgency: 'low',
      wait: true,
      timeoutMs: Math.max(1, o.waitMs),
    });
    say(
      `send_email: ${email.status}${email.requestId ? ` (${email.requestId})` : ''}${email.status === 'timed_out' ? ': it stays in the queue, a late approval becomes a one-time grant' : ''}`,
    );
    if (email.status === 'timed_out' || email.status === 'queued')
      pending.push({ requestId: email.requestId, action: 'send_email', status: email.status });

    const breaker = await loopUntilStopped(gh, o.maxIterations ?? 20, say);

    // Stopped by Gatehouse is not done: the session ends as aborted, and says why.
    const { summary } = await gh.end(breaker ? 'aborted' : 'completed');
    say('session ended. Summary:');
    for (const line of summary.text.split('\n')) say(`  ${line}`);
    return {
      agent: o.agent,
      sessionId,
      pending,
      ...(breaker ? { breaker } : {}),
      summary,
    };
  } finally {
    gh.close();
  }
}

/**
 * A loop that makes no progress: `check` each turn until Gatehouse says stop. Only warnings
 * and the stop are printed; the transcript gets one line for the whole loop.
 */
async function loopUntilStopped(
  gh: GatehouseClient,
  max: number,
  say: (l: string) => void,
): Promise<Verdict | undefined> {
  say(`looping on a flaky test without progress; asking check before each attempt…`);
  for (let iteration = 1; iteration <= max; iteration++) {
    const r = await gh.check({ phase: 'coding', iteration, progress: false });
    const trip = r.verdicts.find((v) => v.tripped);
    if (!r.allowed) {
      say(
        `attempt ${iteration}: STOP — ${trip ? `${trip.breaker} breaker tripped (${trip.reason ?? 'no reason'}, ${trip.current}/${trip.threshold})${trip.suggestion ? `: ${trip.suggestion}` : ''}` : `mode ${r.mode}`}`,
      );
      await gh.log({
        type: 'stopped',
        description: stopDescription(trip, r.mode, iteration),
        tier: 'auto',
        details: { iteration, breaker: trip?.breaker, reason: trip?.reason },
      });
      return trip;
    }
    const warn = r.verdicts.find((v) => v.warning);
    if (warn)
      say(
        `attempt ${iteration}: warning ${warn.reason ?? warn.breaker} (${warn.current}/${warn.threshold})`,
      );
  }
  say(`check never said stop in ${max} attempts: the breakers are not enabled in this Gatehouse`);
  await gh.log({
    type: 'iteration',
    description: `Gave up after ${max} attempts without progress`,
    tier: 'auto',
    details: { iteration: max },
  });
  return undefined;
}

/** Why Gatehouse stopped the loop, in the words of its real cause. */
function stopDescription(trip: Verdict | undefined, mode: string, iteration: number): string {
  if (trip?.reason === 'AGENT_PAUSED')
    return `Stopped by Gatehouse: a person paused the agent (attempt ${iteration})`;
  if (trip?.reason === 'AGENT_KILLED')
    return `Stopped by Gatehouse: a person killed the agent (attempt ${iteration})`;
  if (trip)
    return `Stopped by Gatehouse: the ${trip.breaker} breaker tripped (${trip.reason ?? 'no reason code'}, ${trip.current} of ${trip.threshold}) after ${iteration} attempts without progress`;
  return `Stopped by Gatehouse in ${mode} mode (attempt ${iteration})`;
}
