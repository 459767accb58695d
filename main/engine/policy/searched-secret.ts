import { searchWalk } from '../../../shared/tools/commands/search-tools';
import { programName } from '../../../shared/tools/commands/vet';
import { programIndex } from '../../../shared/tools/shell-paths';
import type { ShellAnalysis } from '../../../shared/tools/shell-syntax';
import type { PathProtection, PathResolver } from './path-port';
import { secretKind } from './secret-paths';

/**
 * A secret file under a folder a search walks and prints the matching lines of: `grep -rn
 * API_KEY .` prints the lines of the project's `.env`, as `cat .env` would (which asks), and
 * `rg --hidden` does too. The search's folders are walked for the person's secrets by name
 * (shared/node/secret-files.ts), only for such a search.
 */
export function searchedSecret(
  analysis: ShellAnalysis | undefined,
  cwds: readonly string[],
  vars: ReadonlyMap<string, readonly string[]>,
  pc: Pick<PathProtection, 'secretFileUnder' | 'home' | 'caseInsensitive'> & {
    resolver: PathResolver;
  },
): { word: string; kind: string } | undefined {
  if (!analysis || !pc.secretFileUnder) return undefined;
  for (const cmd of analysis.commands) {
    const at = programIndex(cmd.words);
    const program = cmd.words[at];
    const walk = program && searchWalk(programName(program), cmd.words.slice(at + 1));
    if (!walk) continue;
    for (const root of walk.roots.length ? walk.roots : ['.']) {
      for (const r of pc.resolver.resolve(root, { cwds, vars }).paths) {
        const found = pc.secretFileUnder(r.real, walk);
        if (found)
          return {
            word: cmd.words.slice(at).join(' '),
            kind: `a search through ${root} that prints the lines it matches of ${found}, ${secretKind(found, pc.home, pc.caseInsensitive) ?? 'a secret'}`,
          };
      }
    }
  }
  return undefined;
}
