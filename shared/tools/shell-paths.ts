/**
 * The pure half of Gatehouse's path analysis, shared by the daemon and the hook's offline
 * table: how the shell expands a path word (`~`, `~user`, `$HOME`, `$PWD`, the command's own
 * variables), which working directories each command of a line may run in after its `cd`s,
 * and which words a command may read or write. Turning a word into real paths takes the file
 * system: that is the {@link PathResolver} port (shared/node/path-resolver.ts).
 */
import { commandStart, PREFIXES } from './command-start';
import { DATE_FILE_LETTERS } from './commands/date-args';
import { GIT_FILE_LETTERS } from './commands/git';
import { KNOWN_PROGRAMS, programName } from './commands/vet';
import { linkUses, lnCall, treeCopyUses } from './tree-writes';
import type { ShellAnalysis, ShellCommand } from './shell-syntax';
import type {
  PathResolver,
  PathUse,
  Resolution,
  ResolvedPath,
  ResolveOptions,
  TreeListing,
} from './path-resolution';

export type { PathResolver, PathUse, Resolution, ResolvedPath, ResolveOptions, TreeListing };

/** What word expansion knows besides the line's own variables. */
export interface ExpandEnv extends ResolveOptions {
  home: string;
  /** Variables whose value Gatehouse knows (`HOME`, `GATEHOUSE_HOME`). */
  known: ReadonlyMap<string, string>;
  /** A user's home directory (`~user`), undefined when there is no such user. */
  userHome(name: string): string | undefined;
  /** How deep in a variable's own value this expansion is (internal). */
  nesting?: number;
}

export type Expanded = { values: string[]; unresolved?: undefined } | { unresolved: string };

/** At most this many expansions of one word (each variable may have several values). */
const MAX_VARIANTS = 16;
const clip = (s: string, n = 60): string => (s.length > n ? `${s.slice(0, n - 1)}…` : s);
/** `${…}`, `$NAME`, `$(…)`, `$((…))`, `` `…` ``, and the special parameters `$1 $@ $$ …`. */
const EXPANSION = /\$\{[^}]*\}?|\$[A-Za-z_]\w*|\$\(|`|\$[0-9@*#?$!-]/;

/**
 * Expands `~`, `~user`, `~+`, `~-` and every `$…` of a word as the shell would, or says which
 * part Gatehouse cannot know (an unknown variable, `${X:-…}`, a command substitution).
 */
export function expandWord(word: string, env: ExpandEnv): Expanded {
  // `D=$D/x`, `HOME=~/x`: a value that refers to itself is followed a few levels only.
  if ((env.nesting ?? 0) > 4) return { unresolved: `${clip(word)} refers to itself` };
  const tilde = expandTilde(word, env);
  if ('unresolved' in tilde) return tilde;
  if (env.literal) return tilde;
  const out: string[] = [];
  for (const w of tilde.values) {
    const e = expandDollars(w, env, 0);
    if (e.unresolved !== undefined) return e;
    for (const v of e.values) {
      if (out.length >= MAX_VARIANTS)
        return { unresolved: `${clip(word)} stands for too many paths to check` };
      out.push(v);
    }
  }
  return { values: out };
}

function expandTilde(word: string, env: ExpandEnv): Expanded {
  const m = /^~([^/]*)(?=\/|$)/.exec(word);
  if (!m) return { values: [word] };
  const rest = word.slice(m[0].length);
  const user = m[1]!;
  let dirs: readonly string[] | undefined;
  if (user === '') {
    const homes = valuesOf('HOME', env);
    if (!homes) return { unresolved: '~ is a HOME set from input' };
    const expanded = ownValues('HOME', homes, env);
    if (expanded.unresolved !== undefined) return expanded;
    dirs = expanded.values;
  } else if (user === '+') dirs = env.cwds;
  else if (user === '-') dirs = env.oldCwds;
  else {
    const h = /^[A-Za-z_][\w.-]*$/.test(user) ? env.userHome(user) : undefined;
    dirs = h === undefined ? undefined : [h];
  }
  if (!dirs?.length) return { unresolved: `${clip(`~${user}`)} names no home Gatehouse knows` };
  return { values: dirs.map((d) => d + rest) };
}

function expandDollars(word: string, env: ExpandEnv, depth: number): Expanded {
  const m = EXPANSION.exec(word);
  if (!m) return { values: [word] };
  const text = m[0];
  let name: string | undefined;
  if (text.startsWith('${')) name = /^\$\{([A-Za-z_]\w*)\}$/.exec(text)?.[1];
  else if (/^\$[A-Za-z_]/.test(text)) name = text.slice(1);
  const values = name === undefined || depth > 3 ? undefined : valuesOf(name, env);
  if (!values?.length)
    return {
      unresolved:
        name === undefined
          ? `${clip(text === '$(' || text === '`' ? word : text)} is only known when the command runs`
          : `$${name} is not known before the command runs`,
    };
  const own = ownValues(name!, values, env);
  if (own.unresolved !== undefined) return own;
  const rest = expandDollars(word.slice(m.index + text.length), env, depth + 1);
  if (rest.unresolved !== undefined) return rest;
  const out: string[] = [];
  for (const iv of own.values)
    for (const r of rest.values) {
      if (out.length >= MAX_VARIANTS)
        return { unresolved: `${clip(word)} stands for too many paths to check` };
      out.push(word.slice(0, m.index) + iv + r);
    }
  return { values: out };
}

/** A variable's values expanded: the line's own may hold expansions (`D=$HOME/x`); Gatehouse's don't. */
function ownValues(name: string, values: readonly string[], env: ExpandEnv): Expanded {
  const builtin =
    name === 'PWD' ? env.cwds : name === 'OLDPWD' ? (env.oldCwds ?? []) : [env.known.get(name)];
  const out: string[] = [];
  for (const v of values) {
    if (builtin.includes(v)) {
      out.push(v);
      continue;
    }
    // The value was expanded when assigned, with the name's earlier value: not its own.
    const vars = new Map(env.vars);
    vars.delete(name);
    const inner = expandWord(v, {
      ...env,
      vars,
      literal: false,
      nesting: (env.nesting ?? 0) + 1,
    });
    if (inner.unresolved !== undefined) return inner;
    out.push(...inner.values);
  }
  return { values: out };
}

function valuesOf(name: string, env: ExpandEnv): readonly string[] | undefined {
  const own = env.vars.get(name);
  // A variable the line sets from input (`read X`) has no value Gatehouse can know.
  if (own && !own.length) return undefined;
  const builtin =
    name === 'PWD'
      ? env.cwds
      : name === 'OLDPWD'
        ? env.oldCwds
        : env.known.has(name)
          ? [env.known.get(name)!]
          : undefined;
  // The line may set HOME (or PWD) itself: before or after, both values may apply.
  if (own && builtin) return [...new Set([...builtin, ...own])];
  return own ?? builtin;
}

/** Programs whose operands are never opened as files (their redirects still are). */
const NOT_PATHS = new Set([
  'echo',
  'printf',
  'true',
  'false',
  ':',
  'test',
  '[',
  '[[',
  'sleep',
  'seq',
  'expr',
  'basename',
  'dirname',
  'exit',
  'return',
  'set',
  'shift',
  'unset',
  'local',
  'declare',
  'readonly',
  'export',
  'type',
  'which',
  'hash',
  'printenv',
]);
/** Programs that never write the files they are given: their words are reads. */
const READ_ONLY = new Set([
  'cat',
  'head',
  'tail',
  'grep',
  'egrep',
  'fgrep',
  'rg',
  'wc',
  'diff',
  'cmp',
  'ls',
  'stat',
  'du',
  'tree',
  'realpath',
  'readlink',
  'md5sum',
  'sha1sum',
  'sha256sum',
  'sha512sum',
  'nl',
  'cd',
  'pushd',
  'popd',
  'pwd',
]);
/**
 * Short options of the read-only programs whose value is a file the program opens, as the
 * letters that take it: `grep -fFILE` reads its patterns from FILE, `date -f FILE` prints each
 * line it cannot parse (so the file's text), `date -r FILE` reads its time. Joined to the
 * option (`-of/path`), the value is a path like any other word.
 */
const FILE_OPTION_LETTERS: ReadonlyMap<string, string> = new Map([
  ...[...KNOWN_PROGRAMS].flatMap(([name, p]): [string, string][] =>
    p.fileLetters ? [[name, p.fileLetters]] : [],
  ),
  ['date', DATE_FILE_LETTERS],
  ['git', GIT_FILE_LETTERS],
]);
/** `date`'s options naming a file: only then are its words paths (`date +%s` names none). */
const DATE_FILE_OPTION =
  /^(-[A-Za-z]*[fr]|--(f|fi|fil|file|r|re|ref|refe|refer|refere|referen|referenc|reference)(=|$))/;
/** Git sub-commands that only read, as long as no option writes a file (`--output`). */
const GIT_READS = new Set(['status', 'diff', 'log', 'show', 'blame', 'ls-files', 'rev-parse']);
const base = (w: string): string => w.replace(/^.*\//, '');

/** The program a command runs, past `sudo`, `env X=1`, `nice -n 5`, `timeout 5` …, and its index. */
export function programIndex(words: readonly string[]): number {
  // Most commands start with their program: no prefix to skip.
  const first = words[0];
  if (first === undefined || !PREFIXES.has(programName(first))) return 0;
  return commandStart(words).program;
}

/** How a command's words may touch files: not at all, only reading, or possibly writing. */
export function wordRole(cmd: ShellCommand): 'none' | 'read' | 'write' {
  const i = programIndex(cmd.words);
  const name = base(cmd.words[i] ?? '');
  if (NOT_PATHS.has(name)) return 'none';
  if (READ_ONLY.has(name)) return 'read';
  if (name === 'date')
    return cmd.words.slice(i + 1).some((w) => DATE_FILE_OPTION.test(w)) ? 'read' : 'none';
  if (name === 'git') {
    const rest = cmd.words.slice(i + 1);
    const sub = rest.find((w, k) => !w.startsWith('-') && rest[k - 1] !== '-C');
    const writesFile = rest.some((w) => /^(--output|-o$|-O|-c$|--config-env|--git-dir)/.test(w));
    if (sub && GIT_READS.has(sub) && !writesFile) return 'read';
  }
  return 'write';
}

export interface PathScan {
  uses: PathUse[];
  /** Every working directory any command of the line may run in. */
  cwds: string[];
  /** The first word Gatehouse cannot resolve, and why: the call asks. */
  unresolved?: { word: string; reason: string };
}

/** Programs that may copy or move a folder into place (tree-writes.ts reads them). */
const COPIERS = new Set(['cp', 'mv', 'rsync', 'git']);

/** What {@link scanCommandPaths} reads a `popd` as: the top of a directory stack it may not know. */
const EARLIER_STACK = '\u0000the directory stack';

/** More working directories than this (a `cd` in a loop) cannot be followed: the call asks. */
const MAX_CWDS = 16;
/** Text that may repeat commands or run them out of order: `cd`s are then followed to a fixpoint. */
const LOOPS = /\b(for|while|until|select|function)\b|\(\)\s*\{/;

/**
 * Every path a command line may read or write, resolved against the working directories each
 * command may run in: after each `cd`/`pushd` in order (a set that only grows, so subshells,
 * `||` and `popd` are covered), with `$PWD`/`$OLDPWD` following, and a `-C dir` for the one
 * command. In a loop or function a `cd` may apply again, so the set is closed under every
 * `cd` of the line. Words of programs that never open files (`echo`) are skipped.
 */
export function scanCommandPaths(
  source: string,
  analysis: ShellAnalysis,
  start: readonly string[],
  resolver: PathResolver,
  inheritedCdpath?: string,
): PathScan {
  const vars = withInputVariables(analysis);
  const scan: PathScan = { uses: [], cwds: [...start] };
  const fail = (word: string, reason: string): PathScan => {
    scan.unresolved ??= { word, reason };
    scan.cwds = [...cwds];
    return scan;
  };
  const cwds = new Set(start);
  let moved = false;
  /** `pushd`es of this line not yet popped: a `popd` beyond them leaves what the line knows. */
  let pushes = 0;
  const cdTarget = (cmd: ShellCommand): string | undefined => {
    // Past `command`, `builtin` and `time`, which run a cd in this shell all the same (and
    // past `sudo`/`env`, which cannot: a directory too many only asks more).
    const [program, ...args] = cmd.words.slice(programIndex(cmd.words));
    if (program === 'popd') return EARLIER_STACK;
    if (program !== 'cd' && program !== 'pushd') return undefined;
    const target = args.find((w) => !/^-[LPe@]+$/.test(w) && w !== '--');
    // A bare `pushd` swaps to the directory pushed before: this line's, or an earlier call's.
    if (target === undefined) return program === 'cd' ? '~' : EARLIER_STACK;
    // An earlier directory of this line; before any `cd`, the agent shell's $OLDPWD.
    if (target === '-' || /^[+-]\d+$/.test(target)) return moved ? undefined : '$OLDPWD';
    return target;
  };
  // `CDPATH=… cd name`: a bare name is looked up in each CDPATH folder first; the line's
  // own CDPATH, else the one the agent's shell inherits (taken as written: no expansion).
  const ownCdpath = vars.get('CDPATH');
  const cdpath = ownCdpath ?? (inheritedCdpath ? [inheritedCdpath] : undefined);
  /** The word a failed `cd` is reported by: its target, or the whole `popd`. */
  const cdWord = (cmd: ShellCommand): string | undefined => {
    const target = cdTarget(cmd);
    return target === EARLIER_STACK ? cmd.words.join(' ') : target;
  };
  const applyCd = (cmd: ShellCommand): string | undefined => {
    const target = cdTarget(cmd);
    if (target === undefined) return undefined;
    if (target === EARLIER_STACK) {
      // A directory this line pushed is already among the directories; in a loop a popd
      // may run more often than the pushes, so none is credited there.
      if (loopy || pushes === 0)
        return 'popd (or a bare pushd) may return to a directory an earlier call pushed';
      pushes--;
      return undefined;
    }
    if (cmd.words[programIndex(cmd.words)] === 'pushd') pushes++;
    const dynamic = cmd.dynamic?.[cmd.words.indexOf(target)];
    const r = resolver.resolve(target, {
      cwds: [...cwds],
      ...(moved ? { oldCwds: [...cwds] } : {}),
      vars,
      literal: dynamic === false,
    });
    if (r.unresolved) return r.unresolved;
    if (r.paths.some((p) => p.glob))
      return `cd ${clip(target)} goes to a directory named by a pattern`;
    for (const p of r.paths) cwds.add(p.real);
    if (cdpath && !/^(\/|\.\.?(\/|$)|~)/.test(target)) {
      if (!cdpath.length) return 'CDPATH is set from input, so cd may go anywhere';
      const bases = cdpath.flatMap((v) => v.split(':')).filter(Boolean);
      const via = resolver.resolve(target, { cwds: [], vars }).unresolved
        ? undefined
        : bases.flatMap((b) => {
            const rb = resolver.resolve(b, { cwds: [...cwds], vars, literal: !ownCdpath });
            return rb.unresolved ? [] : rb.paths.map((p) => `${p.real}/${target}`);
          });
      if (!via) return `cd ${clip(target)} through CDPATH cannot be followed`;
      // bash goes only to a CDPATH folder that holds the name; without one, to ./name.
      const existing = resolver.isDirectory ? via.filter((v) => resolver.isDirectory!(v)) : via;
      for (const v of existing)
        for (const p of resolver.resolve(v, { cwds: [], vars }).paths) cwds.add(p.real);
    }
    moved = true;
    if (cwds.size > MAX_CWDS) return 'the command changes directory too many ways to follow';
    return undefined;
  };
  const loopy = LOOPS.test(source) && analysis.commands.some((c) => cdTarget(c) !== undefined);
  if (loopy) {
    for (let round = 0; round < 4; round++) {
      const before = cwds.size;
      for (const cmd of analysis.commands) {
        const why = applyCd(cmd);
        if (why) return fail(cdWord(cmd) ?? cmd.words.join(' '), why);
      }
      if (cwds.size === before) break;
      if (round === 3) return fail(source, 'a cd in a loop goes further each time round');
    }
  }
  for (const [i, cmd] of analysis.commands.entries()) {
    const here = [...cwds];
    const extra = commandDirs(cmd, here, vars, resolver);
    if ('unresolved' in extra) fail(extra.word, extra.unresolved);
    const extraDirs = 'dirs' in extra ? extra.dirs : [];
    const dirs = [...new Set([...here, ...extraDirs])];
    const role = wordRole(cmd);
    const opts = { cwds: dirs, ...(moved ? { oldCwds: here } : {}), vars };
    const program = programIndex(cmd.words);
    let optionsEnd = false;
    const programBase = base(cmd.words[program] ?? '');
    // What `ln -s` points at is taken from the link's folder (linkUses), not from here.
    const link = programBase === 'ln' ? lnCall(cmd.words) : undefined;
    const linkTargets = link?.symbolic && !link.relative ? link.targets : [];
    if (role !== 'none')
      for (const [j, word] of cmd.words.entries()) {
        // A program found on PATH is not a file the command opens; `./x` or `/bin/x` is.
        if (j === program && !word.includes('/')) continue;
        if (linkTargets.includes(j)) continue;
        if (word === '--') optionsEnd = true;
        const option = !optionsEnd && word.startsWith('-');
        for (const w of pathWordsOf(word, role, option, FILE_OPTION_LETTERS.get(programBase))) {
          const r = resolver.resolve(w, { ...opts, literal: cmd.dynamic?.[j] === false });
          // The rest of the line is still checked: its other paths may say more.
          if (r.unresolved) fail(word, r.unresolved);
          scan.uses.push({ word, role, paths: r.paths, command: i });
        }
      }
    for (const implicit of implicitWrites(cmd)) {
      const tree = implicit.startsWith(TREE_MARK);
      const w = tree ? implicit.slice(TREE_MARK.length) : implicit;
      const r = resolver.resolve(w, opts);
      if (r.unresolved) fail(w, r.unresolved);
      const line = cmd.words.slice(0, 4).join(' ');
      scan.uses.push({
        word: tree
          ? `${line} (it writes the files named inside its input, such as ${w})`
          : `${line} (${w})`,
        role: 'write',
        paths: r.paths,
        command: i,
      });
    }
    if (COPIERS.has(programBase))
      for (const use of treeCopyUses(cmd, i, opts, resolver)) {
        if ('unresolved' in use) fail(use.word, use.unresolved);
        else scan.uses.push(use);
      }
    if (link)
      for (const use of linkUses(cmd, opts, resolver)) {
        if (use.unresolved) fail(use.word, use.unresolved);
        scan.uses.push({ word: use.word, role: 'write', paths: use.paths, command: i, link: true });
      }
    for (const red of cmd.redirects) {
      if (red.kind !== 'read' && red.kind !== 'write') continue;
      const r = resolver.resolve(red.target, opts);
      if (r.unresolved) fail(red.target, r.unresolved);
      scan.uses.push({ word: red.target, role: red.kind, paths: r.paths, command: i });
    }
    const why = loopy ? undefined : applyCd(cmd);
    if (why) fail(cdWord(cmd) ?? '', why);
  }
  scan.cwds = [...cwds];
  return scan;
}

/**
 * Config files a command writes without naming them: `git config k v` (the repository's
 * `.git/config`, `--global` ~/.gitconfig), `git remote add|set-url …`, `npm config set`
 * (~/.npmrc), `yarn|pnpm config set`, `pip config set`. They are written as if named.
 */
export function implicitWrites(cmd: ShellCommand): string[] {
  const i = programIndex(cmd.words);
  const name = base(cmd.words[i] ?? '');
  const args = cmd.words.slice(i + 1);
  const operands = args.filter((w, k) => !w.startsWith('-') && args[k - 1] !== '-C');
  const sub = operands[0];
  const tree = treeDestination(name, args, sub);
  // The files are named inside the archive or patch: any of them may be a hook or a config.
  if (tree !== undefined)
    return [
      TREE_MARK + `${tree}/.git/hooks/post-checkout`,
      TREE_MARK + `${tree}/.claude/settings.json`,
    ];
  if (name === 'git') {
    const scope = args.includes('--global')
      ? '~/.gitconfig'
      : args.includes('--system')
        ? '/etc/gitconfig'
        : '.git/config';
    if (sub === 'config') {
      const reads = args.some((w) =>
        /^(--get|--get-all|--get-regexp|--get-urlmatch|-l|--list|--show-origin|--show-scope)$/.test(
          w,
        ),
      );
      const verb = operands[1];
      if (
        reads ||
        verb === 'get' ||
        verb === 'list' ||
        (operands.length < 3 &&
          !args.some((w) =>
            /^--(unset|add|replace-all|rename-section|remove-section|edit)|^-e$/.test(w),
          ))
      )
        return [];
      return [scope];
    }
    if (
      sub === 'remote' &&
      /^(add|set-url|rename|remove|rm|set-branches|set-head)$/.test(operands[1] ?? '')
    )
      return ['.git/config'];
    if (
      sub === 'submodule' ||
      (sub === 'branch' && args.some((w) => /^(-u|--set-upstream-to)/.test(w)))
    )
      return ['.git/config'];
    return [];
  }
  const configSet =
    (sub === 'config' || sub === 'set') &&
    /^(set|delete|edit|rm|unset)$/.test(sub === 'set' ? 'set' : (operands[1] ?? ''));
  if (!configSet) return [];
  if (name === 'npm' || name === 'pnpm')
    return [args.some((w) => /^--location=project$/.test(w)) ? '.npmrc' : '~/.npmrc'];
  if (name === 'yarn') return ['~/.yarnrc', '~/.yarnrc.yml'];
  if (name === 'pip' || name === 'pip3') return ['~/.config/pip/pip.conf'];
  return [];
}

/** Marks an implicit write of a program that writes files named inside its input. */
const TREE_MARK = '\u0000tree:';

/**
 * Where a program writes files named only inside its input (an archive, a patch), or
 * undefined: `tar x` (`-C dir`), `unzip` (`-d dir`), `cpio -i`, `7z x`, `patch` (`-d dir`),
 * `git apply`, `git am`. The folder is the working directory unless an option says.
 */
function treeDestination(
  name: string,
  args: string[],
  sub: string | undefined,
): string | undefined {
  const option = (...flags: string[]): string | undefined => {
    for (const [k, w] of args.entries()) {
      if (flags.includes(w)) return args[k + 1];
      const long = flags.find((f) => f.startsWith('--') && w.startsWith(`${f}=`));
      if (long) return w.slice(long.length + 1);
    }
    return undefined;
  };
  const extracting =
    (name === 'tar' || name === 'bsdtar' || name === 'gtar') &&
    (/^-?[A-Za-z]*x[A-Za-z]*$/.test(args[0] ?? '') ||
      args.some((w) => w === '--extract' || w === '--get' || /^-[A-Za-wyz]*x[A-Za-z]*$/.test(w)));
  if (extracting) return option('-C', '--directory') ?? '.';
  if (name === 'unzip' && !args.some((w) => /^-[A-Za-z]*[lvtpZ]/.test(w)))
    return option('-d') ?? '.';
  if (name === 'cpio' && args.some((w) => /^-[A-Za-z]*i|^--extract$/.test(w))) return '.';
  if ((name === '7z' || name === '7za') && (sub === 'x' || sub === 'e'))
    return args.find((w) => w.startsWith('-o'))?.slice(2) || '.';
  if (name === 'patch') return option('-d', '--directory') ?? '.';
  if (
    name === 'git' &&
    (sub === 'apply' || sub === 'am') &&
    !args.some((w) => /^--(stat|numstat|summary|check)$/.test(w))
  )
    return option('--directory') ?? '.';
  return undefined;
}

/** Programs that set variables from their input, and where the names are. */
const INPUT_SETTERS = /^(read|mapfile|readarray|getopts|printf|let|declare|typeset|local|wait)$/;

/**
 * The line's own variables, with those it also sets from input (`read X`, `mapfile X`,
 * `printf -v X`, `getopts o X`, `${X:=…}`) marked unknown (no values): whatever else the line
 * assigns to them, their value may be anything.
 */
function withInputVariables(analysis: ShellAnalysis): Map<string, string[]> {
  const vars = new Map(analysis.assignments);
  const unknown = (name: string) => {
    if (/^[A-Za-z_]\w*$/.test(name)) vars.set(name, []);
  };
  for (const cmd of analysis.commands) {
    for (const w of cmd.words) for (const m of w.matchAll(/\$\{([A-Za-z_]\w*):?=/g)) unknown(m[1]!);
    const i = programIndex(cmd.words);
    const name = base(cmd.words[i] ?? '');
    if (!INPUT_SETTERS.test(name)) continue;
    const args = cmd.words.slice(i + 1);
    if (name === 'printf' || name === 'wait') {
      const v = args.indexOf(name === 'printf' ? '-v' : '-p');
      if (v >= 0 && args[v + 1]) unknown(args[v + 1]!);
    } else if (name === 'getopts') unknown(args[1] ?? '');
    else if (name === 'let') for (const a of args) unknown(a.split(/[^A-Za-z0-9_]/)[0] ?? '');
    else if (name === 'read' || name === 'mapfile' || name === 'readarray')
      // Option values (`-p prompt`, `-d x`) marked too: harmless, they are not paths.
      for (const a of args) unknown(a);
    else for (const a of args) if (!a.includes('=')) unknown(a); // `declare X` without a value
  }
  return vars;
}

/**
 * A word, and the value of `--opt=value`, `if=value` or `-ovalue`: each may be a path.
 * `fileLetters`: the short options of a read-only program that open the file joined to them.
 */
function pathWordsOf(
  word: string,
  role: 'read' | 'write',
  option: boolean,
  fileLetters = '',
): string[] {
  if (!word) return [];
  const eq = word.indexOf('=');
  // `-la`, `--oneline`: an option, not a file (until `--`); `--out=f`, `if=f` name one.
  if (option) {
    const values = eq > 0 ? [word.slice(eq + 1)].filter(Boolean) : [];
    if (word.startsWith('--') || !/^-[A-Za-z]./.test(word)) return values;
    // `sort -ofile`, `file -bfFILE`: what follows any letter of the cluster may be the value
    // of an option that writes or opens a file; of a read-only program, only what follows a
    // letter of a file option (`grep -ofFILE`). A suffix that is another option's value only
    // adds a path that is checked.
    if (eq > 0 && role === 'write') return values;
    for (let k = 1; k < word.length - 1; k++)
      if (role === 'write' || fileLetters.includes(word[k]!)) values.push(word.slice(k + 1));
    return values;
  }
  return eq > 0 ? [word, word.slice(eq + 1)].filter(Boolean) : [word];
}

/** Directories one command alone runs in (`git -C d`, `make -C d`, `env --chdir=d`). */
function commandDirs(
  cmd: ShellCommand,
  cwds: readonly string[],
  vars: ReadonlyMap<string, readonly string[]>,
  resolver: PathResolver,
): { dirs: string[] } | { word: string; unresolved: string } {
  const dirs: string[] = [];
  let base = [...cwds];
  cmd.words.forEach((w, i) => {
    const next = cmd.words[i + 1];
    const target =
      (w === '-C' || w === '--directory' || w === '--chdir' || w === '--git-dir') && next
        ? next
        : /^--(directory|chdir|git-dir|work-tree)=/.test(w)
          ? w.slice(w.indexOf('=') + 1)
          : undefined;
    if (target === undefined) return;
    const r = resolver.resolve(target, { cwds: base, vars });
    if (r.unresolved) {
      dirs.push('\u0000' + r.unresolved);
      return;
    }
    // `git -C a -C b` is `a/b`: each is taken against the one before.
    base = r.paths.map((p) => p.real);
    dirs.push(...base);
  });
  const bad = dirs.find((d) => d.startsWith('\u0000'));
  if (bad) return { word: cmd.words.join(' '), unresolved: bad.slice(1) };
  return { dirs };
}
