import { formatLocalTime } from '../../shared/time-format';
import type { RequestRecord, SessionRecord, SessionSummary, Verdict } from '../../shared/domain';
import { URGENCY_ORDER, type Urgency } from '../../shared/domain';
import { commandOnOneLine } from '../../shared/command-one-line';
import { agentBlocked } from '../../shared/queue-order';
import type { InferredUrgency } from '../../shared/request-picture/inferred-urgency';
import { maskSecrets, type MaskOptions } from '../../shared/request-picture/mask-secrets';
import { pictureDiffText, pictureSummary } from '../../shared/request-picture/picture-summary';
import type { DecideHint, NotificationItem } from './types';
import { visibleText } from '../../shared/visible-text';

/** Builds the link to a request on the dashboard; no secret in it, since it may leave the machine. */
export type RequestUrl = (requestId: string) => string | undefined;

const MAX_FIELD = 400;
/** The most of a command, or a target, a notification shows; longer, it is cut. */
const RUNS_SHOWN = 200;

/**
 * Agents write these fields; a notification shows them on one line each, trimmed. A
 * notification leaves the machine (ntfy, email, chat, the hub), so what looks like a secret
 * in a command or a description is masked, before trimming so no cut token shows its tail.
 * A character the OS or a chat app would act on instead of showing (a bidirectional override
 * that reverses the end of a command, a zero-width space) is written as `⟨U+202E⟩`
 * (shared/visible-text.ts), before whitespace is flattened, which would otherwise turn a
 * line separator into a plain space.
 */
const clip = (text: string, max = MAX_FIELD, options?: MaskOptions): string => {
  const flat = oneLine(text, options);
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
};

/**
 * The text on one line, masked and made visible. In a command each line break shows as ` ⏎ `:
 * it separates two commands, and a space would make `echo hi` and `rm -rf ~` on two lines read
 * as one harmless `echo hi rm -rf ~`.
 */
function oneLine(text: string, options?: MaskOptions): string {
  const visible = visibleText(maskSecrets(text, options));
  return (options?.shell ? commandOnOneLine(visible) : visible).replace(/\s+/g, ' ').trim();
}

/**
 * Whether a notification shows what the request runs whole: its command and its target, each
 * within what a notification shows. When not, no channel offers Approve on it (a person would
 * approve a tail they were never shown); Deny and the link to the whole request stay.
 */
export function runsShownWhole(request: Pick<RequestRecord, 'command' | 'target'>): boolean {
  const fits = (text: string | undefined, options?: MaskOptions) =>
    text === undefined || oneLine(text, options).length <= RUNS_SHOWN;
  return fits(request.command, { shell: true }) && fits(request.target);
}

export function decideHint(requestId: string, requestUrl?: RequestUrl): DecideHint {
  const url = requestUrl?.(requestId);
  return {
    approve: `gatehouse approve ${requestId}`,
    deny: `gatehouse deny ${requestId} --reason "…"`,
    ...(url ? { url } : {}),
  };
}

function requestLines(
  request: RequestRecord,
  hint: DecideHint,
  change?: string,
  inferred?: InferredUrgency,
): string[] {
  const lines = [`Wants to: ${clip(request.description)} (${clip(request.action, 64)})`];
  if (request.rationale) lines.push(`Why: ${clip(request.rationale)}`);
  if (request.command) lines.push(`Command: ${clip(request.command, RUNS_SHOWN, { shell: true })}`);
  else if (request.target) lines.push(`Target: ${clip(request.target, RUNS_SHOWN)}`);
  if (change) lines.push(`Changes: ${change}`);
  if (request.paths?.length) lines.push(`Files: ${clip(request.paths.join(', '), 200)}`);
  lines.push(
    inferred
      ? `Urgency: ${inferred.urgency} (inferred: ${inferred.reasons.join('; ')})`
      : `Urgency: ${request.urgency}`,
  );
  if (request.risk) lines.push(`Risk: ${request.risk} (${clip(request.ruleReason, 200)})`);
  lines.push(`Decide: ${hint.approve} | ${hint.deny}${hint.url ? ` | ${hint.url}` : ''}`);
  return lines;
}

const requestItem = (
  kind: 'request' | 'reminder' | 'escalation',
  request: RequestRecord,
  at: string,
  urgency: Urgency,
  titlePrefix: string,
  requestUrl?: RequestUrl,
  firstLine?: string,
  inferred?: InferredUrgency,
): NotificationItem => {
  const hint = decideHint(request.requestId, requestUrl);
  // The picture arrives after filing; the dispatcher waits a moment for it (or a reminder
  // reads it with the request).
  const picture = request.picture;
  // The summary names files and the diff holds their lines, both written by the agent.
  const summary = picture ? pictureSummary(picture) : undefined;
  const change = summary === undefined ? undefined : visibleText(summary);
  const diff = picture ? pictureDiffText(picture) : undefined;
  const lines = requestLines(request, hint, change, inferred);
  return {
    kind,
    urgency:
      inferred && URGENCY_ORDER.indexOf(inferred.urgency) > URGENCY_ORDER.indexOf(urgency)
        ? inferred.urgency
        : urgency,
    title: `${request.risk === 'critical' ? '[CRITICAL] ' : ''}${titlePrefix}${clip(request.agent, 64)} wants to ${clip(request.action, 64)}`,
    body: (firstLine ? [firstLine, ...lines] : lines).join('\n'),
    at,
    requestId: request.requestId,
    blocked: agentBlocked(request),
    sessionId: request.sessionId,
    agent: visibleText(request.agent),
    facts: {
      what: clip(request.description, 200),
      action: clip(request.action, 64),
      ...(request.rationale ? { why: clip(request.rationale, 200) } : {}),
      ...(request.command ? { command: clip(request.command, RUNS_SHOWN, { shell: true }) } : {}),
      ...(request.target ? { target: clip(request.target, RUNS_SHOWN) } : {}),
      ...(change ? { change } : {}),
    },
    ...(diff ? { diff: visibleText(diff) } : {}),
    ...(request.project ? { project: visibleText(request.project) } : {}),
    ...(request.risk ? { risk: request.risk } : {}),
    decide: hint,
    ...(runsShownWhole(request) ? {} : { cut: true as const }),
  };
};

/** A new request waiting for a human. */
export const newRequestItem = (
  request: RequestRecord,
  requestUrl?: RequestUrl,
  inferred?: InferredUrgency,
): NotificationItem =>
  requestItem(
    'request',
    request,
    request.createdAt,
    request.urgency,
    '',
    requestUrl,
    undefined,
    inferred,
  );

/** A request still undecided after the reminder delay. */
export const reminderItem = (
  request: RequestRecord,
  at: string,
  requestUrl?: RequestUrl,
  inferred?: InferredUrgency,
): NotificationItem =>
  requestItem(
    'reminder',
    request,
    at,
    request.urgency,
    'Still waiting: ',
    requestUrl,
    `Filed ${formatLocalTime(request.createdAt)}, still undecided.`,
    inferred,
  );

/** A waiting agent gave up; the request stays in the queue and a later approval is a grant. */
export const escalationItem = (
  request: RequestRecord,
  at: string,
  urgency: Urgency,
  requestUrl?: RequestUrl,
): NotificationItem =>
  requestItem(
    'escalation',
    request,
    at,
    urgency,
    'Timed out: ',
    requestUrl,
    'The agent stopped waiting; approving now grants this exact action once.',
  );

/** How much of a session's summary text a notification shows; longer ones attach the report. */
export const SUMMARY_SHOWN_CHARS = 1000;

export const sessionSummaryItem = (
  session: SessionRecord,
  summary: SessionSummary,
  urgency: Urgency,
): NotificationItem => {
  const lines = [clip(summary.text, SUMMARY_SHOWN_CHARS)];
  if (summary.needsReview.length)
    lines.push(`Needs review: ${clip(summary.needsReview.join('; '))}`);
  lines.push(`Cost: $${summary.costUsd.toFixed(2)} · see: gatehouse summary ${session.sessionId}`);
  return {
    kind: 'session_summary',
    urgency,
    title: `${clip(session.agent, 64)} finished (${session.status})`,
    body: lines.join('\n'),
    at: summary.endedAt,
    sessionId: session.sessionId,
    agent: visibleText(session.agent),
  };
};

export const breakerTripItem = (
  verdict: Verdict,
  at: string,
  urgency: Urgency,
  agent?: string,
  sessionId?: string,
): NotificationItem => {
  const who = agent ? clip(agent, 64) : 'An agent';
  const lines = [
    `Breaker ${verdict.breaker} is ${verdict.state}${verdict.reason ? ` (${verdict.reason})` : ''}: ${verdict.current} of ${verdict.threshold}.`,
  ];
  if (verdict.suggestion) lines.push(`Suggestion: ${clip(verdict.suggestion)}`);
  lines.push('Urgency: ' + urgency);
  lines.push('Decide: gatehouse status | gatehouse resume' + (agent ? ` ${clip(agent, 64)}` : ''));
  return {
    kind: 'breaker_trip',
    urgency,
    title: `${who} was stopped by the ${verdict.breaker} breaker`,
    body: lines.join('\n'),
    at,
    ...(agent ? { agent: visibleText(agent) } : {}),
    ...(sessionId ? { sessionId } : {}),
  };
};

/**
 * A project policy file that would allow actions without asking was used while not trusted
 * (never trusted, or edited since). Told once per content; until trusted only its
 * restrictions apply.
 */
export const policyUntrustedItem = (
  e: { project: string; file: string; trust: 'untrusted' | 'edited'; allows: string[] },
  at: string,
  agent?: string,
  sessionId?: string,
): NotificationItem => {
  const lines = [
    e.trust === 'edited'
      ? `${clip(e.file, 200)} was edited since you trusted it.`
      : `${clip(e.file, 200)} is not trusted.`,
  ];
  if (e.allows.length) lines.push(`It would allow: ${clip(e.allows.join('; '))}`);
  lines.push('Until you trust it, only its restrictions apply.');
  lines.push('Urgency: normal');
  lines.push(`Review and trust: gatehouse trust ${clip(e.project, 200)}`);
  return {
    kind: 'policy_untrusted',
    urgency: 'normal',
    title: `Project policy not trusted: ${clip(e.project, 120)}`,
    body: lines.join('\n'),
    at,
    ...(agent ? { agent } : {}),
    ...(sessionId ? { sessionId } : {}),
  };
};
