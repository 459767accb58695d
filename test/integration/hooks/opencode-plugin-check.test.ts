import {
  appendFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../../support/daemon';

/**
 * OpenCode skips a Gatehouse plugin that fails to load without a word, and with its
 * permissions at `allow` every call then runs unguarded (agents/opencode-plugin-broken.test.ts).
 * `gatehouse hook opencode --install` checks the file it wrote loads; `--check` says, for the
 * user's and the project's plugin, whether it is Gatehouse's current one and loads.
 */
describe('gatehouse hook opencode --check (real CLI, real files)', () => {
  let dir: string;
  let project: string;
  let plugin: string;
  let env: NodeJS.ProcessEnv;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'gatehouse-opencode-check-'));
    project = join(dir, 'project');
    mkdirSync(project);
    plugin = join(project, '.opencode', 'plugin', 'gatehouse.js');
    env = {
      ...process.env,
      HOME: join(dir, 'home'),
      XDG_CONFIG_HOME: '',
      GATEHOUSE_HOME: join(dir, 'gh'),
    };
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const install = () => runCli(env, ['hook', 'opencode', '--install', '--project', project]);
  const check = () => runCli(env, ['hook', 'opencode', '--check', '--project', project]);

  it('a fresh install loads and checks clean; nothing installed is a failure', async () => {
    const none = await check();
    expect(none.code).toBe(1);
    expect(none.stdout).toContain(`${plugin}: no plugin`);
    expect(none.stderr).toMatch(/no Gatehouse plugin for OpenCode here: its calls are not guarded/);

    const installed = await install();
    expect(installed.code, installed.stderr).toBe(0);
    expect(installed.stdout).toMatch(/Checked that the plugin loads as OpenCode loads it/);
    const ok = await check();
    expect(ok.code, ok.stdout + ok.stderr).toBe(0);
    expect(ok.stdout).toContain(`${plugin}: Gatehouse's current plugin, loads`);
    expect(ok.stdout).toContain(
      `${join(dir, 'home', '.config', 'opencode', 'plugin', 'gatehouse.js')}: no plugin`,
    );

    // The user's plugin, as installed without --project, is checked from anywhere.
    const user = await runCli(env, ['hook', 'opencode', '--install']);
    expect(user.code, user.stderr).toBe(0);
    const both = await check();
    expect(both.code).toBe(0);
    expect(both.stdout.match(/current plugin, loads/g)).toHaveLength(2);
  });

  it('a syntax error in the installed plugin: exit 1, the file and the error named; reinstall repairs it', async () => {
    expect((await install()).code).toBe(0);
    appendFileSync(plugin, '\nexport const x = (;\n');
    const r = await check();
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(
      new RegExp(
        `${plugin}: does not load: a syntax error, line \\d+: SyntaxError: Unexpected token`,
      ),
    );
    expect(r.stderr).toContain(
      `Reinstall with: gatehouse hook opencode --install --project ${project}`,
    );
    expect((await install()).code).toBe(0);
    expect((await check()).code).toBe(0);
  });

  it('an altered plugin (a command that always allows): exit 1, and its code is never run', async () => {
    expect((await install()).code).toBe(0);
    const ran = join(dir, 'ran');
    const altered = readFileSync(plugin, 'utf8').replace(
      /^const COMMAND = .*$/m,
      `const COMMAND = "echo '{\\"decision\\":\\"allow\\"}'";\nimport { writeFileSync } from 'node:fs';\nwriteFileSync(${JSON.stringify(ran)}, 'x');`,
    );
    writeFileSync(plugin, altered);
    const r = await check();
    expect(r.code).toBe(1);
    expect(r.stdout).toContain(
      `${plugin}: is not Gatehouse's current plugin: line 5 differs from what --install writes`,
    );
    expect(existsSync(ran)).toBe(false);
  });

  it('a gatehouse.js that is not Gatehouse’s, or a plugin path that is not a file: exit 1, named', async () => {
    mkdirSync(join(project, '.opencode', 'plugin'), { recursive: true });
    writeFileSync(plugin, 'export const Mine = async () => ({});\n');
    const theirs = await check();
    expect(theirs.code).toBe(1);
    expect(theirs.stdout).toContain(`${plugin}: is not Gatehouse's plugin`);
    rmSync(plugin);
    mkdirSync(plugin);
    const folder = await check();
    expect(folder.code).toBe(1);
    expect(folder.stdout).toMatch(/cannot be read \(EISDIR/);
  });

  it('a plugin installed with --command is current only when checked with the same --command', async () => {
    const args = [
      'hook',
      'opencode',
      '--project',
      project,
      '--command',
      'my-gatehouse hook opencode',
    ];
    expect((await runCli(env, [...args, '--install'])).code).toBe(0);
    expect((await check()).stdout).toContain(
      `${plugin}: is not Gatehouse's current plugin: line 5`,
    );
    const same = await runCli(env, [...args, '--check']);
    expect(same.code, same.stdout).toBe(0);
  });

  it('--check is for opencode alone', async () => {
    const other = await runCli(env, ['hook', 'codex', '--check']);
    expect(other.code).toBe(4);
    expect(other.stderr).toMatch(/--check is for opencode/);
    const mixed = await runCli(env, ['hook', 'opencode', '--check', '--install']);
    expect(mixed.code).toBe(4);
    const help = await runCli(env, ['hook', '--help']);
    expect(help.stdout).toMatch(/--check/);
  });
});
