import { realpathSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { classifyAction } from '../../../../../main/engine/policy/classifier';
import type { ProjectPolicy } from '../../../../../main/engine/policy/project-policy';
import { ProjectPolicyFile } from '../../../../../main/engine/policy/project-policy';
import { projectPolicyFiles } from '../../../../../main/store/project-policy-files';
import { EngineHarness } from '../../../../support/engine-harness';

const PROMOTING = `
[rules]
allow_without_permission = ["git_push", "deploy"]
require_permission = ["run_tests"]

[policy]
allowed_files = ["src/**"]
blocked_commands = ["rm -rf"]
max_risk = "medium"
`;

const policy = (toml: object): ProjectPolicy => ({
  file: '/p/.gatehouse.toml',
  dir: '/p',
  sha256: 'abc',
  policy: ProjectPolicyFile.parse(toml),
});

describe('classification with an untrusted, trusted or edited policy file', () => {
  const pp = policy({
    rules: { allow_without_permission: ['git_push'], require_permission: ['run_tests'] },
    policy: { allowed_commands: ['npm test'], allowed_files: ['src/**'] },
  });
  const ctx = (projectTrust?: 'trusted' | 'untrusted' | 'edited') => ({
    project: '/p',
    projectPolicy: pp,
    rules: [],
    ...(projectTrust ? { projectTrust } : {}),
  });

  it('promotes only when trusted', () => {
    expect(classifyAction({ action: 'git_push' }, ctx('trusted'))).toMatchObject({
      tier: 'auto',
      rule: 'project:allow_without_permission',
    });
    for (const t of [undefined, 'untrusted', 'edited'] as const) {
      const c = classifyAction({ action: 'git_push' }, ctx(t));
      expect(c.tier).toBe('ask');
      expect(c.rule).toBe('project:untrusted');
      expect(c.reason).toContain('/p/.gatehouse.toml');
      expect(c.reason).toContain('gatehouse trust /p');
      expect(c.reason).toContain(t === 'edited' ? 'edited since it was trusted' : 'is not trusted');
    }
    // Gate promotions too: an allowed command and writes inside allowed files.
    const npm = { action: 'run_command', command: 'npm test' };
    expect(classifyAction(npm, ctx('trusted')).tier).toBe('auto');
    expect(classifyAction(npm, ctx('untrusted'))).toMatchObject({
      tier: 'ask',
      rule: 'project:untrusted',
    });
    const write = { action: 'write_file', paths: ['src/a.ts'] };
    expect(classifyAction(write, ctx('trusted')).tier).toBe('auto');
    expect(classifyAction(write, ctx('edited')).tier).toBe('ask');
  });

  it('applies restrictions whether trusted or not', () => {
    for (const t of ['trusted', 'untrusted', 'edited'] as const) {
      expect(classifyAction({ action: 'run_tests' }, ctx(t))).toMatchObject({
        tier: 'ask',
        rule: 'project:require_permission',
      });
      // allowed_commands is a limit: a command not on the list asks, even a read.
      expect(classifyAction({ action: 'git_status', command: 'git status' }, ctx(t))).toMatchObject(
        { tier: 'ask', rule: 'policy:allowed_commands' },
      );
      expect(classifyAction({ action: 'read_file', paths: ['/etc/passwd'] }, ctx(t))).toMatchObject(
        { tier: 'ask', rule: 'policy:allowed_files' },
      );
    }
  });

  it('says nothing about trust where the file would not have changed the answer', () => {
    expect(classifyAction({ action: 'send_email' }, ctx('untrusted'))).toMatchObject({
      rule: 'default:send_email',
    });
    expect(classifyAction({ action: 'read_file' }, ctx('untrusted')).tier).toBe('auto');
  });
});

describe('project policy trust in the engine', () => {
  let h: EngineHarness;
  beforeEach(() => (h = new EngineHarness()));
  afterEach(() => h.close());

  const untrustedEvents = () => h.events.filter((e) => e.type === 'policy.untrusted');

  it('an agent-written policy promotes nothing until trusted; an edit voids trust and is told once', () => {
    const project = h.project(PROMOTING);
    const a = h.hello('agent', { project });
    const push = () => h.engine.classify(a, { action: 'git_push' });
    expect(push()).toMatchObject({ tier: 'ask', rule: 'project:untrusted' });
    expect(push().tier).toBe('ask');
    h.work.flush();
    expect(untrustedEvents()).toHaveLength(1);
    expect(untrustedEvents()[0]).toMatchObject({
      trust: 'untrusted',
      allows: expect.arrayContaining(['git_push without asking', 'deploy without asking']),
      agent: 'agent',
    });
    expect(h.store.queryAudit({ type: 'policy.untrusted', limit: 10 })).toHaveLength(1);

    h.trust(project);
    expect(push()).toMatchObject({ tier: 'auto', rule: 'project:allow_without_permission' });
    // Restrictions still apply to trusted content.
    expect(h.engine.classify(a, { action: 'run_tests' }).rule).toBe('project:require_permission');

    writeFileSync(join(project, '.gatehouse.toml'), `${PROMOTING}\n# edited\n`);
    expect(push()).toMatchObject({ tier: 'ask', rule: 'project:untrusted' });
    expect(push().reason).toContain('edited since it was trusted');
    h.work.flush();
    push();
    h.work.flush();
    expect(untrustedEvents()).toHaveLength(2);
    expect(untrustedEvents()[1]).toMatchObject({ trust: 'edited' });
  });

  it('an edit cannot take away a restriction of the trusted content', () => {
    const project = h.project(PROMOTING);
    h.trust(project);
    h.restart(); // the trusted policy is read back from the database
    const a = h.hello('agent', { project });
    expect(h.engine.classify(a, { action: 'run_tests' }).rule).toBe('project:require_permission');
    // The edit drops require_permission and the blocked command, and adds nothing.
    writeFileSync(join(project, '.gatehouse.toml'), '[rules]\n');
    expect(h.engine.classify(a, { action: 'run_tests' })).toMatchObject({
      tier: 'ask',
      rule: 'project:require_permission',
    });
    expect(h.engine.classify(a, { action: 'read_file', paths: ['/etc/passwd'] }).rule).toBe(
      'policy:allowed_files',
    );
    // Deleting the file takes nothing away either, until the person untrusts the project.
    rmSync(join(project, '.gatehouse.toml'));
    expect(h.engine.classify(a, { action: 'run_tests' }).rule).toBe('project:require_permission');
    h.engine.admin.call('trust.remove', { dir: realpathSync(project), via: 'cli' });
    h.work.flush();
    expect(h.engine.classify(a, { action: 'run_tests' }).tier).toBe('auto');
    // Once the person trusts new content, it is what applies.
    writeFileSync(join(project, '.gatehouse.toml'), '[rules]\n');
    h.trust(project);
    expect(h.engine.classify(a, { action: 'run_tests' }).tier).toBe('auto');
  });

  it('sees an edit that keeps the old modification time', () => {
    const project = h.project(PROMOTING);
    h.trust(project);
    const a = h.hello('agent', { project });
    expect(h.engine.classify(a, { action: 'deploy' }).tier).toBe('auto');
    const file = join(project, '.gatehouse.toml');
    const { atime, mtime } = statSync(file);
    writeFileSync(file, PROMOTING.replace('"deploy"', '"purchase"'));
    utimesSync(file, atime, mtime);
    expect(h.engine.classify(a, { action: 'purchase' })).toMatchObject({
      tier: 'ask',
      rule: 'project:untrusted',
    });
  });

  it('keeps trust and notices across a restart, and untrust withdraws it', () => {
    const project = h.project(PROMOTING);
    const a = h.hello('agent', { project, sessionKey: 'k' });
    h.engine.classify(a, { action: 'git_push' });
    h.trust(project);
    h.restart();
    const b = h.hello('agent', { project, sessionKey: 'k' });
    expect(h.engine.classify(b, { action: 'git_push' }).tier).toBe('auto');
    const dir = projectPolicyFiles()(project)!.dir;
    h.engine.admin.call('trust.remove', { dir, via: 'cli' });
    h.work.flush();
    expect(h.engine.classify(b, { action: 'git_push' }).tier).toBe('ask');
    h.work.flush();
    // Already told about this content before the restart: not again.
    expect(untrustedEvents()).toHaveLength(1);
    expect(() => h.engine.admin.call('trust.remove', { dir, via: 'cli' })).toThrow(/not found/i);
  });

  it('changes nothing in memory when the commit of a trust fails', async () => {
    const project = h.project(PROMOTING);
    const a = h.hello('agent', { project });
    const pp = projectPolicyFiles()(project)!;
    h.work.flush();
    const store = h.stores.work;
    const commit = store.commitBatch;
    store.commitBatch = () => {
      throw new Error('disk full');
    };
    const trusting = h.engine.admin.call('trust.add', {
      dir: pp.dir,
      sha256: pp.sha256,
      via: 'cli',
    });
    h.work.flush();
    store.commitBatch = commit;
    await expect(trusting).rejects.toThrow('disk full');
    const entry = h.engine.admin.call('trust.list', {}).projects.find((p) => p.dir === pp.dir);
    expect(entry?.trustedSha256).toBeUndefined();
    expect(h.engine.classify(a, { action: 'git_push' }).tier).toBe('ask');
  });
});
