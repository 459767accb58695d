import { printsRemoteUrls, printsRepositoryConfig } from '../../../shared/tools/commands/git';
import { programName } from '../../../shared/tools/commands/vet';
import { programIndex } from '../../../shared/tools/shell-paths';
import type { ShellAnalysis } from '../../../shared/tools/shell-syntax';
import type { PathProtection } from './path-port';

/**
 * A command that prints a credential of a git config: `git remote -v` and `git remote
 * get-url` print each remote's URL after the person's `url.<base>.insteadOf` rewrites, so a
 * rewrite that holds a token (`https://ghp_…@github.com/`) comes out in the project's own
 * remotes; they and a `git config` read of the repository's remotes (`--get
 * remote.origin.url`, `--local -l`) print a token the repository's own config holds
 * (`git clone https://user:TOKEN@host/…` keeps it there). Asked as reading that file would
 * be; the config is read only for such a command (shared/node/git-url-credentials.ts).
 */
export function remoteUrlSecret(
  analysis: ShellAnalysis | undefined,
  cwds: readonly string[],
  pc: Pick<PathProtection, 'gitUrlCredentialFiles' | 'repositoryCredential'>,
): { word: string; kind: string } | undefined {
  if (!analysis) return undefined;
  for (const cmd of analysis.commands) {
    const at = programIndex(cmd.words);
    const program = cmd.words[at];
    if (!program || programName(program) !== 'git') continue;
    const args = cmd.words.slice(at + 1);
    const word = cmd.words.slice(at).join(' ');
    const remotes = printsRemoteUrls(args);
    if (remotes) {
      const files = pc.gitUrlCredentialFiles?.() ?? [];
      if (files.length)
        return {
          word,
          kind: `a command that prints the credential a URL rewrite of your git config holds (${files[0]})`,
        };
    }
    if (!remotes && !printsRepositoryConfig(args)) continue;
    for (const cwd of cwds) {
      const file = pc.repositoryCredential?.(cwd);
      if (file)
        return {
          word,
          kind: `a command that prints the credential the repository's git config holds (${file})`,
        };
    }
  }
  return undefined;
}
