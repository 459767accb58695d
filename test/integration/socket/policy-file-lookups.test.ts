import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdminClient } from '../../../clients/cli/admin-client';
import { ROOT, TestDaemon, runCli, waitForPending } from '../../support/daemon';

/**
 * A gated call looks at its project's policy file once: the hook process says hello and then
 * relays the call (three commands in one Bash call), and only the call reads the file, once
 * for all its actions (the per-call policy lookup, ProjectPolicyMemo, and a guard context
 * that asks about the file only when the automation ladder moves). Counted by a preload in
 * the real daemon that notes each stat of a `.gatehouse.toml` (scripts/policy-stat-count.sh
 * counts the same with strace).
 */
describe('policy file lookups per gated call', () => {
  const dir = mkdtempSync(join(tmpdir(), 'gatehouse-policy-stats-'));
  const log = join(dir, 'stats.log');
  const project = join(dir, 'project');
  let daemon: TestDaemon;
  let admin: AdminClient;

  beforeAll(async () => {
    mkdirSync(join(project, 'sub'), { recursive: true });
    writeFileSync(join(project, '.gatehouse.toml'), '[rules]\nrequire_permission = ["push_git"]\n');
    daemon = await TestDaemon.start(
      {
        NODE_OPTIONS: `--import ${pathToFileURL(join(ROOT, 'test', 'support', 'count-policy-stats.mjs')).href}`,
        GATEHOUSE_TEST_POLICY_STATS: log,
      },
      ['--no-dashboard'],
    );
    admin = await daemon.admin();
  });
  afterAll(async () => {
    admin?.close();
    await daemon?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  const statsSoFar = (): number => {
    try {
      return readFileSync(log, 'utf8').split('\n').filter(Boolean).length;
    } catch {
      return 0;
    }
  };

  /** One Bash call through the real Claude Code hook process; its permission decision. */
  const bash = async (command: string, id: string): Promise<string> => {
    // The hook process itself is not counted: only the daemon has the preload.
    const env = { ...daemon.env, NODE_OPTIONS: '' };
    const r = await runCli(
      env,
      ['hook', 'claude-code'],
      JSON.stringify({
        session_id: 'policy-stats',
        transcript_path: '/nonexistent.jsonl',
        cwd: join(project, 'sub'),
        permission_mode: 'default',
        hook_event_name: 'PreToolUse',
        tool_name: 'Bash',
        tool_input: { command },
        tool_use_id: id,
      }),
    );
    const out = JSON.parse(r.stdout) as { hookSpecificOutput: { permissionDecision: string } };
    return out.hookSpecificOutput.permissionDecision;
  };

  it('an allowed call of three commands stats the file once, not once per action', async () => {
    expect(await bash('ls', 'warm-up')).toBe('allow');
    const before = statsSoFar();
    expect(before).toBeGreaterThan(0);
    for (let i = 0; i < 5; i++)
      expect(await bash('ls -la && git status && cat README.md', `allowed-${i}`)).toBe('allow');
    expect(statsSoFar() - before).toBe(5);
  });

  it('a call that asks stats it once to file the request, and the decision once more', async () => {
    const before = statsSoFar();
    const answer = bash('git push origin main', 'asks-0');
    const request = await waitForPending(admin, 'git_push');
    expect(statsSoFar() - before).toBe(1);
    // The person's decision is a call of its own: the automation ladder learns from it, and
    // asks whether the project's file forbids it to move.
    await admin.call('decide', { requestId: request.requestId, decision: 'deny', reason: 'no' });
    expect(await answer).toBe('deny');
    expect(statsSoFar() - before).toBe(2);
  });
});
