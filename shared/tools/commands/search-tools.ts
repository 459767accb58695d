import {
  byOptions,
  checkArgs,
  clip,
  isLoose,
  options,
  own,
  type CheckedArgs,
  type KnownProgram,
  type OptionTable,
} from './options';
import { gitGrepWalk } from './git';
import type { SecretWalk } from './secret-walk';
import { DIFF } from './text-tools';

const GREP: OptionTable = {
  looseOk: true,
  flags:
    '-a -b -c -E -F -G -H -h -I -i -L -l -n -o -P -q -R -r -s -T -U -u -V -v -w -x -y -Z -z -0 --count --recursive --dereference-recursive --ignore-case --no-ignore-case --invert-match --word-regexp --line-regexp --line-number --files-with-matches --files-without-match --only-matching --quiet --silent --no-messages --with-filename --no-filename --null --null-data --text --extended-regexp --fixed-strings --basic-regexp --perl-regexp --byte-offset --initial-tab --line-buffered --color --colour',
  values:
    '-e -f -m -A -B -C -d -D --regexp --file --max-count --after-context --before-context --context --include --exclude --exclude-dir --exclude-from --color --colour --label --binary-files --directories --devices',
  reads: '-f --file --exclude-from',
  numeric: true,
};

const RG: OptionTable = {
  flags:
    '-i -s -S -w -x -v -n -N -l -c -o -u -a -H -I -L -F -P -U -q -z -0 -p -. --ignore-case --case-sensitive --smart-case --word-regexp --line-regexp --invert-match --line-number --no-line-number --files-with-matches --files-without-match --count --count-matches --only-matching --unrestricted --text --with-filename --no-filename --follow --fixed-strings --pcre2 --multiline --quiet --null --pretty --hidden --no-ignore --no-ignore-vcs --files --json --vimgrep --no-heading --heading --column --stats --trim --sort-files --search-zip',
  values:
    '-e -f -g -t -T -m -A -B -C -r -E -M -j --regexp --file --glob --iglob --type --type-not --max-count --after-context --before-context --context --replace --encoding --max-columns --threads --max-depth --max-filesize --sort --sortr --color --colors --type-add',
  reads: '-f --file',
  danger: {
    '--pre': 'rg --pre runs a program on every file',
    '--hostname-bin': 'rg --hostname-bin runs a program',
  },
};

const AG: OptionTable = {
  flags:
    '-i -s -S -w -v -l -L -c -o -u -a -U -f -Q -G -H --ignore-case --case-sensitive --smart-case --literal --hidden --unrestricted --nocolor --color --nogroup --group --count --files-with-matches --column --numbers --noheading',
  values: '-A -B -C -m -g -G --ignore --ignore-dir --depth --file-search-regex --context',
  danger: { '--pager': 'ag --pager runs a program' },
};

const LS: OptionTable = {
  looseOk: true,
  flags:
    '-a -A -b -B -c -C -d -D -f -F -g -G -h -H -i -k -l -L -m -n -N -o -p -q -Q -r -R -s -S -t -u -U -v -x -X -Z -1 --all --almost-all --human-readable --si --directory --dereference --classify --file-type --full-time --group-directories-first --inode --numeric-uid-gid --recursive --reverse --size --literal --long --header --git --icons --tree --no-permissions --no-user --no-time --oneline --color --colour',
  values:
    '-I -w -T -L --ignore --hide --sort --format --time --time-style --color --colour --indicator-style --block-size --quoting-style --width --tabsize --level --hyperlink',
};

/**
 * The operands before a search's paths: its pattern, unless an option gave it (`-e`, `-f`)
 * or the call lists files without one (`rg --files`, `ag -g`). The paths after it are what
 * the search reads: outside the project they ask, as `cat` there does (`grep '' FILE` prints
 * all of FILE).
 */
const patternOperands =
  (given: RegExp) =>
  (checked: CheckedArgs): number =>
    checked.seen.some((o) => given.test(o)) ? 0 : 1;
const GREP_PATTERN = patternOperands(/^(-e|-f|--regexp|--file)$/);
const AG_PATTERN = patternOperands(/^(-g|--file-search-regex)$/);
const RG_PATTERN = patternOperands(/^(-e|-f|--regexp|--file|--files|--type-list)$/);

/**
 * A search's file glob as a glob of one name, for a walk that matches names: as written when
 * it is one (`*.ts`, `.env*`); `*` (every name, the safe side) when it is a path
 * (`config/*.env`), has braces rg and the agents' tools expand (`*.{env,txt}`) or escapes.
 */
export const nameGlob = (glob: string): string => (/[/{}\\]/.test(glob) ? '*' : glob);

/** What a search that prints the lines it matches walks, and which files of it it reads. */
export interface SearchWalk extends SecretWalk {
  /** The folders (or files) searched, as written; none: the working directory. */
  roots: string[];
  /** A diff of folders, which prints the text of the files that differ, not matched lines. */
  diff?: true;
}

const GREP_OPTIONS = options(GREP);
const RG_OPTIONS = options(RG);
const AG_OPTIONS = options(AG);
const DIFF_OPTIONS = options(DIFF);
/** Options after which a search prints names, counts or nothing: no line of a file. */
const NAMES_ONLY =
  /^(-l|-L|-c|-q|--files-with-matches|--files-without-match|--count|--count-matches|--quiet|--silent|--files|--type-list)$/;

/**
 * The walk of a search that prints what it matches, through every file under its folders:
 * `grep -r`/`-R` (or `-d recurse`), `rg` and `ag` (hidden names with `--hidden`, what
 * .gitignore keeps out with `-u`, `--no-ignore`), `git grep`. Undefined for another program,
 * a grep that does not recurse, or a search that prints only names or counts. `rg -t TYPE`
 * reads files of code types only (unless `--type-add` made one).
 */
export function searchWalk(name: string, args: readonly string[]): SearchWalk | undefined {
  if (name === 'git') return gitGrepWalk(args);
  if (name === 'diff') return diffWalk(args);
  if (name === 'grep' || name === 'egrep' || name === 'fgrep') {
    const c = checkArgs(name, args, GREP_OPTIONS, () => false);
    const recursive =
      c.seen.some((o) => /^(-r|-R|--recursive|--dereference-recursive)$/.test(o)) ||
      c.valued.some(([o, v]) => (o === '-d' || o === '--directories') && v === 'recurse');
    if (!recursive || c.seen.some((o) => NAMES_ONLY.test(o))) return undefined;
    return {
      roots: c.operands.slice(GREP_PATTERN(c)),
      hidden: true,
      ignores: false,
      only: c.valued.filter(([o]) => o === '--include').map(([, v]) => nameGlob(v)),
      ...(c.seen.some((o) => o === '-R' || o === '--dereference-recursive') && { follow: true }),
    };
  }
  if (name === 'rg' || name === 'ripgrep') {
    const c = checkArgs(name, args, RG_OPTIONS, () => false);
    // rg's -L is --follow, not grep's names of files without a match.
    const follow = c.seen.some((o) => o === '-L' || o === '--follow');
    if (c.seen.some((o) => o !== '-L' && NAMES_ONLY.test(o))) return undefined;
    if (c.seen.some((o) => o === '-t' || o === '--type') && !c.seen.includes('--type-add'))
      return undefined;
    const unrestricted = c.seen.filter((o) => o === '-u' || o === '--unrestricted').length;
    const hidden = c.seen.some((o) => o === '--hidden' || o === '-.') || unrestricted >= 2;
    // Told nothing, rg reads no hidden name and nothing .gitignore keeps out, but it reads a
    // deploy key or a Terraform state the project holds under a plain name.
    const ignores = !unrestricted && !c.seen.some((o) => /^--no-ignore/.test(o));
    const globs = c.valued.filter(
      ([o, v]) => (o === '-g' || o === '--glob' || o === '--iglob') && !v.startsWith('!'),
    );
    return {
      roots: c.operands.slice(RG_PATTERN(c)),
      hidden,
      ignores,
      only: globs.map(([, v]) => nameGlob(v)),
      caseless: globs.some(([o]) => o === '--iglob'),
      ...(follow && { follow }),
    };
  }
  if (name === 'ag') {
    const c = checkArgs(name, args, AG_OPTIONS, () => false);
    if (c.seen.some((o) => NAMES_ONLY.test(o) || o === '-g')) return undefined;
    const unrestricted = c.seen.some((o) => /^(-u|--unrestricted)$/.test(o));
    const hidden = unrestricted || c.seen.includes('--hidden');
    // As rg: told nothing, it skips hidden names and what .gitignore keeps out.
    const ignores = !unrestricted && !c.seen.includes('-U');
    const follow = c.seen.some((o) => o === '-f' || o === '--follow');
    return { roots: c.operands.slice(1), hidden, ignores, only: [], ...(follow && { follow }) };
  }
  return undefined;
}

/**
 * The walk of a diff with a folder among its operands: it pairs the files of the same name
 * in both and prints the text of each pair that differs (both `.env` files, when the two
 * folders hold different ones), and with `-N`/`--new-file` the whole text of a file only one
 * side holds; `-r` goes down every folder, else only the folders' own files are read. Hidden
 * names are read, .gitignore is not, links are followed; `-x`/`--exclude` are not read (every
 * file counts). A file operand is no folder and walks nothing. Undefined for `-q`/`--brief`,
 * which prints only the names of the files that differ.
 */
function diffWalk(args: readonly string[]): SearchWalk | undefined {
  const c = checkArgs('diff', args, DIFF_OPTIONS, () => false);
  if (!c.operands.length || c.seen.some((o) => o === '-q' || o === '--brief')) return undefined;
  const recursive = c.seen.some((o) => o === '-r' || o === '--recursive');
  return {
    roots: c.operands,
    hidden: true,
    ignores: false,
    only: [],
    follow: true,
    diff: true,
    ...(!recursive && { depth: 0 }),
  };
}

/**
 * Programs that search or list files; none of their listed options runs or writes anything.
 * `ack` is not here: it reads options from any `.ackrc` up the tree, and `--output` is Perl.
 */
export const SEARCH_TOOLS: Readonly<Record<string, KnownProgram>> = {
  grep: byOptions('grep', 'search_files', GREP, undefined, GREP_PATTERN),
  egrep: byOptions('egrep', 'search_files', GREP, undefined, GREP_PATTERN),
  fgrep: byOptions('fgrep', 'search_files', GREP, undefined, GREP_PATTERN),
  rg: byOptions('rg', 'search_files', RG, undefined, RG_PATTERN),
  ag: byOptions('ag', 'search_files', AG, undefined, AG_PATTERN),
  ls: byOptions('ls', 'list_files', LS),
  ll: byOptions('ll', 'list_files', LS),
  exa: byOptions('exa', 'list_files', LS),
  eza: byOptions('eza', 'list_files', LS),
  tree: byOptions('tree', 'list_files', {
    flags:
      '-a -d -f -i -l -p -s -h -u -g -D -F -q -N -r -t -c -U -v -C -n -J -X -Q --noreport --dirsfirst --du --gitignore --prune --si --inodes --device',
    values: '-L -P -I --filelimit --charset --sort --timefmt -T',
    danger: {
      '-o': 'tree -o writes a file',
      '-R': 'tree -R writes a file in every directory',
      '-H': 'tree -H writes HTML (with -R, into every directory)',
    },
  }),
  fd: fdProgram('fd'),
  fdfind: fdProgram('fdfind'),
  locate: {
    ...byOptions('locate', 'list_files', {
      flags: '-i -c -e -b -w -0 -A -S -q -r --ignore-case --count --existing --basename --all',
      values: '-l -n -d --limit --database --regex',
    }),
    // Its operands are patterns and its database is the whole disk: a listing of `/`, which
    // asks outside the project as `find /` does.
    paths: () => ['/'],
  },
  find: findProgram(),
};

function fdProgram(name: string): KnownProgram {
  return byOptions(name, 'list_files', {
    flags:
      '-H -I -u -s -i -g -F -a -l -L -p -0 -1 -q --hidden --no-ignore --unrestricted --case-sensitive --ignore-case --glob --fixed-strings --absolute-path --list-details --follow --full-path --print0 --quiet --show-errors --prune',
    values:
      '-e -t -d -E -c -j -S -o --extension --type --max-depth --min-depth --exact-depth --exclude --color --threads --size --changed-within --changed-before --owner --base-directory --search-path --max-results --format --path-separator --ignore-file',
    // The folders it lists, given by option, and a file of patterns it reads.
    reads: '--base-directory --search-path --ignore-file',
    danger: {
      '-x': `${name} -x runs a command on every file found`,
      '--exec': `${name} -x runs a command on every file found`,
      '-X': `${name} -X runs a command with the files found`,
      '--exec-batch': `${name} -X runs a command with the files found`,
    },
  });
}

/** find's tests and actions that only look; `-delete` is an action the mapping names. */
const FIND_PLAIN = new Set(
  '-print -print0 -ls -o -or -a -and -not ! ( ) , -follow -readable -writable -executable -depth -xdev -mount -true -false -nouser -nogroup -quit -daystart -noleaf -prune -empty -delete -L -H -P'.split(
    ' ',
  ),
);
const FIND_VALUE = new Set(
  '-name -iname -path -ipath -wholename -iwholename -regex -iregex -type -xtype -size -mtime -mmin -atime -amin -ctime -cmin -newer -anewer -cnewer -user -group -uid -gid -perm -maxdepth -mindepth -links -inum -samefile -regextype -fstype -lname -ilname -used -printf'.split(
    ' ',
  ),
);
const FIND_DANGER: Readonly<Record<string, string>> = {
  '-exec': 'find -exec runs a command on every file found',
  '-execdir': 'find -execdir runs a command on every file found',
  '-ok': 'find -ok runs a command on every file found',
  '-okdir': 'find -okdir runs a command on every file found',
  '-fprint': 'find -fprint writes a file',
  '-fprint0': 'find -fprint0 writes a file',
  '-fprintf': 'find -fprintf writes a file',
  '-fls': 'find -fls writes a file',
};

function findProgram(): KnownProgram {
  return {
    action: 'list_files',
    vet(args, loose = (i) => isLoose(args[i] ?? '')) {
      let expression = false;
      for (let i = 0; i < args.length; i++) {
        const a = args[i]!;
        if (loose(i)) return `${clip(a)} may expand to a find expression`;
        const danger = own(FIND_DANGER, a);
        if (danger) return danger;
        if (FIND_VALUE.has(a) || /^-newer[aBcmt][aBcmt]$/.test(a)) {
          expression = true;
          i++;
          continue;
        }
        if (FIND_PLAIN.has(a)) {
          if (!/^-[LHP]$/.test(a)) expression = true;
          continue;
        }
        if (a.startsWith('-') || expression)
          return `find ${clip(a)} is not an expression known to be harmless`;
      }
      return undefined;
    },
  };
}
