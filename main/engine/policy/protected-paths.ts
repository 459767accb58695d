import { globRegExp } from '../../../shared/tools/glob-pattern';
import type { Risk, RuleRecord } from '../../../shared/domain';
import { MAX_CONTEXT_BYTES } from '../../../shared/protocol/constants';
import { asPolicyChange } from '../../../shared/tools/action-spec';
import type {
  ActionDescription,
  Classification,
  ClassifyContext,
  PathContext,
} from './classification';
import type { PathResolver, Resolution, ResolvedPath, ResolveOptions } from './path-port';
import { secretKind } from './secret-paths';
import { remoteUrlSecret } from './remote-url-secret';
import { historySecret } from './history-secret';
import { searchedSecret } from './searched-secret';
import { programName } from '../../../shared/tools/commands/vet';
import { secretVariableFinding } from './secret-variable-finding';
import {
  protectedLocation,
  type ConfigHomes,
  specialDevice,
  type ProtectedKind,
  type ProtectedLocation,
} from '../../../shared/policy/protected-locations';
import type { ShellAnalysis } from '../../../shared/tools/shell-syntax';
import { relativeEntriesOf, relativePathProgram } from './relative-path-programs';
import { relativeEntryUnder, shellPathFolders } from '../../../shared/policy/shell-path';
import {
  programIndex,
  scanCommandPaths,
  type PathScan,
  type PathUse,
} from '../../../shared/tools/shell-paths';

export type { PathContext } from './classification';

/** Rules whose requests no rule, grant, envelope, ladder or "always" can settle. */
export const PROTECTED_RULE_PREFIX = 'protected:';
export const isProtectedRule = (rule: string): boolean => rule.startsWith(PROTECTED_RULE_PREFIX);

/** The risk a request carries because of the rule that sent it to a human. */
export function riskOfRule(rule: string): Risk | undefined {
  if (isProtectedRule(rule)) return 'critical';
  if (rule === 'default:secret_path' || rule === 'shell:opaque') return 'high';
  return undefined;
}

/** The fields a rule always has; any other field is a matcher that narrows it. */
const BASE_RULE_FIELDS = new Set([
  'ruleId',
  'action',
  'tier',
  'project',
  'source',
  'note',
  'createdAt',
]);
/** True for a rule that covers every use of its action (no target, command or path matcher). */
export function isActionWide(rule: RuleRecord): boolean {
  return Object.entries(rule).every(([k, v]) => BASE_RULE_FIELDS.has(k) || v === undefined);
}

const READ_ACTIONS = new Set(['read_file', 'list_files', 'search_files']);
/** Actions whose paths are written: on a protected location they always ask. */
const WRITE_ACTIONS = new Set([
  'write_file',
  'edit_file',
  'delete_files',
  'modify_permissions',
  'modify_config',
  'change_gatehouse_policy',
]);
/** More words than this in one command are not checked one by one: the command asks. */
const MAX_WORDS = 512;

type UserRuleLookup = (a: ActionDescription, ctx: ClassifyContext) => RuleRecord | undefined;

const ask = (rule: string, reason: string, risk: Risk): Classification => ({
  tier: 'ask',
  rule,
  reason,
  risk,
});

/** The `protected:` rule of each kind of protected location. */
const KIND_RULE: Record<ProtectedKind, string> = {
  gatehouse_policy: 'protected:change_gatehouse_policy',
  agent_config: 'protected:change_gatehouse_policy',
  vcs: 'protected:vcs_config',
  startup: 'protected:startup_config',
};
const KIND_EFFECT: Record<ProtectedKind, string> = {
  gatehouse_policy: 'decides what agents may do',
  agent_config: "can turn the agent's hook (and so Gatehouse) off or run code before each call",
  vcs: 'runs code at the next git command',
  startup: 'runs code in later shells, builds or installs',
};

/**
 * The path findings that come before every other rule: a path Gatehouse
 * cannot resolve, a process's memory or a network socket, Gatehouse's own files, and a write
 * to a protected location always ask (critical); a shell command whose effect cannot be
 * known asks unless a narrow user rule covers it; secrets and reads outside the project ask
 * unless a user rule for the action allows it. Every path is resolved as the shell and the
 * kernel would (shared/tools/shell-paths.ts, shared/node/path-resolver.ts).
 */
export function guardedPathFinding(
  a: ActionDescription,
  ctx: ClassifyContext,
  userRule: UserRuleLookup,
): Classification | undefined {
  if (a.oversize !== undefined)
    return ask(
      'protected:too_large',
      `the call is too large to check (${a.oversize} bytes; Gatehouse parses up to ${MAX_CONTEXT_BYTES}); what it does is unknown, so this always asks`,
      'critical',
    );
  const policyChange = policyChangeFinding(a);
  if (policyChange) return policyChange;
  const pc = ctx.paths && { ...ctx.paths, resolver: remembering(ctx.paths.resolver) };
  const analysis = pc && a.command ? analysed(pc.shell, a.command) : undefined;
  const secretVariable = secretVariableFinding(a, analysis);
  if (secretVariable) return secretVariable;
  if (!pc) return undefined;
  const known = analysis && a.command ? scanned(a.command, analysis) : undefined;
  if (known && known.words > MAX_WORDS)
    return ask(
      'shell:opaque',
      `the command has too many words (${known.words}) to check each`,
      'high',
    );
  const base = [pc.cwd ?? ctx.project].filter((d): d is string => !!d);
  const vars = analysis?.assignments ?? NO_VARS;
  // The command's scan is shared by its candidate actions: it is read here, never changed.
  const scan: PathScan = known
    ? known.scanFrom(base, pc.resolver, a.cdpath)
    : { uses: [], cwds: base };
  // A word the parser reads otherwise than bash: the paths seen are not the ones opened.
  let unresolved =
    analysis?.misread !== undefined
      ? { word: analysis.misread, reason: 'the shell parser does not read it as bash does' }
      : scan.unresolved;
  const own: PathUse[] = [];
  // An MCP tool, or one no table knows, may read or write the paths it names: judged as a
  // write, the stricter.
  const toolRole =
    WRITE_ACTIONS.has(a.action) || a.action.startsWith('mcp:') || a.action.startsWith('tool:')
      ? 'write'
      : 'read';
  /**
   * A path the call names itself. A file tool opens it as written (`~/` aside: Claude Code
   * expands it) where a shell expands `$HOME`: `.git/x$HOME/../hooks/pre-commit` is the git
   * hook to Claude Code's Write. Outside a shell command both readings are checked.
   */
  const resolveNamed = (p: string): Resolution => {
    const shell = pc.resolver.resolve(p, { cwds: scan.cwds, vars });
    if (analysis || !/[$`]/.test(p)) return shell;
    const asWritten = pc.resolver.resolve(p, { cwds: scan.cwds, vars, literal: true });
    return { ...shell, paths: [...asWritten.paths, ...shell.paths] };
  };
  for (const p of a.paths ?? []) {
    const r = resolveNamed(p);
    if (r.unresolved) unresolved ??= { word: p, reason: r.unresolved };
    own.push({ word: p, role: toolRole, paths: r.paths, command: -1 });
  }
  if (a.target) {
    const r = pc.resolver.resolve(a.target, { cwds: scan.cwds, vars, literal: true });
    own.push({ word: a.target, role: 'read', paths: r.paths, command: -1 });
  }
  const uses = own.length ? [...scan.uses, ...own] : scan.uses;
  const found =
    ownFileUse(uses, pc) ??
    recursiveOwnFiles(a, analysis, scan, vars, pc) ??
    protectedWrite(uses, pc, a.configHomes, a.shellPath, scan.cwds) ??
    relativePathProgram(analysis, scan.cwds, a.shellPath, pc);
  if (found) return withAlso(found, analysis);
  const rule = userRule(a, ctx);
  const allowedByRule = rule?.tier === 'auto';
  const narrowRule = allowedByRule && !isActionWide(rule);
  if (analysis?.opaque.length && !narrowRule && analysis.misread === undefined) {
    // What cannot be known is said first: an unresolved word is usually part of it.
    const why = analysis.opaque.map((o) => o.reason);
    return ask(
      'shell:opaque',
      `what this command does cannot be known before it runs: ${[...new Set(why)].join('; ')}`,
      'high',
    );
  }
  if (unresolved)
    return ask(
      'protected:unresolved_path',
      `${clip(unresolved.word)}: ${unresolved.reason}, so Gatehouse cannot tell which file it names (it could be Gatehouse's own or a secret); this always asks`,
      'critical',
    );
  // Whatever rule lets writes in the project pass, a link out of it is asked about.
  const link = linkOutside(uses, ctx.project, vars, pc);
  if (link)
    return ask(
      'default:outside_project',
      `${clip(link)} points outside the project ${ctx.project}: whatever is later read or written through the link is there, so this asks`,
      'high',
    );
  // Where the line's git commands run, worked out once for the checks that need it.
  let gitDirsMemo: string[] | undefined;
  const lineGitDirs = (): string[] => (gitDirsMemo ??= gitDirs(analysis, scan.cwds, vars, pc));
  let secret: { word: string; kind: string } | undefined;
  for (const use of uses) {
    for (const r of use.paths) {
      const kind = secretKind(r.real, pc.home, pc.caseInsensitive) ?? pc.credentialFile?.(r.real);
      if (kind) secret ??= { word: use.word, kind };
    }
  }
  secret ??=
    remoteUrlSecret(analysis, scan.cwds, pc) ??
    searchedSecret(
      analysis,
      scan.cwds,
      vars,
      pc,
      a.walks && { ...a.walks, roots: a.paths ?? [], word: a.target ?? a.action },
      scan.uses,
    ) ??
    historySecret(analysis, lineGitDirs, pc);
  // An explicit user rule may relax secrets; an "always" click only with a matcher.
  const relaxes = allowedByRule && (rule.source === 'user' || narrowRule);
  // Not a rule for writing, unless it names the very command: the secret such a line reaches
  // is read into the file it writes (`dd if=server.pem of=x`, `cp ~/.ssh/id_rsa x`), where the
  // next `cat x` reads it unasked.
  const relaxesSecret = relaxes && (!WRITE_ACTIONS.has(a.action) || rule.command !== undefined);
  if (secret && !relaxesSecret)
    return ask(
      'default:secret_path',
      `${clip(secret.word)} is ${secret.kind}; secrets ask unless a rule of yours allows them`,
      'high',
    );
  const away = GIT_IN_CWD.has(a.action)
    ? cwdOutside(gitDirs(analysis, scan.cwds, vars, pc), ctx.project, vars, pc)
    : undefined;
  if (away)
    return ask(
      'default:outside_project',
      `git would run in ${clip(away)}, outside the project ${ctx.project}: a repository there applies its own configuration (core.fsmonitor, core.pager, hooks), so this asks`,
      'high',
    );
  const bare = runsGit(a.action, analysis)
    ? lineGitDirs()
        .map((d) => pc.bareRepository?.(d))
        .find((b) => b !== undefined)
    : undefined;
  if (bare)
    return ask(
      KIND_RULE.vcs,
      `git would run in ${clip(bare)}, a bare repository git finds by itself (a folder holding HEAD, objects and refs, and no .git): anyone who can write files can make one, and its config and attributes run programs (a diff textconv at git log -p, hooks), so only you can approve it, once (git's own safe.bareRepository=explicit refuses such a repository)`,
      'critical',
    );
  if (READ_ACTIONS.has(a.action) && ctx.project && !relaxes) {
    // Compared as the kernel opens it: a link in the project to a folder elsewhere is
    // elsewhere (the project's own path may hold links: its real path counts too).
    let roots: string[] | undefined;
    const inside = (real: string): boolean =>
      within(real, ctx.project!, pc) ||
      (roots ??= projectRoots(ctx.project!, vars, pc)).some((root) => within(real, root, pc));
    const outside = (a.paths ?? []).find((p) => resolveNamed(p).paths.some((r) => !inside(r.real)));
    if (outside)
      return ask(
        'default:outside_project',
        `${clip(outside)} is outside the project ${ctx.project}; reads outside the project ask`,
        'medium',
      );
  }
  return undefined;
}

/**
 * The agent's moved folders with the person's npm prefix beside the agent's own: the
 * person's `npm i -g` installs there, whatever the agent's environment says.
 */
function withNpmPrefix(
  homes: ConfigHomes | undefined,
  prefix: string | undefined,
): ConfigHomes | undefined {
  if (!prefix) return homes;
  const agents = homes?.NPM_CONFIG_PREFIX;
  if (agents?.split(':').includes(prefix)) return homes;
  return { ...homes, NPM_CONFIG_PREFIX: agents ? `${agents}:${prefix}` : prefix };
}

/**
 * git commands the allowlist lets through in the call's working directory. After a `cd` out
 * of the project (`cd ../other && git status`) git works on another repository, whose config
 * is not the project's; `git -C` is checked by the allowlist itself (commands/git.ts).
 */
const GIT_IN_CWD = new Set([
  'git_status',
  'git_log',
  'git_diff',
  'create_branch',
  'create_worktree',
]);

/** Whether the call runs git: a git action, or a git command on its line. */
function runsGit(action: string, analysis: ShellAnalysis | undefined): boolean {
  return (
    GIT_IN_CWD.has(action) ||
    !!analysis?.commands.some((c) => programName(c.words[programIndex(c.words)] ?? '') === 'git')
  );
}

/** git's global options that take a value (the word after them is not a sub-command). */
const GIT_VALUE_OPTIONS =
  /^(-c|--git-dir|--work-tree|--namespace|--config-env|--exec-path|--super-prefix|--attr-source)$/;

/**
 * Where the line's git commands run: its working directories, and each `git -C DIR` taken
 * from them (one after the other, as git does), so that a link inside the project to a
 * repository elsewhere is followed like a `cd` into it.
 */
function gitDirs(
  analysis: ShellAnalysis | undefined,
  cwds: readonly string[],
  vars: ReadonlyMap<string, readonly string[]>,
  pc: PathContext,
): string[] {
  const out = [...cwds];
  for (const c of analysis?.commands ?? []) {
    // `env git -C d`, `nice -n 5 git -C d`: judged as the bare form.
    const program = programIndex(c.words);
    if (c.words[program]?.replace(/^.*\//, '') !== 'git') continue;
    let at: readonly string[] = cwds;
    for (let i = program + 1; i < c.words.length && c.words[i]!.startsWith('-'); i++) {
      const w = c.words[i]!;
      if (GIT_VALUE_OPTIONS.test(w)) i++;
      else if (w === '-C' && i + 1 < c.words.length) {
        const dir = c.words[++i]!;
        at = at.flatMap((d) =>
          pc.resolver.resolve(dir, { cwds: [d], vars }).paths.map((r) => r.lexical),
        );
        out.push(...at);
      }
    }
  }
  return out;
}

/**
 * The first working directory of the line outside the project, compared with symlinks
 * resolved on both sides: a link inside the project to a folder elsewhere is elsewhere.
 */
function cwdOutside(
  cwds: readonly string[],
  project: string | undefined,
  vars: ReadonlyMap<string, readonly string[]>,
  pc: PathContext,
): string | undefined {
  if (!project) return undefined;
  const roots = [
    project,
    ...pc.resolver.resolve(project, { cwds: [project], vars }).paths.map((r) => r.real),
  ];
  return cwds.find((d) =>
    pc.resolver
      .resolve(d, { cwds: [project], vars })
      .paths.some((r) => !roots.some((root) => within(r.real, root, pc))),
  );
}

/** The project's path as given and as the kernel resolves it. */
function projectRoots(
  project: string,
  vars: ReadonlyMap<string, readonly string[]>,
  pc: PathContext,
): string[] {
  return [
    project,
    ...pc.resolver.resolve(project, { cwds: [project], vars }).paths.map((r) => r.real),
  ];
}

/** The first link the command makes (`ln -s TARGET`) to a place outside the project. */
function linkOutside(
  uses: readonly PathUse[],
  project: string | undefined,
  vars: ReadonlyMap<string, readonly string[]>,
  pc: PathContext,
): string | undefined {
  if (!project || !uses.some((u) => u.link)) return undefined;
  const links = uses.filter((u) => u.link);
  const roots = projectRoots(project, vars, pc);
  return links.find((u) => u.paths.some((r) => !roots.some((root) => within(r.real, root, pc))))
    ?.word;
}

/** A protected finding says too what else in the command could not be shown harmless. */
function withAlso(c: Classification, analysis: ShellAnalysis | undefined): Classification {
  const also = [...new Set(analysis?.opaque.map((o) => o.reason) ?? [])];
  return also.length ? { ...c, reason: `${c.reason}; also: ${also.join('; ')}` } : c;
}

/**
 * The resolver, remembering its answers for one classification: a command's words come back
 * as the action's paths and again for the recursive and outside-the-project checks. Looked up
 * by the word, then by the options compared item by item (cheaper than a joined key).
 */
function remembering(resolver: PathResolver): PathResolver {
  const seen = new Map<string, { asked: Asked; r: Resolution }[]>();
  return {
    // Copied folders are listed by the resolver itself (it remembers them for a second);
    // one literal of a fixed shape, made per classification.
    listTree: (dir, follow) => resolver.listTree?.(dir, follow),
    isDirectory: (path) => (resolver.isDirectory ? resolver.isDirectory(path) : true),
    resolve(word, o) {
      let answers = seen.get(word);
      if (!answers) seen.set(word, (answers = []));
      for (const x of answers) if (sameAsked(x.asked, o)) return x.r;
      const r = resolver.resolve(word, o);
      // A copy of the directories: a caller may reuse its array for other values.
      answers.push({
        asked: { literal: !!o.literal, cwds: [...o.cwds], oldCwds: o.oldCwds && [...o.oldCwds] },
        r,
      });
      return r;
    },
  };
}

interface Asked {
  literal: boolean;
  cwds: readonly string[];
  oldCwds: readonly string[] | undefined;
}

/** The same question, as far as the answer goes: the variables are the line's own, fixed. */
const sameAsked = (x: Asked, o: ResolveOptions): boolean =>
  x.literal === !!o.literal && sameList(x.cwds, o.cwds) && sameList(x.oldCwds, o.oldCwds);

function sameList(x: readonly string[] | undefined, y: readonly string[] | undefined): boolean {
  if (x === y) return true;
  if (!x || !y || x.length !== y.length) return false;
  for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return false;
  return true;
}

const NO_VARS: ReadonlyMap<string, readonly string[]> = new Map();

/**
 * The directories an action's relative path words are opened in: where the call runs, and
 * every directory its command may `cd` or `pushd` to (or name with `-C`) first, as the path
 * checks above resolve them (the same scan, shared). A rule's or grant's path matchers must
 * match each word in every one (rule-match.ts): `cd ~ && rm -rf build/x` is not the
 * project's `build/x`. Undefined when neither a directory nor a project is known.
 */
export function wordDirectories(
  a: ActionDescription,
  ctx: Pick<ClassifyContext, 'paths' | 'project'>,
): readonly string[] | undefined {
  const pc = ctx.paths;
  const at = pc?.cwd ?? ctx.project;
  if (at === undefined) return undefined;
  if (!pc || !a.command || a.oversize !== undefined) return [at];
  const known = scanned(a.command, analysed(pc.shell, a.command));
  // Too many words to follow: the call asks (guardedPathFinding) without being scanned.
  if (known.words > MAX_WORDS) return [at];
  return known.scanFrom([at], pc.resolver, a.cdpath).cwds;
}

/**
 * The shell's analysis of a command, the same object for a second ask of the same command
 * in a row: classifyAction asks once for the directories its words are opened in and once
 * for the path checks, and a parser without a cache (the path-checks bench, the relay's
 * own) would otherwise make two analyses and two scans of one command.
 */
let lastAnalysis:
  { shell: PathContext['shell']; command: string; analysis: ShellAnalysis } | undefined;
function analysed(shell: PathContext['shell'], command: string): ShellAnalysis {
  if (lastAnalysis?.shell === shell && lastAnalysis.command === command)
    return lastAnalysis.analysis;
  const analysis = shell.analyse(command);
  lastAnalysis = { shell, command, analysis };
  return analysis;
}

/** What is known of one analysis: its number of words, and its scans by working directory. */
interface Scanned {
  words: number;
  scanFrom(base: readonly string[], resolver: PathResolver, cdpath?: string): PathScan;
}

/**
 * Scans of the analyses the parser handed out, by working directory: the gate classifies
 * each candidate action of one command in turn, and the parser's cache (main/protection.ts)
 * hands out the same analysis for a second, so the command's paths are resolved once. The
 * scans handed out are shared: their readers never change them.
 */
const scans = new WeakMap<ShellAnalysis, Scanned>();
function scanned(command: string, analysis: ShellAnalysis): Scanned {
  let known = scans.get(analysis);
  if (known) return known;
  let words = 0;
  for (const c of analysis.commands) words += c.words.length + c.redirects.length;
  const byBase = new Map<string, PathScan>();
  known = {
    words,
    scanFrom(base, resolver, cdpath) {
      const at = base.length === 1 ? base[0]! : base.join('\u0000');
      const key = cdpath === undefined ? at : `${at}\u0001${cdpath}`;
      let scan = byBase.get(key);
      if (!scan)
        byBase.set(key, (scan = scanCommandPaths(command, analysis, base, resolver, cdpath)));
      return scan;
    },
  };
  scans.set(analysis, known);
  return known;
}

/** The first use of a process's memory or a network socket, or of Gatehouse's own files. */
function ownFileUse(uses: readonly PathUse[], pc: PathContext): Classification | undefined {
  for (const use of uses) {
    for (const r of use.paths) {
      const device =
        specialDevice(r.real) ?? (r.lexical === r.real ? undefined : specialDevice(r.lexical));
      if (device)
        return ask(
          'protected:special_file',
          `${clip(use.word)} reaches ${device}; this always asks`,
          'critical',
        );
      const root = protectedRootOf(r, pc);
      if (root)
        return ask(
          'protected:gatehouse',
          `${clip(use.word)} is inside Gatehouse's own files (${root}); reading or changing them would let an agent approve itself, so this always asks`,
          'critical',
        );
    }
  }
  return undefined;
}

/** A directory walked recursively that holds Gatehouse's own files (`tar c ~`, `grep -r x ~`). */
function recursiveOwnFiles(
  a: ActionDescription,
  analysis: ShellAnalysis | undefined,
  scan: PathScan,
  vars: ReadonlyMap<string, readonly string[]>,
  pc: PathContext,
): Classification | undefined {
  for (const word of recursiveWords(a, analysis)) {
    for (const r of pc.resolver.resolve(word, { cwds: scan.cwds, vars }).paths) {
      const root = rootInside(r, pc);
      if (root)
        return ask(
          'protected:gatehouse',
          `${clip(word)} holds Gatehouse's own files (${root}) and this goes through it recursively; reading or changing them would let an agent approve itself, so this always asks`,
          'critical',
        );
    }
  }
  for (const word of linkFollowingWords(analysis)) {
    for (const r of pc.resolver.resolve(word, { cwds: scan.cwds, vars }).paths) {
      const tree = r.glob ? undefined : pc.resolver.listTree?.(r.real, true);
      if (!tree) continue;
      if ('unreadable' in tree)
        return ask(
          'protected:gatehouse',
          `${clip(word)} is walked through its symbolic links and ${tree.unreadable}, so Gatehouse cannot tell whether a link leads to its own files; this always asks`,
          'critical',
        );
      for (const target of tree.links ?? []) {
        const at = { lexical: target, real: target, glob: false };
        const root = protectedRootOf(at, pc) ?? rootInside(at, pc);
        if (root)
          return ask(
            'protected:gatehouse',
            `${clip(word)} holds a symbolic link to ${target}, and this walks through links into Gatehouse's own files (${root}); reading or changing them would let an agent approve itself, so this always asks`,
            'critical',
          );
      }
    }
  }
  return undefined;
}

/**
 * Options that make a recursive walk follow the symbolic links it meets, by program: a link
 * in the tree to Gatehouse's folder then reads (or copies) what is inside. `zip -r` follows
 * them unless told `-y`; the others only when told.
 */
/** A walk that follows links when any of its words is such an option. */
const followsWith =
  (option: RegExp) =>
  (args: readonly string[]): boolean =>
    args.some((w) => option.test(w));
const FOLLOWING_WALKS: ReadonlyMap<string, (args: readonly string[]) => boolean> = new Map([
  ['grep', followsWith(/^(-[a-zA-Z]*R|--dereference-recursive$)/)],
  ['egrep', followsWith(/^(-[a-zA-Z]*R|--dereference-recursive$)/)],
  ['fgrep', followsWith(/^(-[a-zA-Z]*R|--dereference-recursive$)/)],
  ['rg', followsWith(/^(-[a-zA-Z]*L|--follow$)/)],
  ['ag', followsWith(/^(-[a-zA-Z]*f|--follow$)/)],
  ['fd', followsWith(/^(-[a-zA-Z]*L|--follow$)/)],
  ['fdfind', followsWith(/^(-[a-zA-Z]*L|--follow$)/)],
  ['find', followsWith(/^(-L|-follow)$/)],
  [
    'zip',
    (args) =>
      followsWith(/^(-[a-zA-Z]*[rR]|--recurse-paths$)/)(args) &&
      !followsWith(/^(-[a-zA-Z]*y|--symlinks$)/)(args),
  ],
  // `tar chf`: the first word may be its options without a dash.
  [
    'tar',
    (args) =>
      followsWith(/^(-[a-zA-Z]*h|--dereference$)/)(args) || /^[a-zA-Z]*h/.test(args[0] ?? ''),
  ],
  ['cp', followsWith(/^(-[a-zA-Z]*L|--dereference$)/)],
  ['rsync', followsWith(/^(-[a-zA-Z]*[Lk]|--copy-links$|--copy-dirlinks$|--copy-unsafe-links$)/)],
]);

/** The folders a command walks through the symbolic links it meets (`grep -R`, `zip -r`). */
function linkFollowingWords(analysis: ShellAnalysis | undefined): string[] {
  const out: string[] = [];
  for (const cmd of analysis?.commands ?? []) {
    const at = programIndex(cmd.words);
    const program = (cmd.words[at] ?? '').replace(/^.*\//, '');
    const args = cmd.words.slice(at + 1);
    if (!FOLLOWING_WALKS.get(program)?.(args)) continue;
    const operands = args.filter((w) => !w.startsWith('-'));
    out.push(...operands);
    // A search given no folder walks the working directory (`grep -R x`, `find -L -name x`).
    const noFolder =
      program === 'find'
        ? !/^[^-(!]/.test(args.find((w) => !/^-[LHP]$/.test(w)) ?? '')
        : !/^(zip|tar|cp|rsync)$/.test(program) && operands.length <= 1;
    if (noFolder) out.push('.');
  }
  return out;
}

/** A write to a protected location, on the path as written or as the kernel opens it. */
function protectedWrite(
  uses: readonly PathUse[],
  pc: PathContext,
  agentHomes: ConfigHomes | undefined,
  shellPath: string | undefined,
  cwds: readonly string[],
): Classification | undefined {
  const writes = uses.filter((u) => u.role === 'write');
  if (!writes.length) return undefined;
  const homes = withNpmPrefix(agentHomes, pc.npmPrefix?.());
  const dirs = [...new Set(writes.flatMap((u) => u.paths.map((r) => parentOf(r.real))))];
  const hooksPaths = pc.gitHooksPaths?.(dirs) ?? [];
  // Where the file is and where the call runs: a yarn run from either reads those configs.
  const managerPrograms = pc.packageManagerPrograms?.([...dirs, ...cwds]) ?? [];
  const programFolders = shellPath ? pathFoldersOf(shellPath, pc, cwds) : undefined;
  for (const use of writes) {
    for (const r of use.paths) {
      const packages = pc.programPackageRoots && protectedRootOf(r, pc, pc.programPackageRoots);
      if (packages)
        return ask(
          'protected:gatehouse',
          `${clip(use.word)} is in ${packages}, where Gatehouse loads its own packages or its Node from; writing there changes the program that answers the agent's calls, so only you can approve it, once`,
          'critical',
        );
      const loc =
        locationOf(r.real, pc, hooksPaths, homes) ??
        (r.lexical === r.real ? undefined : locationOf(r.lexical, pc, hooksPaths, homes));
      if (loc)
        return ask(
          KIND_RULE[loc.kind],
          `${clip(use.word)} is ${loc.what}; writing it ${KIND_EFFECT[loc.kind]}, so only you can approve it, once`,
          'critical',
        );
      const named = managerPrograms.length
        ? namedProgramOf(r, pc, managerPrograms, cwds)
        : undefined;
      if (named)
        return ask(
          KIND_RULE.startup,
          `${clip(use.word)} is ${named === r.real || named === r.lexical ? '' : `a folder holding ${named}, `}a program file a package manager's config names (Yarn's \`yarnPath\` or \`plugins\` in .yarnrc.yml, \`yarn-path\` in .yarnrc, \`script-shell\` or \`pnpmfile\`); it runs at every \`yarn\` command (or every script or install), so writing it is like writing the config, and only you can approve it, once`,
          'critical',
        );
      const folder = programFolders && programFolderOf(r, pc, programFolders);
      if (folder)
        return ask(
          KIND_RULE.startup,
          `${clip(use.word)} is ${folder === HOLDS_PATH_FOLDER ? "a folder holding one on the agent's PATH" : `in ${folder}, a folder on the agent's PATH`}; writing it decides what program runs when a command is called by name (an \`ls\` or \`git\` Gatehouse allows could run one of the agent's), so only you can approve it, once`,
          'critical',
        );
    }
  }
  return undefined;
}

/**
 * The folders of the agent's PATH, as written and as the kernel opens them (a folder that is a
 * link protects its target too), for the last few PATHs seen: an agent sends the same one with
 * every call. Resolved again after {@link PATH_FOLDER_USES} uses, so a link the person changes
 * is followed soon; the agent cannot move a folder or link on it without writing that folder
 * or one holding it, which asks itself.
 */
const pathFolders = new Map<string, { folders: readonly string[]; uses: number }>();
const PATH_FOLDER_USES = 256;
/**
 * The PATH's folders (see above) and, for a PATH with relative entries (`.`, an empty one,
 * `node_modules/.bin`), those entries under each working directory of the call: a command
 * run there finds programs in them, often before the system's (`ls` is `./ls`).
 */
function pathFoldersOf(
  shellPath: string,
  pc: PathContext,
  cwds: readonly string[],
): readonly string[] {
  let known = pathFolders.get(shellPath);
  if (!known || known.uses++ >= PATH_FOLDER_USES) {
    const folders = new Set<string>();
    for (const dir of shellPathFolders(shellPath)) folders.add(dir);
    if (pathFolders.size >= 16) pathFolders.clear();
    known = { folders: withRealFolders(folders, pc), uses: 0 };
    pathFolders.set(shellPath, known);
  }
  const relative = relativeEntriesOf(shellPath);
  if (!relative.length) return known.folders;
  const here = new Set<string>();
  for (const cwd of cwds) for (const entry of relative) here.add(relativeEntryUnder(cwd, entry));
  return [...known.folders, ...withRealFolders(here, pc)];
}

/** The folders as written and as the kernel opens them (a folder that is a link: its target). */
function withRealFolders(folders: ReadonlySet<string>, pc: PathContext): string[] {
  const all = new Set(folders);
  for (const dir of folders)
    for (const r of pc.resolver.resolve(dir, { cwds: ['/'], vars: NO_VARS, literal: true }).paths)
      if (r.real !== '/') all.add(r.real);
  return [...all];
}

/**
 * The program file a package manager's config names that a written path is, is inside (a
 * glob that can reach it counts), or holds (`mv x .yarn` replaces the release in it). The
 * folder the call runs in and those above it hold the project's every file: a `cp x .` there
 * adds to it, and is not counted.
 */
function namedProgramOf(
  r: ResolvedPath,
  pc: PathContext,
  programs: readonly string[],
  cwds: readonly string[],
): string | undefined {
  const at = protectedRootOf(r, pc, programs);
  if (at || r.glob) return at;
  for (const path of r.real === r.lexical ? [r.real] : [r.real, r.lexical]) {
    const p = norm(path, pc);
    if (cwds.some((cwd) => within(cwd, p, pc))) continue;
    const under = p === '/' ? '/' : `${p}/`;
    const held = rootFormsOf(pc, programs).find((f) => f.norm.startsWith(under));
    if (held) return held.root;
  }
  return undefined;
}

const HOLDS_PATH_FOLDER = '\0holder';
/**
 * The PATH folder a written path is, or is a file of (the shell looks programs up there only,
 * not in its subfolders: a PATH holding a broad folder such as the home does not make every
 * file below it a program), {@link HOLDS_PATH_FOLDER} when it holds one, or undefined. A
 * pattern that was not expanded is matched as protected roots are.
 */
function programFolderOf(
  r: ResolvedPath,
  pc: PathContext,
  folders: readonly string[],
): string | undefined {
  if (r.glob) return protectedRootOf(r, pc, folders);
  const forms = rootFormsOf(pc, folders);
  for (const path of r.real === r.lexical ? [r.real] : [r.real, r.lexical]) {
    const p = norm(path, pc);
    if (p === '/') continue;
    const parent = parentOf(p);
    for (const f of forms) {
      if (p === f.norm || parent === f.norm) return f.root;
      if (f.norm.startsWith(`${p}/`)) return HOLDS_PATH_FOLDER;
    }
  }
  return undefined;
}

/**
 * Answers of {@link protectedLocation} (a pure function of its arguments) for the daemon's
 * home, by path, when no repository names a hooks folder of its own and the agent moved no
 * config folder: the same few paths are written call after call. Bounded: it starts over
 * when full.
 */
let locations:
  { home: string; ci: boolean; byPath: Map<string, ProtectedLocation | null> } | undefined;
function locationOf(
  path: string,
  pc: PathContext,
  hooksPaths: readonly string[],
  homes: ConfigHomes | undefined,
): ProtectedLocation | undefined {
  if (hooksPaths.length || homes)
    return protectedLocation(path, pc.home, pc.caseInsensitive, hooksPaths, homes);
  if (locations?.home !== pc.home || locations.ci !== pc.caseInsensitive)
    locations = { home: pc.home, ci: pc.caseInsensitive, byPath: new Map() };
  const known = locations.byPath.get(path);
  if (known !== undefined) return known ?? undefined;
  const loc = protectedLocation(path, pc.home, pc.caseInsensitive);
  if (locations.byPath.size >= 4096) locations.byPath.clear();
  locations.byPath.set(path, loc ?? null);
  return loc;
}

const parentOf = (p: string): string => p.slice(0, p.lastIndexOf('/')) || '/';
const clip = (s: string, n = 200): string => (s.length > n ? `${s.slice(0, n - 1)}…` : s);

function policyChangeFinding(a: ActionDescription): Classification | undefined {
  const isChange =
    a.action === 'change_gatehouse_policy' ||
    asPolicyChange({ action: a.action, ...(a.paths ? { paths: a.paths } : {}) }).action ===
      'change_gatehouse_policy';
  if (!isChange) return undefined;
  return ask(
    'protected:change_gatehouse_policy',
    'changing a Gatehouse policy (.gatehouse.toml or its own settings) decides what agents may do; only you can approve it, once',
    'critical',
  );
}

/**
 * Programs that go through the directories they are given, or take them whole: `mv` and
 * `rename` of a folder holding Gatehouse's (`mv ~/.local/share /tmp/s`) carry its files where
 * nothing guards them.
 */
const RECURSIVE_PROGRAMS =
  /^(tar|zip|7z|rsync|rg|ag|ack|find|fd|du|tree|scp|rclone|restic|borg|duplicity|git|ln|mv|rename|mmv)$/;
const RECURSIVE_FLAG = /^(-[a-zA-Z]*[rRa][a-zA-Z]*|--recursive|--archive|--dereference-recursive)$/;

/** Words naming directories that are walked recursively (an ancestor of a root reaches it). */
function recursiveWords(a: ActionDescription, analysis: ShellAnalysis | undefined): string[] {
  const out: string[] = [];
  if (a.action === 'search_files' || a.action === 'delete_files') out.push(...(a.paths ?? []));
  for (const cmd of analysis?.commands ?? []) {
    const program = (cmd.words[0] ?? '').replace(/^.*\//, '');
    const args = cmd.words.slice(1);
    if (RECURSIVE_PROGRAMS.test(program) || args.some((w) => RECURSIVE_FLAG.test(w)))
      out.push(...args.filter((w) => !w.startsWith('-')));
  }
  return out;
}

const norm = (p: string, pc: PathContext): string => {
  let s = pc.caseInsensitive ? p.toLowerCase() : p;
  while (s.length > 1 && s.endsWith('/')) s = s.slice(0, -1);
  return s || '/';
};

/** True when `path` is `dir` or inside it. */
function within(path: string, dir: string, pc: PathContext): boolean {
  const p = norm(path, pc);
  const d = norm(dir.includes('\\') ? dir.replace(/\\/g, '/') : dir, pc);
  return p === d || p.startsWith(d === '/' ? '/' : `${d}/`);
}

/** A protected root as compared: normalised once, with the slash its contents start with. */
interface RootForm {
  root: string;
  norm: string;
  under: string;
}
const rootForms = new WeakMap<readonly string[], { ci: boolean; forms: RootForm[] }>();
function rootFormsOf(pc: PathContext, roots = pc.protectedRoots): RootForm[] {
  const known = rootForms.get(roots);
  if (known && known.ci === pc.caseInsensitive) return known.forms;
  const forms = roots.map((root) => {
    const d = norm(root.includes('\\') ? root.replace(/\\/g, '/') : root, pc);
    return { root, norm: d, under: d === '/' ? '/' : `${d}/` };
  });
  rootForms.set(roots, { ci: pc.caseInsensitive, forms });
  return forms;
}

/** A protected root at or under the path (as within(root, path)), normalised once. */
function rootInside(r: ResolvedPath, pc: PathContext): string | undefined {
  // within() reads a backslash in the directory as a slash: so does this.
  const slashed = (p: string): string => (p.includes('\\') ? p.replace(/\\/g, '/') : p);
  const real = norm(slashed(r.real), pc);
  const lexical = r.lexical === r.real ? real : norm(slashed(r.lexical), pc);
  const realUnder = real === '/' ? '/' : `${real}/`;
  const lexicalUnder = lexical === '/' ? '/' : `${lexical}/`;
  for (const f of rootFormsOf(pc)) {
    if (f.norm === real || f.norm.startsWith(realUnder)) return f.root;
    if (f.norm === lexical || f.norm.startsWith(lexicalUnder)) return f.root;
  }
  return undefined;
}

/**
 * The protected root (of `roots`, Gatehouse's own files unless told) a path reaches, if any;
 * a glob counts when it can reach one.
 */
function protectedRootOf(
  r: ResolvedPath,
  pc: PathContext,
  roots: readonly string[] = pc.protectedRoots,
): string | undefined {
  if (!r.glob) {
    // As within(), with the path and the roots normalised once.
    const real = norm(r.real, pc);
    const lexical = r.lexical === r.real ? real : norm(r.lexical, pc);
    for (const f of rootFormsOf(pc, roots)) {
      if (real === f.norm || real.startsWith(f.under)) return f.root;
      if (lexical === f.norm || lexical.startsWith(f.under)) return f.root;
    }
    return undefined;
  }
  for (const root of roots) {
    for (const path of [r.real, r.lexical]) {
      const segments = path.split('/');
      const firstGlob = segments.findIndex((s) => /[*?[{]/.test(s));
      const prefix = segments.slice(0, firstGlob).join('/') || '/';
      if (within(prefix, root, pc)) return root;
      if (!within(root, prefix, pc)) continue;
      if (segments.slice(firstGlob).some((s) => s.includes('**'))) return root;
      // Does the pattern, cut to the root's depth, match the root itself?
      const rootSegments = norm(root, pc).split('/');
      const cut = segments.slice(0, rootSegments.length).join('/');
      if (globRegExp(cut, { caseInsensitive: pc.caseInsensitive }).test(rootSegments.join('/')))
        return root;
    }
  }
  return undefined;
}
