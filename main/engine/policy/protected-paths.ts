import picomatch from 'picomatch';
import type { Risk, RuleRecord } from '../../../shared/domain';
import { asPolicyChange } from '../../../shared/tools/action-spec';
import type { ShellAnalysis } from '../../../shared/tools/shell-syntax';
import type { ActionDescription, Classification, ClassifyContext } from './classifier';
import type { PathProtection, ResolvedPath } from './path-port';
import { secretKind } from './secret-paths';

/** The paths half of a classification context: protection and where the agent works. */
export interface PathContext extends PathProtection {
  /** The agent's working directory when known (the `gate` cwd), else its project. */
  cwd?: string;
}

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
/** More words than this in one command are not checked one by one: the command asks. */
const MAX_WORDS = 512;

type UserRuleLookup = (a: ActionDescription, ctx: ClassifyContext) => RuleRecord | undefined;

const ask = (rule: string, reason: string, risk: Risk): Classification => ({
  tier: 'ask',
  rule,
  reason,
  risk,
});

/**
 * The path findings that come before every other rule (issue 9): an action touching
 * Gatehouse's own files, or changing a Gatehouse policy, always asks (critical); a shell
 * command whose effect cannot be known asks unless a narrow user rule covers it; secrets and
 * reads outside the project ask unless a user rule for the action allows it.
 */
export function guardedPathFinding(
  a: ActionDescription,
  ctx: ClassifyContext,
  userRule: UserRuleLookup,
): Classification | undefined {
  const policyChange = policyChangeFinding(a, ctx.paths);
  if (policyChange) return policyChange;
  const pc = ctx.paths;
  if (!pc) return undefined;
  const analysis = a.command ? pc.shell.analyse(a.command) : undefined;
  if (analysis && commandPolicyChange(analysis))
    return ask(
      'protected:change_gatehouse_policy',
      'the command writes or deletes a .gatehouse.toml, which decides what agents may do; only you can change it',
      'critical',
    );
  const words = pathWords(a, analysis);
  if (words.length > MAX_WORDS)
    return ask(
      'shell:opaque',
      `the command has too many words (${words.length}) to check each`,
      'high',
    );
  const base = [pc.cwd ?? ctx.project].filter((d): d is string => !!d);
  const vars = analysis?.assignments ?? new Map<string, string[]>();
  const cwds = [...base, ...cdTargets(analysis, pc, base, vars)];
  let secret: { word: string; kind: string } | undefined;
  for (const word of words) {
    for (const r of pc.resolver.resolve(word, { cwds, vars })) {
      const root = protectedRootOf(r, pc);
      if (root)
        return ask(
          'protected:gatehouse',
          `${clip(word)} is inside Gatehouse's own files (${root}); reading or changing them would let an agent approve itself, so this always asks`,
          'critical',
        );
      const kind = secret ? undefined : secretKind(r.real, pc.home, pc.caseInsensitive);
      if (kind) secret = { word, kind };
    }
  }
  for (const word of recursiveWords(a, analysis)) {
    for (const r of pc.resolver.resolve(word, { cwds, vars })) {
      const root = pc.protectedRoots.find(
        (root) => within(root, r.real, pc) || within(root, r.lexical, pc),
      );
      if (root)
        return ask(
          'protected:gatehouse',
          `${clip(word)} holds Gatehouse's own files (${root}) and this goes through it recursively; reading or changing them would let an agent approve itself, so this always asks`,
          'critical',
        );
    }
  }
  const rule = userRule(a, ctx);
  const allowedByRule = rule?.tier === 'auto';
  const narrowRule = allowedByRule && !isActionWide(rule);
  if (analysis?.opaque.length && !narrowRule) {
    const why = analysis.opaque.map((o) => o.reason);
    return ask(
      'shell:opaque',
      `what this command does cannot be known before it runs: ${[...new Set(why)].join('; ')}`,
      'high',
    );
  }
  // An explicit user rule may relax secrets; an "always" click only with a matcher.
  const relaxes = allowedByRule && (rule.source === 'user' || narrowRule);
  if (secret && !relaxes)
    return ask(
      'default:secret_path',
      `${clip(secret.word)} is ${secret.kind}; secrets ask unless a rule of yours allows them`,
      'high',
    );
  if (READ_ACTIONS.has(a.action) && ctx.project && !relaxes) {
    const outside = (a.paths ?? []).find((p) =>
      pc.resolver
        .resolve(p, { cwds: base, vars })
        .some((r) => !within(r.real, ctx.project!, pc) && !within(r.lexical, ctx.project!, pc)),
    );
    if (outside)
      return ask(
        'default:outside_project',
        `${clip(outside)} is outside the project ${ctx.project}; reads outside the project ask`,
        'medium',
      );
  }
  return undefined;
}

const clip = (s: string, n = 200): string => (s.length > n ? `${s.slice(0, n - 1)}…` : s);

function policyChangeFinding(
  a: ActionDescription,
  pc: PathContext | undefined,
): Classification | undefined {
  const isChange =
    a.action === 'change_gatehouse_policy' ||
    asPolicyChange({ action: a.action, ...(a.paths ? { paths: a.paths } : {}) }).action ===
      'change_gatehouse_policy';
  if (!isChange) return undefined;
  void pc;
  return ask(
    'protected:change_gatehouse_policy',
    'changing a Gatehouse policy (.gatehouse.toml or its own settings) decides what agents may do; only you can approve it, once',
    'critical',
  );
}

/** True when the command writes, edits or deletes a `.gatehouse.toml`. */
function commandPolicyChange(analysis: ShellAnalysis): boolean {
  const policy = /(^|\/)\.gatehouse\.toml$/;
  for (const cmd of analysis.commands) {
    if (cmd.redirects.some((r) => r.kind === 'write' && policy.test(r.target))) return true;
    const program = (cmd.words[0] ?? '').replace(/^.*\//, '');
    const readOnly = /^(cat|less|more|head|tail|grep|rg|wc|diff|ls|stat|file|bat|git)$/;
    if (!readOnly.test(program) && cmd.words.slice(1).some((w) => policy.test(w))) return true;
  }
  return false;
}

/** Every word that may name a file: paths, target, each command word and redirect target. */
function pathWords(a: ActionDescription, analysis: ShellAnalysis | undefined): string[] {
  const words = new Set<string>(a.paths ?? []);
  if (a.target) words.add(a.target);
  for (const cmd of analysis?.commands ?? []) {
    for (const w of cmd.words) {
      words.add(w);
      // `--file=/x`, `of=/x`: the value after `=` is a path too.
      const eq = w.indexOf('=');
      if (eq > 0) words.add(w.slice(eq + 1));
    }
    for (const r of cmd.redirects) if (r.kind === 'read' || r.kind === 'write') words.add(r.target);
  }
  words.delete('');
  return [...words];
}

/** Programs that go through the directories they are given. */
const RECURSIVE_PROGRAMS =
  /^(tar|zip|7z|rsync|rg|ag|ack|find|fd|du|tree|scp|rclone|restic|borg|duplicity|git)$/;
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

/** Directories the command moves into (`cd`, `pushd`, `-C dir`): relative paths count there too. */
function cdTargets(
  analysis: ShellAnalysis | undefined,
  pc: PathContext,
  base: string[],
  vars: ReadonlyMap<string, readonly string[]>,
): string[] {
  const out: string[] = [];
  for (const cmd of analysis?.commands ?? []) {
    const [program, ...args] = cmd.words;
    const targets: string[] = [];
    if (program === 'cd' || program === 'pushd')
      targets.push(args.find((w) => !w.startsWith('-')) ?? '~');
    args.forEach((w, i) => {
      if ((w === '-C' || w === '--directory' || w === '--git-dir') && args[i + 1])
        targets.push(args[i + 1]!);
    });
    for (const t of targets)
      for (const r of pc.resolver.resolve(t, { cwds: base, vars })) out.push(r.real);
  }
  return out.slice(0, 16);
}

const norm = (p: string, pc: PathContext): string =>
  (pc.caseInsensitive ? p.toLowerCase() : p).replace(/\/+$/, '') || '/';

/** True when `path` is `dir` or inside it. */
function within(path: string, dir: string, pc: PathContext): boolean {
  const p = norm(path, pc);
  const d = norm(dir.replace(/\\/g, '/'), pc);
  return p === d || p.startsWith(d === '/' ? '/' : `${d}/`);
}

/** The protected root a path reaches, if any; a glob counts when it can reach one. */
function protectedRootOf(r: ResolvedPath, pc: PathContext): string | undefined {
  for (const root of pc.protectedRoots) {
    if (!r.glob) {
      if (within(r.real, root, pc) || within(r.lexical, root, pc)) return root;
      continue;
    }
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
      const pattern = pc.caseInsensitive ? cut.toLowerCase() : cut;
      if (picomatch(pattern, { dot: true })(rootSegments.join('/'))) return root;
    }
  }
  return undefined;
}
