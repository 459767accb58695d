/**
 * The http hook answers from the daemon's engine in its own process, not by dialling
 * the daemon's socket — and still decides as the socket does (validation, kill switch, a
 * person's decision, durability). Real daemon, real http server, raw POSTs as Claude Code
 * sends them.
 */
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { request } from 'node:http';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdminClient } from '../../../clients/cli/admin-client';
import { ROOT, TestDaemon, waitForPending } from '../../support/daemon';

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

const preToolUse = (session: string, tool: string, input: object, i: number, cwd = ROOT) =>
  JSON.stringify({
    session_id: session,
    transcript_path: '/tmp/in-process.jsonl',
    cwd,
    permission_mode: 'default',
    hook_event_name: 'PreToolUse',
    tool_name: tool,
    tool_input: input,
    tool_use_id: `toolu_in_process_${i}`,
  });

interface Decision {
  hookSpecificOutput?: { permissionDecision?: string; permissionDecisionReason?: string };
  continue?: boolean;
  stopReason?: string;
}

describe('the http hook on the daemon engine', () => {
  let d: TestDaemon;
  let admin: AdminClient;
  const http = { port: 0, secret: randomBytes(32).toString('base64url') };
  let n = 0;

  const post = (
    body: string,
    headers: Record<string, string> = {},
  ): Promise<{ status: number; answer: Decision }> =>
    new Promise((resolve, reject) => {
      const req = request(
        {
          host: '127.0.0.1',
          port: http.port,
          path: '/hooks/claude-code',
          method: 'POST',
          headers: {
            'Content-Type': 'application/json',
            Authorization: `Bearer ${http.secret}`,
            ...headers,
          },
        },
        (res) => {
          let text = '';
          res.on('data', (c: Buffer) => (text += c.toString()));
          res.on('end', () =>
            resolve({ status: res.statusCode ?? 0, answer: JSON.parse(text) as Decision }),
          );
        },
      );
      req.on('error', reject);
      req.end(body);
    });
  const read = (session: string) =>
    post(preToolUse(session, 'Read', { file_path: join(ROOT, 'README.md') }, ++n));

  beforeAll(async () => {
    http.port = await freePort();
    d = await TestDaemon.start({}, ['--no-dashboard'], (home) =>
      writeFileSync(join(home, 'hook-http.json'), JSON.stringify(http), { mode: 0o600 }),
    );
    admin = await d.admin();
  });
  afterAll(async () => {
    admin?.close();
    await d.stop();
  });

  it('allows a read in the project, recorded in its session like a socket client', async () => {
    const r = await read('in-process-read');
    expect(r.status).toBe(200);
    expect(r.answer.hookSpecificOutput?.permissionDecision).toBe('allow');
    const { sessions } = await admin.call('sessions.list', { agent: 'claude-code' });
    expect(sessions.some((s) => s.sessionKey === 'in-process-read')).toBe(true);
    // These POSTs carry no X-Gatehouse-Cdpath, as an install from before it: said once.
    await read('in-process-read');
    expect(d.output.match(/predate the X-Gatehouse-Cdpath, /g)).toHaveLength(1);
  });

  it('a push waits for a person and is answered by the decision', async () => {
    const answered = post(
      preToolUse('in-process-push', 'Bash', { command: 'git push origin main' }, ++n),
    );
    const pending = await waitForPending(admin, (r) => r.description.includes('git push'));
    await admin.call('decide', { requestId: pending.requestId, decision: 'deny', reason: 'no' });
    const r = await answered;
    expect(r.answer.hookSpecificOutput?.permissionDecision).toBe('deny');
    expect(r.answer.hookSpecificOutput?.permissionDecisionReason).toContain('no');
  });

  it("a command printing the whole environment asks: Claude Code's may hold a hub token the daemon's lacks", async () => {
    // The person's shell set GATEHOUSE_HUB_TOKEN for Claude Code, not for the daemon: the
    // http hook cannot see Claude Code's environment, so it must not judge by its own.
    const token = 'ghp-hub-token-only-in-claude-code-5e1f';
    const claudeEnv = { PATH: process.env.PATH, GATEHOUSE_HUB_TOKEN: token };
    expect(d.env.GATEHOUSE_HUB_TOKEN).toBeUndefined();
    for (const command of ['env', 'printenv', 'export -p']) {
      const answered = post(preToolUse('in-process-env', 'Bash', { command }, ++n));
      const first = await Promise.race([
        answered.then((r) => ({ answered: r.answer })),
        waitForPending(admin, (r) => r.command === command).then((p) => ({ pending: p })),
      ]);
      if ('answered' in first) {
        // Allowed: Claude Code runs it, in its own environment.
        const printed = spawnSync('bash', ['-c', command], { env: claudeEnv, encoding: 'utf8' });
        expect(printed.stdout.includes(token), `${command} printed the token`).toBe(false);
      } else {
        expect(first.pending, command).toMatchObject({
          rule: 'protected:gatehouse_secret',
          risk: 'critical',
          ruleReason: expect.stringMatching(/may hold GATEHOUSE_HUB_TOKEN/),
        });
        await admin.call('decide', { requestId: first.pending.requestId, decision: 'deny' });
        expect((await answered).answer.hookSpecificOutput?.permissionDecision).toBe('deny');
      }
    }
    // Everything else is judged as before: a read of one ordinary variable runs.
    const home = await post(preToolUse('in-process-env', 'Bash', { command: 'echo $HOME' }, ++n));
    expect(home.answer.hookSpecificOutput?.permissionDecision).toBe('allow');
  });

  it("`cd name` follows Claude Code's CDPATH, which its http hook sends, not the daemon's", async () => {
    // Claude Code's Bash honours the CDPATH of its environment (checked with the real CLI in
    // claude-code-http-hook.test.ts); the daemon here has none. With the folder above
    // Gatehouse's home on it, `cd home && cat admin.token` reads the admin token, which
    // approves anything; judged from the daemon's environment it is a read of the project.
    const project = mkdtempSync(join(tmpdir(), 'gatehouse-http-cdpath-'));
    const cdpath = dirname(d.home);
    const adminToken = readFileSync(join(d.home, 'admin.token'), 'utf8').trim();
    expect(d.env.CDPATH).toBeUndefined();
    try {
      const command = 'cd home && cat admin.token';
      const answered = post(preToolUse('in-process-cdpath', 'Bash', { command }, ++n, project), {
        'X-Gatehouse-Cdpath': cdpath,
      });
      const first = await Promise.race([
        answered.then((r) => ({ answered: r.answer })),
        waitForPending(admin, (r) => r.command === command).then((p) => ({ pending: p })),
      ]);
      if ('answered' in first) {
        // Allowed: Claude Code runs it, in its own environment.
        const printed =
          first.answered.hookSpecificOutput?.permissionDecision === 'allow'
            ? spawnSync('bash', ['-c', command], {
                cwd: project,
                env: { PATH: process.env.PATH, CDPATH: cdpath },
                encoding: 'utf8',
              }).stdout
            : '';
        expect(printed.includes(adminToken), 'the admin token was printed').toBe(false);
      } else {
        expect(first.pending).toMatchObject({ rule: 'protected:gatehouse', risk: 'critical' });
        await admin.call('decide', { requestId: first.pending.requestId, decision: 'deny' });
        expect((await answered).answer.hookSpecificOutput?.permissionDecision).toBe('deny');
      }
      // An empty header is Claude Code's way of saying CDPATH is unset: ./notes, in the project.
      mkdirSync(join(project, 'notes'));
      const local = await post(
        preToolUse('in-process-cdpath', 'Bash', { command: 'cd notes && ls' }, ++n, project),
        { 'X-Gatehouse-Cdpath': '' },
      );
      expect(local.answer.hookSpecificOutput?.permissionDecision).toBe('allow');
    } finally {
      rmSync(project, { recursive: true, force: true });
    }
  });

  it.each([
    ['settings.json', 'CLAUDE_CONFIG_DIR', '{"hooks":{"PreToolUse":[]}}\n', 's/PreToolUse/Unused/'],
    // Its global config lives in the moved folder too: the MCP servers there are started.
    ['.claude.json', 'CLAUDE_CONFIG_DIR', '{"mcpServers":{}}\n', 's/{}/{"x":{"command":"sh"}}/'],
    // What bash runs ahead of each of its commands.
    ['env.sh', 'BASH_ENV', 'export EDITOR=vi\n', '$a ls() { id; }'],
    // A program in a folder on its PATH: its next `git status` would run the agent's lines.
    ['git', 'PATH', '#!/bin/sh\nexec /usr/bin/git "$@"\n', '1a touch pwned'],
  ])(
    "Claude Code's %s, where its %s says, is protected, as its http hook sends it",
    async (name, variable, content, script) => {
      // The person's environment names the file (a moved config folder, BASH_ENV); a broad
      // rule of theirs allows edits.
      const root = mkdtempSync(join(tmpdir(), 'gatehouse-http-config-dir-'));
      const configDir = join(root, 'claude-config');
      mkdirSync(configDir);
      const file = join(configDir, name);
      writeFileSync(file, content);
      const { rule } = await admin.call('rules.add', { action: 'edit_file', tier: 'auto' });
      try {
        const command = `sed -i '${script}' ${file}`;
        const answered = post(preToolUse('in-process-config-dir', 'Bash', { command }, ++n, root), {
          'X-Gatehouse-Cdpath': '',
          'X-Gatehouse-Claude-Config-Dir': variable === 'CLAUDE_CONFIG_DIR' ? configDir : '',
          'X-Gatehouse-Xdg-Config-Home': '',
          'X-Gatehouse-Bash-Env': variable === 'BASH_ENV' ? file : '',
          'X-Gatehouse-Path': variable === 'PATH' ? `${configDir}:/usr/bin:/bin` : '',
        });
        const first = await Promise.race([
          answered.then((r) => ({ answered: r.answer })),
          waitForPending(admin, (r) => r.command === command).then((p) => ({ pending: p })),
        ]);
        if ('answered' in first) {
          // Allowed: Claude Code runs it.
          if (first.answered.hookSpecificOutput?.permissionDecision === 'allow')
            spawnSync('bash', ['-c', command], { env: { PATH: process.env.PATH } });
        } else {
          expect(first.pending).toMatchObject({
            rule:
              variable === 'BASH_ENV' || variable === 'PATH'
                ? 'protected:startup_config'
                : 'protected:change_gatehouse_policy',
            risk: 'critical',
          });
          await admin.call('decide', { requestId: first.pending.requestId, decision: 'deny' });
          expect((await answered).answer.hookSpecificOutput?.permissionDecision).toBe('deny');
        }
        expect(readFileSync(file, 'utf8'), `Claude Code's ${name} was edited`).toBe(content);
      } finally {
        await admin.call('rules.remove', { ruleId: rule.ruleId });
        rmSync(root, { recursive: true, force: true });
      }
    },
  );

  it('a paused agent is stopped, as over the socket', async () => {
    await admin.call('pause', { agent: 'claude-code', reason: 'lunch' });
    try {
      const r = await read('in-process-paused');
      expect(r.answer.continue).toBe(false);
      expect(r.answer.stopReason).toContain('AGENT_PAUSED');
      expect(r.answer.hookSpecificOutput?.permissionDecision).toBe('deny');
    } finally {
      await admin.call('resume', { agent: 'claude-code' });
    }
  });

  it('answers without the daemon socket: the socket file gone, the http hook still decides', async () => {
    unlinkSync(d.socketPath);
    const r = await read('in-process-no-socket');
    expect(r.status).toBe(200);
    expect(r.answer.hookSpecificOutput?.permissionDecision).toBe('allow');
  });
});
