import { programName } from './commands/vet';

/** Words that run the rest of the command line as a command. */
export const PREFIXES: ReadonlySet<string> = new Set([
  'sudo',
  'doas',
  'env',
  'nohup',
  'time',
  'nice',
  'ionice',
  'timeout',
  'command',
  'exec',
  'builtin',
  'stdbuf',
  'chroot',
  'unbuffer',
  'then',
  'do',
  'else',
  '!',
]);
/** Options of the prefixes above that take a value (the word after them is not a program). */
export const PREFIX_VALUE_OPTION = /^-([ugCDhprtsknS]|-user|-group|-chdir|-signal|-kill-after)$/;

/** One prefix of a command (`env X=1`, `nice -n 5`, `timeout 5`) and its words. */
export interface PrefixSpan {
  name: string;
  /** Its options and assignments: `words.slice(from, optionsEnd)`. */
  from: number;
  optionsEnd: number;
}

/**
 * Where the program of a simple command starts, past the prefixes that run the rest of the
 * line (`env X=1 git`, `nice -n 5 git`, `timeout 5 git`, `command git`): one definition for
 * the allowlist, the path scan and the git working-directory check, so a wrapped command is
 * judged as its bare form. Only the real program is a prefix: `./nohup` may be anything.
 */
export function commandStart(words: readonly string[]): {
  program: number;
  prefixes: PrefixSpan[];
} {
  const prefixes: PrefixSpan[] = [];
  let i = 0;
  while (i < words.length) {
    const name = programName(words[i]!);
    if (!PREFIXES.has(name)) break;
    // `command -v node` only says where a program is: what follows is a name, not a program.
    if (name === 'command' && /^-[vV]$/.test(words[i + 1] ?? '')) break;
    const from = ++i;
    while (i < words.length && (words[i]!.startsWith('-') || /^[A-Za-z_]\w*=/.test(words[i]!)))
      i += PREFIX_VALUE_OPTION.test(words[i]!) ? 2 : 1;
    prefixes.push({ name, from, optionsEnd: i });
    if (name === 'timeout' && i < words.length) i++;
  }
  return { program: i, prefixes };
}
