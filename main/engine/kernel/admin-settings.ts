import type { SettingsSource } from './settings-service';
import type { AdminHandlers } from './admin-handlers';

/** The admin methods of the settings: read them, or one key, and change one key. */
export function settingsAdmin(settings: SettingsSource) {
  return {
    'settings.get': (p) => ({
      settings: settings.get() as Record<string, unknown>,
      ...(p.key ? { value: settings.getKey(p.key) } : {}),
    }),
    'settings.set': (p) => ({
      settings: settings.set(p.key, p.value) as Record<string, unknown>,
    }),
  } satisfies AdminHandlers<'settings.get' | 'settings.set'>;
}
