import { expect } from 'vitest';
import type { AdminClient } from '../../clients/cli/admin-client';
import { pendingWhileRunning, type AgentRun, type PushProject } from './agent-e2e';

/**
 * "Approve with a note" with a real agent: its `git push origin main` (`push()` starts the
 * run) approved with `note`; the push lands. Returns the run, for the test to check the note
 * in what its scripted model received after the approval.
 */
export async function approvePushWithNote(
  admin: AdminClient,
  p: PushProject,
  push: () => Promise<AgentRun>,
  note: string,
): Promise<AgentRun> {
  const head = p.commit('noted push');
  const running = push();
  const asked = await pendingWhileRunning(admin, running, 'git_push');
  await admin.call('decide', { requestId: asked.requestId, decision: 'approve', message: note });
  const run = await running;
  expect(run.code, run.stderr.slice(-2000)).toBe(0);
  expect(p.remoteHead(), run.stderr.slice(-2000)).toBe(head);
  return run;
}
