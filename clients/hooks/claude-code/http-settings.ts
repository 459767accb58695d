/**
 * Gatehouse's `"type": "http"` hook entries in a Claude Code settings object, and taking
 * exactly them out again. Pure functions over parsed JSON, like claude-settings.ts for the
 * command hook (whose entries an http install replaces, and the other way round).
 */
import { isObject, removeHookEntries, type JsonObject } from '../install/hook-groups';
import { AGENT_ENV_HEADERS, HOOK_SECRET_VARIABLE } from '../../../shared/node/hook-http-config';
import { ALL_EVENTS, RECORD_TIMEOUT_SEC, RECORDED_EVENTS, type GateEvent } from './hook-events';

export interface HttpHookOptions {
  port: number;
  timeoutSec: number;
  gateEvent: GateEvent;
}

/** The URL the daemon serves Claude Code's hooks on. */
export const hookUrl = (port: number): string => `http://127.0.0.1:${port}/hooks/claude-code`;

/** True for an http hook entry of Gatehouse's (any port). */
export const isGatehouseHttpHook = (h: unknown): boolean =>
  isObject(h) &&
  h.type === 'http' &&
  typeof h.url === 'string' &&
  /^http:\/\/127\.0\.0\.1:\d+\/hooks\/claude-code$/.test(h.url);

/** One http entry. The gate event fails closed (`onFailure: "block"`); recording ones need not. */
function entry(url: string, timeout: number, gate: boolean): JsonObject {
  return {
    type: 'http',
    url,
    timeout,
    // Claude Code fills $VAR only from allowedEnvVars; the secret comes from settings' `env`,
    // the rest from Claude Code's own environment (empty when unset).
    headers: {
      Authorization: `Bearer $${HOOK_SECRET_VARIABLE}`,
      ...Object.fromEntries(
        Object.entries(AGENT_ENV_HEADERS).map(([name, header]) => [header, `$${name}`]),
      ),
    },
    allowedEnvVars: [HOOK_SECRET_VARIABLE, ...Object.keys(AGENT_ENV_HEADERS)],
    ...(gate ? { onFailure: 'block' } : {}),
  };
}

/** Adds Gatehouse's http entries (replacing earlier ones). Returns a new object. */
export function installHttpHooks(settings: JsonObject, o: HttpHookOptions): JsonObject {
  const next = removeHttpHooks(settings).settings;
  if (next.hooks !== undefined && !isObject(next.hooks))
    throw new Error('"hooks" in the settings file is not an object');
  const hooks = (next.hooks as JsonObject | undefined) ?? {};
  const url = hookUrl(o.port);
  const wanted: [string, string | undefined, JsonObject][] = [
    [o.gateEvent, '*', entry(url, o.timeoutSec, true)],
    ...RECORDED_EVENTS.map((e): [string, undefined, JsonObject] => [
      e,
      undefined,
      entry(url, RECORD_TIMEOUT_SEC, false),
    ]),
  ];
  for (const [event, matcher, hook] of wanted) {
    const list = hooks[event];
    if (list !== undefined && !Array.isArray(list))
      throw new Error(`"hooks.${event}" in the settings file is not an array`);
    hooks[event] = [
      ...((list ?? []) as unknown[]),
      matcher === undefined ? { hooks: [hook] } : { matcher, hooks: [hook] },
    ];
  }
  next.hooks = hooks;
  return next;
}

/** Removes every Gatehouse http entry, and the groups and events that only held them. */
export function removeHttpHooks(settings: JsonObject): { settings: JsonObject; removed: number } {
  return removeHookEntries(settings, ALL_EVENTS, isGatehouseHttpHook);
}

/** Sets (or, with undefined, removes) the secret in the settings' `env`. Returns a new object. */
export function withSecret(settings: JsonObject, secret: string | undefined): JsonObject {
  const next = structuredClone(settings);
  if (next.env !== undefined && !isObject(next.env))
    throw new Error('"env" in the settings file is not an object');
  const env = (next.env as JsonObject | undefined) ?? {};
  if (secret === undefined) delete env[HOOK_SECRET_VARIABLE];
  else env[HOOK_SECRET_VARIABLE] = secret;
  if (Object.keys(env).length) next.env = env;
  else delete next.env;
  return next;
}
