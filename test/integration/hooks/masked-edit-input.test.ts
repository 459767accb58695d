import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdminClient } from '../../../clients/cli/admin-client';
import { RpcError } from '../../../clients/sdk/rpc-client';
import { preToolUse, runClaudeHook } from '../../support/claude-hook';
import { TestDaemon, waitForPending } from '../../support/daemon';
import { joinHub, TestHub } from '../../support/hub';

/**
 * The tool input a request keeps for editing holds a secret: every reader sees it masked (the
 * admin API, `show --json`, the audit, the hub's copy, the daemon's database on disk), and an
 * edit of another part of it still runs with the secret where the agent put it: the real
 * Claude Code hook process answers with it. A placeholder moved where the agent could read
 * it back is refused, and nothing is decided.
 */

const KEY = 'sk-ant-api03-REALKEYREALKEYREALKEYREALKEY';
const MASKED = 'sk-a…[masked]';

const updatedInputOf = (stdout: string) =>
  (JSON.parse(stdout.trim()) as { hookSpecificOutput: { updatedInput?: Record<string, unknown> } })
    .hookSpecificOutput.updatedInput;

/** Every file of the daemon's home (the database and its WAL included), as text. */
function homeBytes(home: string): string {
  return readdirSync(home, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => readFileSync(join(e.parentPath, e.name)).toString('latin1'))
    .join('\n');
}

describe('a secret in the tool input kept for editing', () => {
  let project: string;
  let hub: TestHub;
  let d: TestDaemon;
  let admin: AdminClient;
  let ann: string;

  beforeAll(async () => {
    project = mkdtempSync(join(tmpdir(), 'gh-mask-'));
    hub = await TestHub.start();
    d = await TestDaemon.start({}, ['--no-dashboard']);
    admin = await d.admin();
    ann = await hub.person('ann');
    await joinHub(d, hub, 'laptop');
  }, 120_000);
  afterAll(async () => {
    admin?.close();
    await d?.stop();
    await hub?.stop();
    rmSync(project, { recursive: true, force: true });
  });

  const hubCopy = async (requestId: string, status: string): Promise<string> => {
    let found = '';
    await expect
      .poll(
        async () => {
          const rows = (await hub.api('GET', '/api/requests', { token: ann })).body.requests as {
            requestId: string;
            status: string;
          }[];
          const row = rows.find((r) => r.requestId === requestId);
          found = row ? JSON.stringify(row) : '';
          return row?.status;
        },
        { timeout: 20_000 },
      )
      .toBe(status);
    return found;
  };

  it('is masked for every reader; an edit of another field runs with it where it was', async () => {
    const file = join(project, 'src', 'config.ts');
    const content = `// settings\nexport const apiKey = "${KEY}";\nexport const retries = 3;\n`;
    const running = runClaudeHook(
      d.env,
      preToolUse('Write', { file_path: file, content }, { cwd: project, id: 'tu-mask-1' }),
    );
    const filed = await waitForPending(admin, (r) => r.dedupeKey === 'claude-code:tu-mask-1');

    const got = (await admin.call('request.get', { requestId: filed.requestId })).request;
    const kept = got.context?.toolInput as { file_path: string; content: string };
    expect(kept.content).toBe(content.replace(KEY, MASKED));
    expect(JSON.stringify(got)).not.toContain('REALKEY');
    const listed = await admin.call('requests.query', {});
    expect(JSON.stringify(listed)).not.toContain('REALKEY');
    const shown = await d.cli(['show', filed.requestId, '--json']);
    expect(shown.stdout).toContain(MASKED);
    expect(shown.stdout).not.toContain('REALKEY');
    expect((await d.cli(['show', filed.requestId])).stdout).not.toContain('REALKEY');
    expect(await hubCopy(filed.requestId, 'pending')).not.toContain('REALKEY');

    // The placeholder copied into the path (a place the agent reads back): refused, still pending.
    const moved = await admin
      .call('decide', {
        requestId: filed.requestId,
        decision: 'approve',
        edit: { input: { file_path: join(project, MASKED), content: kept.content } },
      })
      .catch((e: unknown) => e);
    expect(moved instanceof RpcError && moved.code).toBe(-32602);
    expect(String((moved as Error).message)).toMatch(/masked value .* in file_path line 1/);
    expect((await admin.call('request.get', { requestId: filed.requestId })).request.status).toBe(
      'pending',
    );

    // Another field (the path) and another line (the retries) edited, the key's line kept.
    const local = join(project, 'src', 'config.local.ts');
    const edited = { file_path: local, content: kept.content.replace('= 3', '= 5') };
    const cli = await d.cli(['approve', filed.requestId, '--edit-input', JSON.stringify(edited)]);
    expect(cli.stderr).toBe('');
    const ran = updatedInputOf((await running).stdout);
    expect(ran).toEqual({ file_path: local, content: content.replace('= 3', '= 5') });
    expect(String(ran?.content)).toContain(KEY);

    // The audit keeps both versions, masked as shown.
    const { events } = await admin.call('audit.query', { requestId: filed.requestId });
    const approved = events.find((e) => e.type === 'request.approved')?.data as {
      edited: { asked: { content: string }; approved: { file_path: string; content: string } };
    };
    expect(approved.edited.asked.content).toContain(`apiKey = "${MASKED}"`);
    expect(approved.edited.approved).toEqual(edited);
    expect(JSON.stringify(events)).not.toContain('REALKEY');
    expect(await hubCopy(filed.requestId, 'approved')).not.toContain('REALKEY');
    // Nothing the daemon wrote to disk holds the key: the unmasked input was only in memory.
    expect(homeBytes(d.home)).not.toContain('REALKEY');
  }, 90_000);

  it("a command's other line edited keeps its token line; the token echoed is refused", async () => {
    const token = 'ghp_CMDTOKENCMDTOKENCMDTOKEN123456';
    const command = `export GH_TOKEN=${token}\ngh api /user`;
    const running = runClaudeHook(
      d.env,
      preToolUse('Bash', { command }, { cwd: project, id: 'tu-mask-2' }),
    );
    const filed = await waitForPending(admin, (r) => r.dedupeKey === 'claude-code:tu-mask-2');
    const got = (await admin.call('request.get', { requestId: filed.requestId })).request;
    const kept = String((got.context?.toolInput as { command: string }).command);
    expect(kept).toBe('export GH_TOKEN=ghp_…[masked]\ngh api /user');
    // The placeholder into the echoed line: refused, the agent never sees its token echoed.
    const echoed = await d.cli([
      'approve',
      filed.requestId,
      '--edit-command',
      kept.replace('gh api /user', 'echo ghp_…[masked]'),
    ]);
    expect(echoed.stderr).toMatch(/masked value .* in command line 2/);
    // As risky as asked (shell:opaque, high): no confirmation needed.
    const edited = kept.replace('/user', '/user/repos');
    const cli = await d.cli(['approve', filed.requestId, '--edit-command', edited]);
    expect(cli.stderr).toBe('');
    const ran = updatedInputOf((await running).stdout);
    expect(ran?.command).toBe(`export GH_TOKEN=${token}\ngh api /user/repos`);
    const { events } = await admin.call('audit.query', { requestId: filed.requestId });
    const approved = events.find((e) => e.type === 'request.approved')?.data;
    expect(approved).toMatchObject({
      edited: { asked: kept, approved: { command: edited } },
    });
  }, 90_000);
});
