import type { ActionDescription } from '../policy/classifier';

/**
 * Identifies "exactly this action": the same action, target, command and paths. A late
 * approval of a timed-out request becomes a grant for this fingerprint only.
 */
export function actionFingerprint(a: ActionDescription): string {
  return JSON.stringify([
    a.action,
    a.target ?? null,
    a.command ?? null,
    a.paths ? [...a.paths].sort() : null,
  ]);
}
