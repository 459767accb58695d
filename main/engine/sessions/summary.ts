import type { SessionSummary } from '../../../shared/domain';
import type { SessionSummaryFacts, SummaryRequest } from './sessions-store';

export interface SummaryInput {
  sessionId: string;
  agent: string;
  status: string;
  startedAt: string;
  endedAt: string;
  /** The store's facts of the session, at most {@link SUMMARY_MAX_ITEMS} of each list. */
  facts: SessionSummaryFacts;
  costUsd: number;
  budgetRemainingPct?: number | undefined;
  /** Rule suggestions that arose in this session, one line each (rule-suggestions.ts). */
  suggestions?: string[] | undefined;
}

const usd = (n: number): string => `$${n.toFixed(n < 1 ? 4 : 2)}`;

/**
 * The most items a summary keeps of each list: a summary travels in every `session.get`, the
 * `session.ended` event and notifications, so it must not grow with the session.
 * The counts stay whole.
 */
export const SUMMARY_MAX_ITEMS = 200;
/** The most items of each list the summary's text spells out. */
const TEXT_MAX_ITEMS = 50;

/** The first `max` lines of a list of `total`, and a line saying how many more there are. */
function listed(items: readonly string[], total: number, max: number): string[] {
  const lines = items.slice(0, max).map((d) => `  - ${d}`);
  if (total > max) lines.push(`  - … and ${total - max} more`);
  return lines;
}

/** How a request that still needs a person reads in the summary. */
function needing(r: SummaryRequest): string {
  if (r.status === 'pending') return `Awaiting decision: ${r.description} [${r.requestId}]`;
  if (r.status === 'timed_out')
    return `Timed out waiting, still in the queue: ${r.description} [${r.requestId}]`;
  return `Denied: ${r.description}${r.reason ? ` (${r.reason})` : ''}`;
}

/**
 * A stored summary as views read it: its lists bounded and its counts whole, also for one
 * saved before the lists were bounded.
 */
export function boundedSummary(s: SessionSummary): SessionSummary {
  if (s.done.length <= SUMMARY_MAX_ITEMS && s.needsReview.length <= SUMMARY_MAX_ITEMS) return s;
  return {
    ...s,
    done: s.done.slice(0, SUMMARY_MAX_ITEMS),
    needsReview: s.needsReview.slice(0, SUMMARY_MAX_ITEMS),
    doneTotal: s.doneTotal ?? s.done.length,
    needsReviewTotal: s.needsReviewTotal ?? s.needsReview.length,
  };
}

/**
 * The end-of-session summary: what was done (logged actions and approved requests), what
 * still needs a human (open, timed-out and denied requests), and what it cost.
 */
export function buildSummary(i: SummaryInput): SessionSummary {
  // A stop is not work done: an agent logs it as `stopped` and it shows as needing review.
  const { logs, stops, approvedAsks, unsettled } = i.facts;
  const done = [
    ...logs.items,
    ...approvedAsks.items.map((r) => `${r.description} (approved by ${r.decidedBy})`),
  ].slice(0, SUMMARY_MAX_ITEMS);
  const doneTotal = logs.total + approvedAsks.total;
  const needsReview = [...stops.items, ...unsettled.items.map(needing)].slice(0, SUMMARY_MAX_ITEMS);
  const needsReviewTotal = stops.total + unsettled.total;
  const minutes = Math.max(
    0,
    Math.round((Date.parse(i.endedAt) - Date.parse(i.startedAt)) / 60000),
  );
  const lines = [
    `Session ${i.sessionId} of ${i.agent} ${i.status} after ${minutes} min.`,
    doneTotal ? `Done (${doneTotal}):` : 'Done: nothing recorded.',
    ...listed(done, doneTotal, TEXT_MAX_ITEMS),
    needsReviewTotal ? `Needs review (${needsReviewTotal}):` : 'Needs review: nothing.',
    ...listed(needsReview, needsReviewTotal, TEXT_MAX_ITEMS),
    ...(i.suggestions?.length
      ? [`Suggestions (${i.suggestions.length}):`, ...i.suggestions.map((s) => `  - ${s}`)]
      : []),
    `Cost: ${usd(i.costUsd)}${i.budgetRemainingPct === undefined ? '' : ` (${Math.round(i.budgetRemainingPct)}% of the budget left)`}.`,
  ];
  return {
    sessionId: i.sessionId,
    startedAt: i.startedAt,
    endedAt: i.endedAt,
    done,
    needsReview,
    doneTotal,
    needsReviewTotal,
    costUsd: i.costUsd,
    budgetRemainingPct: i.budgetRemainingPct,
    ...(i.suggestions?.length ? { suggestions: i.suggestions } : {}),
    text: lines.join('\n'),
  };
}

/** The suggestion lines of a summary, also of one stored before they had a field. */
function suggestionsOf(s: SessionSummary): string[] {
  if (s.suggestions) return s.suggestions;
  const lines = s.text.split('\n');
  const start = lines.findIndex((l) => /^Suggestions \(\d+\):$/.test(l));
  if (start < 0) return [];
  const out: string[] = [];
  for (const line of lines.slice(start + 1)) {
    if (!line.startsWith('  - ')) break;
    out.push(line.slice(4));
  }
  return out;
}

/**
 * A stored summary as a view shows it now: the summary is written when the session ends,
 * but its requests live on (a person approves "Push …" an hour later). Each request is listed
 * in its current state from the store's facts; what only the end knew (times, cost, budget,
 * suggestions) stays as stored. Bounded like the stored one.
 */
export function currentSummary(
  stored: SessionSummary,
  session: { sessionId: string; agent: string; status: string },
  facts: SessionSummaryFacts,
): SessionSummary {
  return buildSummary({
    sessionId: session.sessionId,
    agent: session.agent,
    status: session.status,
    startedAt: stored.startedAt,
    endedAt: stored.endedAt,
    facts,
    costUsd: stored.costUsd,
    budgetRemainingPct: stored.budgetRemainingPct,
    suggestions: suggestionsOf(stored),
  });
}
