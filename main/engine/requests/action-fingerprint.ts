import type { ActionDescription } from '../policy/classifier';

/**
 * Identifies "exactly this action": the same action, target, command and paths, and for a
 * tool call a hook relayed, the directory it runs in (`runsIn`). A late approval of a
 * timed-out request becomes a grant for this fingerprint only. The directory counts because
 * a command's words are read there: `rm -rf build` or `git clean -fdx` approved in the
 * project is another action in the home folder, and an agent chooses where its next call runs
 * (a `cd` its shell keeps, OpenCode's `workdir`, Gemini CLI's `dir_path`). An agent's own
 * `request` names no directory Gatehouse could hold it to, so its fingerprint has none.
 */
export function actionFingerprint(a: ActionDescription, runsIn?: string): string {
  const parts: unknown[] = [
    a.action,
    a.target ?? null,
    a.command ?? null,
    a.paths ? [...a.paths].sort() : null,
  ];
  if (runsIn !== undefined) parts.push(runsIn);
  return JSON.stringify(parts);
}
