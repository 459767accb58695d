import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdminClient } from '../../../clients/cli/admin-client';
import type { GatehouseClient } from '../../../clients/sdk/client';
import { daemonPerDescribe, type TestDaemon } from '../../support/daemon';
import { armAgainstGit, git } from '../../support/hostile-git';
import { withPicture } from '../../support/with-picture';

/**
 * A request filed through the SDK's `request` gets the picture its params allow: the push
 * its command (or its `git_push` action) sends, the diff of a single path written with
 * `content` in the context, a message's preview from the context, the file its command
 * applies; never a file of Gatehouse's own.
 */

let root: string;
let project: string;
let marker: string;

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'gh-sdk-picture-'));
  project = join(root, 'project');
  mkdirSync(join(project, 'src'), { recursive: true });
  writeFileSync(join(project, 'src', 'a.ts'), 'export const a = 1;\n');
  marker = join(root, 'MARKER');
  const bare = join(root, 'remote.git');
  git(root, 'init', '--quiet', '--bare', '-b', 'main', bare);
  git(project, 'init', '--quiet', '-b', 'main');
  git(project, 'add', '.');
  git(project, 'commit', '--quiet', '-m', 'first');
  git(project, 'remote', 'add', 'origin', bare);
  git(project, 'push', '--quiet', 'origin', 'main');
  writeFileSync(join(project, 'src', 'b.ts'), 'export const b = 2;\n');
  git(project, 'add', 'src/b.ts');
  git(project, 'commit', '--quiet', '-m', 'add b');
  armAgainstGit(project, root, marker);
});

afterAll(() => rmSync(root, { recursive: true, force: true }));

describe("pictures of the SDK's requests (real daemon, real SDK)", () => {
  let d: TestDaemon;
  let admin: AdminClient;
  let agent: GatehouseClient;
  daemonPerDescribe((daemon, client) => ((d = daemon), (admin = client)));
  beforeAll(async () => {
    agent = await d.agent({ agent: 'release-bot', project });
  });
  afterAll(() => agent.close());

  const filed = async (p: Parameters<GatehouseClient['request']>[0]) => {
    const answer = await agent.request({ ...p, wait: false });
    expect(answer.status).toBe('queued');
    return withPicture(admin, answer.requestId);
  };

  it("pictures a git_push's commits from the session's project, running none of its config", async () => {
    const r = await filed({ action: 'git_push', description: 'Push the fix' });
    expect(r.picture!.push).toMatchObject({
      remote: 'origin',
      branch: 'main',
      cwd: project,
      commitCount: 1,
      commits: [{ subject: 'add b' }],
    });
    expect(r.picture!.push!.diffstat).toContain('src/b.ts');
    const withCommand = await filed({
      action: 'git_push',
      command: 'git push --force origin main',
      description: 'Force-push main',
      context: { cwd: project },
    });
    expect(withCommand.picture!.push).toMatchObject({ force: true, commitCount: 1 });
    expect(existsSync(marker)).toBe(false);
  });

  it('diffs a single path written with content, and previews a message from the context', async () => {
    const write = await filed({
      action: 'write_file',
      paths: ['src/a.ts'],
      description: 'Change a',
      context: { content: 'export const a = 2;\n' },
    });
    expect(write.picture!.files).toEqual([
      expect.objectContaining({ path: join(project, 'src', 'a.ts'), added: 1, removed: 1 }),
    ]);
    expect(write.picture!.files![0]!.diff).toContain('+export const a = 2;');

    const mail = await filed({
      action: 'send_email',
      description: 'Send the release notes',
      context: { to: 'team@example.com', subject: 'v2 is out', body: 'Hello all' },
    });
    expect(mail.picture!.message).toEqual({
      kind: 'email',
      to: ['team@example.com'],
      subject: 'v2 is out',
      body: 'Hello all',
    });
    const shown = (await d.cli(['show', mail.requestId])).stdout;
    expect(shown).toContain('  To: team@example.com');
  });

  it("shows the file an SDK command applies, never Gatehouse's own", async () => {
    writeFileSync(join(project, 'deploy.yaml'), 'kind: Job\n');
    const deploy = await filed({
      action: 'deploy',
      command: 'kubectl apply -f deploy.yaml',
      description: 'Deploy',
    });
    expect(deploy.picture!.applied).toEqual([
      { by: 'kubectl apply', path: join(project, 'deploy.yaml'), content: 'kind: Job\n' },
    ]);
    const token = readFileSync(join(d.home, 'admin.token'), 'utf8').trim();
    const stolen = await filed({
      action: 'deploy',
      command: `kubectl apply -f ${join(d.home, 'admin.token')}`,
      description: 'Deploy',
    });
    expect(stolen.picture!.applied![0]!.omitted).toMatch(/^not read/);
    expect(JSON.stringify(stolen.picture)).not.toContain(token);
  });
});
