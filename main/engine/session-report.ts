import type {
  AuditEvent,
  RequestRecord,
  SessionRecord,
  SessionSummary,
  TranscriptEntry,
} from '../../shared/domain';

/** Everything a session report is written from; all of it comes from the store. */
export interface SessionReportInput {
  session: SessionRecord;
  summary?: SessionSummary;
  transcript: readonly TranscriptEntry[];
  requests: readonly RequestRecord[];
  /** The session's audit entries (breaker trips, mode changes, decisions), oldest first. */
  audit: readonly AuditEvent[];
  /** When the report is written (an ISO time), for "still waiting since". */
  now: string;
}

/** The longest timeline a report prints; the rest is counted, not listed. */
const MAX_TIMELINE = 200;

const usd = (n: number): string => `$${n.toFixed(n < 1 ? 4 : 2)}`;
/**
 * Markdown-safe inline text: one line, no table or emphasis breakage. Underscores stay as
 * they are: inside words (`git_push`) they never start emphasis in CommonMark.
 */
const inline = (s: string, max = 300): string => {
  const one = s
    .replace(/\s+/g, ' ')
    .replace(/\|/g, '\\|')
    .replace(/([*`[\]])/g, '\\$1');
  return one.length > max ? `${one.slice(0, max - 1)}…` : one;
};
const code = (s: string): string =>
  `\`${s.replace(/`/g, "'").replace(/\s+/g, ' ').slice(0, 300)}\``;
const time = (iso: string): string => iso.replace('T', ' ').replace(/\.\d+Z$/, 'Z');

/**
 * A session's report in Markdown (the Safeloop seed's report and handoff manifest): goal and
 * agent, the timeline, every request with who decided what and why, breaker trips with their
 * evidence, spend by model, what is still waiting, and next steps for whoever picks the work
 * up. Pure: the same input always gives the same text.
 */
export function buildSessionReport(i: SessionReportInput): string {
  const s = i.session;
  const goal = typeof s.labels?.goal === 'string' ? s.labels.goal : undefined;
  const waiting = i.requests.filter((r) => r.status === 'pending' || r.status === 'timed_out');
  const trips = i.audit.filter((e) => e.type === 'guard.tripped');
  const modes = i.audit.filter((e) => e.type === 'mode.changed');
  const out: string[] = [];

  out.push(`# Session report: ${inline(s.agent)} (${s.sessionId})`, '');
  out.push(
    `- **Agent:** ${inline(s.agent)}`,
    `- **Goal:** ${goal ? inline(goal, 500) : 'not stated (an agent can give one as `labels.goal` in `hello`)'}`,
    ...(s.project ? [`- **Project:** ${code(s.project)}`] : []),
    `- **Status:** ${s.status}`,
    `- **Started:** ${time(s.startedAt)}${s.endedAt ? ` · **Ended:** ${time(s.endedAt)}` : ''}`,
    `- **Cost:** ${usd(s.costUsd)}${i.summary?.budgetRemainingPct === undefined ? '' : ` (${Math.round(i.summary.budgetRemainingPct)}% of the budget left)`}`,
    `- **Requests:** ${i.requests.length} (${count(i.requests, 'approved')} approved, ${count(i.requests, 'denied')} denied, ${waiting.length} waiting)`,
    '',
  );

  out.push('## Timeline', '');
  if (!i.transcript.length) out.push('Nothing was recorded.', '');
  else {
    for (const e of i.transcript.slice(0, MAX_TIMELINE))
      out.push(`- ${time(e.at)} · ${e.kind} · ${inline(e.text)}`);
    if (i.transcript.length > MAX_TIMELINE)
      out.push(
        `- … ${i.transcript.length - MAX_TIMELINE} more entries (see \`gatehouse summary --json --all\`)`,
      );
    out.push('');
  }

  out.push('## Requests', '');
  if (!i.requests.length) out.push('The agent asked for nothing.', '');
  else {
    out.push('| asked | action | what | tier (rule) | outcome | decided by | why |');
    out.push('| --- | --- | --- | --- | --- | --- | --- |');
    for (const r of i.requests) out.push(requestRow(r));
    out.push('');
  }

  out.push('## Breaker trips', '');
  if (!trips.length && !modes.length) out.push('No breaker tripped.', '');
  else {
    for (const e of trips) out.push(tripLine(e));
    for (const e of modes) {
      const d = e.data ?? {};
      out.push(`- ${time(e.at)} · mode changed to **${str(d.mode)}**: ${inline(str(d.reason))}`);
    }
    out.push('');
  }

  out.push('## Spend by model', '');
  const byModel = spendByModel(i.transcript);
  if (!byModel.length) out.push('No model usage was reported.', '');
  else {
    out.push(
      '| model | calls | input tokens | output tokens | cost |',
      '| --- | --- | --- | --- | --- |',
    );
    for (const m of byModel)
      out.push(
        `| ${inline(m.model)} | ${m.calls} | ${m.input} | ${m.output} | ${usd(m.costUsd)} |`,
      );
    out.push('');
  }

  out.push('## Still waiting', '');
  if (!waiting.length) out.push('Nothing is waiting for a decision.', '');
  else {
    for (const r of waiting)
      out.push(
        `- \`${r.requestId}\` ${inline(r.description)} (${r.action}, ${r.status === 'timed_out' ? 'timed out, still in the queue' : 'pending'} since ${time(r.createdAt)}): \`gatehouse show ${r.requestId}\``,
      );
    out.push('');
  }

  out.push('## Next steps', '');
  for (const step of nextSteps(i, waiting, trips)) out.push(`- ${step}`);
  out.push('');
  return out.join('\n');
}

const count = (rs: readonly RequestRecord[], status: RequestRecord['status']): number =>
  rs.filter((r) => r.status === status).length;

const str = (v: unknown): string => (typeof v === 'string' ? v : v === undefined ? '' : String(v));

function requestRow(r: RequestRecord): string {
  const what = r.command ? code(r.command) : inline(r.description, 120);
  const why = [
    r.reason,
    r.message,
    r.conditions?.length ? `conditions: ${r.conditions.join('; ')}` : '',
  ]
    .filter(Boolean)
    .join(' — ');
  const by = r.decidedBy ? `${r.decidedBy}${r.scope ? ` (${r.scope})` : ''}` : '—';
  return `| ${time(r.createdAt)} | ${inline(r.action)} | ${what} | ${r.tier} (${inline(r.rule)}) | ${r.status} | ${by} | ${why ? inline(why, 200) : '—'} |`;
}

function tripLine(e: AuditEvent): string {
  const d = e.data ?? {};
  const evidence = d.evidence && typeof d.evidence === 'object' ? JSON.stringify(d.evidence) : '';
  const numbers =
    typeof d.current === 'number' && typeof d.threshold === 'number'
      ? ` (${d.current} of ${d.threshold})`
      : '';
  return `- ${time(e.at)} · **${inline(str(d.breaker))}** tripped: ${inline(str(d.reason) || 'no reason code')}${numbers}${d.suggestion ? ` — ${inline(str(d.suggestion))}` : ''}${evidence ? ` · evidence ${code(evidence)}` : ''}`;
}

interface ModelSpend {
  model: string;
  calls: number;
  input: number;
  output: number;
  costUsd: number;
}

/** Spend by model, from the usage entries of the transcript, most expensive first. */
function spendByModel(transcript: readonly TranscriptEntry[]): ModelSpend[] {
  const byModel = new Map<string, ModelSpend>();
  for (const e of transcript) {
    if (e.kind !== 'usage' || !e.data) continue;
    const model = str(e.data.model) || 'unknown';
    const m = byModel.get(model) ?? { model, calls: 0, input: 0, output: 0, costUsd: 0 };
    m.calls += 1;
    m.costUsd += typeof e.data.costUsd === 'number' ? e.data.costUsd : 0;
    const tokens = /(\d+) in, (\d+) out/.exec(e.text);
    if (tokens) {
      m.input += Number(tokens[1]);
      m.output += Number(tokens[2]);
    }
    byModel.set(model, m);
  }
  return [...byModel.values()].sort((a, b) => b.costUsd - a.costUsd);
}

function nextSteps(
  i: SessionReportInput,
  waiting: readonly RequestRecord[],
  trips: readonly AuditEvent[],
): string[] {
  const steps: string[] = [];
  if (waiting.length)
    steps.push(
      `Decide the ${waiting.length} waiting request${waiting.length === 1 ? '' : 's'} (\`gatehouse review\`), or tell the next agent not to expect ${waiting.length === 1 ? 'it' : 'them'}.`,
    );
  const denied = i.requests.filter((r) => r.status === 'denied');
  if (denied.length)
    steps.push(
      `Work around what was denied: ${denied.map((r) => `${inline(r.description, 80)}${r.reason ? ` (${inline(r.reason, 80)})` : ''}`).join('; ')}.`,
    );
  if (trips.length) {
    const breakers = [...new Set(trips.map((e) => str(e.data?.breaker)))].filter(Boolean);
    steps.push(
      `Find out why ${breakers.join(', ')} tripped before running again (\`gatehouse breakers\`).`,
    );
  }
  if (i.session.status === 'active')
    steps.push('The session is still running: this report is a snapshot.');
  else if (i.session.status !== 'completed')
    steps.push(
      `The session ended as ${i.session.status}: check its last entries above before picking the work up.`,
    );
  for (const item of i.summary?.needsReview ?? [])
    if (
      !item.startsWith('Awaiting decision') &&
      !item.startsWith('Timed out') &&
      !item.startsWith('Denied')
    )
      steps.push(inline(item));
  if (!steps.length)
    steps.push('Nothing is left open: the work can be picked up from the timeline.');
  return steps;
}
