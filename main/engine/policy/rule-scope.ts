import picomatch from 'picomatch';
import type { RuleRecord } from '../../../shared/domain';
import type { ActionDescription, PathContext } from './classification';
import { secretKind } from './secret-paths';

/**
 * The part of "a rule's `--path` globs match only inside its project" that needs the file
 * system: rule-match.ts compares the paths as written (no `..`, nothing absolute outside the
 * project); here each path is resolved as the kernel would (symlinks of existing parents), so
 * `link/x` with `link -> ~` is not inside the project, and a glob never reaches a secret.
 * A path matcher without glob characters names its files itself and keeps that say.
 */
export function pathGlobsStayInScope(
  rule: RuleRecord,
  a: ActionDescription,
  project: string | undefined,
  pc: PathContext | undefined,
  /** Where the action's relative words are opened (protected-paths.ts wordDirectories). */
  dirs?: readonly string[],
): boolean {
  if (!rule.paths || !pc) return true;
  if (!rule.paths.some((g) => picomatch.scan(g).isGlob)) return true;
  const root = rule.project ?? project;
  if (!root) return false;
  const roots = new Set([
    root,
    ...pc.resolver.resolve(root, { cwds: [root], vars: NO_VARS }).paths.map((r) => r.real),
  ]);
  const cwds = dirs?.length ? [...dirs] : [pc.cwd ?? root];
  return (a.paths ?? []).every((p) => {
    // A path Gatehouse cannot resolve is in no scope.
    const resolved = pc.resolver.resolve(p, { cwds, vars: NO_VARS });
    return (
      !resolved.unresolved &&
      resolved.paths.every(
        (r) =>
          !r.glob &&
          [...roots].some((d) => inside(r.real, d, pc.caseInsensitive)) &&
          secretKind(r.real, pc.home, pc.caseInsensitive) === undefined,
      )
    );
  });
}

const NO_VARS: ReadonlyMap<string, readonly string[]> = new Map();

function inside(path: string, dir: string, caseInsensitive: boolean): boolean {
  const fold = (s: string) => (caseInsensitive ? s.toLowerCase() : s).replace(/\/+$/, '') || '/';
  const p = fold(path);
  const d = fold(dir.replace(/\\/g, '/'));
  return p === d || p.startsWith(d === '/' ? '/' : `${d}/`);
}
