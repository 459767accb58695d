import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdminClient } from '../../../clients/cli/admin-client';
import type { GatehouseClient } from '../../../clients/sdk/client';
import type { RequestRecord } from '../../../shared/domain';
import { preToolUse, runClaudeHook } from '../../support/claude-hook';
import { daemonPerDescribe, type TestDaemon, waitForPending } from '../../support/daemon';
import { addManyCommits, armAgainstGit, git } from '../../support/hostile-git';
import { withPicture } from '../../support/with-picture';

/**
 * What a request carries, computed by the real daemon from a real project: the diff of an
 * Edit against the file on disk, the commits a push sends from a repository whose config
 * tries to make git run a program, and the bounds (a 50 MB write, a binary file, a push of
 * 10,000 commits) filed at once with what was left out said.
 */

let root: string;
let project: string;
let repo: string;
let manyRepo: string;
let marker: string;

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'gh-picture-'));
  project = join(root, 'project');
  mkdirSync(join(project, 'src'), { recursive: true });
  writeFileSync(
    join(project, 'src', 'pay.ts'),
    'export function pay(cents: number) {\n  return charge(cents);\n}\n',
  );
  writeFileSync(join(project, 'logo.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 1]));

  // A repository set up to run a program from every config key git might read.
  const bare = join(root, 'remote.git');
  repo = join(root, 'repo');
  marker = join(root, 'MARKER');
  git(root, 'init', '--quiet', '--bare', '-b', 'main', bare);
  git(root, 'init', '--quiet', '-b', 'main', repo);
  writeFileSync(join(repo, 'a.txt'), 'one\n');
  git(repo, 'add', '.');
  git(repo, 'commit', '--quiet', '-m', 'first');
  git(repo, 'remote', 'add', 'origin', bare);
  git(repo, 'push', '--quiet', 'origin', 'main');
  writeFileSync(join(repo, 'b.txt'), 'two\n');
  git(repo, 'add', '.');
  git(repo, 'commit', '--quiet', '-m', 'add b');
  armAgainstGit(repo, root, marker);

  // 10,000 commits the remote lacks, made with fast-import.
  manyRepo = join(root, 'many');
  git(root, 'clone', '--quiet', bare, manyRepo);
  addManyCommits(manyRepo, 10_000, 20);
});

afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('request picture (real daemon, real hook process, real git)', () => {
  let d: TestDaemon;
  let admin: AdminClient;
  let agent: GatehouseClient;
  daemonPerDescribe((daemon, client) => ((d = daemon), (admin = client)));
  beforeAll(async () => {
    agent = await d.agent({ agent: 'claude-code', project });
  });
  afterAll(() => agent.close());

  it("an Edit's request carries its diff against the file on disk; show prints it", async () => {
    const running = runClaudeHook(
      d.env,
      preToolUse(
        'Edit',
        {
          file_path: 'src/pay.ts',
          old_string: '  return charge(cents);',
          new_string:
            '  const key = "sk-ant-abcdefghijklmnopqrstuvwxyz";\n  return charge(cents * 2, key);',
        },
        { cwd: project, id: 'toolu_edit' },
      ),
    );
    const filed = await waitForPending(admin, 'edit_file');
    const request = await withPicture(admin, filed.requestId);
    const file = request.picture!.files![0]!;
    expect(file).toMatchObject({
      path: join(project, 'src', 'pay.ts'),
      kind: 'modify',
      added: 2,
      removed: 1,
    });
    expect(file.diff).toContain('-  return charge(cents);');
    expect(file.diff).toContain('+  return charge(cents * 2, key);');
    // The secret is masked, the line that writes it is not hidden.
    expect(file.diff).toContain('+  const key = "sk-a…[masked]";');
    expect(JSON.stringify(request.picture)).not.toContain('abcdefghijklmnop');

    const shown = await d.cli(['show', filed.requestId]);
    expect(shown.stdout).toContain(`File ${join(project, 'src', 'pay.ts')}  +2 −1`);
    expect(shown.stdout).toContain('+  return charge(cents * 2, key);');
    const json = JSON.parse(
      (await d.cli(['show', filed.requestId, '--json'])).stdout,
    ) as RequestRecord;
    expect(json.picture?.files?.[0]?.added).toBe(2);

    // The picture is in the audit trail, and the file on disk is untouched.
    const { events } = await admin.call('audit.query', { requestId: filed.requestId });
    expect(events.find((e) => e.type === 'request.picture')?.data).toMatchObject({
      files: [{ path: join(project, 'src', 'pay.ts'), added: 2, removed: 1 }],
    });
    await admin.call('decide', { requestId: filed.requestId, decision: 'deny', reason: 'no' });
    expect((await running).decision).toBe('deny');
  });

  it("a secret file's picture never reads it from disk: only what the call writes is shown", async () => {
    writeFileSync(join(project, '.env'), 'DB_PASSWORD_OLD_LINE=correct-horse-battery\nMODE=dev\n');
    const answer = agent.gate({
      client: 'claude-code',
      event: 'PreToolUse',
      tool: 'Edit',
      input: { file_path: '.env', old_string: 'MODE=dev', new_string: 'MODE=prod' },
      toolUseId: 'tu-env',
      cwd: project,
      wait: false,
    });
    const filed = await waitForPending(admin, (r) => r.dedupeKey === 'claude-code:tu-env');
    // A secret, and an environment file Gemini CLI would load: the protected write wins.
    expect(filed.rule).toBe('protected:change_gatehouse_policy');
    const file = (await withPicture(admin, filed.requestId)).picture!.files![0]!;
    expect(file).toMatchObject({ added: 1, removed: 1 });
    expect(file.diff).toContain('-MODE=dev');
    expect(file.diff).toContain('+MODE=prod');
    expect(file.omitted).toMatch(/not read \(a protected or secret path\)/);
    expect(JSON.stringify(file)).not.toContain('correct-horse');
    await answer;
  });

  it('a push lists the commits the remote lacks, and no program of the repository config runs', async () => {
    const answer = agent.gate({
      client: 'claude-code',
      event: 'PreToolUse',
      tool: 'Bash',
      input: { command: 'git push --force origin main' },
      toolUseId: 'tu-push',
      cwd: repo,
      wait: false,
    });
    const filed = await waitForPending(admin, 'git_push');
    const { push } = (await withPicture(admin, filed.requestId)).picture!;
    expect(push).toMatchObject({
      remote: 'origin',
      url: join(root, 'remote.git'),
      branch: 'main',
      force: true,
      commitCount: 1,
      commits: [{ subject: 'add b', author: 'Ann Agent' }],
    });
    expect(push!.diffstat).toContain('b.txt');
    await answer;
    expect(existsSync(marker)).toBe(false);
    // The control: plain git in the same repository runs the attacker's program.
    git(repo, 'diff', 'HEAD~1', 'HEAD');
    expect(existsSync(marker)).toBe(true);
    rmSync(marker);
  });

  it('bounds: a 50 MB write, a binary file and a 10,000-commit push are filed at once and say what they left out', async () => {
    const gate = async (tool: string, input: Record<string, unknown>, cwd: string, id: string) => {
      const started = performance.now();
      const answer = await agent.gate({
        client: 'claude-code',
        event: 'PreToolUse',
        tool,
        input,
        toolUseId: id,
        cwd,
        wait: false,
      });
      return { answer, ms: performance.now() - started };
    };
    const binary = await gate(
      'Edit',
      { file_path: 'logo.png', old_string: 'P', new_string: 'Q' },
      project,
      'tu-bin',
    );
    const push = await gate('Bash', { command: 'git push origin main' }, manyRepo, 'tu-many');
    // What the hook relay sends for a 50 MB Write: the input clipped, with its full size.
    const huge = await gate(
      'Write',
      { file_path: 'big.txt', content: 'x'.repeat(2048) },
      project,
      'tu-huge',
    );
    // How long filing takes is printed, not asserted (a loaded machine stretches any bound;
    // speed belongs to bench/): what is asserted is that each was filed, with its bounds said.
    for (const { answer } of [binary, push]) expect(answer.outcome).toBe('pending');

    console.log(
      `request picture: filed a binary-file Edit in ${binary.ms.toFixed(1)} ms, a 10,000-commit push in ${push.ms.toFixed(1)} ms, a clipped 50 MB Write in ${huge.ms.toFixed(1)} ms`,
    );
    const byId = async (id: string) => {
      const { requests } = await admin.call('pending.list', {});
      return requests.find((r) => r.dedupeKey === `claude-code:${id}`)!;
    };
    const bin = await withPicture(admin, (await byId('tu-bin')).requestId);
    expect(bin.picture!.files![0]!.omitted).toMatch(/binary/);
    const many = await withPicture(admin, (await byId('tu-many')).requestId);
    expect(many.picture!.push).toMatchObject({ commitCount: 10_000 });
    expect(many.picture!.push!.commits).toHaveLength(50);
    expect(many.picture!.push!.omitted).toContain('9950 older commits not listed');
    expect(huge.answer.outcome).toBe('pending');

    // The real hook process with a real 50 MB Write: filed, and the picture says it was cut.
    const running = runClaudeHook(
      { ...d.env, GATEHOUSE_HOOK_WAIT_MS: '60000' },
      preToolUse(
        'Write',
        { file_path: 'big.txt', content: 'y'.repeat(50_000_000) },
        { cwd: project, id: 'tu-50mb' },
      ),
    );
    const filed = await waitForPending(admin, (r) => r.dedupeKey === 'claude-code:tu-50mb', 30_000);
    const big = await withPicture(admin, filed.requestId);
    expect(big.picture!.files![0]!.omitted).toMatch(
      /too large for Gatehouse to read \(5000\d+ bytes\)/,
    );
    expect(big.picture!.files![0]!.diff).toBeUndefined();
    await admin.call('decide', { requestId: filed.requestId, decision: 'deny', reason: 'too big' });
    expect((await running).decision).toBe('deny');
  }, 60_000);
});
