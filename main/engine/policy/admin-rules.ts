import { iso } from '../../../shared/clock';
import { commandPrefixProblem } from '../../../shared/policy/command-prefix';
import { describeRule, normaliseDraft } from '../../../shared/policy/rule-match';
import { ErrorCode, GatehouseError } from '../../../shared/protocol/errors';
import type { RuleSuggestion } from '../../../shared/protocol/suggestion-methods';
import type { AdminHandlers } from '../kernel/admin-handlers';
import { compact } from '../kernel/records';
import type { RequestRow } from '../requests/requests-store';
import type { RuleBook } from './rule-book';
import type { TeamPolicySource } from './team-rules';
import { draftLadder } from './rule-draft';
import type { ComputedSuggestion, RuleSuggestions } from './rule-suggestions';

/** How many suggestions `suggestions.list` returns at most (the newest): a card each. */
const MAX_LISTED_SUGGESTIONS = 50;

/** The wire shape of a suggestion: without the engine's pattern and sample request. */
function toWire(s: ComputedSuggestion): RuleSuggestion {
  const { pattern: _pattern, sample: _sample, ...wire } = s;
  return wire;
}

/** A command prefix that would cover too much is refused as invalid params. */
function assertPrefix(prefix: string | undefined): void {
  const problem = prefix !== undefined ? commandPrefixProblem(prefix) : undefined;
  if (problem) throw new GatehouseError(ErrorCode.InvalidParams, problem);
}

export interface RulesAdminDeps {
  rules: RuleBook;
  suggestions: RuleSuggestions;
  /** A request the person saw (the review queue's), for the rule "always" would save. */
  requestOf: (requestId: string) => RequestRow;
  /** The team policy the hub pushed: listed with the rules it outranks. */
  team?: TeamPolicySource;
}

/** The admin methods of rules and of "make it a rule" suggestions from repeated approvals. */
export function rulesAdmin(d: RulesAdminDeps) {
  return {
    'rules.list': () => {
      const info = d.team?.info();
      const team = d.team?.current();
      return {
        rules: [...d.rules.list()],
        ...(info && team && info.version > 0 ? { team: { ...info, rules: [...team.rules] } } : {}),
      };
    },
    'rules.add': (p) => {
      const { tier, note, ...draft } = p;
      assertPrefix(draft.commandPrefix);
      const matchers = normaliseDraft(draft);
      const rule = d.rules.add(compact({ ...matchers, tier, note, source: 'user' as const }));
      return { rule, description: describeRule(rule) };
    },
    /** The narrowest rule "always" would save for a request, and the steps that widen it. */
    'rules.preview': (p) => {
      const { draft, widenings } = draftLadder(d.requestOf(p.requestId));
      return { draft, widenings, describe: [draft, ...widenings].map(describeRule) };
    },
    'rules.remove': (p) => {
      d.rules.remove(p.ruleId);
      return { removed: true as const };
    },
    'suggestions.list': (p) => ({
      suggestions: d.suggestions.list(p.sessionId).slice(0, MAX_LISTED_SUGGESTIONS).map(toWire),
      threshold: d.suggestions.threshold(),
    }),
    'suggestions.accept': (p) => {
      assertPrefix(p.draft?.commandPrefix);
      const rule = d.suggestions.accept(p.key, p.draft, p.via);
      return { rule, description: describeRule(rule) };
    },
    /** "Not now": hides a suggestion for `rules.suggestionSnoozeDays`. */
    'suggestions.snooze': (p) => ({
      key: p.key,
      snoozedUntil: iso(d.suggestions.snooze(p.key, p.via)),
    }),
  } satisfies AdminHandlers<
    | 'rules.list'
    | 'rules.add'
    | 'rules.preview'
    | 'rules.remove'
    | 'suggestions.list'
    | 'suggestions.accept'
    | 'suggestions.snooze'
  >;
}
