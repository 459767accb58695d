import type { Command } from 'commander';
import type { RequestRecord, RuleDraft } from '../../shared/domain';
import { describeRule } from '../../shared/rule-words';
import { draftCovers, normaliseDraft, requestDirs } from '../../shared/policy/rule-match';

/** The options of `approve` that shape what a session, envelope or "always" approval covers. */
export interface DraftOptions {
  pattern?: string;
  anyCommand?: boolean;
  anyPath?: boolean;
  anyTarget?: boolean;
  anyProject?: boolean;
}

/** True when any option asks for something other than the narrowest draft. */
export const widens = (o: DraftOptions): boolean =>
  Boolean(o.pattern || o.anyCommand || o.anyPath || o.anyTarget || o.anyProject);

/** Adds the draft options to a command, each with its help text. */
export function addDraftOptions(cmd: Command): Command {
  return cmd
    .option(
      '--pattern <pattern>',
      "with --scope session/always: cover this command instead of the exact one; end with ':*' for a prefix (e.g. 'kubectl apply:*')",
    )
    .option('--any-command', 'with --scope session/always: cover any command of this action')
    .option('--any-path', 'with --scope session/always: cover any paths, not only the listed ones')
    .option('--any-target', 'with --scope session/always: cover any target, not only this one')
    .option(
      '--any-project',
      'with --scope always: cover the action in every project, not only this one',
    );
}

/**
 * The rule draft the options ask for, starting from the narrowest one the server proposed.
 * Throws with a clear message when the result would not cover the request it approves.
 */
export function draftFromOptions(
  narrowest: RuleDraft,
  request: RequestRecord,
  o: DraftOptions,
): RuleDraft {
  let d: RuleDraft = { ...narrowest };
  if (o.pattern !== undefined) {
    const { command: _c, commandPrefix: _p, ...rest } = d;
    d = o.pattern.trim().endsWith(':*')
      ? { ...rest, commandPrefix: o.pattern }
      : { ...rest, command: o.pattern };
  }
  if (o.anyCommand) {
    const { command: _c, commandPrefix: _p, ...rest } = d;
    d = rest;
  }
  if (o.anyPath) {
    const { paths: _paths, ...rest } = d;
    d = rest;
  }
  if (o.anyTarget) {
    const { target: _target, ...rest } = d;
    d = rest;
  }
  if (o.anyProject) {
    const { project: _project, ...rest } = d;
    d = rest;
  }
  d = normaliseDraft(d);
  if (
    !draftCovers(d, {
      action: request,
      project: request.project,
      dirs: requestDirs(request.context),
    })
  )
    throw new Error(
      `"${describeRule(d)}" does not cover request ${request.requestId} (${request.command ?? request.action})`,
    );
  return d;
}
