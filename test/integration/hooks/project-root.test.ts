import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AdminClient } from '../../../clients/cli/admin-client';
import { preToolUse, runClaudeHook } from '../../support/claude-hook';
import { TestDaemon } from '../../support/daemon';

/**
 * A project's policy applies by the project's root (the nearest ancestor with
 * `.gatehouse.toml`, else the repository root), whatever the hook's `cwd` inside it. Real
 * hook processes against a real daemon; the agent moves with `cd`.
 */
describe('project policy by the project root (real hook, real daemon)', () => {
  let d: TestDaemon;
  let admin: AdminClient;
  let tmp: string;
  beforeEach(async () => {
    tmp = realpathSync(mkdtempSync(join(tmpdir(), 'gatehouse-root-')));
    mkdirSync(join(tmp, 'home'));
    d = await TestDaemon.start({ HOME: join(tmp, 'home') }, ['--no-dashboard']);
    admin = await d.admin();
  });
  afterEach(async () => {
    admin.close();
    await d.stop();
    rmSync(tmp, { recursive: true, force: true });
  });

  const hook = (tool: string, input: Record<string, unknown>, cwd: string, session = 's-root') =>
    runClaudeHook(
      { ...d.env, GATEHOUSE_HOOK_WAIT_MS: '200', GATEHOUSE_HOOK_FALLBACK: 'deny' },
      preToolUse(tool, input, { cwd, session }),
    );

  it("a trusted project's restrictions and promotions hold in every folder under its root", async () => {
    const project = join(tmp, 'project');
    const deep = join(project, 'src', 'deep');
    mkdirSync(deep, { recursive: true });
    writeFileSync(join(project, 'README.md'), 'hi\n');
    writeFileSync(
      join(project, '.gatehouse.toml'),
      '[rules]\nallow_without_permission = ["web_fetch"]\nrequire_permission = ["read_file"]\n',
    );
    expect((await d.cli(['trust', project, '--yes'])).code).toBe(0);
    const readme = { file_path: join(project, 'README.md') };
    const fetch = { url: 'https://example.com/x', prompt: 'p' };
    for (const cwd of [project, join(project, 'src'), deep]) {
      const read = await hook('Read', readme, cwd);
      expect(read.decision, `Read from ${cwd}`).toBe('deny');
      const web = await hook('WebFetch', fetch, cwd);
      expect(web.decision, `WebFetch from ${cwd}`).toBe('allow');
      expect(web.reason).toMatch(/project/);
    }
    const { sessions } = await admin.call('sessions.list', { agent: 'claude-code' });
    expect(sessions.map((s) => s.project)).toEqual([project]);
    const reads = await admin.call('requests.query', { action: 'read_file' });
    expect(reads.requests).toHaveLength(3);
    expect(reads.requests.every((r) => r.rule.startsWith('project:'))).toBe(true);
  });

  it('an untrusted file restricts from any folder under it too; outside the project it does not apply', async () => {
    const project = join(tmp, 'p2');
    mkdirSync(join(project, 'sub'), { recursive: true });
    writeFileSync(join(project, 'a.txt'), 'a\n');
    writeFileSync(
      join(project, '.gatehouse.toml'),
      '[rules]\nrequire_permission = ["read_file"]\n',
    );
    const inSub = await hook('Read', { file_path: join(project, 'a.txt') }, join(project, 'sub'));
    expect(inSub.decision).toBe('deny');
    const other = join(tmp, 'other');
    mkdirSync(other);
    writeFileSync(join(other, 'b.txt'), 'b\n');
    const elsewhere = await hook('Read', { file_path: join(other, 'b.txt') }, other, 's-other');
    expect(elsewhere.decision).toBe('allow');
  });

  it('a home folder kept in git is not the project of every folder under it', async () => {
    const home = join(tmp, 'home');
    mkdirSync(join(home, '.git'));
    const proj = join(home, 'code', 'proj');
    mkdirSync(proj, { recursive: true });
    writeFileSync(join(proj, 'a.txt'), 'a\n');
    expect((await hook('Read', { file_path: join(proj, 'a.txt') }, proj)).decision).toBe('allow');
    const { sessions } = await admin.call('sessions.list', { agent: 'claude-code' });
    expect(sessions.map((s) => s.project)).toEqual([proj]);
  });

  it('without a policy file the repository root is the project; an edit to the file is seen on the next call', async () => {
    const repo = join(tmp, 'repo');
    mkdirSync(join(repo, '.git'), { recursive: true });
    mkdirSync(join(repo, 'pkg', 'lib'), { recursive: true });
    writeFileSync(join(repo, 'x.txt'), 'x\n');
    const read = { file_path: join(repo, 'x.txt') };
    expect((await hook('Read', read, join(repo, 'pkg', 'lib'))).decision).toBe('allow');
    let { sessions } = await admin.call('sessions.list', { agent: 'claude-code' });
    expect(sessions.map((s) => s.project)).toEqual([repo]);
    // The person adds a policy file at the root: the very next call, from a sub-folder, obeys it.
    writeFileSync(join(repo, '.gatehouse.toml'), '[rules]\nrequire_permission = ["read_file"]\n');
    expect((await hook('Read', read, join(repo, 'pkg'))).decision).toBe('deny');
    // The session stays in the project at the repository root.
    ({ sessions } = await admin.call('sessions.list', { agent: 'claude-code' }));
    expect(sessions.map((s) => s.project)).toEqual([repo]);
  });
});
