import type { RuleDraft, RuleRecord } from '../../../shared/domain';
import { ErrorCode, GatehouseError, notFound } from '../../../shared/protocol/errors';
import type { RuleSuggestion } from '../../../shared/protocol/suggestion-methods';
import type { Settings } from '../../../shared/settings/index';
import { iso, type Clock } from '../../../shared/clock';
import { riskOfRule, isProtectedRule } from './protected-paths';
import { decisionPattern, draftOfPattern } from './decision-pattern';
import { byPerson } from '../../../shared/provenance';
import {
  describeRule,
  draftCovers,
  isActionWide,
  matchersOf,
  normaliseDraft,
  requestDirs,
} from '../../../shared/policy/rule-match';
import type { RuleBook } from './rule-book';
import type { HumanDecision, SuggestionsStore } from './policy-store';
import type { RequestRow } from '../requests/requests-store';
import type { UnitOfWork } from '../kernel/unit-of-work';

/**
 * How many of a person's newest decisions suggestions are computed from. "Never denied" holds
 * within them: a denial older than this many decisions is no longer seen.
 */
export const SUGGESTION_SCAN_LIMIT = 10_000;
/** How many request ids a suggestion lists. */
const MAX_LISTED_REQUESTS = 50;
const DAY_MS = 24 * 60 * 60 * 1000;

/** A suggestion as the engine holds it: the wire shape, its pattern and a covered request. */
export interface ComputedSuggestion extends RuleSuggestion {
  /** The narrowest draft as canonical JSON: what a snooze is stored under. */
  pattern: string;
  /** The newest approved request of the pattern, to check a chosen draft against. */
  sample: RequestRow;
}

/** What a pattern's decisions add up to while they are grouped. */
interface PatternTally {
  draft: RuleDraft;
  approved: RequestRow[];
  denied: boolean;
  /** A request of the pattern touched Gatehouse's own files or was critical. */
  locked: boolean;
}

/**
 * A short key for a pattern: 64 bits of two independent 32-bit FNV-1a style hashes, in hex.
 * It only names a suggestion in the API; an ambiguous key is refused (see `find`).
 */
export function suggestionKey(pattern: string): string {
  let h1 = 0x811c9dc5;
  let h2 = 0x01000193 ^ pattern.length;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 0x01000193);
    h2 = Math.imul(h2 ^ c, 0x5bd1e995);
    h2 ^= h2 >>> 15;
  }
  const hex = (n: number): string => (n >>> 0).toString(16).padStart(8, '0');
  return hex(h1) + hex(h2);
}

/** A suggestion's sample as a rule is checked against it: where its call ran. */
const sampleInput = (sample: RequestRow) => ({
  action: sample,
  project: sample.project,
  dirs: requestDirs(sample.context),
});

/** True when the request may never become a suggestion: Gatehouse's own files, critical. */
const isLocked = (r: RequestRow): boolean =>
  isProtectedRule(r.rule) || riskOfRule(r.rule) === 'critical';

/** The input of `computeSuggestions`. */
export interface SuggestionInput {
  /** Requests a person decided, newest decision first, each with its stored pattern. */
  decisions: readonly HumanDecision[];
  rules: readonly RuleRecord[];
  /** Patterns the person said "not now" to, still hidden. */
  snoozed: ReadonlySet<string>;
  /** Approvals needed (setting `rules.suggestAfterApprovals`). */
  threshold: number;
}

/**
 * The "make it a rule" suggestions: patterns (narrowest rule drafts) a person approved at
 * least `threshold` times and never denied, that no rule covers yet, that are not snoozed.
 * Never for requests that touched Gatehouse's own files or were critical, and never for a
 * draft that would cover its whole action (requests with no command, target or paths): such
 * a rule would cover far more than the person saw. Newest activity first.
 */
export function computeSuggestions(i: SuggestionInput): ComputedSuggestion[] {
  const tallies = new Map<string, PatternTally>();
  for (const { row: r, pattern } of i.decisions) {
    if (!byPerson(r) || (r.status !== 'approved' && r.status !== 'denied')) continue;
    let t = tallies.get(pattern);
    if (!t)
      tallies.set(
        pattern,
        (t = { draft: draftOfPattern(pattern), approved: [], denied: false, locked: false }),
      );
    if (r.status === 'denied') t.denied = true;
    else t.approved.push(r);
    if (isLocked(r)) t.locked = true;
  }
  const out: ComputedSuggestion[] = [];
  for (const [pattern, t] of tallies) {
    if (t.denied || t.locked || t.approved.length < i.threshold) continue;
    if (isActionWide(t.draft) || i.snoozed.has(pattern)) continue;
    const sample = t.approved[0]!;
    const covered = i.rules.some((rule) => draftCovers(rule, sampleInput(sample)));
    if (covered) continue;
    out.push(toSuggestion(pattern, t, sample));
  }
  return out.sort((a, b) => b.lastApprovedAt.localeCompare(a.lastApprovedAt));
}

function toSuggestion(pattern: string, t: PatternTally, sample: RequestRow): ComputedSuggestion {
  const byAgent = new Map<string, number>();
  const byChannel = new Map<string, number>();
  const sessions: string[] = [];
  for (const r of t.approved) {
    byAgent.set(r.agent, (byAgent.get(r.agent) ?? 0) + 1);
    const via = r.decidedVia ?? 'unrecorded';
    byChannel.set(via, (byChannel.get(via) ?? 0) + 1);
    if (!sessions.includes(r.sessionId)) sessions.push(r.sessionId);
  }
  const times = t.approved.map((r) => r.decidedAt ?? r.createdAt);
  return {
    key: suggestionKey(pattern),
    pattern,
    sample,
    draft: t.draft,
    description: describeRule(t.draft),
    approvals: t.approved.length,
    decidedBy: 'human',
    agents: [...byAgent]
      .map(([agent, approvals]) => ({ agent, approvals }))
      .sort((a, b) => b.approvals - a.approvals),
    channels: [...byChannel]
      .map(([via, approvals]) => ({ via, approvals }))
      .sort((a, b) => b.approvals - a.approvals),
    sessionIds: sessions,
    firstApprovedAt: iso(Math.min(...times)),
    lastApprovedAt: iso(Math.max(...times)),
    requestIds: t.approved.slice(0, MAX_LISTED_REQUESTS).map((r) => r.requestId),
    lastDescription: sample.description,
  };
}

export interface RuleSuggestionsDeps {
  store: SuggestionsStore;
  work: UnitOfWork;
  clock: Clock;
  rules: RuleBook;
  settings: () => Settings;
}

const invalid = (message: string, field: string): GatehouseError =>
  new GatehouseError(ErrorCode.InvalidParams, message, [{ path: field, message }]);

/**
 * Rule suggestions, computed on demand from the decisions a person made: nothing is counted
 * while agents file requests (a session's own, at its end, read only what they need). Accepting one saves its rule (audited, like an "always"
 * decision); "not now" hides it for `rules.suggestionSnoozeDays`, durably.
 */
export class RuleSuggestions {
  constructor(private readonly d: RuleSuggestionsDeps) {}

  /** Every current suggestion; with `sessionId`, those an approval in that session fed. */
  list(sessionId?: string): ComputedSuggestion[] {
    const now = this.d.clock.now();
    // A session's end asks for its own inside its write, while agents wait: the store reads
    // only the decisions (of the same newest SUGGESTION_SCAN_LIMIT) whose pattern an approval
    // in the session has, so its figures are those of the full scan.
    const decisions =
      sessionId === undefined
        ? this.d.store.listHumanDecidedRequests(SUGGESTION_SCAN_LIMIT)
        : this.d.store.listSessionPatternDecisions(sessionId, SUGGESTION_SCAN_LIMIT);
    const found = computeSuggestions({
      decisions,
      rules: this.d.rules.list(),
      snoozed: new Set(this.d.store.listSuggestionSnoozes(now).map((s) => s.pattern)),
      threshold: this.threshold(),
    });
    return sessionId === undefined ? found : found.filter((s) => s.sessionIds.includes(sessionId));
  }

  /**
   * Stores the pattern of a request a person just decided, in the decision's transaction:
   * drafted from the whole request, its context included, so a call made in a subfolder is
   * counted (and suggested) with that subfolder's paths.
   */
  noteDecision(r: RequestRow): void {
    this.d.store.setDecisionPattern(r.requestId, decisionPattern(r), requestDirs(r.context)?.[0]);
  }

  threshold(): number {
    return this.d.settings().rules.suggestAfterApprovals;
  }

  /**
   * Saves the suggested rule, or the person's chosen draft when it is for the same action and
   * covers the approved requests; -32602 otherwise, -32002 for a key that is not suggested.
   */
  accept(key: string, chosen: RuleDraft | undefined, via: string): RuleRecord {
    const s = this.find(key);
    const draft = chosen === undefined ? s.draft : normaliseDraft(chosen);
    if (draft.action !== s.draft.action)
      throw invalid(
        `the rule is for ${draft.action}, but the suggestion is for ${s.draft.action}`,
        'draft.action',
      );
    if (!draftCovers(draft, sampleInput(s.sample)))
      throw invalid(
        `the rule "${describeRule(draft)}" does not cover the approved requests (${s.sample.requestId})`,
        'draft',
      );
    return this.d.work.run((u) => {
      const rule = this.d.rules.addIn(u, {
        ...matchersOf(draft),
        action: draft.action,
        tier: 'auto',
        source: 'user',
        note: `suggested after ${s.approvals} approvals (${s.requestIds[s.requestIds.length - 1]} … ${s.requestIds[0]})`,
      });
      u.audit('suggestion.accepted', {
        data: {
          key,
          ruleId: rule.ruleId,
          description: describeRule(draft),
          approvals: s.approvals,
          requestIds: s.requestIds,
          via,
        },
      });
      return rule;
    });
  }

  /** Hides a suggestion for `rules.suggestionSnoozeDays`; returns when it shows again. */
  snooze(key: string, via: string): number {
    const s = this.find(key);
    return this.d.work.run((u) => {
      const until = u.now + this.d.settings().rules.suggestionSnoozeDays * DAY_MS;
      this.d.store.pruneSuggestionSnoozes(u.now);
      this.d.store.upsertSuggestionSnooze({
        pattern: s.pattern,
        snoozedAt: u.now,
        snoozedUntil: until,
      });
      u.audit('suggestion.snoozed', {
        data: { key, description: s.description, until: iso(until), via },
      });
      return until;
    });
  }

  /** The current suggestion with this key; an ambiguous key is refused, never guessed. */
  private find(key: string): ComputedSuggestion {
    const found = this.list().filter((s) => s.key === key);
    if (found.length === 0) throw notFound(`suggestion ${key}`);
    if (found.length > 1)
      throw invalid(`suggestion key ${key} names more than one suggestion; use rules.add`, 'key');
    return found[0]!;
  }
}

/** A suggestion in one line of plain words, with the command that accepts it. */
export const suggestionLine = (s: RuleSuggestion): string =>
  `You approved ${s.description} ${s.approvals} times and never denied it: make it a rule with \`gatehouse suggestions accept ${s.key}\` (or hide it: \`gatehouse suggestions snooze ${s.key}\`).`;
