import { commandWords, normalisePrefix, prefixCanCover } from './rule-match';

/** An example shown beside a refused prefix: one that matches a parsed command. */
const EXAMPLE = "'git push:*' (covers `git push`, `git push origin main`, …)";

/**
 * Why a command prefix (`--pattern 'git push:*'`) could never match a command, or undefined
 * when it can. A prefix is compared word by word with the start of the command, and never
 * covers a command with shell syntax in it (rule-match.ts), so a prefix holding that syntax
 * (`git push;rm:*`) or a wildcard (`*`: the words are compared literally, there is no glob)
 * would be saved as a rule that matches nothing, and the person would believe otherwise.
 */
export function commandPrefixProblem(prefix: string): string | undefined {
  const words = commandWords(normalisePrefix(prefix));
  if (words.length === 0) return `the pattern "${prefix}" has no words; e.g. ${EXAMPLE}`;
  if (!prefixCanCover(words.join(' ')))
    return (
      `the pattern "${prefix}" holds shell syntax (; & | < > \` $ ( ) { }), and a prefix never covers ` +
      `a command with such syntax, so it would match nothing; give the leading words of one ` +
      `command, e.g. ${EXAMPLE}, or an exact command with --command`
    );
  const wild = words.find((w) => /[*?[\]]/.test(w));
  if (wild !== undefined)
    return (
      `the pattern "${prefix}" has the wildcard "${wild}", but a pattern is the literal leading ` +
      `words of a command followed by ':*', so it would match nothing; e.g. ${EXAMPLE}`
    );
  return undefined;
}
