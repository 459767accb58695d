import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdminClient } from '../../../clients/cli/admin-client';
import type { GatehouseClient } from '../../../clients/sdk/client';
import { preToolUse, runClaudeHook } from '../../support/claude-hook';
import { daemonPerDescribe, type TestDaemon, waitForPending } from '../../support/daemon';
import { armAgainstGit, git } from '../../support/hostile-git';
import { withPicture } from '../../support/with-picture';

/**
 * What the picture reads from a command, through the real daemon and the real hook: a push
 * from the directory the command runs git in (`cd sub &&`, `git -C`), a new branch's
 * diffstat, the full diff one call away, every file of a patch, the file a command applies
 * (never Gatehouse's own), and a message's preview.
 */

let root: string;
let project: string;
let sub: string;
let marker: string;

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'gh-picture-cmd-'));
  project = join(root, 'project');
  sub = join(project, 'services', 'pay');
  mkdirSync(join(project, 'k8s'), { recursive: true });
  mkdirSync(sub, { recursive: true });
  writeFileSync(
    join(project, 'k8s', 'prod.yaml'),
    'kind: Deployment\nmetadata:\n  name: pay\nstringData:\n  api_key: live-0123456789abcdef\n',
  );
  // The repository is a folder below the call's directory, armed against git.
  const bare = join(root, 'remote.git');
  marker = join(root, 'MARKER');
  git(root, 'init', '--quiet', '--bare', '-b', 'main', bare);
  git(sub, 'init', '--quiet', '-b', 'main');
  writeFileSync(join(sub, 'pay.ts'), 'export const fee = 1;\n');
  git(sub, 'add', '.');
  git(sub, 'commit', '--quiet', '-m', 'first');
  git(sub, 'remote', 'add', 'origin', bare);
  git(sub, 'push', '--quiet', 'origin', 'main');
  git(sub, 'checkout', '--quiet', '-b', 'fee-change');
  writeFileSync(
    join(sub, 'pay.ts'),
    'export const fee = 2; // token = "sk-ant-abcdefghijklmnopqrstuv"\n',
  );
  git(sub, 'commit', '--quiet', '-am', 'raise the fee');
  armAgainstGit(sub, root, marker);
});

afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('request picture from commands (real daemon, real hook, real git)', () => {
  let d: TestDaemon;
  let admin: AdminClient;
  let agent: GatehouseClient;
  daemonPerDescribe((daemon, client) => ((d = daemon), (admin = client)));
  beforeAll(async () => {
    agent = await d.agent({ agent: 'claude-code', project });
  });
  afterAll(() => agent.close());

  const gate = async (tool: string, input: Record<string, unknown>, id: string) => {
    void agent.gate({
      client: 'claude-code',
      event: 'PreToolUse',
      tool,
      input,
      toolUseId: id,
      cwd: project,
      wait: false,
    });
    const filed = await waitForPending(admin, (r) => r.dedupeKey === `claude-code:${id}`);
    return withPicture(admin, filed.requestId);
  };

  it('pictures `cd sub && git push` of a new branch from sub: its commits, diffstat and full diff', async () => {
    const running = runClaudeHook(
      d.env,
      preToolUse(
        'Bash',
        { command: 'cd services/pay && git push -u origin fee-change' },
        {
          cwd: project,
          id: 'tu-cd-push',
        },
      ),
    );
    const filed = await waitForPending(admin, 'git_push');
    const { push } = (await withPicture(admin, filed.requestId)).picture!;
    expect(push).toMatchObject({
      remote: 'origin',
      branch: 'fee-change',
      cwd: sub,
      commitCount: 1,
      commits: [{ subject: 'raise the fee' }],
    });
    // A branch the remote has no tracking branch of still gets its diffstat.
    expect(push!.diffstat).toContain('pay.ts | 2 +-');
    expect(push!.omitted).toBeUndefined();

    // The full diff, one call away, secrets masked; and through `show --diff`.
    const full = await admin.call('request.diff', { requestId: filed.requestId });
    expect(full.diff).toContain('-export const fee = 1;');
    expect(full.diff).toContain('+export const fee = 2; // token = "sk-a…[masked]"');
    const shown = await d.cli(['show', filed.requestId, '--diff']);
    expect(shown.stdout).toContain('Full diff of the push:');
    expect(shown.stdout).toContain('+export const fee = 2;');
    expect(shown.stdout).not.toContain('abcdefghijklmnop');
    // `review`, `v`: the details and the diff (printed: the output is not a terminal).
    const reviewed = await d.cli(['review'], 'v\ns\n');
    expect(reviewed.stdout).toContain('Full diff of the push:');
    expect(reviewed.stdout).toContain('-export const fee = 1;');

    expect(existsSync(marker)).toBe(false);
    await admin.call('decide', { requestId: filed.requestId, decision: 'deny', reason: 'not yet' });
    expect((await running).decision).toBe('deny');
    expect(existsSync(marker)).toBe(false);
  }, 30_000);

  it('pictures `git -C dir push` from dir, and says so when the directory is only known at run time', async () => {
    const dashC = await gate(
      'Bash',
      { command: 'git -C services/pay push origin fee-change' },
      'tu-dash-c',
    );
    expect(dashC.picture!.push).toMatchObject({ cwd: sub, commitCount: 1 });
    const dynamic = await gate('Bash', { command: 'cd "$REPO" && git push' }, 'tu-dyn');
    expect(dynamic.picture!.push).toBeUndefined();
    expect(dynamic.picture!.omitted).toEqual([
      'the push: its repository is not known (it runs after `cd $REPO`)',
    ]);
    expect(existsSync(marker)).toBe(false);
  });

  it('pictures every file of a patch', async () => {
    const patch = [
      '*** Begin Patch',
      '*** Update File: k8s/prod.yaml',
      '@@',
      '-  name: pay',
      '+  name: pay-v2',
      '*** Add File: NOTES.md',
      '+hello',
      '*** End Patch',
    ].join('\n');
    const r = await gate('apply_patch', { patch }, 'tu-patch');
    expect(r.picture!.files!.map((f) => [f.path, f.kind, f.added, f.removed])).toEqual([
      [join(project, 'k8s', 'prod.yaml'), 'patch', 1, 1],
      [join(project, 'NOTES.md'), 'create', 1, 0],
    ]);
  });

  it('shows the manifest `kubectl apply -f` applies, secrets masked', async () => {
    const r = await gate('Bash', { command: 'kubectl apply -f k8s/prod.yaml' }, 'tu-kubectl');
    const [applied] = r.picture!.applied!;
    expect(applied).toMatchObject({ by: 'kubectl apply', path: join(project, 'k8s', 'prod.yaml') });
    expect(applied!.content).toContain('name: pay');
    expect(applied!.content).toContain('api_key: live…[masked]');
    const shown = (await d.cli(['show', r.requestId])).stdout;
    expect(shown).toContain(`Applies ${join(project, 'k8s', 'prod.yaml')}  (kubectl apply)`);
    // No urgency from the agent: inferred from the production target, with its reason.
    expect(shown).toContain('(high urgency (inferred: it targets production)');
    await d.cli(['config', 'set', 'requests.inferUrgency', 'false']);
    expect((await d.cli(['show', r.requestId])).stdout).toContain('(normal urgency, filed');
    await d.cli(['config', 'set', 'requests.inferUrgency', 'true']);
  });

  it("never shows Gatehouse's admin token through a command that applies it, however it is named", async () => {
    const token = readFileSync(join(d.home, 'admin.token'), 'utf8').trim();
    expect(token.length).toBeGreaterThan(10);
    symlinkSync(join(d.home, 'admin.token'), join(project, 'k8s', 'token.yaml'));
    symlinkSync(d.home, join(project, 'gh-home'));
    const commands = [
      `kubectl apply -f ${join(d.home, 'admin.token')}`,
      'kubectl apply -f k8s/token.yaml',
      'kubectl apply -f gh-home/admin.token',
      `cd ${d.home} && psql -f admin.token`,
      'kubectl apply -f gh-home',
    ];
    for (const [i, command] of commands.entries()) {
      const r = await gate('Bash', { command }, `tu-token-${i}`);
      const applied = r.picture!.applied ?? [];
      expect(applied.length, command).toBeGreaterThan(0);
      for (const a of applied) {
        expect(a.content, command).toBeUndefined();
        expect(a.omitted, command).toMatch(/not read|symbolic link/);
      }
      expect(JSON.stringify(r.picture), command).not.toContain(token);
      expect((await d.cli(['show', r.requestId, '--json'])).stdout, command).not.toContain(token);
    }
  });

  it('previews the email an MCP tool would send: recipients, subject and body', async () => {
    const r = await gate(
      'mcp__gmail__send_email',
      {
        to: ['board@example.com'],
        subject: 'Q3 numbers',
        body: 'Revenue is up.\npassword: hunter2hunter2',
      },
      'tu-mail',
    );
    expect(r.picture!.message).toEqual({
      kind: 'email',
      to: ['board@example.com'],
      subject: 'Q3 numbers',
      body: 'Revenue is up.\npassword: hunt…[masked]',
    });
    const shown = (await d.cli(['show', r.requestId])).stdout;
    expect(shown).toContain('Message (email):');
    expect(shown).toContain('  To: board@example.com');
    expect(shown).toContain('  Subject: Q3 numbers');
  });
});
