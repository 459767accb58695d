import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OpenAiChatModelServer, type ToolStep } from '../../support/model-server/openai-chat';
import {
  type AgentStage,
  closeAgentStage,
  installHook,
  openAgentStage,
  pendingWhileRunning,
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
  let s: AgentStage<OpenAiChatModelServer>;

  beforeAll(async () => {
    s = await openAgentStage(() => OpenAiChatModelServer.start());
    writeOpencodeConfig(s.p.project, s.model.url);
    await installHook(s, ['opencode', '--install', '--project', s.p.project]);
    await s.admin.call('rules.add', { action: 'write_file', tier: 'auto' });
  });

  afterAll(() => closeAgentStage(s));

  const opencode = (steps: ToolStep[]) => {
    s.model.script(steps);
    return runOpencode(s.daemon.env, s.p.dir, s.p.project);
  };
  const write = (filePath: string): ToolStep => ({
    name: 'write',
    input: { filePath, content: 'touch pwned\n' },
  });

  it('calibration: OpenCode writes a path with $HOME and .. in it where the .. leads', async () => {
    const run = await opencode([write('src/x$HOME/../made.txt')]);
    expect(run.code, run.stderr).toBe(0);
    expect(readFileSync(join(s.p.project, 'src/made.txt'), 'utf8')).toBe('touch pwned\n');
  }, 240_000);

  it('a git hook written through .git/x$HOME/../hooks asks, and denied it is not written', async () => {
    const running = opencode([write('.git/x$HOME/../hooks/pre-commit')]);
    const asked = await pendingWhileRunning(s.admin, running);
    expect(asked.rule).toBe('protected:vcs_config');
    await s.admin.call('decide', { requestId: asked.requestId, decision: 'deny' });
    const run = await running;
    expect(run.code, run.stderr).toBe(0);
    expect(existsSync(join(s.p.project, '.git/hooks/pre-commit'))).toBe(false);
  }, 240_000);
});
