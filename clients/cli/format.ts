import { formatLocalTime } from '../../shared/time-format';
import { contextFacts } from '../../shared/context-facts';
import { agentPresence } from '../../shared/agent-presence';
import type { RequestRecord, SessionRecord } from '../../shared/domain';
import type { Envelope } from '../../shared/protocol/admin-methods';
import { pictureLines } from '../../shared/request-picture/picture-text';
import type { InferredUrgency } from '../../shared/request-picture/inferred-urgency';

/** How long ago, as "42s", "5m", "3h", "2d". */
export function age(isoTime: string, now = Date.now()): string {
  const s = Math.max(0, Math.round((now - Date.parse(isoTime)) / 1000));
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.round(s / 60)}m`;
  if (s < 86400) return `${Math.round(s / 3600)}h`;
  return `${Math.round(s / 86400)}d`;
}

/** How long ago, in words: "just now", "42 s ago", "3 min ago", "5 h ago", "2 days ago". */
export function ago(isoTime: string, now = Date.now()): string {
  const s = Math.max(0, Math.round((now - Date.parse(isoTime)) / 1000));
  if (s < 5) return 'just now';
  if (s < 60) return `${s} s ago`;
  if (s < 3600) return `${Math.floor(s / 60)} min ago`;
  if (s < 86400) return `${Math.floor(s / 3600)} h ago`;
  const days = Math.floor(s / 86400);
  return `${days} day${days === 1 ? '' : 's'} ago`;
}

/** A time in the local zone, as every surface writes it (shared/time-format.ts). */
export const localTime = formatLocalTime;

/**
 * One line saying what a decision granted: the scope, the envelope that also covers the same
 * action later (whichever limit ends first), and the conditions the agent was given.
 */
export function decisionLine(r: RequestRecord, envelope?: Envelope): string {
  if (r.status !== 'approved') return `${r.requestId}: ${r.status}`;
  let line = `${r.requestId}: approved (${r.scope ?? 'once'})`;
  const limits = [
    envelope?.minutes !== undefined ? `${envelope.minutes} min` : '',
    envelope?.uses !== undefined
      ? `${envelope.uses} more use${envelope.uses === 1 ? '' : 's'}`
      : '',
    envelope?.maxSpendUsd !== undefined ? `$${envelope.maxSpendUsd.toFixed(2)} of spend` : '',
  ].filter(Boolean);
  if (limits.length)
    line += `; the same ${r.action} is also allowed for ${limits.join(' or ')}${limits.length > 1 ? ', whichever ends first' : ''}`;
  if (r.conditions?.length) line += `; on condition: ${r.conditions.join('; ')}`;
  if (r.message) line += `; message: ${r.message}`;
  return line;
}

/** A plain text table with columns padded to their widest cell. */
export function table(headers: string[], rows: string[][]): string {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) =>
    cells.map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i]!))).join('  ');
  return [line(headers), ...rows.map(line)].join('\n');
}

export const clip = (s: string, n: number): string => (s.length > n ? `${s.slice(0, n - 1)}…` : s);

/** The requests as a table; with `machineOf` (a hub's team queue) a MACHINE column too. */
export function requestsTable(
  requests: RequestRecord[],
  machineOf?: (requestId: string) => string | undefined,
): string {
  if (!requests.length) return 'No requests.';
  const machine = (r: RequestRecord): string[] => (machineOf ? [machineOf(r.requestId) ?? ''] : []);
  return table(
    [
      'ID',
      'STATUS',
      'AGE',
      'URGENCY',
      'RISK',
      ...(machineOf ? ['MACHINE'] : []),
      'AGENT',
      'ACTION',
      'DESCRIPTION',
    ],
    requests.map((r) => [
      r.requestId,
      r.status,
      age(r.createdAt),
      r.urgency,
      riskLabel(r),
      ...machine(r),
      `${r.agent}${agentMark(r)}`,
      r.action,
      clip(r.description, 60),
    ]),
  );
}

/** " (killed)", " (paused)" or " (gone)": why the agent will not act on an answer now. */
const agentMark = (r: RequestRecord): string => {
  const presence = agentPresence(r);
  return presence ? ` (${presence})` : '';
};

/** The agent's state in words, for `show`. */
function agentFacts(r: RequestRecord): string {
  const facts: string[] = [];
  if (r.agentState === 'killed') facts.push('killed by a human');
  if (r.agentState === 'paused') facts.push('paused by a human: approving waits for a resume');
  if (r.agentConnected === true) facts.push('connected');
  if (r.agentConnected === false) facts.push('not connected');
  return facts.length ? ` (${facts.join('; ')})` : '';
}

/** Critical in capitals, so a request that touches Gatehouse's own files stands out. */
const riskLabel = (r: RequestRecord): string =>
  r.risk === 'critical' ? 'CRITICAL' : (r.risk ?? '');

/**
 * One request in full for `show` and `review`. `inferred` is the urgency Gatehouse inferred
 * for it (shared/request-picture/inferred-urgency.ts), shown with its reasons; `machine` the
 * machine it asked on, when it comes from a hub.
 */
export function requestDetails(
  r: RequestRecord,
  o: { inferred?: InferredUrgency | undefined; machine?: string | undefined } = {},
): string {
  const { inferred, machine } = o;
  const urgency = inferred
    ? `${inferred.urgency} urgency (inferred: ${inferred.reasons.join('; ')})`
    : `${r.urgency} urgency`;
  const lines = [
    `${r.requestId}  ${r.status}  (${urgency}, filed ${localTime(r.createdAt)}, ${ago(r.createdAt)})`,
    ...(machine ? [`Machine:     ${machine}`] : []),
    `Agent:       ${r.agent}${r.project ? ` in ${r.project}` : ''}${agentFacts(r)}`,
    `Action:      ${r.action}${r.target ? ` → ${r.target}` : ''}`,
    `Wants to:    ${r.description}`,
  ];
  if (r.risk) lines.push(`Risk:        ${riskLabel(r)}`);
  if (r.rationale) lines.push(`Why:         ${r.rationale}`);
  if (r.command) lines.push(`Command:     ${r.command}`);
  if (r.paths?.length) lines.push(`Files:       ${r.paths.join(', ')}`);
  lines.push(`Asked by:    ${r.rule} (${r.ruleReason})`);
  if (r.context) lines.push(...contextLines(r.context));
  if (r.decidedBy)
    lines.push(
      `Decided by:  ${r.decidedBy}${r.scope ? ` (${r.scope})` : ''}${r.decidedVia ? ` via ${r.decidedVia}` : ''}${r.reason ? `: ${r.reason}` : ''}${r.message ? `: ${r.message}` : ''}`,
    );
  if (r.picture) lines.push(...pictureLines(r.picture));
  return lines.join('\n');
}

export function sessionsTable(sessions: SessionRecord[]): string {
  if (!sessions.length) return 'No sessions.';
  return table(
    ['SESSION', 'AGENT', 'STATUS', 'STARTED', 'COST', 'PROJECT'],
    sessions.map((s) => [
      s.sessionId,
      s.agent,
      s.status,
      `${age(s.startedAt)} ago`,
      `$${s.costUsd.toFixed(4)}`,
      s.project ?? '',
    ]),
  );
}

/**
 * A request's context as labelled lines, one per key, instead of one line of JSON. The whole
 * raw context is one `--json` away.
 */
function contextLines(context: Record<string, unknown>): string[] {
  const lines = contextFacts(context).map(
    (f) => `${`${f.label}:`.padEnd(12)} ${clip(f.text, 200)}`,
  );
  if (lines.length) lines.push('(the raw context: add --json)');
  return lines;
}
