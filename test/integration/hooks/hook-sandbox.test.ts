import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CLI, runCli } from '../../support/daemon';

/** The built program's folder, whose relay the installed hook command runs. */
const DIST = realpathSync(join(dirname(CLI), '..'));

/**
 * Defence in depth: `gatehouse hook claude-code --install` also turns on Claude
 * Code's own sandbox with Gatehouse's files denied to its tools and its commands;
 * `--no-sandbox` leaves it alone; `--uninstall` takes exactly those entries out again.
 */
describe('gatehouse hook claude-code --install: the sandbox settings (real CLI, real files)', () => {
  let dir: string;
  let env: NodeJS.ProcessEnv;
  let gatehouseHome: string;
  let file: string;
  beforeEach(() => {
    dir = realpathSync(mkdtempSync(join(tmpdir(), 'gatehouse-sandbox-')));
    gatehouseHome = join(dir, 'gh');
    env = {
      ...process.env,
      HOME: join(dir, 'home'),
      GATEHOUSE_HOME: gatehouseHome,
      GATEHOUSE_SOCKET: join(dir, 'run', 'gatehouse', 'agent.sock'),
      XDG_CONFIG_HOME: join(dir, 'home', '.config'),
    };
    file = join(dir, 'home', '.claude', 'settings.json');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  /** The fields of the settings file these tests read. */
  interface Settings {
    sandbox?: { enabled?: boolean; network?: unknown; filesystem?: unknown };
    permissions?: { deny: string[] };
    hooks: { PreToolUse: unknown[] };
  }
  const settings = () => JSON.parse(readFileSync(file, 'utf8')) as Settings;

  it("turns the sandbox on with Gatehouse's files unreadable and unwritable, idempotently", async () => {
    const r = await runCli(env, ['hook', 'claude-code', '--install']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/Turned on Claude Code's sandbox/);
    expect(r.stdout).toMatch(/bubblewrap/);
    const s = settings();
    const config = join(dir, 'home', '.config', 'gatehouse');
    const socketDir = join(dir, 'run', 'gatehouse');
    expect(s.sandbox).toEqual({
      enabled: true,
      filesystem: {
        denyRead: [gatehouseHome, config, socketDir],
        denyWrite: [gatehouseHome, config, socketDir, DIST],
      },
    });
    expect(s.permissions?.deny).toEqual([
      `Read(/${gatehouseHome}/**)`,
      `Read(/${config}/**)`,
      `Read(/${socketDir}/**)`,
      `Edit(/${gatehouseHome}/**)`,
      `Edit(/${config}/**)`,
      `Edit(/${socketDir}/**)`,
      `Edit(/${DIST}/**)`,
    ]);
    const again = await runCli(env, ['hook', 'claude-code', '--install']);
    expect(again.stdout).toMatch(/sandbox settings for Gatehouse already in/);
    expect(settings()).toEqual(s);
  });

  it('keeps what the person set, and --uninstall takes out exactly what it added', async () => {
    mkdirSync(dirname(file), { recursive: true });
    const mine = {
      permissions: { deny: ['Read(./.env)'] },
      sandbox: { enabled: true, network: { allowedDomains: ['registry.npmjs.org'] } },
    };
    const original = `${JSON.stringify(mine, null, 2)}\n`;
    writeFileSync(file, original);
    expect((await runCli(env, ['hook', 'claude-code', '--install'])).code).toBe(0);
    const s = settings();
    expect(s.sandbox?.network).toEqual(mine.sandbox.network);
    expect(s.permissions?.deny[0]).toBe('Read(./.env)');
    const removed = await runCli(env, ['hook', 'claude-code', '--uninstall']);
    expect(removed.code).toBe(0);
    expect(removed.stdout).toMatch(/Removed Gatehouse's 14 sandbox and permission entries/);
    expect(readFileSync(file, 'utf8')).toBe(original);
  });

  it('a sandbox the person turned off stays off, and the install says what that means', async () => {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, JSON.stringify({ sandbox: { enabled: false } }));
    const r = await runCli(env, ['hook', 'claude-code', '--install']);
    expect(r.stdout).toMatch(/sandbox\.enabled: false/);
    expect(settings().sandbox?.enabled).toBe(false);
  });

  it('--no-sandbox writes the hooks only', async () => {
    const r = await runCli(env, ['hook', 'claude-code', '--install', '--no-sandbox']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).not.toMatch(/Claude Code's sandbox/);
    const s = settings();
    expect(s.sandbox).toBeUndefined();
    expect(s.permissions).toBeUndefined();
    expect(s.hooks.PreToolUse).toHaveLength(1);
  });
});
