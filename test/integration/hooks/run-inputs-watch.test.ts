import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdminClient } from '../../../clients/cli/admin-client';
import { preToolUse, runClaudeHook, type PreToolAnswer } from '../../support/claude-hook';
import { allowWritesIn } from '../../support/write-rules';
import { TestDaemon, waitForPending } from '../../support/daemon';

/**
 * "What runs when tests run": where the person lets writes inside the project pass
 * (a common set-up), an agent that rewrites what `make test` or `git status` runs must not
 * get the next run auto. Real hook processes against a real daemon; every call Gatehouse
 * allows is then performed in the project, and its effect checked.
 */
describe('a run after its inputs changed asks once (real hook, real daemon)', () => {
  let d: TestDaemon;
  let admin: AdminClient;
  const project = realpathSync(mkdtempSync(join(tmpdir(), 'gatehouse-watch-')));
  const env = () => ({ ...d.env, GATEHOUSE_HOOK_FALLBACK: 'deny' });

  beforeAll(async () => {
    execFileSync('git', ['init', '-q', project]);
    writeFileSync(join(project, 'Makefile'), 'test:\n\t@echo tests pass\n');
    d = await TestDaemon.start({}, ['--no-dashboard']);
    admin = await d.admin();
    await allowWritesIn(d, project);
  });
  afterAll(async () => {
    admin?.close();
    await d?.stop();
    rmSync(project, { recursive: true, force: true });
  });

  /** Runs the hook; when it allows, performs the call as Claude Code would. */
  async function call(
    tool: 'Bash' | 'Write',
    input: Record<string, unknown>,
    waitMs = 300,
  ): Promise<PreToolAnswer> {
    const r = await runClaudeHook(
      { ...env(), GATEHOUSE_HOOK_WAIT_MS: String(waitMs) },
      preToolUse(tool, input, { cwd: project, session: 'watch' }),
    );
    if (r.decision !== 'allow') return r;
    if (tool === 'Write') {
      writeFileSync(input.file_path as string, input.content as string);
    } else {
      try {
        execFileSync('bash', ['-c', input.command as string], { cwd: project, stdio: 'ignore' });
      } catch {
        // Its effect is what counts.
      }
    }
    return r;
  }

  /** Runs the call while a person approves it with the CLI. */
  async function approved(tool: 'Bash' | 'Write', input: Record<string, unknown>, rule?: RegExp) {
    const running = call(tool, input, 20_000);
    const req = await waitForPending(
      admin,
      (r) => r.sessionId !== undefined && (!rule || rule.test(r.rule)),
    );
    expect((await d.cli(['approve', req.requestId])).code).toBe(0);
    expect((await running).decision).toBe('allow');
    return req;
  }

  const makeTest = { command: 'make test' };
  const pwned = join(project, 'pwned');

  it('make test is auto until the agent rewrites the Makefile, then asks naming it', async () => {
    expect((await call('Bash', makeTest)).decision).toBe('allow');
    const write = await call('Write', {
      file_path: join(project, 'Makefile'),
      content: 'test:\n\t@touch pwned\n',
    });
    expect(write.decision).toBe('allow');
    const run = await call('Bash', makeTest);
    expect(run.decision).toBe('deny');
    expect(existsSync(pwned)).toBe(false);
    const { requests } = await admin.call('requests.query', { action: 'run_tests' });
    expect(requests[0]).toMatchObject({ rule: 'watch:tests', status: 'timed_out' });
    expect(requests[0]!.ruleReason).toMatch(/Makefile changed since you last approved/);
    const changed = await admin.call('audit.query', { type: 'run_inputs.changed' });
    expect(changed.events[0]!.data).toMatchObject({
      files: [{ path: 'Makefile', group: 'tests' }],
    });
  });

  it('still asks after a daemon restart, and no grant or rule settles it', async () => {
    await d.kill9();
    await d.launch(['--no-dashboard']);
    admin.close();
    admin = await d.admin();
    // "Always" for make test, as a person might have given before: the watch still asks.
    expect(
      (await d.cli(['rules', 'add', 'run_tests', '--tier', 'auto', '--any-action'])).code,
    ).toBe(0);
    expect((await call('Bash', makeTest)).decision).toBe('deny');
    expect(existsSync(pwned)).toBe(false);
  });

  it('once the person approves a run, runs are auto again until the next change', async () => {
    const req = await approved('Bash', makeTest, /^watch:tests$/);
    expect(req.ruleReason).toMatch(/Makefile/);
    expect(existsSync(pwned)).toBe(true);
    rmSync(pwned);
    const again = await call('Bash', makeTest);
    expect(again.decision).toBe('allow');
    const acks = await admin.call('audit.query', { type: 'run_inputs.approved' });
    expect(acks.events[0]!.data).toMatchObject({ group: 'tests', cleared: 1 });
  });

  it('a rewrite by an allowed shell command counts, also in the same call as the run', async () => {
    const sed = await call('Bash', { command: "sed -i 's/echo tests pass/touch pwned/' Makefile" });
    expect(sed.decision).toBe('allow');
    expect((await call('Bash', makeTest)).decision).toBe('deny');
    await approved('Bash', makeTest, /^watch:tests$/);
    rmSync(pwned, { force: true });
    const both = await call('Bash', {
      command: "printf 'test:\\n\\t@touch pwned\\n' > Makefile && make test",
    });
    expect(both.decision).toBe('deny');
    expect(existsSync(pwned)).toBe(false);
  });

  it('git config written through an approved call makes the next git status ask once', async () => {
    const marker = join(project, 'fsmonitor-ran');
    expect((await call('Bash', { command: 'git status' })).decision).toBe('allow');
    // The person approves a config change without reading it closely.
    await approved('Bash', { command: `git config core.fsmonitor 'touch ${marker}; false'` });
    const status = await call('Bash', { command: 'git status' });
    expect(status.decision).toBe('deny');
    expect(existsSync(marker)).toBe(false);
    const { requests } = await admin.call('requests.query', { action: 'git_status' });
    expect(requests[0]!.ruleReason).toMatch(/\.git\/config changed/);
  });

  it('a hook the agent writes into .git/hooks makes the next git command ask', async () => {
    const hookFile = join(project, '.git', 'hooks', 'post-checkout');
    const marker = join(project, 'hook-ran');
    // Let through by the write rule, or (where .git/hooks is a protected location) by a
    // person who approves it: either way the write was let through and is performed.
    const write = { file_path: hookFile, content: `#!/bin/sh\ntouch ${marker}\n` };
    if ((await call('Write', write)).decision !== 'allow') await approved('Write', write);
    expect(existsSync(hookFile)).toBe(true);
    execFileSync('chmod', ['+x', hookFile]);
    const checkout = await call('Bash', { command: 'git checkout -q -b feature' });
    expect(checkout.decision).not.toBe('allow');
    expect(existsSync(marker)).toBe(false);
    const { requests } = await admin.call('requests.query', { action: 'create_branch' });
    expect(requests[0]).toMatchObject({ rule: 'watch:git' });
    expect(requests[0]!.ruleReason).toMatch(/\.git\/hooks\/post-checkout/);
  });
});
