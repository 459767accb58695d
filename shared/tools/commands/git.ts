import type { ActionSpec } from '../action-spec';
import type { SecretWalk } from './secret-walk';
import {
  checkArgs,
  clip,
  dangerousLong,
  lookupTable,
  looseByText,
  options,
  type Looseness,
} from './options';

/** git's global options that change nothing but output and locking. */
const GLOBAL_FLAGS = new Set([
  '--no-pager',
  '--no-optional-locks',
  '--literal-pathspecs',
  '--glob-pathspecs',
  '--noglob-pathspecs',
  '--icase-pathspecs',
  '--no-replace-objects',
  '--version',
  '--help',
]);
const GLOBAL_DANGER: Readonly<Record<string, string>> = {
  '-c': 'git -c can set core.fsmonitor, core.pager or an alias, which run commands',
  '--config-env': 'git --config-env sets configuration, which can run commands',
  '--exec-path': 'git --exec-path chooses the programs git runs',
  '--git-dir': 'git --git-dir can point at a repository whose configuration runs commands',
  '--work-tree': 'git --work-tree changes which files git reads and writes',
  '--namespace': 'git --namespace changes which refs git works on',
  '--super-prefix': 'git --super-prefix is internal to git',
  '--bare': 'git --bare treats the directory as a repository whose configuration runs commands',
  '-p': 'git -p runs the configured pager',
  '--paginate': 'git --paginate runs the configured pager',
  '--attr-source': 'git --attr-source changes which attributes (diff drivers) apply',
};

/** Options of any sub-command that run a program or write a file. */
const ANY_DANGER: Readonly<Record<string, string>> = {
  '--output': 'git --output writes a file',
  '--ext-diff': 'git --ext-diff runs an external diff program',
  '--textconv': 'git --textconv runs a conversion program',
  '--filters': 'git --filters runs clean/smudge filter programs',
  '--open-files-in-pager': 'git grep -O runs a program on the files found',
  '--upload-pack': 'git --upload-pack runs a program',
  '--receive-pack': 'git --receive-pack runs a program',
  '--exec': 'git --exec runs a program',
  '--template': 'git --template copies hooks that run later',
  '--config': 'git --config sets configuration, which can run commands',
};

const DANGER_NAMES = Object.keys(ANY_DANGER).map((k) => k.slice(2));
const GLOBAL_DANGER_BY_NAME = lookupTable(GLOBAL_DANGER);
const ANY_DANGER_BY_NAME = lookupTable(ANY_DANGER);

/** The options of git's read-only sub-commands (log, show, diff, status, blame, grep …). */
const READ_OPTIONS = options({
  flags:
    '-a -b -c -d -e -g -h -i -k -l -m -o -p -q -r -s -t -u -v -w -y -z -E -F -H -I -L -P -W -1 -2 -3 --oneline --graph --all --decorate --no-decorate --stat --shortstat --numstat --dirstat --summary --name-only --name-status --patch --no-patch --follow --abbrev-commit --no-abbrev-commit --no-merges --merges --first-parent --reverse --left-right --cherry-pick --cherry-mark --topo-order --date-order --color --no-color --word-diff --color-words --pickaxe-all --raw --full-history --simplify-by-decoration --branches --tags --remotes --no-walk --source --relative --ignore-space-change --ignore-all-space --ignore-blank-lines --minimal --patience --histogram --no-prefix --full-index --binary --check --exit-code --quiet --cached --staged --merge-base --no-renames --find-renames --find-copies --porcelain --short --long --branch --ignored --show-stash --no-ahead-behind --untracked --untracked-files --ignore-submodules --others --deleted --modified --stage --unmerged --exclude-standard --full-name --error-unmatch --directory --recurse-submodules --name-status --full-tree --always --dirty --exact-match --contains --no-contains --merged --no-merged --show-current --list --verbose --abbrev-ref --show-toplevel --show-prefix --show-cdup --is-inside-work-tree --is-inside-git-dir --is-bare-repository --git-dir --absolute-git-dir --git-common-dir --symbolic-full-name --verify --line-porcelain --show-name --show-number --root --count --files-with-matches --files-without-match --and --or --not --all-match --break --heading --column --no-column --numbered --summary --email --ignore-case --word-regexp --invert-match --line-number --extended-regexp --fixed-strings --perl-regexp --text --show-signature --no-notes --notes --boundary --parents --children --remerge-diff --combined-all-paths --cc --full-diff --ita-invisible-in-index --compact-summary --no-ext-diff --no-textconv --show-origin --show-scope --get --get-all --get-regexp --name-only --null --type --includes --no-includes --global --local --system --worktree --sort --points-at',
  values:
    '-n -A -B -C -G -S -U -M -X -e -L --max-count --skip --since --until --after --before --author --committer --grep --format --pretty --date --diff-filter --unified --abbrev --src-prefix --dst-prefix --word-diff-regex --stat-width --exclude --match --max-depth --threads --ignore-rev --encoding --sort --format --points-at --inter-hunk-context --find-object --since-as-filter --group --default --diff-algorithm --color-moved -x',
  numeric: true,
  danger: ANY_DANGER,
});

/** Sub-commands whose calls are reads (with only {@link READ_OPTIONS}). */
const READ_SUBCOMMANDS = new Set([
  'status',
  'rev-parse',
  'ls-files',
  'ls-tree',
  'cat-file',
  'describe',
  'log',
  'show',
  'reflog',
  'blame',
  'shortlog',
  'diff',
  'grep',
  'branch',
  'checkout',
  'switch',
  'worktree',
  'config',
  'remote',
  'stash',
  'tag',
  'rev-list',
  'show-ref',
  'merge-base',
  'whatchanged',
  'count-objects',
  'version',
  'help',
]);

const GIT_ELSEWHERE =
  'git -C outside the project works on a repository whose own configuration runs commands';

/** A path word with nothing the shell expands: letters, digits, `._-/@+,:=%` and spaces. */
const PLAIN_PATH = /^[\w.@+,:=%/ -]+$/;

/**
 * Whether a path (or `-C` directories taken one after the other) may lead out of the
 * current directory: proven to stay inside only when it is relative and no `..` climbs
 * above where it starts, read lexically. An absolute path, `~`, or a climb out is taken as
 * elsewhere even when it comes back: the allowlist does not know the cwd or the project.
 */
function leavesCwd(paths: readonly string[]): boolean {
  let depth = 0;
  for (const p of paths) {
    // Only plain names are read: an expansion (`$HOME/x`), `~` or a glob may be anywhere.
    if (p === '' || p.startsWith('/') || !PLAIN_PATH.test(p)) return true;
    for (const seg of p.split('/')) {
      if (seg === '..') depth--;
      else if (seg !== '' && seg !== '.') depth++;
      if (depth < 0) return true;
    }
  }
  return false;
}

/** git's global options split from the sub-command and its arguments. */
function split(args: readonly string[]): { globals: string[]; sub: string; rest: string[] } {
  let i = 0;
  while (i < args.length && args[i]!.startsWith('-'))
    i +=
      /^(-C|-c|--git-dir|--work-tree|--namespace|--config-env|--exec-path|--super-prefix|--attr-source)$/.test(
        args[i]!,
      )
        ? 2
        : 1;
  return { globals: args.slice(0, i), sub: args[i] ?? '', rest: args.slice(i + 1) };
}
const TAG_LIST_OPTION = /^(-l|--list|-n\d*|--sort=.*|--contains|--points-at|--merged|--no-merged)$/;
const operandsOf = (args: readonly string[]): string[] => args.filter((a) => !a.startsWith('-'));

/** The values of a short option that names a file git reads (`-S FILE`, `-SFILE`). */
function optionFiles(args: readonly string[], option: string): string[] {
  const files: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--') break;
    if (a === option) {
      const value = args[++i];
      if (value !== undefined) files.push(value);
    } else if (a.startsWith(option) && !a.startsWith('--')) files.push(a.slice(option.length));
  }
  return files;
}

/**
 * The letters of git's short options whose value is a file it reads: `blame -S`, `ls-files
 * -X`, `diff -O` (an order file; `git diff -O` is not proven and asks, but its file is a path).
 */
export const GIT_FILE_LETTERS = 'SXO';

/**
 * Files a git read reads besides the repository: `blame -S FILE` (revisions; it prints a
 * line it cannot read, "bad graft data: …"), `ls-files -X FILE` (exclude patterns), and the
 * person's config files a `git config` listing prints. A read of its own: outside the
 * project it asks, as `cat` there does.
 */
export function gitFileReads(args: readonly string[]): string[] {
  const { sub, rest } = split(args);
  if (sub === 'blame') return optionFiles(rest, '-S');
  if (sub === 'ls-files') return optionFiles(rest, '-X');
  if (sub === 'config') return configUserFileReads(rest);
  if (sub === 'show' || sub === 'cat-file' || sub === 'diff') return blobPaths(rest);
  if (sub === 'grep') return blobPaths(rest, true);
  // Aliases are printed with their commands, tokens and all: all of them (`-a`), or the
  // one a name is (`git help deploy`: "'deploy' is aliased to '!curl -H …'"). git's own
  // commands and guides cannot be aliases.
  if (
    sub === 'help' &&
    rest.some((a) =>
      a.startsWith('-')
        ? /^(-a|--all|--aliases)$/.test(a)
        : !GIT_MANUALS.has(a.replace(/^git-?/, '')),
    )
  )
    return [...USER_CONFIG_FILES, ...SYSTEM_CONFIG_FILES];
  return [];
}

/** git's commands and guides `git help NAME` shows the manual of (never an alias). */
const GIT_MANUALS = new Set([
  ...READ_SUBCOMMANDS,
  ...'add am apply archive bisect bundle cherry-pick clean clone commit fetch format-patch fsck gc init maintenance merge mergetool difftool mv notes pull push range-diff rebase reset restore revert rm send-email sparse-checkout submodule attributes cli credentials everyday glossary hooks ignore modules revisions tutorial workflows faq namespaces'.split(
    ' ',
  ),
]);

/**
 * Whether a git command prints its remotes' URLs as git reads them, after the person's
 * `url.<base>.insteadOf` rewrites: `git remote -v`, `git remote get-url`.
 */
export function printsRemoteUrls(args: readonly string[]): boolean {
  const { sub, rest } = split(args);
  if (sub !== 'remote') return false;
  return operandsOf(rest)[0] === 'get-url' || rest.some((a) => a === '-v' || a === '--verbose');
}

/**
 * The walk of a `git grep`, from where it runs (`git -C DIR`: there): plain, it prints the
 * lines of the files the repository tracks (a committed `.env` or deploy key included; a
 * revision's are taken as the index's); `--untracked`, of every file within .gitignore
 * (unless `--no-exclude-standard`), hidden ones included; `--no-index`, of every file.
 * Undefined for another command, or one that prints names or counts.
 */
export function gitGrepWalk(
  args: readonly string[],
): (SecretWalk & { roots: string[] }) | undefined {
  return grepWalkOf(split(args));
}

/** {@link gitGrepWalk} of a command already split into globals, subcommand and the rest. */
function grepWalkOf({
  globals,
  sub,
  rest,
}: ReturnType<typeof split>): (SecretWalk & { roots: string[] }) | undefined {
  if (sub !== 'grep') return undefined;
  if (
    rest.some((a) =>
      /^(-l|-L|-c|-q|--name-only|--files-with-matches|--files-without-match|--count|--quiet)$/.test(
        a,
      ),
    )
  )
    return undefined;
  const at = globals.lastIndexOf('-C');
  const roots = at >= 0 && globals[at + 1] ? [globals[at + 1]!] : [];
  // Outside the repository's index: every file under the folder (hidden ones too), within
  // .gitignore only when told.
  if (rest.includes('--no-index'))
    return { roots, hidden: true, ignores: rest.includes('--exclude-standard'), only: [] };
  // Told of another git folder, work tree or config, git's index here says nothing of what it
  // reads: every file counts.
  if (globals.some((g) => /^(-c|--git-dir|--work-tree|--config-env)(=|$)/.test(g)))
    return { roots, hidden: true, ignores: false, only: [] };
  return {
    roots,
    hidden: true,
    ignores: !rest.includes('--no-exclude-standard'),
    // --untracked walks the working tree within .gitignore, as rg does: a tracked file
    // .gitignore names is then not read (seen with git 2.39).
    ...(!rest.includes('--untracked') && { tracked: true }),
    only: [],
  };
}

/** Config sections whose keys can hold a credential in a URL or a header. */
const URL_SECTIONS = new Set(['remote', 'url', 'http', 'credential', 'submodule']);

/**
 * Whether a `git config` read prints the repository's own config where a credential can be:
 * a listing or pattern (`-l`, `--get-regexp`), or a key of {@link URL_SECTIONS} (`--get
 * remote.origin.url`), unless it reads only the person's or the system's file or another file.
 */
export function printsRepositoryConfig(args: readonly string[]): boolean {
  const { sub, rest } = split(args);
  if (sub !== 'config' || !rest.some((a) => CONFIG_READ.test(a))) return false;
  if (rest.some((a) => /^(--global|--system|--file|-f|--blob)$/.test(a))) return false;
  const listing = rest.some((a) => /^(--list|-l|--get-regexp)$/.test(a));
  const section = configKey(rest)?.split('.')[0]?.toLowerCase();
  return listing || section === undefined || URL_SECTIONS.has(section);
}

/**
 * The files a revision-and-path operand names (`HEAD:.env`, `main~1:config/app.key`, `:.env`
 * in the index, `:2:x` at a merge stage), which `git show`, `cat-file`, `diff` and `grep` print
 * from the repository: a secret by its name as the file in the working tree is. The path is
 * the repository's (or, after `./`, the working directory's); it is checked where it is in
 * the working tree.
 */
function blobPaths(rest: readonly string[], search = false): string[] {
  const paths: string[] = [];
  // A search's pattern comes first, unless an option gives it (and its value is no operand).
  let pattern = search && !rest.some((a) => /^(-e|-f|--regexp|--file)$/.test(a));
  for (let i = 0; i < rest.length; i++) {
    const a = rest[i]!;
    if (a === '--') break;
    if (search && /^(-e|-f|--regexp|--file)$/.test(a)) i++;
    if (a.startsWith('-')) continue;
    if (pattern) {
      pattern = false;
      continue;
    }
    // git refuses a path that leaves the repository (`HEAD:/etc/passwd`): not a blob's.
    const m = /^(?::[0-3]:|[\w@~^.{}/-]*:)([^/].*)$/s.exec(a);
    if (m) paths.push(m[1]!.replace(/^(\.\/)+/, '') || '.');
  }
  return paths;
}

/** The person's git config files, which apply to every repository: the user's and the system's. */
const USER_CONFIG_FILES = ['~/.gitconfig', '~/.config/git/config'];
const SYSTEM_CONFIG_FILES = ['/etc/gitconfig'];

/**
 * Sections of git config that say how git works and hold no credential by git's own
 * documentation: `git config --get user.email` prints the person's settings, as any git
 * command applies them. Others can: `http.<url>.extraHeader` (a bearer token),
 * `url.<base>.insteadOf` (`https://TOKEN@github.com/`), `credential.*`, `sendemail.smtpPass`,
 * `alias.*` (a command with its token), a tool's own section (`github.token`).
 */
const PLAIN_CONFIG_SECTIONS = new Set(
  'user core init pull push merge diff color branch fetch rebase commit tag log status advice format grep help remote submodule pager column safe gc rerere stash worktree feature index pack gpg am apply blame checkout clean interactive mergetool difftool mailmap'.split(
    ' ',
  ),
);

/** `git config` options that read; anything else is a write, asked as `modify_config`. */
const CONFIG_READ = /^(--get|--get-all|--get-regexp|--list|-l)$/;

/**
 * The person's config files a `git config` read prints from (besides the repository's own):
 * a listing or a pattern without `--local`, or the value of a key outside
 * {@link PLAIN_CONFIG_SECTIONS}. A read of its own, as `cat ~/.gitconfig` is: outside the
 * project it asks. `--local`/`--worktree` read only the repository's files (unless
 * `--includes` follows their includes anywhere); `--file`/`--blob` ask already.
 */
function configUserFileReads(rest: readonly string[]): string[] {
  if (!rest.some((a) => CONFIG_READ.test(a))) return [];
  const includes = rest.includes('--includes');
  if (!includes && rest.some((a) => a === '--local' || a === '--worktree')) return [];
  const files =
    rest.includes('--global') && !includes
      ? USER_CONFIG_FILES
      : rest.includes('--system') && !includes
        ? SYSTEM_CONFIG_FILES
        : [...USER_CONFIG_FILES, ...SYSTEM_CONFIG_FILES];
  const listing = rest.some((a) => /^(--list|-l|--get-regexp)$/.test(a));
  const section = configKey(rest)?.split('.')[0]?.toLowerCase();
  return listing || section === undefined || !PLAIN_CONFIG_SECTIONS.has(section) ? files : [];
}

/** The key a `git config --get`/`--get-all` names: its first operand (`--default`, `--type` take a word). */
function configKey(rest: readonly string[]): string | undefined {
  for (let i = 0; i < rest.length; i++) {
    const a = rest[i]!;
    if (a === '--default' || a === '--type') i++;
    else if (a === '--') return rest[i + 1];
    else if (!a.startsWith('-')) return a;
  }
  return undefined;
}

/** The Gatehouse action a git command stands for, as far as its sub-command tells. */
export function gitAction(args: readonly string[]): ActionSpec {
  const { sub, rest } = split(args);
  const ops = operandsOf(rest);
  switch (sub) {
    case 'push':
      return { action: 'git_push', target: ops.join(' ') || 'default remote' };
    case 'commit':
      return { action: 'git_commit' };
    case 'status':
    case 'rev-parse':
    case 'ls-files':
    case 'ls-tree':
    case 'cat-file':
    case 'describe':
    case 'show-ref':
    case 'merge-base':
    case 'count-objects':
    case 'version':
    case 'help':
      return { action: 'git_status' };
    case 'remote':
      if (/^(add|remove|rm|set-url|rename|set-branches)$/.test(ops[0] ?? ''))
        return { action: 'modify_config', target: 'git remote' };
      // `show`, `update`, `prune`, `set-head -a` reach the remote.
      return ops.length === 0 || ops[0] === 'get-url'
        ? { action: 'git_status' }
        : { action: 'run_command', target: `git remote ${ops[0]}` };
    case 'log':
    case 'show':
    case 'blame':
    case 'shortlog':
    case 'rev-list':
    case 'whatchanged':
      return { action: 'git_log' };
    case 'reflog':
      return /^(expire|delete|drop)$/.test(ops[0] ?? '')
        ? { action: 'run_command', target: `git reflog ${ops[0]}` }
        : { action: 'git_log' };
    case 'stash':
      if (ops[0] === 'list') return { action: 'git_log' };
      if (ops[0] === 'show') return { action: 'git_diff' };
      return { action: 'run_command', target: `git stash ${ops.join(' ')}`.trim() };
    case 'tag':
      return rest.every((a) => !a.startsWith('-') || TAG_LIST_OPTION.test(a)) &&
        (!ops.length || rest.includes('-l') || rest.includes('--list'))
        ? { action: 'git_log' }
        : { action: 'run_command', target: `git tag ${rest.join(' ')}` };
    case 'diff':
      return { action: 'git_diff' };
    case 'grep':
      return { action: 'search_files' };
    case 'branch':
      if (
        rest.some(
          (a) =>
            !/^(-a|-r|-v|-vv|--all|--remotes|--verbose|--list|-l|--show-current|--merged|--no-merged|--contains|--sort=.*|--format=.*|--no-color|--color)$/.test(
              a,
            ) && a.startsWith('-'),
        )
      )
        return { action: 'run_command', target: `git branch ${rest.join(' ')}` };
      return ops.length &&
        !rest.some((a) =>
          /^(-a|-r|--all|--remotes|--list|-l|--merged|--no-merged|--contains)$/.test(a),
        )
        ? { action: 'create_branch', target: ops[0]! }
        : { action: 'git_status' };
    case 'checkout':
    case 'switch':
      if (rest.some((a) => /^(-b|-c|--create)$/.test(a)))
        return { action: 'create_branch', ...(ops[0] ? { target: ops[0] } : {}) };
      return { action: 'run_command', target: `git ${sub} ${rest.join(' ')}`.trim() };
    case 'worktree':
      if (ops[0] === 'add')
        return { action: 'create_worktree', ...(ops[1] ? { target: ops[1] } : {}) };
      return ops[0] === 'list' || !ops.length
        ? { action: 'git_status' }
        : { action: 'run_command', target: `git worktree ${ops[0]}` };
    case 'rm':
      return ops.length ? { action: 'delete_files', paths: ops } : { action: 'delete_files' };
    case 'clean':
      return { action: 'delete_files', target: 'git clean' };
    case 'config':
      return rest.some((a) => /^(--get|--list|-l|--get-all|--get-regexp)$/.test(a))
        ? { action: 'git_status' }
        : { action: 'modify_config', target: 'git config' };
    default:
      return { action: 'run_command', target: `git ${sub}`.trim() };
  }
}

const AUTO_GIT = new Set([
  'git_status',
  'git_log',
  'git_diff',
  'search_files',
  'create_branch',
  'create_worktree',
]);

/**
 * Why a git command is not proven harmless: a global option outside the safe set (any
 * sub-command), an option of any sub-command that runs a program or writes a file, or, for
 * a call that maps to an auto action, an option not on the read-only list.
 */
export function gitProblem(args: readonly string[], loose?: Looseness): string | undefined {
  const { globals, sub, rest } = split(args);
  /** The `-C` directories so far: each is relative to the one before, as git takes them. */
  const dirs: string[] = [];
  for (let i = 0; i < globals.length; i++) {
    const g = globals[i]!;
    const key = g.includes('=') ? g.slice(0, g.indexOf('=')) : g;
    if (loose?.(i)) return `${clip(g)} may expand to a git option`;
    const globalDanger = GLOBAL_DANGER_BY_NAME.get(key);
    if (globalDanger) return globalDanger;
    if (key === '-C') {
      i++;
      dirs.push(globals[i] ?? '');
      if (leavesCwd(dirs)) return GIT_ELSEWHERE;
      continue;
    }
    if (!GLOBAL_FLAGS.has(key))
      return `git ${clip(key)} is not a global option known to be harmless`;
  }
  if (sub && (loose ?? looseByText(args))(globals.length))
    return `${clip(sub)} may expand to a git option or sub-command`;
  const offset = globals.length + 1;
  for (const a of rest) {
    const key = a.includes('=') ? a.slice(0, a.indexOf('=')) : a;
    const danger = ANY_DANGER_BY_NAME.get(key);
    if (danger) return danger;
    const abbreviated = dangerousLong(a, DANGER_NAMES, ['text', 'filter']);
    if (abbreviated) return ANY_DANGER_BY_NAME.get(`--${abbreviated}`);
    if (sub === 'grep' && /^-[a-zA-Z]*O/.test(a)) return ANY_DANGER['--open-files-in-pager'];
    if (/^(clone|fetch|pull|ls-remote|archive|submodule)$/.test(sub) && /^-[a-zA-Z]*u/.test(a))
      return 'git -u names a program to run on the remote side';
  }
  if (sub === 'worktree' && operandsOf(rest)[0] === 'add') {
    const elsewhere = operandsOf(rest)
      .slice(1)
      .find((p) => leavesCwd([p]));
    if (elsewhere !== undefined)
      return `git worktree add ${clip(elsewhere)} checks files out outside the project`;
  }
  const checkout = otherTreeCheckedOut(sub, rest);
  if (checkout) return checkout;
  if (!AUTO_GIT.has(gitAction(args).action) || !READ_SUBCOMMANDS.has(sub)) return undefined;
  const checked = checkArgs(`git ${sub}`, rest, READ_OPTIONS, loose && ((i) => loose(offset + i)));
  return checked.unproven;
}

/** Options of `git checkout -b`/`switch -c`/`worktree add` that take the next word. */
const CHECKOUT_VALUE_OPTIONS = /^(-b|-B|-c|-C|--create|--force-create|--reason|--orphan)$/;

/**
 * Why a new branch or worktree writes files the command does not name: `git checkout -b x
 * evil`, `git switch -c x origin/pr`, `git worktree add dir evil` check out another commit's
 * tree, whose `.claude/settings.json`, `.husky/`, `.envrc` or package scripts land in the
 * project without appearing in the command; `git worktree add dir` alone checks out a branch
 * named after the folder when one exists. From `HEAD` (no start point, or a new branch at
 * it) the files are the project's own.
 */
function otherTreeCheckedOut(sub: string, rest: readonly string[]): string | undefined {
  const positional: string[] = [];
  let created = false;
  for (let i = 0; i < rest.length; i++) {
    const a = rest[i]!;
    if (a === '--') break;
    if (CHECKOUT_VALUE_OPTIONS.test(a)) {
      created ||= a !== '--reason';
      i++;
    } else if (/^(--detach|-d|--no-checkout|-n)$/.test(a)) created = true;
    else if (!a.startsWith('-')) positional.push(a);
  }
  const isHead = (c: string): boolean => c === 'HEAD' || c === '@';
  if (sub === 'checkout' || sub === 'switch') {
    if (!rest.some((a) => /^(-b|-c|--create)$/.test(a))) return undefined;
    const start = positional[0];
    return start !== undefined && !isHead(start)
      ? `git ${sub} with the start point ${clip(start)} checks out its files, which may hold hooks or agent configs the command does not name`
      : undefined;
  }
  if (sub !== 'worktree' || positional[0] !== 'add') return undefined;
  if (rest.includes('--no-checkout')) return undefined;
  const [, dir, commit] = positional;
  if (commit !== undefined && !isHead(commit))
    return `git worktree add with ${clip(commit)} checks out its files, which may hold hooks or agent configs the command does not name`;
  if (commit === undefined && !created && dir !== undefined)
    return `git worktree add ${clip(dir)} checks out a branch named after the folder when one exists, whose files may hold hooks or agent configs`;
  return undefined;
}

/** Options that make git print a patch: the changed lines of each file, from the commits. */
const PATCH_OPTION =
  /^(-p|-u|-c|-m|-L|-U|--patch|--patch-with-stat|--patch-with-raw|--unified|--word-diff|--color-words|--cc|--dd|--remerge-diff|--diff-merges|--full-diff)$/;
/** Options after which `git show` prints no patch (unless one of {@link PATCH_OPTION} too). */
const NO_PATCH_OPTION =
  /^(-s|--no-patch|--stat|--shortstat|--numstat|--dirstat|--summary|--name-only|--name-status|--raw|--compact-summary|--check)$/;

/**
 * What a git command prints from the repository's commits and objects, beyond a file named by
 * revision and path (which {@link gitFileReads} names): the patches of `git log -p` (also
 * `whatchanged`, `reflog`, `stash show`: the lines of files removed since), `git show` of a
 * commit, `git diff` against a revision, `git grep` in a revision's tree, `git cat-file -p`
 * of an object by its id; `tracked` for `git diff` of the working tree or the index, which
 * prints the changed lines of files the repository tracks now. `pathspecs` are the paths
 * after `--` that narrow it (none: every file); an operand before `--` may be a revision
 * (git decides by what exists), so it narrows nothing. Undefined for a command that prints
 * no file's lines.
 */
export function historyRead(
  args: readonly string[],
): { pathspecs: string[]; tracked?: true } | undefined {
  const parts = split(args);
  const { sub, rest } = parts;
  const end = rest.indexOf('--');
  const before = end < 0 ? rest : rest.slice(0, end);
  const pathspecs = end < 0 ? [] : rest.slice(end + 1);
  const checked = checkArgs(`git ${sub}`, before, READ_OPTIONS, () => false);
  // Options not known here: what it prints is not known either, every file counts.
  if (checked.unproven) return READ_SUBCOMMANDS.has(sub) ? { pathspecs: [] } : undefined;
  const seen = (re: RegExp): boolean => checked.seen.some((o) => re.test(o));
  const patch = seen(PATCH_OPTION);
  const { operands } = checked;
  const search = sub === 'grep';
  // Every operand a revision-and-path (`git show HEAD:src/a.ts`): that file, named already.
  const onlyBlobs =
    operands.length > (search ? 1 : 0) &&
    blobPaths(before, search).length === operands.length - (search ? 1 : 0);
  switch (sub) {
    case 'log':
    case 'whatchanged':
    case 'reflog':
      return patch ? { pathspecs } : undefined;
    case 'stash':
      // `git stash show` prints a patch where the config says so (`stash.showPatch`).
      return operands[0] === 'show' ? { pathspecs } : undefined;
    case 'show':
      return onlyBlobs || (!patch && seen(NO_PATCH_OPTION)) ? undefined : { pathspecs };
    case 'diff':
      if (onlyBlobs || (!patch && seen(NO_PATCH_OPTION))) return undefined;
      // Against the index or HEAD: the changed lines of the files the repository tracks.
      return operands.length === 0 ? { pathspecs, tracked: true } : { pathspecs };
    case 'grep': {
      if (grepWalkOf(parts) === undefined || seen(/^(--no-index|--untracked)$/) || onlyBlobs)
        return undefined;
      // Past the pattern (the first operand, unless `-e` gives it), an operand may be a
      // revision's tree.
      return operands.length > (seen(/^-e$/) ? 0 : 1) ? { pathspecs } : undefined;
    }
    case 'cat-file':
      if (onlyBlobs || seen(/^(-t|-s|-e)$/)) return undefined;
      return operands.length > 0 ? { pathspecs: [] } : undefined;
    default:
      return undefined;
  }
}
