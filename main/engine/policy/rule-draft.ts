import type { RuleDraft } from '../../../shared/domain';
import {
  commandWords,
  normaliseCommand,
  placedIn,
  prefixCanCover,
  projectRelative,
  requestDirs,
} from '../../../shared/policy/rule-match';

/** The parts of a request a rule is drafted from. */
export interface DraftSource {
  action: string;
  target?: string | undefined;
  command?: string | undefined;
  paths?: readonly string[] | undefined;
  project?: string | undefined;
  /** The request's context: where its call ran (rule-match.ts requestDirs). */
  context?: Readonly<Record<string, unknown>> | undefined;
}

/** A rule draft and the steps that widen it, narrowest first. */
export interface DraftLadder {
  draft: RuleDraft;
  widenings: RuleDraft[];
}

/** Escapes the characters picomatch reads as glob syntax, so a path matches only itself. */
export const escapeGlob = (path: string): string => path.replace(/[*?[\]{}()!+@\\]/g, '\\$&');

/**
 * The request's paths as the draft's globs hold them: each word where the call opened it
 * (`dist` asked from the project's `pkg` folder is `pkg/dist`), relative to the project when
 * inside it. Without a known directory, words are taken as the project's.
 */
function draftPaths(r: DraftSource): string[] {
  const dir = requestDirs(r.context)?.[0];
  return (r.paths ?? []).map((p) => projectRelative(dir ? placedIn(p, dir) : p, r.project));
}

/**
 * The leading words of a command that name what it does (`kubectl apply`, `git push`): up to
 * two words, stopping at the first option, path, assignment or file-looking word. Undefined
 * when the command is no longer than that, or a prefix could not cover it (shell syntax).
 */
export function suggestedPrefix(command: string): string | undefined {
  if (!prefixCanCover(command)) return undefined;
  const words = commandWords(command);
  const lead: string[] = [];
  for (const w of words) {
    if (lead.length === 2 || /^-|[/=.:~"'\\]/.test(w)) break;
    lead.push(w);
  }
  if (lead.length === 0 || lead.length >= words.length) return undefined;
  return lead.join(' ');
}

/** The directory glob of a draft path: `src/a.ts` → `src/**`, `a.ts` → `**`. */
function directoryGlob(path: string): string {
  const slash = path.lastIndexOf('/');
  if (slash < 0) return '**';
  const dir = path.slice(0, slash);
  return dir === '' ? '/**' : `${escapeGlob(dir)}/**`;
}

/**
 * The narrowest rule that covers a request: its action, exact command, exact target, exact
 * listed paths and its project. Nothing the person did not see is covered.
 */
export function narrowestDraft(r: DraftSource): RuleDraft {
  const d: RuleDraft = { action: r.action };
  if (r.command !== undefined && normaliseCommand(r.command))
    d.command = normaliseCommand(r.command);
  if (r.target !== undefined && r.target !== '') d.target = r.target;
  if (r.paths !== undefined && r.paths.length > 0)
    d.paths = [...new Set(draftPaths(r).map(escapeGlob))];
  if (r.project !== undefined && r.project !== '') d.project = r.project;
  return d;
}

/**
 * The narrowest draft and, in order, each step that widens it by one notch: the exact
 * command to its leading words (`kubectl apply:*`), the paths to their directories, then any
 * command, any paths, any target, and last any project. Steps that would change nothing are
 * left out; every step still covers the request.
 */
export function draftLadder(r: DraftSource): DraftLadder {
  const draft = narrowestDraft(r);
  const widenings: RuleDraft[] = [];
  let cur: RuleDraft = draft;
  const step = (next: RuleDraft): void => {
    widenings.push(next);
    cur = next;
  };
  if (cur.command !== undefined) {
    const prefix = suggestedPrefix(cur.command);
    if (prefix !== undefined) {
      const { command: _exact, ...rest } = cur;
      step({ ...rest, commandPrefix: prefix });
    }
  }
  if (cur.paths !== undefined) {
    const raw = draftPaths(r);
    const dirs = [...new Set(raw.map(directoryGlob))];
    if (dirs.join('\n') !== cur.paths.join('\n')) step({ ...cur, paths: dirs });
  }
  if (cur.command !== undefined || cur.commandPrefix !== undefined) {
    const { command: _c, commandPrefix: _p, ...rest } = cur;
    step(rest);
  }
  if (cur.paths !== undefined) {
    const { paths: _paths, ...rest } = cur;
    step(rest);
  }
  if (cur.target !== undefined) {
    const { target: _target, ...rest } = cur;
    step(rest);
  }
  if (cur.project !== undefined) {
    const { project: _project, ...rest } = cur;
    step(rest);
  }
  return { draft, widenings };
}
