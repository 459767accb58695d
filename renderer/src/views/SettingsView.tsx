import { useState } from 'react';
import { useApi } from '../api-context';
import { useNotify } from '../components/notice';
import { useLiveQuery } from '../state/use-query';
import { errorText } from '../util/format';
import { getSettingByKey } from '../../../shared/settings/index';
import { ChannelHealthPanel } from './ChannelHealthPanel';
import { ProjectTrustPanel } from './ProjectTrustPanel';
import { RulesPanel } from './RulesPanel';
import { SettingField } from './SettingField';
import {
  checkValue,
  settingsForm,
  toInput,
  type FormField,
  type FormGroup,
  type FormSection,
  type InputValue,
} from './settings-form';

/** The form is the schema's: built once. */
const SECTIONS = settingsForm();

/** Every setting, in sections generated from the schema, each saved on its own; the rules. */
export function SettingsView() {
  const api = useApi();
  const query = useLiveQuery(
    () => api.getSettings(),
    [api],
    (e) => e.type === 'settings.changed',
  );
  const settings = query.data?.settings;
  const status = useLiveQuery(
    () => api.getStatus(),
    [api],
    () => false,
  );
  const notes = fieldNotes(status.data?.dashboardPortFromEnv);
  return (
    <div className="settings-view">
      <h2>Settings</h2>
      {settings && (
        <nav aria-label="Settings sections" className="section-nav">
          {[...SECTIONS.map((s) => [s.name, s.title]), ['rules', 'Rules']].map(([name, title]) => (
            <button
              type="button"
              key={name}
              className="button subtle"
              data-testid={`settings-jump-${name}`}
              onClick={() => document.getElementById(`section-${name}`)?.scrollIntoView()}
            >
              {title}
            </button>
          ))}
        </nav>
      )}
      {/* Under the Settings heading: the channels' health is part of the settings page. */}
      <ChannelHealthPanel />
      {query.error && (
        <p className="error" role="alert">
          {query.error}
        </p>
      )}
      {!settings && !query.error && <p className="empty">Loading…</p>}
      {settings && (
        <div className="settings-sections">
          {SECTIONS.map((section) => (
            <SettingsSection
              key={section.name}
              section={section}
              settings={settings}
              notes={notes}
              onSaved={query.reload}
            />
          ))}
        </div>
      )}
      <RulesPanel />
      <ProjectTrustPanel />
    </div>
  );
}

/**
 * Notes by setting key for what overrides a stored value now: the dashboard's port, when an
 * environment variable set it at start (the field would otherwise show a port nobody uses).
 */
function fieldNotes(
  portFromEnv: { variable: string; port: number } | undefined,
): Record<string, string> {
  if (!portFromEnv) return {};
  const { variable, port } = portFromEnv;
  return {
    'dashboard.port': `${variable}=${port} in Gatehouse's environment overrides this setting: the dashboard listens on ${port === 0 ? 'a free port' : `port ${port}`}. The setting applies when Gatehouse starts without ${variable}.`,
  };
}

/**
 * The writes a save makes: each changed field by its key, except an optional one (its key may
 * not exist yet), which is written as part of its parent object.
 */
function plannedWrites(
  changes: [FormField, unknown][],
  settings: Record<string, unknown>,
): Map<string, { value: unknown; fields: string[] }> {
  const writes = new Map<string, { value: unknown; fields: string[] }>();
  for (const [field, value] of changes) {
    if (!field.optional) {
      writes.set(field.key, { value, fields: [field.key] });
      continue;
    }
    const parentKey = field.key.slice(0, field.key.lastIndexOf('.'));
    const name = field.key.slice(parentKey.length + 1);
    const planned = writes.get(parentKey);
    const parent = {
      ...((planned?.value ?? getSettingByKey(settings, parentKey) ?? {}) as Record<
        string,
        unknown
      >),
    };
    if (value === undefined) delete parent[name];
    else parent[name] = value;
    writes.set(parentKey, { value: parent, fields: [...(planned?.fields ?? []), field.key] });
  }
  return writes;
}

/** A group of a few plain fields shares its row with its neighbours. */
const isSmall = (group: FormGroup): boolean =>
  group.fields.length <= 3 &&
  group.fields.every((f) => !['list', 'map', 'table', 'json'].includes(f.widget.kind));

function SettingsSection({
  section,
  settings,
  notes,
  onSaved,
}: {
  section: FormSection;
  settings: Record<string, unknown>;
  notes: Record<string, string>;
  onSaved: () => void;
}) {
  const api = useApi();
  const notify = useNotify();
  const [drafts, setDrafts] = useState<Record<string, InputValue>>({});
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [saving, setSaving] = useState(false);
  const fields = new Map(section.groups.flatMap((g) => g.fields.map((f) => [f.key, f] as const)));
  const dirty = Object.keys(drafts).length > 0;

  const save = async () => {
    setSaving(true);
    const failed: Record<string, string> = {};
    const changes: [FormField, unknown][] = [];
    for (const [key, input] of Object.entries(drafts)) {
      const field = fields.get(key);
      if (!field) continue;
      try {
        changes.push([field, checkValue(field, input)]);
      } catch (error) {
        failed[key] = errorText(error);
      }
    }
    for (const [key, { value, fields: written }] of plannedWrites(changes, settings)) {
      try {
        await api.setSetting(key, value);
      } catch (error) {
        for (const f of written) failed[f] = errorText(error);
      }
    }
    setErrors(failed);
    setDrafts(Object.fromEntries(Object.entries(drafts).filter(([key]) => key in failed)));
    setSaving(false);
    const count = Object.keys(failed).length;
    if (count) notify('error', `${count} setting${count === 1 ? '' : 's'} not saved`);
    else notify('info', `Saved ${section.title.toLowerCase()} settings`);
    onSaved();
  };

  return (
    <form
      className={`settings-section${section.groups.length === 1 && isSmall(section.groups[0]!) ? ' small' : ''}`}
      aria-labelledby={`section-${section.name}`}
      data-testid={`settings-section-${section.name}`}
      // The schema checks each value (checkValue) and shows its error by the field.
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        void save();
      }}
    >
      <h3 id={`section-${section.name}`}>{section.title}</h3>
      {section.help && <p className="help">{section.help}</p>}
      <div className="settings-groups">
        {section.groups.map((group) => (
          <fieldset
            key={group.key}
            className={`settings-group${isSmall(group) ? ' small' : ''}`}
            data-testid={`settings-group-${group.key}`}
          >
            {group.path.length > 0 && <legend>{group.path.join(' › ')}</legend>}
            {group.help && <p className="help group-help">{group.help}</p>}
            {group.fields.map((field) => (
              <SettingField
                key={field.key}
                field={field}
                input={
                  drafts[field.key] ?? toInput(field.widget, getSettingByKey(settings, field.key))
                }
                error={errors[field.key]}
                note={notes[field.key]}
                onChange={(input) => setDrafts((d) => ({ ...d, [field.key]: input }))}
              />
            ))}
          </fieldset>
        ))}
      </div>
      <div className="form-actions">
        <button
          type="submit"
          className="button primary"
          id={`save-${section.name}`}
          data-testid={`save-${section.name}`}
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
