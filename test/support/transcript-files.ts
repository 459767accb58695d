import { existsSync } from 'node:fs';
import { toRequestRecord } from '../../main/engine/kernel/records';
import type { SessionsStore } from '../../main/engine/sessions/sessions-store';
import { sessionTranscript } from '../../main/engine/sessions/transcript';
import type { SessionRecord, SessionSummary } from '../../shared/domain';
import { flush, type EngineHarness } from './engine-harness';

/**
 * What the writer before paging wrote, and what every write of a session's file must
 * produce: the whole session read at once, one document.
 */
export function wholeTranscriptText(
  store: SessionsStore,
  session: SessionRecord,
  summary: SessionSummary,
): string {
  const doc = {
    session,
    summary,
    transcript: sessionTranscript(store, session.sessionId),
    requests: store.listSessionRequests(session.sessionId).map(toRequestRecord),
  };
  return `${JSON.stringify(doc, null, 2)}\n`;
}

/** Ends a session (committed) and returns what its `session.ended` event carried. */
export function endSession(h: EngineHarness, sessionId: string, agent = 'long-runner') {
  h.engine.end({ sessionId, agent }, { status: 'completed' });
  h.work.flush();
  const ended = h.events.findLast((e) => e.type === 'session.ended');
  if (ended?.type !== 'session.ended') throw new Error('no session.ended event');
  return { session: ended.session, summary: ended.summary };
}

/** Waits, a turn at a time, until the write of `file` has begun (its temp file is there). */
export async function untilWriting(file: string): Promise<void> {
  const giveUp = Date.now() + 10_000;
  while (!existsSync(`${file}.tmp`)) {
    if (Date.now() > giveUp) throw new Error('the write never began');
    await flush();
  }
}
