import { scanCommandPaths } from '../../../shared/tools/shell-paths';
import type { ShellParser } from '../../../shared/tools/shell-syntax';
import { isTeamRule } from './team-rules';
import type { ActionDescription, Classification } from './classifier';
import type { PathResolver } from './path-port';
import {
  impliedWrites,
  runInputGroup,
  runsGroup,
  watchGroupOf,
  WATCH_RULE_PREFIX,
  WRITING_ACTIONS,
} from './project-run-inputs';
import { isProtectedRule } from './protected-paths';
import type { RunInputsStore, RunInputChangeRow } from './policy-store';
import type { RequestRow } from '../requests/requests-store';
import type { SessionRow } from '../sessions/sessions-store';
import type { Unit, UnitOfWork } from '../kernel/unit-of-work';

interface Changed {
  group: RunInputChangeRow['group'];
  action: string;
}

/**
 * Programs that copy or move folders into place (tree-writes.ts), checked on the text first:
 * every other command (`git status` above all) skips the second scan.
 */
const COPIERS = /(^|[\s;&|(/])(cp|mv|rsync)\s|(^|[\s;&|(/])git\s[^;&|]*\bmv\s/;

/** How many changed files a reason names before it says "and N more". */
const NAMED = 5;

/**
 * "What runs when tests run". When an agent writes a file that decides what a
 * test, build or git command runs (project-run-inputs.ts) through a call Gatehouse let
 * through, the change is kept per project (it survives a restart); the next run of such a
 * command in that project asks once, naming the files, and the person's approval of that run
 * makes runs auto again until the next change. Grants, the ladder and rules do not settle
 * that request: they were given for what the files said before.
 */
export class RunInputWatch {
  constructor(
    private readonly store: RunInputsStore,
    private readonly work: UnitOfWork,
    private readonly resolver: () => PathResolver | undefined,
    /** The files the project's git config includes (absolute); Node side, see core.ts. */
    private readonly gitIncludes?: (projectRoot: string) => readonly string[],
    /** The shell parser: a folder a command copies into place is read for what it holds. */
    private readonly shell?: () => ShellParser | undefined,
  ) {}

  /**
   * The watch's say on a classification: a run after unapproved changes asks. `call` is the
   * whole tool call the action is part of, when it is one: `echo … > package.json && npm
   * test` writes the file and runs it in one go.
   */
  classify(
    session: SessionRow,
    a: ActionDescription,
    c: Classification,
    call?: { actions: readonly ActionDescription[]; cwd?: string | undefined },
  ): Classification {
    const project = session.project;
    // A team rule's ask or deny stands as the team wrote it (it locks grants like this one).
    if (!project || isProtectedRule(c.rule) || isTeamRule(c.rule)) return c;
    const group = runsGroup(a);
    if (!group) return c;
    const inCall = call ? this.changedBy(session, call.actions, call.cwd) : undefined;
    const changes = [
      ...this.store.listRunInputChanges(project, group),
      ...[...(inCall ?? [])]
        .filter(([, x]) => x.group === group)
        .map(([path, x]) => ({ path, agent: session.agent, action: `${x.action} in this call` })),
    ];
    if (!changes.length) return c;
    const files = [...new Set(changes.map((x) => x.path))];
    const named =
      files.slice(0, NAMED).join(', ') +
      (files.length > NAMED ? ` and ${files.length - NAMED} more` : '');
    const by = [...new Set(changes.map((x) => `${x.agent} (${x.action})`))].join(', ');
    const what = group === 'git' ? 'git command' : 'test or build run';
    return {
      tier: 'ask',
      rule: `${WATCH_RULE_PREFIX}${group}`,
      reason:
        `${named} changed since you last approved a ${what} in this project (by ${by}); ` +
        `this ${a.action} would run what ${files.length === 1 ? 'it says' : 'they say'} now` +
        (c.tier === 'ask' ? `; besides, ${c.reason}` : ''),
      risk: 'high',
    };
  }

  /**
   * Records the run-deciding files among what a call that was let through writes, in a unit
   * of its own when there are any. `cwd` is where the agent's relative paths start (the
   * hook's), else the project root.
   */
  noteWrites(
    session: SessionRow,
    specs: readonly ActionDescription[],
    cwd: string | undefined,
  ): void {
    const changed = this.changedBy(session, specs, cwd);
    if (changed.size) this.work.run((u) => this.record(u, session, changed));
  }

  /** {@link noteWrites} in the caller's unit (a person's approval of the write). */
  noteWritesIn(
    u: Unit,
    session: SessionRow,
    specs: readonly ActionDescription[],
    cwd: string | undefined,
  ): void {
    const changed = this.changedBy(session, specs, cwd);
    if (changed.size) this.record(u, session, changed);
  }

  private changedBy(
    session: SessionRow,
    specs: readonly ActionDescription[],
    cwd: string | undefined,
  ): Map<string, Changed> {
    const changed = new Map<string, Changed>();
    const project = session.project;
    if (!project) return changed;
    let included: Set<string> | undefined;
    /** A file `[include]`d by the git config is a git input whatever its name. */
    const isIncluded = (rel: string): boolean => {
      included ??= new Set(
        (this.gitIncludes?.(project) ?? []).flatMap((abs) => this.inProject(abs, project, project)),
      );
      return included.has(rel);
    };
    const copiesRead = new Set<string>();
    for (const s of specs) {
      const note = (rel: string): void => {
        const group = runInputGroup(rel) ?? (isIncluded(rel) ? 'git' : undefined);
        if (group) changed.set(rel, { group, action: s.action });
      };
      // Relative to the project root, whatever the cwd: git and npm find them there.
      for (const rel of impliedWrites(s)) note(rel);
      // The actions of one command share it: its copied folders are read once.
      if (s.command !== undefined && !copiesRead.has(s.command)) {
        copiesRead.add(s.command);
        for (const abs of this.copiedFiles(s.command, cwd ?? project))
          for (const rel of this.inProject(abs, project, project)) note(rel);
      }
      if (!WRITING_ACTIONS.has(s.action)) continue;
      for (const p of s.paths ?? [])
        for (const rel of this.inProject(p, project, cwd ?? project)) note(rel);
    }
    return changed;
  }

  /**
   * Where the files of the folders a command copies or moves into place land (`cp -r x/
   * sub/`, `rsync -a`, `mv`): each name inside, at each destination, absolute. The listing
   * is the one the protected-path check reads (bounded; a folder it cannot read whole asks
   * there already).
   */
  private copiedFiles(command: string, cwd: string): string[] {
    if (!COPIERS.test(command)) return [];
    const shell = this.shell?.();
    const resolver = this.resolver();
    if (!shell || !resolver?.listTree) return [];
    const scan = scanCommandPaths(command, shell.analyse(command), [cwd], resolver);
    const out: string[] = [];
    for (const use of scan.uses) {
      if (!use.copied) continue;
      for (const to of use.copied.into)
        for (const rel of use.copied.entries) if (runInputGroup(rel)) out.push(`${to.real}/${rel}`);
    }
    return out;
  }

  private record(u: Unit, session: SessionRow, changed: Map<string, Changed>): void {
    const project = session.project!;
    for (const [path, c] of changed)
      this.store.upsertRunInputChange({
        project,
        group: c.group,
        path,
        changedAt: u.now,
        sessionId: session.sessionId,
        agent: session.agent,
        action: c.action,
      });
    u.audit('run_inputs.changed', {
      sessionId: session.sessionId,
      agent: session.agent,
      data: { project, files: [...changed].map(([path, c]) => ({ path, ...c })) },
    });
  }

  /** A person approved a run the watch held: runs are auto again until the next change. */
  approved(u: Unit, r: RequestRow): void {
    const group = watchGroupOf(r.rule);
    if (!group || !r.project) return;
    // Only what the request showed: a change after it was filed still asks.
    const cleared = this.store.clearRunInputChanges(r.project, group, r.createdAt);
    u.audit('run_inputs.approved', {
      sessionId: r.sessionId,
      agent: r.agent,
      requestId: r.requestId,
      data: { project: r.project, group, cleared },
    });
  }

  /** The path relative to the project root, as written and as resolved, when inside it. */
  private inProject(path: string, project: string, cwd: string): string[] {
    const resolver = this.resolver();
    const absolute = resolver
      ? resolver
          .resolve(path, { cwds: [cwd], vars: new Map() })
          .paths.flatMap((r) => [r.lexical, r.real])
      : [path.startsWith('/') ? path : `${cwd}/${path}`];
    const root = project.replace(/\/+$/, '');
    const out = new Set<string>();
    for (const a of absolute) {
      const p = normalise(a);
      if (p.startsWith(`${root}/`)) out.add(p.slice(root.length + 1));
    }
    return [...out];
  }
}

/** `/a/./b//c/../d` → `/a/b/d`, forward slashes. */
function normalise(path: string): string {
  const out: string[] = [];
  for (const seg of path.replace(/\\/g, '/').split('/')) {
    if (seg === '' || seg === '.') continue;
    if (seg === '..') out.pop();
    else out.push(seg);
  }
  return `/${out.join('/')}`;
}
