import { searchWalk, type SearchWalk } from '../../../shared/tools/commands/search-tools';
import { programName } from '../../../shared/tools/commands/vet';
import { programIndex } from '../../../shared/tools/shell-paths';
import type { PathUse } from '../../../shared/tools/path-resolution';
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
  uses: readonly PathUse[] = [],
): { word: string; kind: string } | undefined {
  if (!pc.secretFileUnder) return undefined;
  const walks: (SearchWalk & { word: string; command: number })[] = toolWalk
    ? [{ ...toolWalk, command: -1 }]
    : [];
  for (const [i, cmd] of analysis?.commands.entries() ?? []) {
    const at = programIndex(cmd.words);
    const program = cmd.words[at];
    const walk = program && searchWalk(programName(program), cmd.words.slice(at + 1));
    if (walk) walks.push({ ...walk, word: cmd.words.slice(at).join(' '), command: i });
  }
  /**
   * Whether the line writes besides the search's own words (`git grep` is a program that
   * can write; its words are not writes): another command, or a redirection of the search.
   */
  const writesBeside = (i: number): boolean =>
    uses.some(
      (u) =>
        u.role === 'write' &&
        (u.command !== i || !!analysis?.commands[i]?.redirects.some((r) => r.target === u.word)),
    );
  /**
   * Whether the line may change what git's index says before `git grep` runs: another git
   * command (`git add -f .env && git grep KEY`), or git told of another index or git folder
   * (`GIT_INDEX_FILE=…`, `GIT_DIR=…`).
   */
  const indexBeside = (i: number): boolean =>
    !!analysis &&
    (analysis.commands.some((c, j) => j !== i && c.words.some((w) => programName(w) === 'git')) ||
      [...analysis.assignments.keys()].some((k) => k.startsWith('GIT_')) ||
      !!analysis.commands[i]?.words.some((w) => /^GIT_\w*=/.test(w)));
  for (const found of walks) {
    // A line that also writes (`echo > .gitignore && rg --hidden KEY`) may change what
    // .gitignore keeps out before the search runs: it is not read for such a line; nor is
    // git's index for a line that may change it.
    let walk = found;
    if (walk.tracked && indexBeside(walk.command))
      walk = { ...walk, ignores: false, tracked: false };
    if (walk.ignores && writesBeside(walk.command)) walk = { ...walk, ignores: false };
    for (const root of walk.roots.length ? walk.roots : ['.']) {
      for (const r of pc.resolver.resolve(root, { cwds, vars, literal: !analysis }).paths) {
        const found = pc.secretFileUnder(r.real, walk);
        if (typeof found === 'object')
          return {
            word: walk.word,
            kind: `${walk.diff ? 'a diff of' : 'a search through'} ${root}, which holds more than ${found.names.toLocaleString('en-US')} names: Gatehouse looks at that many for secret files (.env, keys) and cannot tell whether one is past them`,
          };
        if (found)
          return {
            word: walk.word,
            kind: `${walk.diff ? `a diff of ${root} that prints the text of` : `a search through ${root} that prints the lines it matches of`} ${found}, ${secretKind(found, pc.home, pc.caseInsensitive) ?? 'a secret'}`,
          };
      }
    }
  }
  return undefined;
}
