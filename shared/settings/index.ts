import { z } from 'zod';
import { BudgetSettings } from './budgets';
import { GuardSettings } from './guards';
import { NotificationSettings } from './notifications';
import { RequestSettings, SessionSettings } from './requests';

/**
 * All settings Gatehouse keeps, with their defaults. `gatehouse config get|set`, the
 * settings view and `settings.get` / `settings.set` read and write this one object by
 * dotted keys (`budgets.perDayUsd`).
 */
export const Settings = z.object({
  requests: RequestSettings.prefault({}),
  sessions: SessionSettings.prefault({}),
  budgets: BudgetSettings.prefault({}),
  notifications: NotificationSettings.prefault({}),
  guards: GuardSettings.prefault({}),
});
export type Settings = z.infer<typeof Settings>;

export const defaultSettings = (): Settings => Settings.parse({});

/** Reads a dotted key; `undefined` when any segment is missing. */
export function getSettingByKey(settings: unknown, key: string): unknown {
  let node: unknown = settings;
  for (const part of key.split('.')) {
    if (node === null || typeof node !== 'object' || !Object.hasOwn(node, part)) return undefined;
    node = (node as Record<string, unknown>)[part];
  }
  return node;
}

/** Returns a copy of `settings` with the dotted key set; the caller validates the result. */
export function withSettingByKey(settings: Settings, key: string, value: unknown): unknown {
  const copy = structuredClone(settings) as Record<string, unknown>;
  const parts = key.split('.');
  let node: Record<string, unknown> = copy;
  for (const part of parts.slice(0, -1)) {
    const next = node[part];
    if (next === null || typeof next !== 'object' || Array.isArray(next)) return undefined;
    node = next as Record<string, unknown>;
  }
  const last = parts[parts.length - 1]!;
  if (!Object.hasOwn(node, last)) return undefined;
  node[last] = value;
  return copy;
}

/** Every settable leaf key, for help text and "unknown key" suggestions. */
export function settingKeys(settings: unknown = defaultSettings(), prefix = ''): string[] {
  if (settings === null || typeof settings !== 'object' || Array.isArray(settings)) return [prefix];
  return Object.entries(settings).flatMap(([k, v]) =>
    settingKeys(v, prefix ? `${prefix}.${k}` : k),
  );
}
