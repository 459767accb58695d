/**
 * The allowlist's building block: a program's options, each known harmless (with or without
 * a value) or known dangerous with the reason. An option on neither list is unproven.
 */
export interface OptionTable {
  /** Options without a value, space separated: `-n -r --numeric-sort`. */
  flags?: string;
  /** Options that take a value (the next word, or joined: `-k2`, `--key=2`). */
  values?: string;
  /**
   * Of `values`, those whose value is a file the program reads (`grep -f FILE`, `wc
   * --files0-from=FILE`): it is one of the call's paths, as an operand would be.
   */
  reads?: string;
  /** Options known to run code or write files, with the reason shown to the person. */
  danger?: Readonly<Record<string, string>>;
  /** `-20` (a count, as `head -20`) is an option too. */
  numeric?: boolean;
  /** Options may follow operands (GNU style); else the first operand ends the options. */
  permute?: boolean;
  /**
   * No option of the program runs or writes anything, so a word that may expand to an
   * option (`wc -l $f`, `ls *`) cannot make it do more than read; paths are checked apart.
   */
  looseOk?: boolean;
}

/**
 * A checked option table: sets and a map instead of strings and a record (a record looked up
 * by any word, across tables of different shapes, is a slow property access on every call).
 */
export interface Options {
  readonly flags: ReadonlySet<string>;
  readonly values: ReadonlySet<string>;
  readonly reads: ReadonlySet<string>;
  readonly danger: ReadonlyMap<string, string>;
  readonly numeric: boolean;
  readonly permute: boolean;
  readonly looseOk: boolean;
}

const set = (s: string | undefined): ReadonlySet<string> =>
  new Set(s?.split(/\s+/).filter(Boolean));

export const options = (t: OptionTable): Options => ({
  flags: set(t.flags),
  values: set(t.values),
  reads: set(t.reads),
  danger: lookupTable(t.danger ?? {}),
  numeric: t.numeric ?? false,
  permute: t.permute ?? true,
  looseOk: t.looseOk ?? false,
});

/** What a command's arguments are once its options are checked. */
export interface CheckedArgs {
  /** The words that are not options or option values. */
  operands: string[];
  /** Every option as written up to `=` (`-n`, `--output`), short clusters split. */
  seen: string[];
  /** The values of the table's `reads` options: files the program reads (`-` is stdin). */
  readValues: string[];
  /** Every option given a value, with it (`--include=*.ts`, `-g '!x'`), in order. */
  valued: [option: string, value: string][];
  /** The first reason the arguments are not proven harmless, if any. */
  unproven?: string;
}

/**
 * True when a word may turn into something else when the shell runs it: an expansion other
 * than `$HOME`/`$PWD`, a glob or brace at its start, or an escape, any of which may yield an
 * option (`sort $X` with `X=-o/etc/f`, a file named `--output=x` matched by `*`).
 */
export function isLoose(word: string): boolean {
  if (/^(\$HOME|\$\{HOME\}|\$PWD|\$\{PWD\})(\/|$)/.test(word)) return false;
  return /^[$`*?[{\\]/.test(word);
}

/**
 * Tells which arguments may turn into something else when the shell runs them: at their
 * start (where an option would be), or with `anywhere`, anywhere in the word (a script with
 * `$X` inside double quotes is not the script Gatehouse reads). The shell analysis knows from
 * the syntax tree (a quoted `'{print $1}'` is neither), else {@link looseByText} judges from
 * the text alone, erring towards loose.
 */
export type Looseness = (index: number, anywhere?: boolean) => boolean;

/**
 * The text-only judgement of {@link Looseness}: loose per {@link isLoose}; with `anywhere`,
 * any `$` or backquote counts, since quoting is no longer known.
 */
export const looseByText =
  (args: readonly string[]): Looseness =>
  (i, anywhere) =>
    anywhere ? /[$`]/.test(args[i] ?? '') : isLoose(args[i] ?? '');

/** Checks `args` against `table` for the program `name`. */
export function checkArgs(
  name: string,
  args: readonly string[],
  table: Options,
  loose: Looseness = looseByText(args),
): CheckedArgs {
  const operands: string[] = [];
  const seen: string[] = [];
  const readValues: string[] = [];
  const valued: [string, string][] = [];
  const fail = (unproven: string): CheckedArgs => ({
    operands,
    seen,
    readValues,
    valued,
    unproven,
  });
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--') {
      operands.push(...args.slice(i + 1));
      break;
    }
    if (!table.looseOk && loose(i)) return fail(`${clip(a)} may expand to an option of ${name}`);
    if (!a.startsWith('-') || a === '-' || (table.numeric && /^-\d+$/.test(a))) {
      if (a.startsWith('-') && table.numeric) seen.push('-N');
      else operands.push(a);
      if (!table.permute && !a.startsWith('-')) {
        operands.push(...args.slice(i + 1));
        break;
      }
      continue;
    }
    if (a.startsWith('--')) {
      const eq = a.indexOf('=');
      const key = eq < 0 ? a : a.slice(0, eq);
      seen.push(key);
      const danger = table.danger.get(key);
      if (danger) return fail(danger);
      // A flag may also take a joined value (`--color`, `--color=never`): the flag wins alone.
      if (eq < 0 && table.flags.has(key)) continue;
      if (table.values.has(key)) {
        if (eq < 0 && valueHides(args[++i])) return fail(hidden(name, args[i]!));
        readValue(table, key, eq < 0 ? args[i] : a.slice(eq + 1), readValues, valued);
        continue;
      }
      return fail(`${name} ${clip(key)} is not an option known to be harmless`);
    }
    for (let j = 1; j < a.length; j++) {
      const opt = `-${a[j]}`;
      seen.push(opt);
      const danger = table.danger.get(opt);
      if (danger) return fail(danger);
      if (table.values.has(opt)) {
        const last = j === a.length - 1;
        if (last && valueHides(args[++i])) return fail(hidden(name, args[i]!));
        readValue(table, opt, last ? args[i] : a.slice(j + 1), readValues, valued);
        break;
      }
      if (!table.flags.has(opt))
        return fail(`${name} ${opt} is not an option known to be harmless`);
    }
  }
  return { operands, seen, readValues, valued };
}

/**
 * Keeps an option's value, and apart when the option names a file the program reads (`-` is
 * stdin).
 */
function readValue(
  table: Options,
  option: string,
  value: string | undefined,
  into: string[],
  valued: [string, string][],
) {
  if (value === undefined) return;
  valued.push([option, value]);
  if (value !== '-' && table.reads.has(option)) into.push(value);
}

/**
 * True when the word taken as an option's value looks like an option itself: programs
 * differ on whether `-n --output=x` gives `-n` the value or reads `--output`, so it asks.
 */
const valueHides = (word: string | undefined): boolean => !!word && /^--?[A-Za-z]/.test(word);
const hidden = (name: string, word: string): string =>
  `${name} ${clip(word)} follows an option that takes a value; it is not known to be harmless`;

/**
 * The dangerous long option `arg` names, also when abbreviated (GNU getopt and git's option
 * parser accept any unambiguous prefix: `--out=F` is `--output=F`), else undefined. An
 * ambiguous prefix is refused by the program itself; counting it as dangerous only asks.
 */
export function dangerousLong(
  arg: string,
  names: readonly string[],
  /** Real options that are prefixes of dangerous ones (`--checkpoint`): exact names win. */
  exact: readonly string[] = [],
): string | undefined {
  if (!arg.startsWith('--')) return undefined;
  const key = arg.slice(2).replace(/=.*$/s, '');
  if (key.length < 2 || exact.includes(key)) return undefined;
  return names.find((n) => n.startsWith(key));
}

/**
 * A record's own entries as a map, built once where a table is defined: a lookup by any word
 * is then a hash lookup that never reaches `toString`, `__proto__` … (see {@link own}).
 */
export const lookupTable = <T>(record: Readonly<Record<string, T>>): ReadonlyMap<string, T> =>
  new Map(Object.entries(record));

/** `record[key]` when `key` is the record's own (never `toString`, `__proto__` …). */
export const own = <T>(record: Readonly<Record<string, T>>, key: string): T | undefined =>
  Object.hasOwn(record, key) ? record[key] : undefined;

export const clip = (s: string, n = 60): string => (s.length > n ? `${s.slice(0, n - 1)}…` : s);

/** A program the allowlist knows: the action it stands for and how its arguments are vetted. */
export interface KnownProgram {
  /** The Gatehouse action of a proven-harmless call (`read_file`, `search_files` …). */
  action: string;
  /** The paths the call reads (they go into the action's `paths`); absent, none are named. */
  paths?(args: readonly string[]): string[];
  /**
   * The letters of its short options whose value is a file it reads (`f` of `grep -f`): the
   * path scan reads a value joined to one (`-fFILE`, `-of/path`) as a path.
   */
  fileLetters?: string;
  /** The reason the call is not proven harmless, or undefined when it is. */
  vet(args: readonly string[], loose?: Looseness): string | undefined;
}

/**
 * A program whose only risk is in its options: each is checked against `table`. Its
 * operands are the paths it reads, after the first `skip` (a pattern, a script; a function
 * when an option decides it: `grep -e PATTERN` takes no pattern operand), and so are the
 * values of its `reads` options; `skip` null: only those.
 */
export function byOptions(
  name: string,
  action: string,
  table: OptionTable,
  extra?: (checked: CheckedArgs) => string | undefined,
  skip: number | ((checked: CheckedArgs) => number) | null = 0,
): KnownProgram {
  const t = options(table);
  const fileLetters = [...t.reads]
    .filter((o) => /^-[^-]$/.test(o))
    .map((o) => o[1])
    .join('');
  return {
    action,
    ...(fileLetters ? { fileLetters } : {}),
    ...(skip === null && t.reads.size === 0
      ? {}
      : {
          paths: (args) => {
            const checked = checkArgs(name, args, t, () => false);
            const from = skip === null ? Infinity : typeof skip === 'number' ? skip : skip(checked);
            const operands = checked.operands.slice(from);
            return checked.readValues.length ? [...operands, ...checked.readValues] : operands;
          },
        }),
    vet(args, loose) {
      const checked = checkArgs(name, args, t, loose);
      return checked.unproven ?? extra?.(checked);
    },
  };
}
