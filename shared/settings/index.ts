import { z } from 'zod';
import { BudgetSettings } from './budgets';
import { DashboardSettings } from './dashboard';
import { GuardSettings } from './guards';
import { HubSettings } from './hub';
import { NotificationSettings } from './notifications';
import { RequestSettings, SessionSettings } from './requests';
import { AuditSettings, RetentionSettings } from './retention';
import { RuleSettings } from './rules';
import './meta';

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
  rules: RuleSettings.prefault({}),
  dashboard: DashboardSettings.prefault({}),
  retention: RetentionSettings.prefault({}),
  audit: AuditSettings.prefault({}),
  hub: HubSettings.prefault({}),
});
export type Settings = z.infer<typeof Settings>;

export const defaultSettings = (): Settings => Settings.parse({});

/** Key segments that name JavaScript machinery, never a setting. */
const FORBIDDEN_SEGMENTS = new Set(['__proto__', 'prototype', 'constructor']);

/** Splits a dotted key; `undefined` when a segment is empty or names prototype machinery. */
export function settingKeyParts(key: string): string[] | undefined {
  const parts = key.split('.');
  return parts.every((p) => p !== '' && !FORBIDDEN_SEGMENTS.has(p)) ? parts : undefined;
}

const isPlainNode = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v);

/** Reads a dotted key (own properties only); `undefined` when any segment is missing. */
export function getSettingByKey(settings: unknown, key: string): unknown {
  const parts = settingKeyParts(key);
  if (!parts) return undefined;
  let node: unknown = settings;
  for (const part of parts) {
    if (!isPlainNode(node) || !Object.hasOwn(node, part)) return undefined;
    node = node[part];
  }
  return node;
}

/**
 * Returns a copy of `settings` with the dotted key set (own properties only, so nothing
 * reaches Object.prototype); `undefined` for an unknown or forbidden key. The caller
 * validates the result.
 */
export function withSettingByKey(settings: Settings, key: string, value: unknown): unknown {
  const parts = settingKeyParts(key);
  if (!parts) return undefined;
  const copy = structuredClone(settings) as Record<string, unknown>;
  let node: Record<string, unknown> = copy;
  for (const part of parts.slice(0, -1)) {
    if (!Object.hasOwn(node, part)) return undefined;
    const next = node[part];
    if (!isPlainNode(next)) return undefined;
    node = next;
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
