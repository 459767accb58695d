import { formatLocalDateTime, localZoneName } from '../../../shared/time-format';
import {
  isWaitingForYou,
  type AuditEvent,
  type RequestRecord,
  type SessionRecord,
  type SessionSummary,
  type TranscriptEntry,
} from '../../../shared/domain';

/** Everything a session report is written from; all of it comes from the store. */
export interface SessionReportInput {
  session: SessionRecord;
  summary?: SessionSummary;
  /** The transcript from its start, oldest first (the first {@link MAX_TIMELINE} are shown). */
  transcript: readonly TranscriptEntry[];
  /** How many entries the transcript has in all; `transcript.length` when absent. */
  transcriptTotal?: number;
  /** The requests from the first, oldest first: all of them, or the first of `counts.total`. */
  requests: readonly RequestRecord[];
  /**
   * Figures of a long session, counted by the store: the lists above are then its start,
   * and these say what they leave out. Absent: everything is counted from the lists.
   */
  counts?: ReportCounts;
  /** The session's audit entries (breaker trips, mode changes, decisions), oldest first. */
  audit: readonly AuditEvent[];
  /** When the report is written (an ISO time), for "still waiting since". */
  now: string;
}

/** The first items of a list and how many it has in all. */
interface Counted {
  total: number;
  items: readonly RequestRecord[];
}

/** What a report says of a session it does not list whole. */
export interface ReportCounts {
  requests: number;
  approved: number;
  /** Denied requests: how many, and the first of them. */
  denied: Counted;
  /** Requests still waiting (pending or timed out): how many, and the first of them. */
  waiting: Counted;
  /** Spend by model over the whole transcript, most expensive first. */
  spend: readonly ModelSpend[];
}

/** The longest timeline a report prints; the rest is counted, not listed. */
export const MAX_TIMELINE = 200;
/** The most requests a report's table lists; the rest is counted, not listed. */
export const MAX_REPORT_REQUESTS = 500;
/** The most waiting or denied requests a report names. */
export const MAX_REPORT_NAMED = 100;

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
/**
 * A time as every surface writes it (shared/time-format.ts), in the machine's zone, with the
 * date always: a report is read on other days than the one it covers.
 */
const time = (iso: string): string =>
  `${formatLocalDateTime(iso)} ${localZoneName(Date.parse(iso))}`;

/**
 * A session's report in Markdown (the Safeloop seed's report and handoff manifest): goal and
 * agent, the timeline, every request with who decided what and why, breaker trips with their
 * evidence, spend by model, what is still waiting, and next steps for whoever picks the work
 * up. Pure: the same input always gives the same text.
 */
export function buildSessionReport(i: SessionReportInput): string {
  const s = i.session;
  const goal = typeof s.labels?.goal === 'string' ? s.labels.goal : undefined;
  const c = i.counts ?? countsOf(i);
  const waiting = c.waiting.items;
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
    `- **Requests:** ${c.requests} (${c.approved} approved, ${c.denied.total} denied, ${c.waiting.total} waiting)`,
    '',
  );

  out.push('## Timeline', '');
  if (!i.transcript.length) out.push('Nothing was recorded.', '');
  else {
    for (const e of i.transcript.slice(0, MAX_TIMELINE))
      out.push(`- ${time(e.at)} · ${e.kind} · ${inline(e.text)}`);
    const entries = i.transcriptTotal ?? i.transcript.length;
    if (entries > MAX_TIMELINE)
      out.push(
        `- … ${entries - MAX_TIMELINE} more entries (see \`gatehouse summary --json --all\`)`,
      );
    out.push('');
  }

  out.push('## Requests', '');
  if (!c.requests) out.push('The agent asked for nothing.', '');
  else {
    out.push('| asked | action | what | tier (rule) | outcome | decided by | why |');
    out.push('| --- | --- | --- | --- | --- | --- | --- |');
    const listedRequests = i.requests.slice(0, MAX_REPORT_REQUESTS);
    for (const r of listedRequests) out.push(requestRow(r));
    if (c.requests > listedRequests.length)
      out.push(
        '',
        `… and ${c.requests - listedRequests.length} more requests (see \`gatehouse summary --json --all\`).`,
      );
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
  const byModel = c.spend;
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
    if (c.waiting.total > waiting.length)
      out.push(`- … and ${c.waiting.total - waiting.length} more (\`gatehouse list\`)`);
    out.push('');
  }

  out.push('## Next steps', '');
  for (const step of nextSteps(i, c, trips)) out.push(`- ${step}`);
  out.push('');
  return out.join('\n');
}

const count = (rs: readonly RequestRecord[], status: RequestRecord['status']): number =>
  rs.filter((r) => r.status === status).length;

const first = (rs: RequestRecord[]): Counted => ({
  total: rs.length,
  items: rs.slice(0, MAX_REPORT_NAMED),
});

/** A report's figures from whole lists (a session given whole). */
function countsOf(i: SessionReportInput): ReportCounts {
  return {
    requests: i.requests.length,
    approved: count(i.requests, 'approved'),
    denied: first(i.requests.filter((r) => r.status === 'denied')),
    waiting: first(i.requests.filter((r) => isWaitingForYou(r.status))),
    spend: spendByModel(i.transcript),
  };
}

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

export interface ModelSpend {
  model: string;
  calls: number;
  input: number;
  output: number;
  costUsd: number;
}

/**
 * Spend by model, added up one usage entry of the transcript at a time (the store can hand
 * them over one by one, so a long transcript is never held whole).
 */
export function spendTally(): { add: (e: TranscriptEntry) => void; byModel: () => ModelSpend[] } {
  const byModel = new Map<string, ModelSpend>();
  return {
    add(e) {
      if (e.kind !== 'usage' || !e.data) return;
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
    },
    // Most expensive first.
    byModel: () => [...byModel.values()].sort((a, b) => b.costUsd - a.costUsd),
  };
}

/** Spend by model, from the usage entries of the transcript, most expensive first. */
function spendByModel(transcript: readonly TranscriptEntry[]): ModelSpend[] {
  const tally = spendTally();
  transcript.forEach(tally.add);
  return tally.byModel();
}

function nextSteps(i: SessionReportInput, c: ReportCounts, trips: readonly AuditEvent[]): string[] {
  const steps: string[] = [];
  const waiting = c.waiting.total;
  if (waiting)
    steps.push(
      `Decide the ${waiting} waiting request${waiting === 1 ? '' : 's'} (\`gatehouse review\`), or tell the next agent not to expect ${waiting === 1 ? 'it' : 'them'}.`,
    );
  const denied = c.denied.items;
  if (denied.length) {
    const more = c.denied.total - denied.length;
    steps.push(
      `Work around what was denied: ${denied.map((r) => `${inline(r.description, 80)}${r.reason ? ` (${inline(r.reason, 80)})` : ''}`).join('; ')}${more > 0 ? `; and ${more} more` : ''}.`,
    );
  }
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
