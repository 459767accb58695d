import type { DecideDeps, HookOutcome } from './decide';
import { message, sizedInput } from './decide';
import type { CallResultEvent } from './types';

/**
 * How long the hook of a call's result waits for Gatehouse: the note is in the daemon's
 * memory, so the answer is at once, and the agent is held meanwhile.
 */
export const CALL_NOTE_WAIT_MS = 3_000;

/**
 * The note of a person's approval of a call that ran (`note`), for the adapter to add to the
 * call's result. Never throws and never refuses: the call has run, and at worst the model
 * misses a note that stays in the request and its audit entry (fail open). An agent without
 * {@link AgentAdapter.noteAnswer} gets nothing, without a connection.
 */
export async function callNote(e: CallResultEvent, deps: DecideDeps): Promise<HookOutcome> {
  if (!deps.adapter.noteAnswer || deps.adapter.isInternal?.(e.tool, e.input)) return { notes: [] };
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<HookOutcome>((resolve) => {
    timer = setTimeout(
      () => resolve({ notes: [`no note from Gatehouse within ${CALL_NOTE_WAIT_MS} ms`] }),
      CALL_NOTE_WAIT_MS,
    );
  });
  try {
    return await Promise.race([ask(e, deps), late]);
  } finally {
    clearTimeout(timer);
  }
}

async function ask(e: CallResultEvent, deps: DecideDeps): Promise<HookOutcome> {
  let link;
  try {
    link = await deps.connect(e);
    // Sized as the gate sent it, so the call is known by the same input.
    const asked = link.note({
      tool: e.tool.slice(0, 256) || 'unknown',
      input: sizedInput(e.input).input,
    });
    asked.catch(() => undefined);
    await link.greeted;
    const { note } = await asked;
    return note === undefined ? { notes: [] } : { notes: [], callNote: note };
  } catch (error) {
    return { notes: [`could not ask Gatehouse for an approval note (${message(error)})`] };
  } finally {
    link?.close();
  }
}
