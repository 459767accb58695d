import type { RuleDraft } from '../../../shared/domain';
import { narrowestDraft, type DraftSource } from './rule-draft';

/**
 * A person's decision's pattern: the narrowest rule draft of its request (rule-draft.ts) as
 * canonical JSON, matchers in a fixed order. Two decisions with one pattern are the same
 * call to a rule: rule suggestions count them together, and a snooze is stored under it.
 * Drafted with the request's context, so each path is named where its call ran.
 */
export function patternOf(draft: RuleDraft): string {
  return JSON.stringify([
    draft.action,
    draft.command ?? null,
    draft.target ?? null,
    draft.paths ?? null,
    draft.project ?? null,
  ]);
}

/** The pattern of a decided request, stored with the decision (migration 026). */
export const decisionPattern = (r: DraftSource): string => patternOf(narrowestDraft(r));

/** The draft a pattern was made from ({@link patternOf} read back). */
export function draftOfPattern(pattern: string): RuleDraft {
  const [action, command, target, paths, project] = JSON.parse(pattern) as [
    string,
    string | null,
    string | null,
    string[] | null,
    string | null,
  ];
  const draft: RuleDraft = { action };
  if (command !== null) draft.command = command;
  if (target !== null) draft.target = target;
  if (paths !== null) draft.paths = paths;
  if (project !== null) draft.project = project;
  return draft;
}
