import { useState } from 'react';
import type { RuleSuggestion } from '../../../shared/protocol/suggestion-methods';
import { useApi } from '../api-context';
import { UI_CHANNEL } from '../util/channel';
import { useNotify } from '../components/notice';
import { useLiveQuery } from '../state/use-query';
import { errorText, formatAge, formatTime } from '../util/format';
import { useNow } from '../util/use-now';
import { AgentText } from '../components/agent-text';

/**
 * "Make it a rule": the engine's suggestions for patterns the person approved repeatedly and
 * never denied, each with the exact rule it would save and the history behind it. It reloads
 * when a decision, a rule or a setting changes, never on a timer.
 */
export function RuleSuggestions() {
  const api = useApi();
  const query = useLiveQuery(
    () => api.listSuggestions(),
    [api],
    (e) =>
      e.type === 'request.decided' || e.type === 'rules.changed' || e.type === 'settings.changed',
  );
  const suggestions = query.data?.suggestions ?? [];
  if (suggestions.length === 0) return null;
  return (
    <section className="suggestions" aria-label="Rule suggestions" data-testid="rule-suggestions">
      {suggestions.map((s) => (
        <SuggestionCard key={s.key} suggestion={s} onChanged={query.reload} />
      ))}
    </section>
  );
}

function SuggestionCard({
  suggestion: s,
  onChanged,
}: {
  suggestion: RuleSuggestion;
  onChanged: () => void;
}) {
  const api = useApi();
  const notify = useNotify();
  const now = useNow(60_000);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const act = async (what: 'accept' | 'snooze'): Promise<void> => {
    setBusy(true);
    setError(undefined);
    try {
      if (what === 'accept') {
        const r = await api.acceptSuggestion({ key: s.key, via: UI_CHANNEL });
        notify('info', `Created rule ${r.rule.ruleId}: ${r.description}`);
      } else {
        const r = await api.snoozeSuggestion({ key: s.key, via: UI_CHANNEL });
        notify('info', `Hidden until ${formatTime(r.snoozedUntil)}`);
      }
      onChanged();
    } catch (e) {
      setError(errorText(e));
    } finally {
      setBusy(false);
    }
  };
  const titleId = `suggestion-title-${s.key}`;
  const sessions = s.sessionIds.length;
  return (
    <article
      className="suggestion-card"
      aria-labelledby={titleId}
      data-testid="suggestion-card"
      data-key={s.key}
    >
      <h3 id={titleId}>Make it a rule?</h3>
      <p>
        You approved this <strong>{s.approvals} times</strong> and never denied it. This rule would
        stop the asking:
      </p>
      <code className="suggestion-rule" data-testid="suggestion-rule">
        <AgentText text={s.description} />
      </code>
      <p className="hint" data-testid="suggestion-history">
        Asked by <AgentText text={s.agents.map((a) => `${a.agent} (${a.approvals})`).join(', ')} />{' '}
        in {sessions} session{sessions === 1 ? '' : 's'}; decided by a person each time, via{' '}
        {s.channels.map((c) => `${c.via} (${c.approvals})`).join(', ')}. First{' '}
        {formatTime(s.firstApprovedAt)}, last {formatAge(s.lastApprovedAt, now)} ago. Last request:
        “<AgentText text={s.lastDescription} />
        ”.
      </p>
      <details>
        <summary>Requests ({s.requestIds.length})</summary>
        <p className="suggestion-ids" data-testid="suggestion-requests">
          {s.requestIds.join(', ')}
        </p>
      </details>
      <div className="banner-actions">
        <button
          type="button"
          className="button primary"
          id={`suggestion-accept-${s.key}`}
          data-testid="suggestion-accept"
          disabled={busy}
          onClick={() => void act('accept')}
        >
          Make it a rule
        </button>
        <button
          type="button"
          className="button"
          id={`suggestion-snooze-${s.key}`}
          data-testid="suggestion-snooze"
          disabled={busy}
          onClick={() => void act('snooze')}
        >
          Not now
        </button>
        {error && (
          <span className="error" role="alert" data-testid="suggestion-error">
            {error}
          </span>
        )}
      </div>
    </article>
  );
}
