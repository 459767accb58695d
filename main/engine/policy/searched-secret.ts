import { searchWalk, type SearchWalk } from '../../../shared/tools/commands/search-tools';
import { programName } from '../../../shared/tools/commands/vet';
import { programIndex } from '../../../shared/tools/shell-paths';
import type { ShellAnalysis } from '../../../shared/tools/shell-syntax';
import type { PathProtection, PathResolver } from './path-port';
import { secretKind } from './secret-paths';

/**
 * A secret file under a folder a search walks and prints the matching lines of: `grep -rn
 * API_KEY .` prints the lines of the project's `.env`, as `cat .env` would (which asks), and
 * `rg --hidden` does too, as do the agents' own search tools in content mode (`toolWalk`:
 * Copilot's `grep`, OpenCode's, Gemini CLI's `grep_search`). The search's folders are walked
 * for the person's secrets by name (shared/node/secret-files.ts), only for such a search.
 */
export function searchedSecret(
  analysis: ShellAnalysis | undefined,
  cwds: readonly string[],
  vars: ReadonlyMap<string, readonly string[]>,
  pc: Pick<PathProtection, 'secretFileUnder' | 'home' | 'caseInsensitive'> & {
    resolver: PathResolver;
  },
  toolWalk?: SearchWalk & { word: string },
  writes = false,
): { word: string; kind: string } | undefined {
  if (!pc.secretFileUnder) return undefined;
  const walks: (SearchWalk & { word: string })[] = toolWalk ? [toolWalk] : [];
  for (const cmd of analysis?.commands ?? []) {
    const at = programIndex(cmd.words);
    const program = cmd.words[at];
    const walk = program && searchWalk(programName(program), cmd.words.slice(at + 1));
    if (walk) walks.push({ ...walk, word: cmd.words.slice(at).join(' ') });
  }
  for (const found of walks) {
    // A line that also writes (`echo > .gitignore && rg --hidden KEY`) may change what
    // .gitignore keeps out before the search runs: it is not read for such a line.
    const walk = writes && found.ignores ? { ...found, ignores: false } : found;
    for (const root of walk.roots.length ? walk.roots : ['.']) {
      for (const r of pc.resolver.resolve(root, { cwds, vars, literal: !analysis }).paths) {
        const found = pc.secretFileUnder(r.real, walk);
        if (found)
          return {
            word: walk.word,
            kind: `a search through ${root} that prints the lines it matches of ${found}, ${secretKind(found, pc.home, pc.caseInsensitive) ?? 'a secret'}`,
          };
      }
    }
  }
  return undefined;
}
