import { DEFAULT_ACTIONS } from '../../main/engine/policy/default-actions';

/** Action names Gatehouse knows without asking anyone: the built-in table's. */
export const BUILT_IN_ACTIONS: readonly string[] = Object.keys(DEFAULT_ACTIONS).sort();

/** Edit distance (insertions, deletions, substitutions) between two short names. */
function distance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++)
      row[j] = Math.min(
        previous[j]! + 1,
        row[j - 1]! + 1,
        previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
    previous = row;
  }
  return previous[b.length]!;
}

/** The known name closest to `name`, when it is close enough to be a typo of it. */
export function closestAction(name: string, known: readonly string[]): string | undefined {
  let best: { action: string; d: number } | undefined;
  for (const action of known) {
    const d = distance(name.toLowerCase(), action);
    if (!best || d < best.d) best = { action, d };
  }
  return best && best.d <= Math.max(2, Math.floor(name.length / 3)) ? best.action : undefined;
}
