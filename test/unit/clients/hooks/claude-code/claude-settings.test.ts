import { describe, expect, it } from 'vitest';
import {
  installHooks,
  isGatehouseHookCommand,
  uninstallHooks,
  type JsonObject,
} from '../../../../../clients/hooks/claude-code/claude-settings';

const command = '/usr/bin/node /opt/gatehouse/dist/cli/gatehouse.js hook claude-code';
const options = { command, timeoutSec: 60, gateEvent: 'PreToolUse' as const };

/** A settings file as people have them: permissions, env, and hooks of their own. */
const existing = (): JsonObject => ({
  model: 'opus',
  permissions: { allow: ['Bash(npm test:*)'], deny: [] },
  env: { FOO: '1' },
  hooks: {
    PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'my-linter --check' }] }],
    Stop: [{ hooks: [{ type: 'command', command: 'say done' }] }],
  },
});

describe('installHooks / uninstallHooks', () => {
  it('adds the gate and the recorded events next to what is there', () => {
    const { settings, changed } = installHooks(existing(), options);
    expect(changed).toBe(true);
    expect(settings.model).toBe('opus');
    expect(settings.permissions).toEqual(existing().permissions);
    const hooks = settings.hooks as Record<string, unknown[]>;
    expect(hooks.PreToolUse).toEqual([
      { matcher: 'Bash', hooks: [{ type: 'command', command: 'my-linter --check' }] },
      { matcher: '*', hooks: [{ type: 'command', command, timeout: 60 }] },
    ]);
    expect(hooks.Stop).toEqual([
      { hooks: [{ type: 'command', command: 'say done' }] },
      { hooks: [{ type: 'command', command, timeout: 10 }] },
    ]);
    expect(hooks.Notification).toEqual([{ hooks: [{ type: 'command', command, timeout: 10 }] }]);
    expect(hooks.SessionEnd).toEqual([{ hooks: [{ type: 'command', command, timeout: 10 }] }]);
    expect(hooks.PermissionRequest).toBeUndefined();
  });

  it('is idempotent, and updates its own entries in place', () => {
    const once = installHooks(existing(), options).settings;
    const twice = installHooks(once, options);
    expect(twice.changed).toBe(false);
    expect(twice.settings).toEqual(once);
    const moved = installHooks(once, {
      ...options,
      command: 'gatehouse hook claude-code',
      timeoutSec: 120,
    }).settings;
    const gate = (
      moved.hooks as Record<string, { hooks: { command: string; timeout: number }[] }[]>
    ).PreToolUse!;
    expect(gate).toHaveLength(2);
    expect(gate[1]!.hooks[0]).toEqual({
      type: 'command',
      command: 'gatehouse hook claude-code',
      timeout: 120,
    });
  });

  it('switches the gate between PreToolUse and PermissionRequest without gating twice', () => {
    const pre = installHooks(existing(), options).settings;
    const perm = installHooks(pre, { ...options, gateEvent: 'PermissionRequest' }).settings;
    const hooks = perm.hooks as Record<string, unknown[]>;
    expect(hooks.PreToolUse).toEqual(
      existing().hooks && (existing().hooks as Record<string, unknown>).PreToolUse,
    );
    expect(hooks.PermissionRequest).toEqual([
      { matcher: '*', hooks: [{ type: 'command', command, timeout: 60 }] },
    ]);
  });

  it('uninstall removes exactly what install added', () => {
    const before = existing();
    const installed = installHooks(before, options).settings;
    const { settings, removed } = uninstallHooks(installed);
    expect(removed).toBe(4);
    expect(settings).toEqual(before);
  });

  it('uninstall from a file that had no hooks leaves no hooks key, and touches nothing else', () => {
    const plain = { theme: 'dark' };
    const { settings } = uninstallHooks(installHooks(plain, options).settings);
    expect(settings).toEqual(plain);
    expect(uninstallHooks(plain)).toEqual({ settings: plain, removed: 0 });
  });

  it('refuses settings whose hooks are not the documented shape', () => {
    expect(() => installHooks({ hooks: [] }, options)).toThrow(/not an object/);
    expect(() => installHooks({ hooks: { Stop: {} } }, options)).toThrow(/not an array/);
  });

  it('recognises its command however it is spelled, and nothing else', () => {
    expect(isGatehouseHookCommand('gatehouse hook claude-code')).toBe(true);
    expect(
      isGatehouseHookCommand('"/usr/bin/node" "/a b/dist/cli/gatehouse.js" hook claude-code'),
    ).toBe(true);
    expect(isGatehouseHookCommand('npx gatehouse hook claude-code --x')).toBe(true);
    // The relay's own file, as installs write it now (hook-command.ts).
    expect(
      isGatehouseHookCommand(
        'NODE_EXTRA_CA_CERTS= /usr/bin/node /opt/g/dist/hook/gatehouse-hook.cjs hook claude-code',
      ),
    ).toBe(true);
    expect(isGatehouseHookCommand('node /opt/g/dist/hook/gatehouse-hook.cjs hook codex')).toBe(
      false,
    );
    expect(isGatehouseHookCommand('my-gatehouse-wrapper hook claude-codex')).toBe(false);
    expect(isGatehouseHookCommand('echo hook claude-code')).toBe(false);
  });
});
