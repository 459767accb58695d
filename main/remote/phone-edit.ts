import { createHash } from 'node:crypto';
import type { RequestRecord } from '../../shared/domain';
import { canTakeEdit } from '../../shared/request-picture/edit-support';

/**
 * Edit before approving on the phone page, as the dashboard offers it (EditAndApprove.tsx):
 * a command as a text field, any other tool call's input as JSON, for an agent whose hooks run
 * an edited call and while it waits. The edited call goes to the admin `decide` method with
 * the same `edit` the dashboard sends, so the engine's own check decides: classified again,
 * a riskier call only once confirmed, masked secrets put back only where they were.
 */

/** What the page offers to edit, and how far the person got (after a refused edit). */
export interface PhoneEdit {
  /** `command`: the text is the command; `json`: the text is the tool input as JSON. */
  mode: 'command' | 'json';
  /** The text in the field: the request's as kept (secrets masked), or the person's. */
  text: string;
  /** Why the last edit was not approved (not JSON, a masked value moved, …). */
  error?: string;
  /** Why the last edit is riskier than the call asked: the page asks to confirm it. */
  riskier?: string;
  /** Binds a confirmation to the exact text found riskier (see {@link confirmedText}). */
  riskierOf?: string;
}

/** The input the request keeps for editing, masked (tool-gate.ts), when it is an object. */
const keptInput = (r: RequestRecord): Record<string, unknown> | undefined => {
  const input = r.context?.toolInput;
  return typeof input === 'object' && input !== null && !Array.isArray(input)
    ? (input as Record<string, unknown>)
    : undefined;
};

/** The edit the page offers for this request, or undefined when it offers none. */
export function phoneEditOffer(
  r: RequestRecord,
  o: { agentWaiting: boolean; mayApproveOnce: boolean },
): PhoneEdit | undefined {
  if (r.status !== 'pending' || !o.agentWaiting || !o.mayApproveOnce || !canTakeEdit(r))
    return undefined;
  const kept = keptInput(r);
  if (r.command !== undefined) {
    // The kept input's command is masked; the request's own line is the fallback.
    const command = typeof kept?.command === 'string' ? kept.command : r.command;
    return { mode: 'command', text: command };
  }
  return kept ? { mode: 'json', text: JSON.stringify(kept, null, 2) } : undefined;
}

/** The edited text as the tool input the `decide` method takes, or why it is not one. */
export function editedInputOf(
  mode: PhoneEdit['mode'],
  text: string,
): { input: Record<string, unknown> } | { error: string } {
  if (mode === 'command')
    return text.trim() === '' ? { error: 'The command is empty' } : { input: { command: text } };
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (e) {
    return { error: `The input is not JSON: ${e instanceof Error ? e.message : String(e)}` };
  }
  return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)
    ? { input: parsed as Record<string, unknown> }
    : { error: 'The input must be a JSON object of the tool’s fields' };
}

/**
 * The digest a riskier edit's confirmation carries: the confirmation holds only for the text
 * the person was told is riskier, not for one they changed after (the page runs no script to
 * take the confirm button away).
 */
export function confirmedText(text: string): string {
  return createHash('sha256').update(text).digest('base64url');
}
