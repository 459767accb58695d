import { iso } from '../../shared/clock';
import type { Engine } from '../engine/engine';
import type { ComputedSuggestion } from '../engine/rule-suggestions';
import { describeRule } from '../../shared/policy/rule-match';
import type { RuleSuggestion } from '../../shared/protocol/suggestion-methods';
import type { ExtraHandlers } from './admin-service';

/** How many suggestions `suggestions.list` returns at most (the newest): a card each. */
const MAX_LISTED = 50;

/** The wire shape of a suggestion: without the engine's pattern and sample request. */
function toWire(s: ComputedSuggestion): RuleSuggestion {
  const { pattern: _pattern, sample: _sample, ...wire } = s;
  return wire;
}

/**
 * Routes the `suggestions.*` admin methods ("make it a rule"): list, accept (saves the rule,
 * audited), snooze ("not now"). Admin role only, like every method of the map: an agent
 * connection gets -32601.
 */
export function suggestionAdminHandlers(engine: Engine): ExtraHandlers {
  const book = engine.suggestions;
  return {
    'suggestions.list': (p) => ({
      suggestions: book.list(p.sessionId).slice(0, MAX_LISTED).map(toWire),
      threshold: book.threshold(),
    }),
    'suggestions.accept': (p) => {
      const rule = book.accept(p.key, p.draft, p.via);
      return { rule, description: describeRule(rule) };
    },
    'suggestions.snooze': (p) => ({ key: p.key, snoozedUntil: iso(book.snooze(p.key, p.via)) }),
  };
}
