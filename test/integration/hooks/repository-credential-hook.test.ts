import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdminClient } from '../../../clients/cli/admin-client';
import { preToolUse, runClaudeHook } from '../../support/claude-hook';
import { TestDaemon } from '../../support/daemon';

const TOKEN = 'ghp_GatehouseRepoToken0123456789';

/**
 * A repository cloned with a token in its URL (`git clone https://user:TOKEN@github.com/…`,
 * the way CI jobs and unattended machines give git one) keeps the token in `.git/config`:
 * `git remote -v`, `git config --get remote.origin.url`, `cat .git/config` and a recursive
 * search of the project (which reads `.git/config`) print it. Real hook processes against a
 * real daemon; each command is first run by bash (it prints the token), then asked of the
 * hook: it asks, and the fallback denies it. With a URL holding only a user name (as
 * Bitbucket's clone URLs do) the same commands go ahead. So for a project's `.npmrc` and
 * `.yarnrc.yml` with a registry token written in them.
 */
describe("a token in the repository's own git config (real hook, real daemon)", () => {
  let d: TestDaemon;
  let admin: AdminClient;
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'gatehouse-repo-credential-')));
  const home = join(dir, 'home');
  const project = join(dir, 'app');
  const shellEnv = { ...process.env, HOME: home, GIT_CONFIG_NOSYSTEM: '1' };
  const bash = (command: string) => {
    const ran = spawnSync('bash', ['-c', command], {
      cwd: project,
      env: shellEnv,
      encoding: 'utf8',
    });
    return ran.stdout + ran.stderr;
  };
  const git = (...args: string[]) =>
    execFileSync('git', args, { cwd: project, env: shellEnv, encoding: 'utf8' });
  let n = 0;
  const hook = async (command: string, cwd = project) =>
    (
      await runClaudeHook(
        { ...d.env, GATEHOUSE_HOOK_WAIT_MS: '100', GATEHOUSE_HOOK_FALLBACK: 'deny' },
        preToolUse('Bash', { command }, { cwd, session: 'repo-credential', id: `toolu_${n++}` }),
      )
    ).decision;

  beforeAll(async () => {
    mkdirSync(home);
    mkdirSync(join(project, 'src'), { recursive: true });
    writeFileSync(join(project, 'src/a.ts'), 'export const a = 1;\n');
    git('init', '-q', '-b', 'main');
    git('remote', 'add', 'origin', `https://user:${TOKEN}@github.com/org/app.git`);
    d = await TestDaemon.start({ HOME: home }, ['--no-dashboard']);
    admin = await d.admin();
  });
  afterAll(async () => {
    admin?.close();
    await d?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  const leaking = [
    'git remote -v',
    'git remote get-url origin',
    'git config --get remote.origin.url',
    'git config --local -l',
    'cat .git/config',
    'grep -rn ghp_ .',
  ];

  it.each(leaking)('%s prints the token, and asks', async (command) => {
    expect(bash(command)).toContain(TOKEN);
    expect(await hook(command)).toBe('deny');
    const { requests } = await admin.call('requests.query', {});
    expect(requests.find((r) => r.command === command)).toMatchObject({
      rule: 'default:secret_path',
    });
  });

  it('asks from a folder inside the repository too', async () => {
    expect(await hook('git remote -v', join(project, 'src'))).toBe('deny');
  });

  it('lets the reads that print no token go ahead', async () => {
    for (const command of [
      'git remote',
      'git config --get user.name',
      'grep -rn ghp_ src',
      'git status',
    ]) {
      expect(await hook(command), command).toBe('allow');
      expect(bash(command), command).not.toContain(TOKEN);
    }
  });

  it('with a user name alone in the URL, the same commands go ahead', async () => {
    git('remote', 'set-url', 'origin', 'https://dev@bitbucket.org/org/app.git');
    // The daemon reads the repository's config again after a second.
    await new Promise((r) => setTimeout(r, 1100));
    for (const command of leaking) {
      expect(await hook(command), command).toBe('allow');
      expect(bash(command), command).not.toContain(TOKEN);
    }
  });

  it("a project's .npmrc or .yarnrc.yml with a registry token written in it is a secret; one that reads it from the environment is not", async () => {
    const npm = join(project, '.npmrc');
    const yarn = join(project, '.yarnrc.yml');
    writeFileSync(npm, `//registry.npmjs.org/:_authToken=${TOKEN}\n`);
    writeFileSync(yarn, `npmAuthToken: ${TOKEN}\n`);
    // The daemon keeps what it found under a folder for a second.
    await new Promise((r) => setTimeout(r, 1100));
    try {
      for (const command of ['cat .npmrc', 'cat .yarnrc.yml', 'grep -rn authToken .']) {
        expect(bash(command), command).toContain(TOKEN);
        expect(await hook(command), command).toBe('deny');
      }
      writeFileSync(npm, '//registry.npmjs.org/:_authToken=${NPM_TOKEN}\nengine-strict=true\n');
      writeFileSync(yarn, 'npmAuthToken: "${NPM_TOKEN}"\n');
      await new Promise((r) => setTimeout(r, 1100));
      for (const command of ['cat .npmrc', 'cat .yarnrc.yml']) {
        expect(await hook(command), command).toBe('allow');
        expect(bash(command), command).not.toContain(TOKEN);
      }
    } finally {
      rmSync(npm, { force: true });
      rmSync(yarn, { force: true });
    }
  });
});
