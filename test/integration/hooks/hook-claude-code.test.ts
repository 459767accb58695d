import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { AdminClient } from '../../../clients/cli/admin-client';
import {
  CLI,
  runCli,
  daemonPerDescribe,
  type TestDaemon,
  waitForPending,
  type CliResult,
} from '../../support/daemon';

interface HookRun extends CliResult {
  /** stdout parsed as JSON, or undefined when the hook printed nothing. */
  json?:
    | { hookSpecificOutput: Record<string, unknown>; continue?: boolean; stopReason?: string }
    | undefined;
}

/** Runs `gatehouse hook claude-code` as a real process with a payload on stdin. */
async function runHook(env: NodeJS.ProcessEnv, input: unknown): Promise<HookRun> {
  const r = await runCli(
    env,
    ['hook', 'claude-code'],
    typeof input === 'string' ? input : JSON.stringify(input),
  );
  const text = r.stdout.trim();
  return text ? { ...r, json: JSON.parse(text) as HookRun['json'] } : r;
}

/** A hook payload with the fields Claude Code sends for every event. */
function payload(
  event: string,
  extra: Record<string, unknown> = {},
  session = 'cc-session-1',
): Record<string, unknown> {
  return {
    session_id: session,
    transcript_path: `/home/dev/.claude/projects/p/${session}.jsonl`,
    cwd: '/home/dev/project',
    permission_mode: 'default',
    hook_event_name: event,
    ...extra,
  };
}

const toolCall = (
  tool_name: string,
  tool_input: Record<string, unknown>,
  id: string,
  event = 'PreToolUse',
  session?: string,
) => payload(event, { tool_name, tool_input, tool_use_id: id }, session);

const pre = (r: HookRun) =>
  r.json?.hookSpecificOutput as {
    hookEventName: string;
    permissionDecision: string;
    permissionDecisionReason: string;
  };

describe('gatehouse hook claude-code (real processes, real daemon)', () => {
  let d: TestDaemon;
  let admin: AdminClient;
  daemonPerDescribe((daemon, client) => ((d = daemon), (admin = client)));

  it('allows an auto action (Read) at once and records it in the session', async () => {
    const r = await runHook(
      d.env,
      toolCall('Read', { file_path: '/home/dev/project/README.md' }, 'toolu_read'),
    );
    expect(r.code).toBe(0);
    expect(pre(r)).toMatchObject({ hookEventName: 'PreToolUse', permissionDecision: 'allow' });
    expect(pre(r).permissionDecisionReason).toMatch(/read_file is auto-allowed/);
    const { sessions } = await admin.call('sessions.list', { agent: 'claude-code' });
    expect(sessions).toHaveLength(1);
    expect(sessions[0]).toMatchObject({
      sessionKey: 'cc-session-1',
      project: '/home/dev/project',
      status: 'active',
    });
    const { transcript } = await admin.call('session.get', { sessionId: sessions[0]!.sessionId });
    expect(
      transcript.some(
        (t) => t.kind === 'log' && t.text.includes('Read /home/dev/project/README.md'),
      ),
    ).toBe(true);
  });

  it('answers a command that takes a file for a folder itself, instead of failing over (ENOTDIR)', async () => {
    // `a.ts/x` made the daemon's path check throw: the call ended in an internal error.
    const project = mkdtempSync(join(tmpdir(), 'gatehouse-enotdir-'));
    try {
      mkdirSync(join(project, 'src'));
      writeFileSync(join(project, 'src/a.ts'), 'x\n');
      const command = 'cat src/a.ts/x; ls src/*/x';
      const r = await runHook(d.env, {
        ...toolCall('Bash', { command }, 'toolu_enotdir'),
        cwd: project,
      });
      expect(r.stderr).not.toMatch(/error/);
      expect(pre(r)).toMatchObject({ permissionDecision: 'allow' });
      expect(pre(r).permissionDecisionReason).toMatch(/auto-allowed/);
      const ran = spawnSync('bash', ['-c', command], { cwd: project, encoding: 'utf8' });
      expect(ran.stderr).toMatch(/Not a directory/);
    } finally {
      rmSync(project, { recursive: true, force: true });
    }
  });

  it('asks before a search reads a file outside the project, as a read there does (grep prints all of it)', async () => {
    const project = mkdtempSync(join(tmpdir(), 'gatehouse-search-'));
    const elsewhere = mkdtempSync(join(tmpdir(), 'gatehouse-elsewhere-'));
    try {
      writeFileSync(join(project, 'notes.md'), 'TODO\n');
      writeFileSync(join(elsewhere, 'diary.txt'), 'private\n');
      const env = { ...d.env, GATEHOUSE_HOOK_WAIT_MS: '300', GATEHOUSE_HOOK_FALLBACK: 'deny' };
      const inside = await runHook(env, {
        ...toolCall('Bash', { command: 'grep -rn TODO .' }, 'toolu_search_in'),
        cwd: project,
      });
      expect(pre(inside).permissionDecision).toBe('allow');
      const command = `grep -h '' ${join(elsewhere, 'diary.txt')}`;
      // Calibration: run, it prints the whole file.
      expect(spawnSync('bash', ['-c', command], { encoding: 'utf8' }).stdout).toBe('private\n');
      const outside = await runHook(env, {
        ...toolCall('Bash', { command }, 'toolu_search_out'),
        cwd: project,
      });
      expect(pre(outside).permissionDecision).toBe('deny');
      const { requests } = await admin.call('requests.query', { action: 'search_files' });
      expect(requests).toHaveLength(1);
      expect(requests[0]).toMatchObject({ rule: 'default:outside_project' });
    } finally {
      rmSync(project, { recursive: true, force: true });
      rmSync(elsewhere, { recursive: true, force: true });
    }
  });

  it('asks before a program reads a file outside the project through an option (date -f, wc --files0-from, file -f, grep -f, hexdump -f, git blame -S), each of which prints its text', async () => {
    const project = mkdtempSync(join(tmpdir(), 'gatehouse-option-read-'));
    const elsewhere = mkdtempSync(join(tmpdir(), 'gatehouse-elsewhere-'));
    try {
      writeFileSync(join(project, 'dates.txt'), 'tomorrow\n');
      writeFileSync(join(project, 'names'), 'dates.txt\0');
      const git = (...args: string[]) => spawnSync('git', args, { cwd: project });
      git('init', '-q');
      git('add', 'dates.txt');
      git('-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-qm', 'dates');
      const diary = join(elsewhere, 'diary.txt');
      writeFileSync(diary, 'private\n');
      const env = { ...d.env, GATEHOUSE_HOOK_WAIT_MS: '300', GATEHOUSE_HOOK_FALLBACK: 'deny' };
      const reads = [
        { command: `date -f ${diary}`, prints: 'stderr', action: 'read_file' },
        { command: `date --file=${diary}`, prints: 'stderr', action: 'read_file' },
        { command: `wc --files0-from=${diary}`, prints: 'stderr', action: 'read_file' },
        { command: `du --files0-from=${diary}`, prints: 'stderr', action: 'read_file' },
        { command: `file -f ${diary}`, prints: 'stdout', action: 'read_file' },
        { command: `grep -o -f ${diary} ${diary}`, prints: 'stdout', action: 'search_files' },
        { command: `hexdump -f ${diary} dates.txt`, prints: 'stderr', action: 'read_file' },
        { command: `git blame -S ${diary} dates.txt`, prints: 'stderr', action: 'read_file' },
      ] as const;
      for (const [i, { command, prints, action }] of reads.entries()) {
        // Calibration: run, each shows the file's text.
        const ran = spawnSync('bash', ['-c', command], { cwd: project, encoding: 'utf8' });
        expect(ran[prints], command).toContain('private');
        const r = await runHook(env, {
          ...toolCall('Bash', { command }, `toolu_option_read_${i}`),
          cwd: project,
        });
        expect(pre(r).permissionDecision, command).toBe('deny');
        const { requests } = await admin.call('requests.query', { action });
        const filed = requests.filter((q) => q.paths?.includes(diary));
        expect(filed.at(0), command).toMatchObject({ rule: 'default:outside_project' });
      }
      // The same options on the project's own files, and date's everyday forms, go ahead.
      for (const command of [
        'date -f dates.txt',
        'wc --files0-from=names',
        'date -Iseconds',
        'date -u +%Y-%m-%d',
        'git blame dates.txt',
      ]) {
        const r = await runHook(env, {
          ...toolCall('Bash', { command }, 'toolu_option_read_in'),
          cwd: project,
        });
        expect(pre(r).permissionDecision, command).toBe('allow');
      }
    } finally {
      rmSync(project, { recursive: true, force: true });
      rmSync(elsewhere, { recursive: true, force: true });
    }
  });

  it('files an ask action (Bash git push) and answers allow when a human approves', async () => {
    const running = runHook(
      d.env,
      toolCall(
        'Bash',
        { command: 'npm test && git push origin main', description: 'Run tests and push' },
        'toolu_push',
      ),
    );
    const req = await waitForPending(admin, 'git_push');
    expect(req).toMatchObject({
      agent: 'claude-code',
      command: 'npm test && git push origin main',
      target: 'origin main',
      description: 'Run tests and push: npm test && git push origin main',
    });
    expect(req.context).toMatchObject({
      tool: 'Bash',
      toolUseId: 'toolu_push',
      cwd: '/home/dev/project',
    });
    await admin.call('decide', {
      requestId: req.requestId,
      decision: 'approve',
      message: 'ship it',
    });
    const r = await running;
    expect(pre(r).permissionDecision).toBe('allow');
    expect(pre(r).permissionDecisionReason).toContain('ship it');
  });

  it('answers deny with the human reason (Write)', async () => {
    const running = runHook(
      d.env,
      toolCall('Write', { file_path: '/home/dev/project/src/app.ts', content: 'x' }, 'toolu_write'),
    );
    const req = await waitForPending(admin, 'write_file');
    expect(req.paths).toEqual(['/home/dev/project/src/app.ts']);
    // The person sees how big the change is.
    expect(req.context).toMatchObject({ tool: 'Write', diff: '+1 −0 lines' });
    await admin.call('decide', {
      requestId: req.requestId,
      decision: 'deny',
      reason: 'use a branch first',
    });
    const r = await running;
    expect(pre(r)).toMatchObject({ permissionDecision: 'deny' });
    expect(pre(r).permissionDecisionReason).toContain('use a branch first');
  });

  it('falls back to ask after the wait (Edit) and withdraws the request', async () => {
    const r = await runHook(
      { ...d.env, GATEHOUSE_HOOK_WAIT_MS: '300' },
      toolCall(
        'Edit',
        { file_path: '/home/dev/project/a.ts', old_string: 'a', new_string: 'b' },
        'toolu_edit',
      ),
    );
    expect(pre(r).permissionDecision).toBe('ask');
    expect(pre(r).permissionDecisionReason).toMatch(/no decision on edit_file within 0.3 s/);
    const { requests } = await admin.call('requests.query', { action: 'edit_file' });
    expect(requests.map((q) => q.status)).toEqual(['cancelled']);
  });

  it('with GATEHOUSE_HOOK_FALLBACK=deny keeps the timed-out request queued for a later approval', async () => {
    const env = { ...d.env, GATEHOUSE_HOOK_WAIT_MS: '300', GATEHOUSE_HOOK_FALLBACK: 'deny' };
    const call = toolCall(
      'WebFetch',
      { url: 'https://example.com/docs', prompt: 'summarise' },
      'toolu_fetch',
    );
    const r = await runHook(env, call);
    expect(pre(r).permissionDecision).toBe('deny');
    const { requests } = await admin.call('requests.query', { action: 'web_fetch' });
    expect(requests).toHaveLength(1);
    expect(requests[0]).toMatchObject({ status: 'timed_out', target: 'https://example.com/docs' });
    // The human approves late: the same call goes through on the retry, by the one-time grant.
    await admin.call('decide', { requestId: requests[0]!.requestId, decision: 'approve' });
    const retry = await runHook(env, { ...call, tool_use_id: 'toolu_fetch_2' });
    expect(pre(retry).permissionDecision).toBe('allow');
  });

  it('answers PermissionRequest in its own shape (an MCP tool)', async () => {
    const running = runHook(
      d.env,
      toolCall(
        'mcp__github__create_issue',
        { title: 'Flaky test', body: '…' },
        'toolu_mcp',
        'PermissionRequest',
      ),
    );
    const req = await waitForPending(admin, 'mcp:github:create_issue');
    await admin.call('decide', { requestId: req.requestId, decision: 'approve' });
    expect((await running).json).toEqual({
      hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: { behavior: 'allow' } },
    });

    const denied = runHook(
      d.env,
      toolCall('mcp__github__create_issue', { title: 'Again' }, 'toolu_mcp2', 'PermissionRequest'),
    );
    const second = await waitForPending(admin, 'mcp:github:create_issue');
    await admin.call('decide', {
      requestId: second.requestId,
      decision: 'deny',
      reason: 'duplicate',
    });
    const out = (await denied).json!.hookSpecificOutput as {
      decision: { behavior: string; message: string };
    };
    expect(out.decision.behavior).toBe('deny');
    expect(out.decision.message).toContain('duplicate');
  });

  it('stops Claude Code (continue: false) while a human has paused or killed the agent, and allows again after resume', async () => {
    await admin.call('pause', { agent: 'claude-code', reason: 'lunch' });
    const paused = await runHook(
      d.env,
      toolCall('Read', { file_path: '/home/dev/project/a.ts' }, 'toolu_paused'),
    );
    expect(paused.json).toMatchObject({ continue: false });
    expect(paused.json?.stopReason).toMatch(/Gatehouse says stop: .*AGENT_PAUSED/);
    expect(pre(paused).permissionDecision).toBe('deny');
    await admin.call('kill', { agent: 'claude-code', reason: 'runaway' });
    const killed = await runHook(
      d.env,
      toolCall('Bash', { command: 'git push' }, 'toolu_killed', 'PermissionRequest'),
    );
    expect(killed.json).toMatchObject({
      continue: false,
      hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: { behavior: 'deny' } },
    });
    expect(killed.json?.stopReason).toMatch(/killed/);
    await admin.call('resume', { agent: 'claude-code' });
    const resumed = await runHook(
      d.env,
      toolCall('Read', { file_path: '/home/dev/project/a.ts' }, 'toolu_resumed'),
    );
    expect(pre(resumed).permissionDecision).toBe('allow');
  });

  it("asks a person for Gatehouse's own files (the admin token), critical, whatever the rules say", async () => {
    // Even with reads allowed by a user rule, the token is the daemon's to guard.
    await admin.call('rules.add', { action: 'read_file', tier: 'auto' });
    const token = join(d.home, 'admin.token');
    for (const [tool, input, id] of [
      ['Read', { file_path: token }, 'toolu_token'],
      ['Bash', { command: `cat ${token} | head -c 64` }, 'toolu_cat'],
    ] as const) {
      const hook = runHook(d.env, toolCall(tool, input, id));
      const asked = await waitForPending(admin, 'read_file');
      expect(asked).toMatchObject({ risk: 'critical', rule: 'protected:gatehouse' });
      await admin.call('decide', {
        requestId: asked.requestId,
        decision: 'deny',
        reason: 'not the admin token',
      });
      const answer = pre(await hook);
      expect(answer.permissionDecision).toBe('deny');
      expect(answer.permissionDecisionReason).toMatch(/not the admin token/);
    }
  });

  it('asks a person, critical, before an agent reads the key that signs the audit chain', async () => {
    // Whoever holds it can re-sign a rewritten audit trail: it is the daemon's, like the token.
    await admin.call('rules.add', { action: 'read_file', tier: 'auto' });
    const key = join(d.home, 'audit.key');
    expect(existsSync(key)).toBe(true);
    for (const [tool, input, id] of [
      ['Read', { file_path: key }, 'toolu_audit_key'],
      ['Bash', { command: `cat "$GATEHOUSE_HOME/audit.key"` }, 'toolu_audit_key_env'],
      ['Bash', { command: `base64 ${key}` }, 'toolu_audit_key_b64'],
    ] as const) {
      const hook = runHook(d.env, toolCall(tool, input, id));
      const asked = await waitForPending(admin, (r) => r.risk === 'critical');
      expect(asked).toMatchObject({ risk: 'critical', rule: 'protected:gatehouse' });
      await admin.call('decide', { requestId: asked.requestId, decision: 'deny', reason: 'no' });
      expect(pre(await hook).permissionDecision).toBe('deny');
    }
  });

  it('asks a person, critical, before an agent rewrites the hook program it runs, whatever the rules say', async () => {
    // The relay every installed hook command runs: rewritten, it would answer its own calls.
    // So would its code cache: V8 runs the bytecode in it in place of the relay's source.
    await admin.call('rules.add', { action: 'write_file', tier: 'auto' });
    const relay = join(CLI, '..', '..', 'hook', 'gatehouse-hook.cjs');
    const cache = join(CLI, '..', '..', 'hook', 'gatehouse-hook.cache');
    expect(existsSync(cache)).toBe(true);
    for (const [tool, input, id, action] of [
      ['Write', { file_path: cache, content: 'other bytecode' }, 'toolu_cache_w', 'write_file'],
      ['Bash', { command: `cp /tmp/made-up.cache ${cache}` }, 'toolu_cache_cp', undefined],
      ['Write', { file_path: relay, content: 'allow everything' }, 'toolu_relay_w', 'write_file'],
      [
        'Edit',
        { file_path: relay, old_string: 'deny', new_string: 'allow' },
        'toolu_relay_e',
        'edit_file',
      ],
      ['Bash', { command: `sed -i s/deny/allow/ ${relay}` }, 'toolu_relay_sed', undefined],
    ] as const) {
      const hook = runHook(d.env, toolCall(tool, input, id));
      const asked = await waitForPending(
        admin,
        (r) => r.rule === 'protected:gatehouse' && (!action || r.action === action),
      );
      expect(asked).toMatchObject({ risk: 'critical' });
      await admin.call('decide', { requestId: asked.requestId, decision: 'deny', reason: 'no' });
      expect(pre(await hook).permissionDecision).toBe('deny');
    }
  });

  it("prints nothing for Claude Code's own bookkeeping tools", async () => {
    const r = await runHook(d.env, toolCall('TodoWrite', { todos: [] }, 'toolu_todo'));
    expect(r).toMatchObject({ code: 0, stdout: '' });
  });

  it('never crashes on a malformed payload: it answers the fallback and says why', async () => {
    const garbage = await runHook(d.env, 'this is not json');
    expect(garbage.code).toBe(0);
    expect(pre(garbage).permissionDecision).toBe('deny');
    const asked = await runHook({ ...d.env, GATEHOUSE_HOOK_FALLBACK: 'ask' }, 'not json');
    expect(pre(asked).permissionDecision).toBe('ask');
    expect(garbage.stderr).toMatch(/not JSON/);
    const noSession = await runHook(
      { ...d.env, GATEHOUSE_HOOK_FALLBACK: 'deny' },
      { hook_event_name: 'PreToolUse', tool_name: 'Bash' },
    );
    expect(pre(noSession).permissionDecision).toBe('deny');
    expect(noSession.stderr).toMatch(/session_id is missing/);
  });

  it('SessionEnd after /clear aborts the session, after /resume (or an unknown reason) it stays open', async () => {
    const { sessions: before } = await admin.call('sessions.list', { agent: 'claude-code' });
    const end = (session: string, reason: string) =>
      runHook(d.env, payload('SessionEnd', { reason }, session));
    expect((await end('cc-cleared', 'clear')).code).toBe(0);
    expect((await end('cc-resumed', 'resume')).stderr).toMatch(/kept open/);
    expect((await end('cc-other', 'compacted-someday')).stderr).toMatch(/kept open/);
    const { sessions } = await admin.call('sessions.list', { agent: 'claude-code' });
    const status = (key: string) => sessions.find((x) => x.sessionKey === key)?.status;
    expect(status('cc-cleared')).toBe('aborted');
    expect(status('cc-resumed')).toBe('active');
    expect(status('cc-other')).toBe('active');
    expect(sessions.length).toBe(before.length + 3);
  });

  it('records Notification and Stop, and SessionEnd closes the session with its summary', async () => {
    const session = 'cc-session-end';
    expect(
      (
        await runHook(
          d.env,
          payload(
            'Notification',
            {
              message: 'Claude needs your permission to use Bash',
              notification_type: 'permission_prompt',
            },
            session,
          ),
        )
      ).code,
    ).toBe(0);
    expect(
      (await runHook(d.env, payload('Stop', { stop_hook_active: false }, session))).stdout,
    ).toBe('');
    const end = await runHook(
      d.env,
      payload('SessionEnd', { reason: 'prompt_input_exit' }, session),
    );
    expect(end.code).toBe(0);
    expect(end.stderr).toMatch(/completed/);
    const { sessions } = await admin.call('sessions.list', { agent: 'claude-code' });
    const s = sessions.find((x) => x.sessionKey === session)!;
    expect(s.status).toBe('completed');
    const got = await admin.call('session.get', { sessionId: s.sessionId });
    expect(got.summary?.text).toBeTruthy();
    const texts = got.transcript.map((t) => t.text);
    expect(texts).toEqual(
      expect.arrayContaining([
        'Claude Code: Claude needs your permission to use Bash',
        'Claude Code finished responding',
        'Claude Code session ended (prompt_input_exit)',
      ]),
    );
  });
});

describe('gatehouse hook claude-code without a daemon', () => {
  const env = {
    ...process.env,
    GATEHOUSE_SOCKET: '/nonexistent/gatehouse/agent.sock',
    GATEHOUSE_HOME: '/nonexistent/gatehouse',
  };

  it('fails closed by default: what would ask is denied with how to start Gatehouse, in every permission mode', async () => {
    for (const mode of ['default', 'acceptEdits', 'bypassPermissions', 'plan']) {
      const call = {
        ...toolCall('Bash', { command: 'git push' }, 'toolu_x'),
        permission_mode: mode,
      };
      const r = await runHook(env, call);
      expect(r.code).toBe(0);
      expect(pre(r).permissionDecision).toBe('deny');
      expect(pre(r).permissionDecisionReason).toMatch(/git_push needs a person's approval/);
      expect(pre(r).permissionDecisionReason).toMatch(/gatehouse daemon/);
      expect(r.stderr).toMatch(/cannot reach Gatehouse/);
    }
    const write = await runHook(
      env,
      toolCall('Write', { file_path: '/home/dev/project/a', content: '' }, 't1'),
    );
    expect(pre(write).permissionDecision).toBe('deny');
    const unknown = await runHook(env, toolCall('FancyNewTool', {}, 't2', 'PermissionRequest'));
    expect(unknown.json).toMatchObject({
      hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: { behavior: 'deny' } },
    });
    const garbage = await runHook(env, '{"hook_event_name":"PreToolUse"}');
    expect(pre(garbage).permissionDecision).toBe('deny');
    const stop = await runHook(env, payload('Stop'));
    expect(stop).toMatchObject({ code: 0, stdout: '' });
  });

  // Some twenty hook processes one after another, each loading the offline table and parser:
  // 12 s beside a running suite, 30 s beside a full CI on two cores.
  it('allows what the built-in table allows, but never secrets, Gatehouse files or paths outside the project', async () => {
    const read = (file_path: string) =>
      runHook(env, toolCall('Read', { file_path }, 'toolu_r')).then((r) => pre(r));
    expect((await read('/home/dev/project/src/a.ts')).permissionDecision).toBe('allow');
    expect((await read('src/a.ts')).permissionDecision).toBe('allow');
    const bash = (command: string) =>
      runHook(env, toolCall('Bash', { command }, 'toolu_b')).then((r) => pre(r));
    expect((await bash('git status')).permissionDecision).toBe('allow');
    expect((await bash('cat src/a.ts')).permissionDecision).toBe('allow');
    for (const denied of [
      await read('/home/dev/project/../other/a.ts'),
      await read('/home/dev/project/.env'),
      await read('/home/dev/project/deploy/.ssh/id_ed25519'),
      await read('/home/dev/project/certs/server.pem'),
      await bash('cat ~/.ssh/id_rsa'),
      await bash('cat $(ls)'),
      await bash('grep -r secret /'),
    ]) {
      expect(denied.permissionDecision).toBe('deny');
      expect(denied.permissionDecisionReason).toMatch(/gatehouse daemon/);
    }
    const token = await read('/nonexistent/gatehouse/admin.token');
    expect(token.permissionDecision).toBe('deny');
    expect(token.permissionDecisionReason).toMatch(/touches Gatehouse's own files/);
    const linkDir = mkdtempSync(join(tmpdir(), 'gatehouse-link-'));
    try {
      symlinkSync('/etc', join(linkDir, 'etc-link'));
      const viaLink = await runHook(
        env,
        payload('PreToolUse', {
          tool_name: 'Read',
          tool_input: { file_path: join(linkDir, 'etc-link', 'passwd') },
          cwd: linkDir,
        }),
      );
      expect(pre(viaLink).permissionDecisionReason).toMatch(/outside the project/);
    } finally {
      rmSync(linkDir, { recursive: true, force: true });
    }
  }, 90_000);

  it('GATEHOUSE_HOOK_FALLBACK chooses deny, ask or defer instead', async () => {
    const read = toolCall('Read', { file_path: '/home/dev/project/a.ts' }, 'toolu_y');
    const denied = await runHook({ ...env, GATEHOUSE_HOOK_FALLBACK: 'deny' }, read);
    expect(pre(denied).permissionDecision).toBe('deny');
    const asked = await runHook({ ...env, GATEHOUSE_HOOK_FALLBACK: 'ask' }, read);
    expect(pre(asked).permissionDecision).toBe('ask');
    const deferred = await runHook(
      { ...env, GATEHOUSE_HOOK_FALLBACK: 'defer' },
      toolCall('Bash', { command: 'git push' }, 'toolu_z'),
    );
    expect(deferred).toMatchObject({ code: 0, stdout: '' });
    const allow = await runHook(
      { ...env, GATEHOUSE_HOOK_FALLBACK: 'allow' },
      toolCall('Bash', { command: 'git push' }, 'toolu_w'),
    );
    expect(pre(allow).permissionDecision).toBe('deny');
    expect(allow.stderr).toMatch(/allow is no longer supported/);
  });

  it('answers the fallback before its own deadline when Gatehouse accepts but never replies', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gatehouse-mute-'));
    const sockets: Socket[] = [];
    const mute = createServer((s) => sockets.push(s));
    const path = join(dir, 'mute.sock');
    await new Promise<void>((r) => mute.listen(path, r));
    try {
      const env = {
        ...process.env,
        GATEHOUSE_SOCKET: path,
        GATEHOUSE_HOOK_WAIT_MS: '200',
        GATEHOUSE_HOOK_FALLBACK: 'deny',
      };
      const started = Date.now();
      const r = await runHook(env, toolCall('Read', { file_path: '/x' }, 'toolu_mute'));
      expect(r.code).toBe(0);
      expect(pre(r).permissionDecision).toBe('deny');
      expect(r.stderr).toMatch(/no answer from Gatehouse within 5 s/);
      // wait (0.2 s) + the 5 s margin, and not much more: well inside Claude Code's 60 s.
      expect(Date.now() - started).toBeLessThan(15_000);
    } finally {
      for (const s of sockets) s.destroy();
      await new Promise((r) => mute.close(r));
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
