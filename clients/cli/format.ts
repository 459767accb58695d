import type { RequestRecord, SessionRecord } from '../../shared/domain';

/** How long ago, as "42s", "5m", "3h", "2d". */
export function age(isoTime: string, now = Date.now()): string {
  const s = Math.max(0, Math.round((now - Date.parse(isoTime)) / 1000));
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.round(s / 60)}m`;
  if (s < 86400) return `${Math.round(s / 3600)}h`;
  return `${Math.round(s / 86400)}d`;
}

/** A plain text table with columns padded to their widest cell. */
export function table(headers: string[], rows: string[][]): string {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) =>
    cells.map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i]!))).join('  ');
  return [line(headers), ...rows.map(line)].join('\n');
}

const clip = (s: string, n: number): string => (s.length > n ? `${s.slice(0, n - 1)}…` : s);

export function requestsTable(requests: RequestRecord[]): string {
  if (!requests.length) return 'No requests.';
  return table(
    ['ID', 'STATUS', 'AGE', 'URGENCY', 'AGENT', 'ACTION', 'DESCRIPTION'],
    requests.map((r) => [
      r.requestId,
      r.status,
      age(r.createdAt),
      r.urgency,
      r.agent,
      r.action,
      clip(r.description, 60),
    ]),
  );
}

export function requestDetails(r: RequestRecord): string {
  const lines = [
    `${r.requestId}  ${r.status}  (${r.urgency} urgency, ${age(r.createdAt)} ago)`,
    `Agent:       ${r.agent}${r.project ? ` in ${r.project}` : ''}`,
    `Action:      ${r.action}${r.target ? ` → ${r.target}` : ''}`,
    `Wants to:    ${r.description}`,
  ];
  if (r.rationale) lines.push(`Why:         ${r.rationale}`);
  if (r.command) lines.push(`Command:     ${r.command}`);
  if (r.paths?.length) lines.push(`Files:       ${r.paths.join(', ')}`);
  lines.push(`Asked by:    ${r.rule} (${r.ruleReason})`);
  if (r.context) lines.push(`Context:     ${JSON.stringify(r.context)}`);
  if (r.decidedBy)
    lines.push(
      `Decided by:  ${r.decidedBy}${r.scope ? ` (${r.scope})` : ''}${r.reason ? `: ${r.reason}` : ''}${r.message ? `: ${r.message}` : ''}`,
    );
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
