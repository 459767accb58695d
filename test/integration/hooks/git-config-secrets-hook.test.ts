import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdminClient } from '../../../clients/cli/admin-client';
import { preToolUse, runClaudeHook } from '../../support/claude-hook';
import { TestDaemon } from '../../support/daemon';

const TOKEN = 'ghp_GatehouseTestToken0123456789';

/** A person's git config that gives git a token: a header for GitHub, a URL rewrite, an alias. */
const WITH_TOKEN = `[user]
\tname = Dev
\temail = dev@example.com
[http "https://github.com/"]
\textraHeader = AUTHORIZATION: bearer ${TOKEN}
[url "https://${TOKEN}@github.com/"]
\tinsteadOf = https://github.com/
[alias]
\tdeploy = !curl -H 'Authorization: token ${TOKEN}' https://deploy.example
`;

/** The same person's config with an ssh rewrite instead: a login, no secret. */
const WITHOUT_TOKEN = `[user]
\tname = Dev
\temail = dev@example.com
[url "git@github.com:"]
\tinsteadOf = https://github.com/
`;

/**
 * The person's git config holds tokens (`http.<url>.extraHeader`, a `url.<base>.insteadOf`
 * with the token in its base, both common ways to give git one; an alias that carries one).
 * `git config --global -l` prints the file, `git remote -v` prints the project's remote
 * rewritten, token and all, and `git help -a` the aliases.
 * Real hook processes against a real daemon whose HOME holds that `.gitconfig`; each command
 * is first run by bash with the same HOME (it prints the token), then asked of the hook: the
 * leaking ones ask (and are denied by the fallback), the everyday reads go ahead.
 */
describe("the person's git config tokens (real hook, real daemon)", () => {
  let d: TestDaemon;
  let admin: AdminClient;
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'gatehouse-git-secrets-')));
  const home = join(dir, 'home');
  const project = join(home, 'code/app');
  const shellEnv = {
    ...process.env,
    HOME: home,
    XDG_CONFIG_HOME: join(home, '.config'),
    GIT_CONFIG_NOSYSTEM: '1',
  };
  const bash = (command: string) => {
    const ran = spawnSync('bash', ['-c', command], {
      cwd: project,
      env: shellEnv,
      encoding: 'utf8',
    });
    return ran.stdout + ran.stderr;
  };
  const hook = async (command: string, id: string) =>
    (
      await runClaudeHook(
        { ...d.env, GATEHOUSE_HOOK_WAIT_MS: '100', GATEHOUSE_HOOK_FALLBACK: 'deny' },
        preToolUse('Bash', { command }, { cwd: project, session: 'git-secrets', id }),
      )
    ).decision;

  beforeAll(async () => {
    mkdirSync(project, { recursive: true });
    writeFileSync(join(home, '.gitconfig'), WITH_TOKEN);
    execFileSync('git', ['init', '-q', '-b', 'main', project], { env: shellEnv });
    execFileSync('git', ['remote', 'add', 'origin', 'https://github.com/org/app.git'], {
      cwd: project,
      env: shellEnv,
    });
    d = await TestDaemon.start({ HOME: home, XDG_CONFIG_HOME: join(home, '.config') }, [
      '--no-dashboard',
    ]);
    admin = await d.admin();
  });
  afterAll(async () => {
    admin?.close();
    await d?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it.each([
    ['git config --global -l', 'default:outside_project'],
    ['git config --list', 'default:outside_project'],
    ['git config --get-regexp http', 'default:outside_project'],
    ['git config --get http.https://github.com/.extraheader', 'default:outside_project'],
    ['git remote -v', 'default:secret_path'],
    ['git remote get-url origin', 'default:secret_path'],
    ['git help -a', 'default:outside_project'],
    ['git help deploy', 'default:outside_project'],
  ])('%s prints the token, and asks', async (command, rule) => {
    expect(bash(command)).toContain(TOKEN);
    expect(await hook(command, `toolu_${command.replace(/\W+/g, '_')}`)).toBe('deny');
    const { requests } = await admin.call('requests.query', {});
    expect(requests.find((r) => r.command === command)).toMatchObject({ rule });
  });

  it("lets git help on git's own commands go ahead: no alias is printed", async () => {
    for (const command of ['git help push', 'git help -g'])
      expect(await hook(command, 'toolu_help'), command).toBe('allow');
  });

  it('lets the everyday reads of git config go ahead: they print no token', async () => {
    for (const command of [
      'git config --get user.name',
      'git config user.email --get',
      'git config --local -l',
      'git config --get remote.origin.url',
      'git remote',
    ]) {
      expect(await hook(command, 'toolu_plain'), command).toBe('allow');
      expect(bash(command), command).not.toContain(TOKEN);
    }
  });

  it('lets `git remote -v` go ahead once the rewrite holds no credential', async () => {
    writeFileSync(join(home, '.gitconfig'), WITHOUT_TOKEN);
    // The daemon reads the person's config again after a second.
    await new Promise((r) => setTimeout(r, 1100));
    try {
      expect(bash('git remote -v')).toContain('git@github.com:org/app.git');
      expect(await hook('git remote -v', 'toolu_remote_plain')).toBe('allow');
    } finally {
      writeFileSync(join(home, '.gitconfig'), WITH_TOKEN);
    }
  });
});
