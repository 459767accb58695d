import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdminClient } from '../../../clients/cli/admin-client';
import { callDenyingAsks } from '../../support/claude-hook';
import { ROOT, TestDaemon } from '../../support/daemon';

/**
 * The packages Gatehouse's program loads (its `node_modules`: zod, picomatch, web-tree-sitter
 * …) are its code as much as `dist/` is: the daemon runs them at its next start, the hook
 * relay whenever the daemon is out of reach. Real hook processes against a real daemon run
 * from `dist/`, whose person has allowed every write and read by rule. A write there asks,
 * critical, and is denied; one allowed is performed (it would leave a marker file, removed
 * after). Reading them stays allowed.
 */
describe("writes to the packages Gatehouse's program loads (real hook, real daemon)", () => {
  let d: TestDaemon;
  let admin: AdminClient;
  const project = realpathSync(mkdtempSync(join(tmpdir(), 'gatehouse-packages-')));
  const marker = join(ROOT, 'node_modules', 'zod', 'gatehouse-test-written.js');

  beforeAll(async () => {
    d = await TestDaemon.start({}, ['--no-dashboard']);
    admin = await d.admin();
    for (const action of ['write_file', 'edit_file', 'read_file', 'run_command'])
      await admin.call('rules.add', { action, tier: 'auto' });
  });
  afterAll(async () => {
    admin?.close();
    await d?.stop();
    rmSync(marker, { force: true });
    rmSync(project, { recursive: true, force: true });
  });

  /** The hook's call: denied when it asks; a Bash call allowed is performed. */
  const run = (tool: string, input: Record<string, unknown>) =>
    callDenyingAsks({
      env: d.env,
      admin,
      tool,
      input,
      cwd: project,
      session: 'pkgs',
      asked: (r) => r.rule === 'protected:gatehouse',
      // As Claude Code would: a Write writes its file, a Bash call runs.
      perform: () => {
        if (tool === 'Write') writeFileSync(String(input.file_path), String(input.content));
        const command = typeof input.command === 'string' ? input.command : 'true';
        return spawnSync('bash', ['-c', command], { cwd: project, encoding: 'utf8' }).stdout;
      },
    });

  it.each([
    ['Write', { file_path: marker, content: 'module.exports = {}' }],
    [
      'Edit',
      { file_path: join(ROOT, 'node_modules/zod/package.json'), old_string: 'a', new_string: 'b' },
    ],
    ['Bash', { command: `echo 'module.exports = {}' > ${marker}` }],
    ['Bash', { command: `cp /dev/null ${marker}` }],
  ] as const)('%s %j asks, critical; denied, nothing is written', async (tool, input) => {
    const r = await run(tool, input);
    expect(existsSync(marker), `${tool} was allowed and wrote ${marker}`).toBe(false);
    expect(r.asked).toMatchObject({ risk: 'critical', rule: 'protected:gatehouse' });
    expect(r.asked?.ruleReason).toMatch(/loads its own packages/);
    expect(r.decision).toBe('deny');
  });

  it('reading them is not guarded: the read rule allows it', async () => {
    const r = await run('Bash', { command: `cat ${join(ROOT, 'node_modules/zod/package.json')}` });
    expect(r.decision).toBe('allow');
    expect(r.printed).toMatch(/"name": "zod"/);
  });
});
