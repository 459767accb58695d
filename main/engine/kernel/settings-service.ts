import {
  Settings,
  defaultSettings,
  getSettingByKey,
  settingKeys,
  withSettingByKey,
} from '../../../shared/settings/index';
import { ErrorCode, GatehouseError } from '../../../shared/protocol/errors';
import { fieldProblems } from '../../../shared/protocol/validate';
import type { SettingsStore } from './kernel-store';
import type { UnitOfWork } from './unit-of-work';

/** The settings as the engine uses them (SettingsService). */
export interface SettingsSource {
  get(): Settings;
  getKey(key: string): unknown;
  set(key: string, value: unknown): Settings;
}

/** Settings, validated on every write, stored in SQLite, cached for the hot path. */
export class SettingsService {
  private current: Settings;

  constructor(
    private readonly store: SettingsStore,
    private readonly work: UnitOfWork,
  ) {
    this.current = this.load();
    work.onRollback(() => (this.current = this.load()));
  }

  private load(): Settings {
    const parsed = Settings.safeParse(this.store.loadSettings() ?? {});
    // A stored document from a newer or broken build falls back to defaults rather than
    // stopping the daemon; the next successful `set` rewrites it.
    return parsed.success ? parsed.data : defaultSettings();
  }

  get(): Settings {
    return this.current;
  }

  getKey(key: string): unknown {
    const value = getSettingByKey(this.current, key);
    if (value === undefined) throw this.unknownKey(key);
    return value;
  }

  /** `audited` is what the audit trail records as the value (a secret left out); `value` by default. */
  set(key: string, value: unknown, audited: unknown = value): Settings {
    const candidate = withSettingByKey(this.current, key, value);
    if (candidate === undefined) throw this.unknownKey(key);
    const parsed = Settings.safeParse(candidate);
    if (!parsed.success) {
      const problems = fieldProblems(parsed.error);
      throw new GatehouseError(
        ErrorCode.InvalidParams,
        `invalid value for ${key}: ${problems.map((p) => p.message).join('; ')}`,
        problems,
      );
    }
    this.work.run((u) => {
      this.store.saveSettings(parsed.data, u.now);
      u.audit('settings.changed', { data: { key, value: audited } });
      u.publish({ type: 'settings.changed', settings: parsed.data as Record<string, unknown> });
      // Changed inside the unit, so that a rollback (which reloads it) undoes it too.
      this.current = parsed.data;
    });
    return this.current;
  }

  private unknownKey(key: string): GatehouseError {
    const keys = settingKeys();
    const near = keys.filter((k) => k.startsWith(key) || k.endsWith(key.split('.').pop() ?? key));
    return new GatehouseError(
      ErrorCode.InvalidParams,
      `unknown setting "${key}"${near.length ? `; did you mean ${near.slice(0, 5).join(', ')}?` : ''}`,
      [{ path: 'key', message: `known keys: ${keys.join(', ')}` }],
    );
  }
}
