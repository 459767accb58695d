import { printsRemoteUrls } from '../../../shared/tools/commands/git';
import { programName } from '../../../shared/tools/commands/vet';
import { programIndex } from '../../../shared/tools/shell-paths';
import type { ShellAnalysis } from '../../../shared/tools/shell-syntax';
import type { PathProtection } from './path-port';

/**
 * A command that prints a credential of the person's git config: `git remote -v` and
 * `git remote get-url` print each remote's URL after the config's `url.<base>.insteadOf`
 * rewrites, so a rewrite that holds a token (`https://ghp_…@github.com/`) comes out in the
 * project's own remotes. Asked as reading that file would be; the config is read only for
 * such a command (shared/node/git-url-credentials.ts).
 */
export function remoteUrlSecret(
  analysis: ShellAnalysis | undefined,
  pc: Pick<PathProtection, 'gitUrlCredentialFiles'>,
): { word: string; kind: string } | undefined {
  if (!analysis || !pc.gitUrlCredentialFiles) return undefined;
  for (const cmd of analysis.commands) {
    const at = programIndex(cmd.words);
    const program = cmd.words[at];
    if (!program || programName(program) !== 'git') continue;
    if (!printsRemoteUrls(cmd.words.slice(at + 1))) continue;
    const files = pc.gitUrlCredentialFiles();
    if (files.length)
      return {
        word: cmd.words.slice(at).join(' '),
        kind: `a command that prints the credential a URL rewrite of your git config holds (${files[0]})`,
      };
  }
  return undefined;
}
