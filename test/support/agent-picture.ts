import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import type { AdminClient } from '../../clients/cli/admin-client';
import { git, pendingWhileRunning, type AgentRun, type PushProject } from './agent-e2e';
import { withPicture } from './with-picture';

/**
 * A real agent's push and file edit, each filed with its picture: the push's remote, branch
 * and the commit it sends; the edit's diff of notes.txt (`picture push` → `picture edit`).
 * Both are denied, so nothing is pushed and the file keeps its text. `push()` and `edit()`
 * start the agent's run with the model scripted to make that one call; `editAction` is the
 * action the edit is filed as (`edit_file`, or `write_file` for a whole-file write).
 */
/** {@link withPicture}, or an error that shows the request as it stands (to see why none came). */
async function pictured(admin: AdminClient, requestId: string) {
  return withPicture(admin, requestId).catch(async (error: unknown) => {
    const { request } = await admin.call('request.get', { requestId });
    throw new Error(`${String(error)}: the request has no picture: ${JSON.stringify(request)}`);
  });
}

export async function expectPushAndEditPictures(
  admin: AdminClient,
  p: PushProject,
  run: { push: () => Promise<AgentRun>; edit: () => Promise<AgentRun>; editAction?: string },
): Promise<void> {
  p.commit('picture push');
  const before = p.remoteHead();
  const pushing = run.push();
  const asked = await pendingWhileRunning(admin, pushing, 'git_push');
  const { push } = (await pictured(admin, asked.requestId)).picture!;
  expect(push).toMatchObject({ remote: 'origin', url: p.remote, branch: 'main', force: false });
  expect(push!.commits[0]!.subject).toBe('picture push');
  expect(push!.commitCount).toBe(push!.commits.length);
  await admin.call('decide', { requestId: asked.requestId, decision: 'deny', reason: 'later' });
  const pushed = await pushing;
  expect(pushed.code, pushed.stderr.slice(-2000)).toBe(0);
  expect(p.remoteHead()).toBe(before);

  const editing = run.edit();
  const edit = await pendingWhileRunning(admin, editing, run.editAction ?? 'edit_file');
  const [file] = (await pictured(admin, edit.requestId)).picture!.files!;
  expect(file).toMatchObject({ path: join(p.project, 'notes.txt'), added: 1, removed: 1 });
  expect(file!.diff).toContain('-picture push\n+picture edit');
  await admin.call('decide', { requestId: edit.requestId, decision: 'deny', reason: 'keep it' });
  const edited = await editing;
  expect(edited.code, edited.stderr.slice(-2000)).toBe(0);
  expect(readFileSync(join(p.project, 'notes.txt'), 'utf8')).toBe('picture push\n');
}

/**
 * Edit before approving with a real agent: its `git push origin main` approved as `git push
 * origin feature` (`push()` starts the run); the remote then shows the feature branch only,
 * main where it was. Returns the run.
 */
export async function expectEditedPush(
  admin: AdminClient,
  p: PushProject,
  push: () => Promise<AgentRun>,
): Promise<AgentRun> {
  const before = p.remoteHead();
  const head = p.commit('edited push');
  git(p.project, 'branch', '-f', 'feature', head);
  const running = push();
  const asked = await pendingWhileRunning(admin, running, 'git_push');
  await admin.call('decide', {
    requestId: asked.requestId,
    decision: 'approve',
    edit: { input: { command: 'git push origin feature', description: 'Push feature' } },
  });
  const run = await running;
  expect(git(p.remote, 'rev-parse', 'refs/heads/feature'), run.stderr.slice(-2000)).toBe(head);
  expect(p.remoteHead()).toBe(before);
  return run;
}
