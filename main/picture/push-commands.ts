import { isAbsolute, resolve } from 'node:path';
import type { PlacedCommand } from './placed-commands';
import { pushTargetOf, type PushTarget } from './push-picture';

/** A `git push` of a command line, with the repository directory it reads. */
export interface PlacedPush {
  target: PushTarget;
  /** The directory git runs in: the command's own, then each `-C` in turn. */
  cwd?: string;
  /** Why that directory is not known, when it is not. */
  unknownDir?: string;
}

/** Git's options that take the next word as their value. */
const VALUE_OPTIONS = /^(-c|--namespace|--config-env|--exec-path|--super-prefix|--attr-source)$/;
/** Options that point git at a repository other than the directory's. */
const ELSEWHERE = /^(--git-dir|--work-tree)(=|$)/;

/**
 * The `git push` commands of a line, each with the directory git would read: where the
 * command runs (after the line's `cd`s) and every `git -C DIR` applied in turn, as git does.
 */
export function pushesIn(commands: readonly PlacedCommand[]): PlacedPush[] {
  const out: PlacedPush[] = [];
  for (const c of commands) {
    if (c.words[0]?.replace(/^.*\//, '') !== 'git') continue;
    let at: { cwd?: string; unknownDir?: string } = c.unknownDir
      ? { unknownDir: c.unknownDir }
      : c.cwd !== undefined
        ? { cwd: c.cwd }
        : {};
    let i = 1;
    for (; i < c.words.length && c.words[i]!.startsWith('-'); i++) {
      const w = c.words[i]!;
      if (VALUE_OPTIONS.test(w)) i++;
      else if (ELSEWHERE.test(w)) at = { unknownDir: `it names its own repository (${w})` };
      else if (w === '-C' && i + 1 < c.words.length) {
        const dir = c.words[++i]!;
        if (c.dynamic[i] || dir.startsWith('~'))
          at = { unknownDir: `it reads the repository in \`${dir}\`` };
        else if (at.cwd !== undefined || isAbsolute(dir))
          at = { cwd: at.cwd === undefined ? resolve(dir) : resolve(at.cwd, dir) };
      }
    }
    if (c.words[i] !== 'push') continue;
    out.push({ target: pushTargetOf(c.words.slice(i)), ...at });
  }
  return out;
}
