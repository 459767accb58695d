import { historyRead } from '../../../shared/tools/commands/git';
import { programName } from '../../../shared/tools/commands/vet';
import { programIndex } from '../../../shared/tools/shell-paths';
import type { ShellAnalysis } from '../../../shared/tools/shell-syntax';
import type { PathProtection } from './path-port';
import { secretKind } from './secret-paths';

/**
 * A secret a git command prints from the repository's history: `git log -p`, `git show
 * <commit>`, `git diff <revision>` and the like print the lines of every file the commits
 * changed, a `.env` committed once and removed since among them (main/history-secrets.ts
 * reads which secret files by name the history holds). `dirs` gives where the line's git
 * commands run (worked out only for such a command).
 */
export function historySecret(
  analysis: ShellAnalysis | undefined,
  dirs: () => readonly string[],
  pc: Pick<PathProtection, 'historySecret' | 'home' | 'caseInsensitive'>,
): { word: string; kind: string } | undefined {
  if (!pc.historySecret || !analysis) return undefined;
  for (const cmd of analysis.commands) {
    const at = programIndex(cmd.words);
    if (programName(cmd.words[at] ?? '') !== 'git') continue;
    const read = historyRead(cmd.words.slice(at + 1));
    if (!read) continue;
    const word = cmd.words.slice(at).join(' ');
    for (const dir of dirs()) {
      const found = pc.historySecret(dir, read.pathspecs, read.tracked);
      if (!found) continue;
      if ('unread' in found)
        return {
          word,
          kind: `a git command that prints file contents from the repository's history, which Gatehouse could not read to see whether a secret was committed there (${found.unread})`,
        };
      return {
        word,
        kind: `a git command that prints file contents from the repository's history, which holds ${found.path} (${secretKind(found.path, pc.home, pc.caseInsensitive) ?? 'a secret'}): a file committed once stays in git's objects after it is removed`,
      };
    }
  }
  return undefined;
}
