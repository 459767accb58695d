import { useState } from 'react';
import { useApi } from '../api-context';
import { useNotify } from '../components/notice';
import { useLiveQuery } from '../state/use-query';
import { errorText, humanize } from '../util/format';
import { ProjectTrustPanel } from './ProjectTrustPanel';
import { RulesPanel } from './RulesPanel';
import { fieldId, fieldLabel, fromInput, groupsOf, toInput, type Field } from './settings-fields';

/** Sections in the order a person looks for them; unknown ones follow. */
const SECTION_ORDER = ['notifications', 'requests', 'budgets', 'sessions', 'guards'];
const SECTION_TITLES: Record<string, string> = {
  notifications: 'Notifications: quiet hours, channels, batching',
  requests: 'Requests: default timeout',
  budgets: 'Budgets',
  sessions: 'Sessions',
  guards: 'Breakers and guards',
};

/** Every setting, grouped, each section saved on its own; and the rules list. */
export function SettingsView() {
  const api = useApi();
  const query = useLiveQuery(
    () => api.getSettings(),
    [api],
    (e) => e.type === 'settings.changed',
  );
  const settings = query.data?.settings;
  const sections = settings
    ? Object.keys(settings).sort(
        (a, b) => (SECTION_ORDER.indexOf(a) + 1 || 99) - (SECTION_ORDER.indexOf(b) + 1 || 99),
      )
    : [];
  return (
    <div className="settings-view">
      <h2>Settings</h2>
      {settings && (
        <nav aria-label="Settings sections" className="section-nav">
          {[...sections, 'rules'].map((name) => (
            <button
              type="button"
              key={name}
              className="button subtle"
              data-testid={`settings-jump-${name}`}
              onClick={() => document.getElementById(`section-${name}`)?.scrollIntoView()}
            >
              {name === 'rules' ? 'Rules' : humanize(name)}
            </button>
          ))}
        </nav>
      )}
      {query.error && (
        <p className="error" role="alert">
          {query.error}
        </p>
      )}
      {!settings && !query.error && <p className="empty">Loading…</p>}
      {settings &&
        sections.map((name) => {
          const tree = settings[name];
          return tree && typeof tree === 'object' ? (
            <SettingsSection
              key={name}
              name={name}
              tree={tree as Record<string, unknown>}
              onSaved={query.reload}
            />
          ) : null;
        })}
      <RulesPanel />
      <ProjectTrustPanel />
    </div>
  );
}

function SettingsSection({
  name,
  tree,
  onSaved,
}: {
  name: string;
  tree: Record<string, unknown>;
  onSaved: () => void;
}) {
  const api = useApi();
  const notify = useNotify();
  const [drafts, setDrafts] = useState<Record<string, string | boolean>>({});
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [saving, setSaving] = useState(false);
  const groups = groupsOf(tree, name);
  const fields = new Map(groups.flatMap((g) => g.fields.map((f) => [f.key, f] as const)));
  const dirty = Object.keys(drafts).length > 0;

  const save = async () => {
    setSaving(true);
    const failed: Record<string, string> = {};
    const left: Record<string, string | boolean> = {};
    for (const [key, input] of Object.entries(drafts)) {
      const field = fields.get(key);
      if (!field) continue;
      try {
        await api.setSetting(key, fromInput(field.kind, input));
      } catch (error) {
        failed[key] = errorText(error);
        left[key] = input;
      }
    }
    setErrors(failed);
    setDrafts(left);
    setSaving(false);
    const count = Object.keys(failed).length;
    if (count) notify('error', `${count} setting${count === 1 ? '' : 's'} not saved`);
    else notify('info', `Saved ${humanize(name).toLowerCase()} settings`);
    onSaved();
  };

  return (
    <form
      className="settings-section"
      aria-labelledby={`section-${name}`}
      data-testid={`settings-section-${name}`}
      onSubmit={(e) => {
        e.preventDefault();
        void save();
      }}
    >
      <h3 id={`section-${name}`}>{SECTION_TITLES[name] ?? humanize(name)}</h3>
      {groups.map((group) => (
        <fieldset key={group.key} className="settings-group">
          {group.key !== name && (
            <legend>
              {group.key
                .split('.')
                .slice(1)
                .map((k) => humanize(k.replace(/(Ms|Usd)$/, '')))
                .join(' › ')}
            </legend>
          )}
          {group.fields.map((field) => (
            <SettingField
              key={field.key}
              field={field}
              input={drafts[field.key] ?? toInput(field.kind, field.value)}
              error={errors[field.key]}
              onChange={(input) => setDrafts((d) => ({ ...d, [field.key]: input }))}
            />
          ))}
        </fieldset>
      ))}
      <div className="form-actions">
        <button
          type="submit"
          className="button primary"
          id={`save-${name}`}
          data-testid={`save-${name}`}
          disabled={!dirty || saving}
        >
          {saving ? 'Saving…' : 'Save'}
        </button>
        {dirty && (
          <button
            type="button"
            className="button subtle"
            onClick={() => (setDrafts({}), setErrors({}))}
          >
            Discard changes
          </button>
        )}
      </div>
    </form>
  );
}

interface FieldProps {
  field: Field;
  input: string | boolean;
  error?: string;
  onChange: (input: string | boolean) => void;
}

function SettingField({ field, input, error, onChange }: FieldProps) {
  const id = fieldId(field.key);
  const label = fieldLabel(field, humanize);
  const common = {
    id,
    'data-testid': id,
    'aria-invalid': error ? true : undefined,
    'aria-describedby': error ? `${id}-error` : undefined,
  };
  let control;
  switch (field.kind) {
    case 'boolean':
      control = (
        <input
          type="checkbox"
          {...common}
          checked={input === true}
          onChange={(e) => onChange(e.target.checked)}
        />
      );
      break;
    case 'urgency':
      control = (
        <select {...common} value={String(input)} onChange={(e) => onChange(e.target.value)}>
          <option value="low">low</option>
          <option value="normal">normal</option>
          <option value="high">high</option>
        </select>
      );
      break;
    case 'json':
      control = (
        <textarea
          {...common}
          rows={3}
          value={String(input)}
          onChange={(e) => onChange(e.target.value)}
        />
      );
      break;
    default:
      control = (
        <input
          {...common}
          type={
            field.kind === 'time'
              ? 'time'
              : field.kind === 'secret'
                ? 'password'
                : field.kind === 'text'
                  ? 'text'
                  : 'number'
          }
          step={field.kind === 'number' || field.kind === 'duration' ? 'any' : undefined}
          autoComplete="off"
          value={String(input)}
          onChange={(e) => onChange(e.target.value)}
        />
      );
  }
  return (
    <div className={`field field-${field.kind}`}>
      <label htmlFor={id}>{label}</label>
      {control}
      {error && (
        <span className="error" id={`${id}-error`} role="alert">
          {error}
        </span>
      )}
    </div>
  );
}
