import picomatch from 'picomatch';
import type { RuleDraft, RuleMatchers } from '../domain';
export { describeRule } from '../rule-words';

/** What of an action the matchers look at (the engine's `ActionDescription` has these). */
export interface MatchedAction {
  action: string;
  target?: string | undefined;
  command?: string | undefined;
  paths?: string[] | undefined;
}

/** The action a rule or grant is asked about, and the project of the agent that asks. */
export interface MatchInput {
  action: MatchedAction;
  project?: string | undefined;
  /**
   * The directories the action's relative path words are opened in: where the call runs,
   * and each directory its command may `cd` to first. A path matcher must match the word
   * placed in every one of them. Absent: words are taken as relative to the project.
   */
  dirs?: readonly string[] | undefined;
}

/** A command with its whitespace collapsed: `git  push\torigin` is `git push origin`. */
export const normaliseCommand = (c: string): string => c.trim().replace(/\s+/g, ' ');

/** The whitespace-separated words of a command. */
export const commandWords = (c: string): string[] => {
  const n = normaliseCommand(c);
  return n ? n.split(' ') : [];
};

/**
 * Shell syntax after which a command's leading words no longer say what it does
 * (`kubectl apply -f x && kubectl delete ns prod`, `$(…)`, redirections, subshells). A
 * command prefix never covers such a command: only an exact-command rule can.
 */
const SHELL_CONTROL = /[;&|<>`$\n\r(){}]/;

/** True when a command prefix may cover this command at all. */
export const prefixCanCover = (command: string): boolean => !SHELL_CONTROL.test(command);

/** A command prefix as stored: its words, without the `:*` it is written with. */
export function normalisePrefix(prefix: string): string {
  return normaliseCommand(prefix.trim().replace(/:\*$/, ''));
}

/** True when the command's words start with the prefix's words (`git push:*`). */
export function commandHasPrefix(command: string, prefix: string): boolean {
  if (!prefixCanCover(command)) return false;
  const words = commandWords(command);
  const want = commandWords(normalisePrefix(prefix));
  if (want.length === 0 || want.length > words.length) return false;
  return want.every((w, i) => words[i] === w);
}

/** Makes a path relative to the project root with forward slashes, as globs expect. */
export function projectRelative(path: string, projectDir: string | undefined): string {
  const p = path.replace(/\\/g, '/');
  if (!projectDir) return p.replace(/^\.\//, '');
  const root = projectDir.replace(/\\/g, '/').replace(/\/+$/, '');
  if (p === root) return '.';
  if (p.startsWith(`${root}/`)) return p.slice(root.length + 1);
  return p.replace(/^\.\//, '');
}

/**
 * Words a shell expands before they name a file (`~`, `$HOME`, a command substitution):
 * what they name is not what a glob would see, so only the project's own spelling counts.
 */
const EXPANDS = /^~|[$`]/;

/** A path as a rule's globs see it, or `undefined` when it is not inside the project. */
function rulePath(path: string, project: string | undefined): string | undefined {
  const p = path.replace(/\\/g, '/');
  if (EXPANDS.test(p)) return undefined;
  const absolute = p.startsWith('/') || /^[a-zA-Z]:\//.test(p);
  // A global rule's globs are taken in the agent's project; without one, nothing is inside.
  if (absolute && !project) return undefined;
  const rel = projectRelative(p, project);
  // Outside the project (still absolute), or climbing out with `..`: the glob would see a
  // different file than the one written.
  if (rel.startsWith('/') || /^[a-zA-Z]:\//.test(rel)) return undefined;
  if (rel.split('/').includes('..')) return undefined;
  return rel;
}

/**
 * A path word as a program opens it from `dir`: a plain relative word is joined to it (`build`
 * run in `app/sub` is `app/sub/build`, not the project's `build`); an absolute word, or one the
 * shell expands (`~`, `$HOME`), is left as written. `..` segments stay, so no glob matches what
 * they lead to (through a symbolic link, that may be anywhere).
 */
export function placedIn(path: string, dir: string): string {
  const p = path.replace(/\\/g, '/');
  if (p.startsWith('/') || /^[a-zA-Z]:\//.test(p) || EXPANDS.test(p)) return path;
  const base = dir.replace(/\\/g, '/').replace(/\/+$/, '');
  const rest = p.replace(/^(\.\/+)+/, '');
  return rest === '' || rest === '.' ? base || '/' : `${base}/${rest}`;
}

/**
 * Where a request's call runs, as the hook relay records it in the request's context: the
 * call's own directory (`workdir`), else the agent's (`cwd`). A draft of the request places
 * its relative words there, and is checked against it there. Undefined when neither is said.
 */
export function requestDirs(
  context: Readonly<Record<string, unknown>> | undefined,
): readonly string[] | undefined {
  const dir = context?.workdir ?? context?.cwd;
  return typeof dir === 'string' && dir !== '' ? [dir] : undefined;
}

/** The same path, for the exact-path patterns an approval of it left (never a glob). */
const plainPath = (path: string): string => path.replace(/\\/g, '/').replace(/\/+$/, '');

/**
 * True when every path of the action matches one of the globs. Globs match only inside the
 * project (the rule's, else the agent's): `**` never reaches `~/.bashrc` or `/dev/tcp/…`.
 * A path outside it is covered only by a pattern without glob characters that names exactly
 * that path (what "always" on a request for that very file leaves).
 */
export function pathsMatch(
  paths: readonly string[] | undefined,
  m: RuleMatchers,
  agentProject?: string,
  dirs?: readonly string[],
): boolean {
  if (!m.paths) return true;
  if (!paths || paths.length === 0) return false;
  const isMatch = picomatch(m.paths, { dot: true });
  const exact = new Set(
    m.paths.flatMap((g) => {
      if (picomatch.scan(g).isGlob) return [];
      return [plainPath(g.replace(/\\(.)/g, '$1'))];
    }),
  );
  const project = m.project ?? agentProject;
  const matches = (p: string): boolean => {
    const rel = rulePath(p, project);
    if (rel !== undefined) return isMatch(rel);
    const plain = plainPath(p);
    return !EXPANDS.test(plain) && !plain.split('/').includes('..') && exact.has(plain);
  };
  return paths.every((p) =>
    dirs?.length ? dirs.every((d) => matches(placedIn(p, d))) : matches(p),
  );
}

/**
 * True when every matcher the rule (or grant) sets matches the action. Matchers left unset
 * match anything, so a rule with none of them covers its whole action.
 */
export function matchersCover(m: RuleMatchers, input: MatchInput): boolean {
  const a = input.action;
  if (m.project !== undefined && m.project !== input.project) return false;
  if (m.target !== undefined && m.target !== a.target) return false;
  if (m.command !== undefined) {
    if (a.command === undefined || normaliseCommand(a.command) !== normaliseCommand(m.command))
      return false;
  }
  if (m.commandPrefix !== undefined) {
    if (a.command === undefined || !commandHasPrefix(a.command, m.commandPrefix)) return false;
  }
  return pathsMatch(a.paths, m, input.project, input.dirs);
}

/** True when a draft (or rule) is for this action and covers it. */
export const draftCovers = (d: RuleDraft, input: MatchInput): boolean =>
  d.action === input.action.action && matchersCover(d, input);

/** How many matchers narrow the rule: more is more specific. */
export function specificity(m: RuleMatchers): number {
  let n = 0;
  if (m.command !== undefined) n++;
  if (m.commandPrefix !== undefined) n++;
  if (m.target !== undefined) n++;
  if (m.paths !== undefined) n++;
  if (m.project !== undefined) n++;
  return n;
}

/** True when the rule has no matcher but (possibly) its project: it covers its whole action. */
export const isActionWide = (m: RuleMatchers): boolean =>
  m.command === undefined &&
  m.commandPrefix === undefined &&
  m.target === undefined &&
  m.paths === undefined;

/**
 * Brings a draft typed by a person to its stored form: commands whitespace-normalised, a
 * prefix without its `:*`, empty matchers dropped.
 */
export function normaliseDraft(d: RuleDraft): RuleDraft {
  const out: RuleDraft = { action: d.action };
  if (d.command !== undefined && normaliseCommand(d.command))
    out.command = normaliseCommand(d.command);
  if (d.commandPrefix !== undefined && normalisePrefix(d.commandPrefix))
    out.commandPrefix = normalisePrefix(d.commandPrefix);
  if (d.target !== undefined && d.target !== '') out.target = d.target;
  if (d.paths !== undefined && d.paths.length > 0) out.paths = [...d.paths];
  if (d.project !== undefined && d.project !== '') out.project = d.project;
  return out;
}

/** The matchers of a rule record or draft, without its other fields. */
export function matchersOf(m: RuleMatchers): RuleMatchers {
  const out: RuleMatchers = {};
  if (m.command !== undefined) out.command = m.command;
  if (m.commandPrefix !== undefined) out.commandPrefix = m.commandPrefix;
  if (m.target !== undefined) out.target = m.target;
  if (m.paths !== undefined) out.paths = m.paths;
  if (m.project !== undefined) out.project = m.project;
  return out;
}
