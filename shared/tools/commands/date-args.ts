/** What a `date` call's options do beyond printing the time. */
export interface DateArgs {
  /**
   * The files it reads: `-f FILE`/`--file=FILE` (it prints each line it cannot parse, so the
   * file's text) and `-r FILE`/`--reference=FILE` (its modification time). As a reading, a
   * file outside the project asks, as `cat` there does.
   */
  files: string[];
  /** `-s`/`--set` (or a prefix of it, `--se=`): it sets the system clock. */
  setsClock: boolean;
}

/** date's long options that take a value; GNU getopt takes any unambiguous prefix of one. */
const LONG_VALUES = ['date', 'file', 'reference', 'set'];
/** Its short options whose value is a file it reads. */
export const DATE_FILE_LETTERS = 'fr';
/** Its short options that take one: the rest of the word, else the next (-I only joined). */
const SHORT_VALUES = 'dfrsI';

/**
 * Reads `date`'s options as GNU date does. A prefix several options share (`--r`: reference
 * or rfc-3339) is refused by date itself; it counts here as every option it may be.
 */
export function dateArgs(args: readonly string[]): DateArgs {
  const files: string[] = [];
  let setsClock = false;
  const take = (option: string, value: string | undefined): void => {
    if (option === 's' || option === 'set') setsClock = true;
    const readsFile =
      option === 'file' || option === 'reference' || DATE_FILE_LETTERS.includes(option);
    if (readsFile && value !== undefined && value !== '-') files.push(value);
  };
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--') break;
    const long = /^--([^=]+)(=(.*))?$/s.exec(a);
    if (long) {
      const key = long[1]!;
      const named = LONG_VALUES.filter((o) => o.startsWith(key));
      if (!named.length) continue;
      const value = long[2] !== undefined ? long[3] : args[++i];
      for (const option of named) take(option, value);
      continue;
    }
    if (!/^-[^-]/.test(a)) continue;
    for (let j = 1; j < a.length; j++) {
      const letter = a[j]!;
      if (!SHORT_VALUES.includes(letter)) continue;
      const rest = a.slice(j + 1);
      take(letter, rest || letter === 'I' ? rest : args[++i]);
      break;
    }
  }
  return { files, setsClock };
}
