import { useState } from 'react';
import type { RuleRecord, Tier } from '../../../shared/domain';
import { useApi } from '../api-context';
import { ErrorNote, FilterField, TableHead } from '../components/fields';
import { useNotify } from '../components/notice';
import { useLiveQuery } from '../state/use-query';
import { errorText, formatTime } from '../util/format';
import { AgentText } from '../components/agent-text';

/** User rules (added here or by "approve always"): list, add, remove. */
export function RulesPanel() {
  const api = useApi();
  const notify = useNotify();
  const rules = useLiveQuery(
    () => api.listRules(),
    [api],
    (e) => e.type === 'rules.changed',
  );
  const [action, setAction] = useState('');
  const [tier, setTier] = useState<Tier>('auto');
  const [project, setProject] = useState('');
  const [note, setNote] = useState('');

  const add = async () => {
    try {
      await api.addRule({
        action: action.trim(),
        tier,
        project: project.trim() || undefined,
        note: note.trim() || undefined,
      });
      setAction('');
      setNote('');
      notify('info', `Rule added: ${action.trim()} → ${tier}`);
      rules.reload();
    } catch (error) {
      notify('error', `Rule not added: ${errorText(error)}`);
    }
  };
  const remove = async (ruleId: string, label: string) => {
    try {
      await api.removeRule(ruleId);
      notify('info', `Rule removed: ${label}`);
      rules.reload();
    } catch (error) {
      notify('error', `Rule not removed: ${errorText(error)}`);
    }
  };

  const list = rules.data?.rules ?? [];
  return (
    <section className="settings-section" aria-labelledby="section-rules" data-testid="rules-panel">
      <h3 id="section-rules">Rules</h3>
      <p className="hint">
        A rule makes an action run without asking (auto) or always ask, everywhere or in one
        project, optionally only for an exact command, a command prefix (<code>git push:*</code>), a
        target or path globs. A rule without any of these covers its whole action.
      </p>
      <ErrorNote error={rules.error} />
      <table className="table" data-testid="rules-table">
        <TableHead
          columns={['Action', 'Tier', 'Matches', 'Project', 'Source', 'Added']}
          hiddenLast="Remove"
        />
        <tbody>
          {list.map((r) => (
            <tr key={r.ruleId} data-testid="rule-row" data-rule-id={r.ruleId}>
              <td>
                <code>
                  <AgentText text={r.action} />
                </code>
              </td>
              <td>{r.tier}</td>
              <td data-testid="rule-matchers">
                <RuleMatchersCell rule={r} />
              </td>
              <td>{r.project ? <AgentText text={r.project} /> : 'everywhere'}</td>
              <td title={r.note}>
                {r.source === 'decision' ? 'approved always' : 'added by hand'}
              </td>
              <td>{formatTime(r.createdAt)}</td>
              <td>
                <button
                  type="button"
                  className="button subtle"
                  id={`rule-remove-${r.ruleId}`}
                  data-testid="rule-remove"
                  aria-label={`Remove rule ${r.action} ${r.tier}`}
                  onClick={() => void remove(r.ruleId, `${r.action} → ${r.tier}`)}
                >
                  Remove
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {rules.data && list.length === 0 && (
        <p className="empty">No rules yet: the built-in defaults decide.</p>
      )}
      <form
        className="filters"
        aria-label="Add a rule"
        onSubmit={(e) => {
          e.preventDefault();
          if (action.trim()) void add();
        }}
      >
        <FilterField
          label="Action"
          id="rule-action"
          value={action}
          placeholder="run_tests"
          required
          onChange={setAction}
        />
        <label>
          Tier
          <select
            id="rule-tier"
            data-testid="rule-tier"
            value={tier}
            onChange={(e) => setTier(e.target.value as Tier)}
          >
            <option value="auto">auto (no asking)</option>
            <option value="ask">ask</option>
          </select>
        </label>
        <FilterField
          label="Project (optional)"
          id="rule-project"
          value={project}
          placeholder="/path/to/project"
          onChange={setProject}
        />
        <FilterField label="Note" id="rule-note" value={note} onChange={setNote} />
        <button type="submit" className="button" id="rule-add" data-testid="rule-add">
          Add rule
        </button>
      </form>
    </section>
  );
}

/** A rule's matchers, one per line; a rule without any is action-wide. */
function RuleMatchersCell({ rule: r }: { rule: RuleRecord }) {
  const parts: string[] = [];
  if (r.command) parts.push(`command: ${r.command}`);
  if (r.commandPrefix) parts.push(`command: ${r.commandPrefix}:*`);
  if (r.target) parts.push(`target: ${r.target}`);
  if (r.paths) parts.push(`paths: ${r.paths.join(', ')}`);
  if (parts.length === 0)
    return (
      <em>
        action-wide (any <AgentText text={r.action} />)
      </em>
    );
  return (
    <>
      {parts.map((p) => (
        <code key={p} className="matcher">
          <AgentText text={p} />
        </code>
      ))}
    </>
  );
}
