import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import {
  isGatehouseHookCommandFor,
  mergeHookGroups,
  removeHookGroups,
} from '../install/hook-groups';
import type { HookInstaller, InstallTarget } from '../install/installer';
import { readJsonObject, writeJsonObject } from '../install/json-file';
import {
  GEMINI_AFTER_EVENT,
  GEMINI_END_EVENT,
  GEMINI_GATE_EVENT,
} from '../../../shared/node/hooks/gemini/adapter';

const TIMEOUT_MARGIN_SEC = 10;
const RECORD_TIMEOUT_SEC = 10;
const isOurs = (command: unknown) => isGatehouseHookCommandFor('gemini', command);

/** `~/.gemini/settings.json`, or the project's `.gemini/settings.json`. */
export function geminiSettingsPath(t: InstallTarget): string {
  return t.project
    ? join(resolve(t.project), '.gemini', 'settings.json')
    : join(t.home, '.gemini', 'settings.json');
}

/**
 * Gemini CLI: one BeforeTool group (`matcher: "*"`) in settings.json, in the Claude Code
 * shape but with `timeout` in milliseconds and a `name`; an AfterTool group that gives the
 * model a person's approval note, and SessionEnd. Gemini CLI lets a call run when its
 * hook times out or fails (checked with 0.61.0), so the timeout is written above the wait and
 * the command pins the wait it was written for.
 */
export const geminiInstaller: HookInstaller = {
  agent: 'gemini',
  label: 'Gemini CLI',
  project: 'optional',
  defaultTimeoutSec: 60,
  canAsk: false,
  canStop: true,
  pinWait: true,
  install(r) {
    const path = geminiSettingsPath(r);
    const timeoutSec = Math.ceil(r.waitMs / 1000) + TIMEOUT_MARGIN_SEC;
    const { settings, changed } = mergeHookGroups(
      readJsonObject(path),
      [
        {
          event: GEMINI_GATE_EVENT,
          matcher: '*',
          timeoutSec,
          entry: { name: 'gatehouse', timeout: timeoutSec * 1000 },
        },
        // A person's approval note for the call that ran; fails open (the call has run).
        {
          event: GEMINI_AFTER_EVENT,
          matcher: '*',
          timeoutSec: RECORD_TIMEOUT_SEC,
          entry: { name: 'gatehouse', timeout: RECORD_TIMEOUT_SEC * 1000 },
        },
        // Gemini CLI does not wait for SessionEnd hooks: recorded on a best-effort basis.
        {
          event: GEMINI_END_EVENT,
          timeoutSec: RECORD_TIMEOUT_SEC,
          entry: { name: 'gatehouse', timeout: RECORD_TIMEOUT_SEC * 1000 },
        },
      ],
      r.command,
      isOurs,
    );
    if (changed) writeJsonObject(path, settings);
    return {
      changed: changed
        ? `Installed the Gatehouse hooks (${GEMINI_GATE_EVENT}, ${GEMINI_AFTER_EVENT}, ${GEMINI_END_EVENT}) in ${path}`
        : `The Gatehouse hook is already installed in ${path}`,
      gated: 'every tool call: shell commands, file reads and writes, web fetches, MCP tools',
      timeoutSec,
      restart: 'Gemini CLI reads settings.json at start: restart running Gemini CLI sessions.',
      notes: [
        "Gemini CLI lets a call run when a hook fails or times out; the hook itself always answers, and the timeout written stays above Gatehouse's wait.",
        ...(r.project
          ? [
              "Gemini CLI asks you to trust a project's hooks before it runs them (and again whenever the command changes).",
            ]
          : []),
      ],
    };
  },
  uninstall(t) {
    const path = geminiSettingsPath(t);
    if (!existsSync(path)) return `No settings file at ${path}; nothing to remove`;
    const { settings, removed } = removeHookGroups(
      readJsonObject(path),
      [GEMINI_GATE_EVENT, GEMINI_AFTER_EVENT, GEMINI_END_EVENT],
      isOurs,
    );
    if (!removed) return `No Gatehouse hooks in ${path}`;
    writeJsonObject(path, settings);
    return `Removed ${removed} Gatehouse hook ${removed === 1 ? 'entry' : 'entries'} from ${path}`;
  },
};
