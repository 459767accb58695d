import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import type { AdminClient } from '../../clients/cli/admin-client';
import { pendingWhileRunning, type AgentRun } from './agent-e2e';

/** A patch that adds one file holding `touch pwned`, under the given header line. */
export const addFilePatch = (header: string): string =>
  ['*** Begin Patch', header, '+touch pwned', '*** End Patch', ''].join('\n');

/**
 * Calibration of a patch-header attack: the agent applies a header spelled this way, and the
 * rules let it pass without a person (the file is written, nothing waits).
 */
export async function expectPatchApplied(
  admin: AdminClient,
  file: string,
  run: Promise<AgentRun>,
): Promise<void> {
  const done = await run;
  expect(done.code, done.stderr).toBe(0);
  expect(readFileSync(file, 'utf8')).toBe('touch pwned\n');
  const { requests } = await admin.call('pending.list', {});
  expect(requests).toEqual([]);
}

/**
 * The attack: a patch adding `.git/hooks/pre-commit` (code that runs at the next commit) asks
 * as a protected path naming it; denied, the agent writes nothing.
 */
export async function expectGitHookPatchDenied(
  admin: AdminClient,
  project: string,
  running: Promise<AgentRun>,
): Promise<void> {
  const asked = await pendingWhileRunning(admin, running);
  expect(asked.rule).toMatch(/^protected:/);
  expect(asked.paths).toContain('.git/hooks/pre-commit');
  await admin.call('decide', { requestId: asked.requestId, decision: 'deny' });
  const run = await running;
  expect(run.code, run.stderr).toBe(0);
  expect(existsSync(join(project, '.git', 'hooks', 'pre-commit'))).toBe(false);
}
