import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdminClient } from '../../../clients/cli/admin-client';
import { OpenAiChatModelServer, type ToolStep } from '../../support/model-server/openai-chat';
import type { TestDaemon } from '../../support/daemon';
import {
  installHook,
  pendingWhileRunning,
  type PushProject,
  startAgentStage,
  stopAgentStage,
} from '../../support/agent-e2e';
import { runOpencode, writeOpencodeConfig } from '../../support/opencode-env';

/**
 * OpenCode's file tools open a path as written: `$HOME` in it is a folder name, and the `..`
 * after it is taken away when the path is joined to the project. Its plugin hook sees the path
 * as the model wrote it. Gatehouse read such a path as a shell word (`$HOME` expanded), so
 * `.git/x$HOME/../hooks/pre-commit` was a write under `.git/x/home/…`, which a rule letting
 * writes pass allowed, and OpenCode wrote the git hook. Both readings are checked now.
 */
describe('the real OpenCode with a $ in a file path', () => {
  let d: TestDaemon;
  let admin: AdminClient;
  let model: OpenAiChatModelServer;
  let p: PushProject;

  beforeAll(async () => {
    [d, model, p] = await startAgentStage(() => OpenAiChatModelServer.start());
    admin = await d.admin();
    writeOpencodeConfig(p.project, model.url);
    await installHook(d, p, ['opencode', '--install', '--project', p.project]);
    await admin.call('rules.add', { action: 'write_file', tier: 'auto' });
  });

  afterAll(() => stopAgentStage(admin, model, d, p));

  const opencode = (steps: ToolStep[]) => {
    model.script(steps);
    return runOpencode(d.env, p.dir, p.project);
  };
  const write = (filePath: string): ToolStep => ({
    name: 'write',
    input: { filePath, content: 'touch pwned\n' },
  });

  it('calibration: OpenCode writes a path with $HOME and .. in it where the .. leads', async () => {
    const run = await opencode([write('src/x$HOME/../made.txt')]);
    expect(run.code, run.stderr).toBe(0);
    expect(readFileSync(join(p.project, 'src/made.txt'), 'utf8')).toBe('touch pwned\n');
  }, 240_000);

  it('a git hook written through .git/x$HOME/../hooks asks, and denied it is not written', async () => {
    const running = opencode([write('.git/x$HOME/../hooks/pre-commit')]);
    const asked = await pendingWhileRunning(admin, running);
    expect(asked.rule).toBe('protected:vcs_config');
    await admin.call('decide', { requestId: asked.requestId, decision: 'deny' });
    const run = await running;
    expect(run.code, run.stderr).toBe(0);
    expect(existsSync(join(p.project, '.git/hooks/pre-commit'))).toBe(false);
  }, 240_000);
});
