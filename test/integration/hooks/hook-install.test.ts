import { spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CLI, runCli } from '../../support/daemon';

/** What installs run: the relay's own file beside the CLI (hook-command.ts). */
const RELAY = realpathSync(join(dirname(CLI), '..', 'hook', 'gatehouse-hook.cjs'));

/** What a real project's `.claude/settings.json` tends to hold. */
const EXISTING = {
  permissions: { allow: ['Bash(npm test:*)'], deny: ['Read(./.env)'] },
  hooks: {
    PostToolUse: [
      {
        matcher: 'Write|Edit',
        hooks: [{ type: 'command', command: 'npx prettier --write "$FILE"' }],
      },
    ],
    Stop: [{ hooks: [{ type: 'command', command: 'notify-send done' }] }],
  },
  statusLine: { type: 'command', command: 'echo hi' },
};

describe('gatehouse hook claude-code --install / --uninstall (real CLI, real files)', () => {
  let dir: string;
  let env: NodeJS.ProcessEnv;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'gatehouse-hook-install-'));
    env = { ...process.env, HOME: join(dir, 'home') };
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it("merges into a project's existing settings, idempotently, and removes exactly its entries", async () => {
    const project = join(dir, 'project');
    const file = join(project, '.claude', 'settings.json');
    mkdirSync(join(project, '.claude'), { recursive: true });
    const original = `${JSON.stringify(EXISTING, null, 2)}\n`;
    writeFileSync(file, original);

    const first = await runCli(env, ['hook', 'claude-code', '--install', '--project', project]);
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(
      /Installed Gatehouse hooks \(PreToolUse, Notification, Stop, SessionEnd\)/,
    );
    const installed = JSON.parse(readFileSync(file, 'utf8'));
    // The person's permissions stay; Gatehouse's deny rules for its own files come after them
    // (the sandbox settings: hook-sandbox.test.ts).
    expect(installed.permissions.allow).toEqual(EXISTING.permissions.allow);
    expect(installed.permissions.deny[0]).toEqual(EXISTING.permissions.deny[0]);
    expect(installed.statusLine).toEqual(EXISTING.statusLine);
    expect(installed.hooks.PostToolUse).toEqual(EXISTING.hooks.PostToolUse);
    const gate = installed.hooks.PreToolUse[0];
    expect(gate.matcher).toBe('*');
    expect(gate.hooks[0].command).toBe(
      `NODE_EXTRA_CA_CERTS= NODE_OPTIONS= ${process.execPath} ${RELAY} hook claude-code`,
    );
    expect(gate.hooks[0].timeout).toBe(60);
    expect(installed.hooks.Stop).toHaveLength(2);

    const second = await runCli(env, ['hook', 'claude-code', '--install', '--project', project]);
    expect(second.stdout).toMatch(/already installed/);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual(installed);

    const removed = await runCli(env, ['hook', 'claude-code', '--uninstall', '--project', project]);
    expect(removed.code).toBe(0);
    expect(removed.stdout).toMatch(/Removed 4 Gatehouse hook entries/);
    expect(readFileSync(file, 'utf8')).toBe(original);
  });

  it("writes the user's ~/.claude/settings.json when there is none, and the installed command really runs", async () => {
    const r = await runCli({ ...env, GATEHOUSE_HOOK_WAIT_MS: '90000' }, [
      'hook',
      'claude-code',
      '--install',
      '--permission-request',
    ]);
    expect(r.code).toBe(0);
    const file = join(dir, 'home', '.claude', 'settings.json');
    const settings = JSON.parse(readFileSync(file, 'utf8'));
    expect(Object.keys(settings.hooks).sort()).toEqual([
      'Notification',
      'PermissionRequest',
      'SessionEnd',
      'Stop',
    ]);
    // The timeout follows the wait: 90 s of waiting needs more than Claude Code's default 60 s.
    expect(settings.hooks.PermissionRequest[0].hooks[0].timeout).toBe(100);
    const [clearCerts, clearOptions, node, script, ...args] = (
      settings.hooks.PermissionRequest[0].hooks[0].command as string
    ).split(' ');
    expect([clearCerts, clearOptions, node, script]).toEqual([
      'NODE_EXTRA_CA_CERTS=',
      'NODE_OPTIONS=',
      process.execPath,
      RELAY,
    ]);
    expect(args).toEqual(['hook', 'claude-code']);
    // Run it the way Claude Code does, through a shell (no daemon here: the fallback answers).
    const ran = spawnSync('/bin/sh', ['-c', settings.hooks.PermissionRequest[0].hooks[0].command], {
      input: JSON.stringify({
        session_id: 's',
        hook_event_name: 'PermissionRequest',
        tool_name: 'Bash',
        tool_input: { command: 'ls' },
      }),
      env: { ...env, GATEHOUSE_SOCKET: join(dir, 'no.sock'), GATEHOUSE_HOOK_FALLBACK: 'deny' },
      encoding: 'utf8',
    });
    expect(ran.status).toBe(0);
    expect(JSON.parse(ran.stdout)).toMatchObject({
      hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: { behavior: 'deny' } },
    });

    expect((await runCli(env, ['hook', 'claude-code', '--uninstall'])).code).toBe(0);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({});
  });

  it('refuses to touch a settings file that is not JSON', async () => {
    const project = join(dir, 'broken');
    mkdirSync(join(project, '.claude'), { recursive: true });
    writeFileSync(join(project, '.claude', 'settings.json'), '{ "hooks": ');
    const r = await runCli(env, ['hook', 'claude-code', '--install', '--project', project]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/not valid JSON/);
    expect(readFileSync(join(project, '.claude', 'settings.json'), 'utf8')).toBe('{ "hooks": ');
    expect(existsSync(join(dir, 'home', '.claude'))).toBe(false);
  });
});
