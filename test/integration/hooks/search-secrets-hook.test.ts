import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callDenyingAsks } from '../../support/claude-hook';
import { hookDaemonPerDescribe } from '../../support/hook-daemon';

const SECRET = 'sk_live_GatehouseTestKey0123456789';

/**
 * `cat .env` asks (a secret), and so must a search that walks the project and prints the
 * lines of `.env` it matches: `grep -rn API_KEY .` is an everyday command that puts the key
 * in the agent's context. So must git printing a committed `.env` from the repository. Real hook processes against a real daemon; a call that asks is
 * denied, one allowed is performed by bash, and what it printed is checked.
 */
describe('a search through a folder that holds a secret (real hook, real daemon)', () => {
  const hook = hookDaemonPerDescribe('search-secrets');
  const project = realpathSync(mkdtempSync(join(tmpdir(), 'gatehouse-search-secrets-')));

  beforeAll(() => {
    mkdirSync(join(project, 'src'));
    writeFileSync(join(project, '.env'), `STRIPE_API_KEY=${SECRET}\n`);
    writeFileSync(join(project, 'src/pay.ts'), 'const key = process.env.STRIPE_API_KEY;\n');
  });
  afterAll(() => rmSync(project, { recursive: true, force: true }));

  const run = (command: string) => hook.bashIn(project)(command);

  // rg's -L is --follow (grep's names files without a match): it prints lines.
  it.each(['grep -rn API_KEY .', 'grep -r API_KEY', 'egrep -R STRIPE .', 'rg -L --hidden KEY .'])(
    '%s prints the key when run, and asks',
    async (command) => {
      // Calibration: bash runs it and it prints the key.
      expect(
        spawnSync('bash', ['-c', command], { cwd: project, encoding: 'utf8' }).stdout,
      ).toContain(SECRET);
      const r = await run(command);
      expect(r.decision).toBe('deny');
      expect(r.asked).toMatchObject({ rule: 'default:secret_path', risk: 'high' });
      expect(r.asked?.ruleReason).toContain(join(project, '.env'));
    },
  );

  it('rg: --iglob of another case reads .env and asks; in a repository whose .gitignore keeps .env out, rg --hidden goes ahead and -uu asks', async () => {
    const bash = (command: string) =>
      spawnSync('bash', ['-c', command], { cwd: project, encoding: 'utf8' }).stdout;
    const caseless = "rg --hidden --iglob '*.ENV' API_KEY .";
    expect(bash(caseless)).toContain(SECRET);
    expect(await run(caseless)).toMatchObject({ decision: 'deny', printed: '' });
    const repo = join(project, 'app');
    mkdirSync(join(repo, '.git'), { recursive: true });
    writeFileSync(join(repo, '.env'), `API_KEY=${SECRET}\n`);
    writeFileSync(join(repo, 'main.ts'), 'process.env.API_KEY\n');
    writeFileSync(join(repo, '.gitignore'), '.env\n');
    try {
      const kept = await run('rg --hidden API_KEY app');
      expect(kept.decision).toBe('allow');
      expect(kept.printed).toContain('main.ts');
      expect(kept.printed).not.toContain(SECRET);
      expect(bash('rg -uu API_KEY app')).toContain(SECRET);
      expect((await run('rg -uu API_KEY app')).decision).toBe('deny');
      // .gitignore no longer names it: rg --hidden prints it, and asks.
      writeFileSync(join(repo, '.gitignore'), 'dist/\n');
      expect(bash('rg --hidden API_KEY app')).toContain(SECRET);
      expect((await run('rg --hidden API_KEY app')).decision).toBe('deny');
    } finally {
      rmSync(repo, { recursive: true, force: true });
    }
  });

  it('asks before git prints a committed secret from the repository (git show HEAD:.env), as cat .env does', async () => {
    const git = (...args: string[]) => spawnSync('git', args, { cwd: project, encoding: 'utf8' });
    git('init', '-q');
    git('add', '-f', '.env', 'src/pay.ts');
    git('-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-qm', 'committed by mistake');
    for (const command of ['git show HEAD:.env', 'git cat-file -p HEAD:.env', 'git show :.env']) {
      expect(git(...command.split(' ').slice(1)).stdout, command).toContain(SECRET);
      const r = await run(command);
      expect(r.decision, command).toBe('deny');
      expect(r.asked, command).toMatchObject({ rule: 'default:secret_path' });
    }
    const other = await run('git show HEAD:src/pay.ts');
    expect(other.decision).toBe('allow');
    expect(other.printed).toContain('STRIPE_API_KEY');
  });

  it('lets the searches that do not read it go ahead: a file type, names only, a folder without one', async () => {
    for (const command of [
      'grep -rn --include=*.ts API_KEY .',
      'grep -rl API_KEY .',
      'grep -rn API_KEY src',
    ]) {
      const r = await run(command);
      expect(r.decision, command).toBe('allow');
      expect(r.printed, command).toContain(
        command.includes('-rl') ? 'src/pay.ts' : 'STRIPE_API_KEY',
      );
      expect(r.printed, command).not.toContain(SECRET);
    }
  });

  it('a line that rewrites .gitignore before rg --hidden runs asks, even where a rule lets writes through', async () => {
    await hook.allowWrites();
    const repo = join(project, 'app2');
    mkdirSync(join(repo, '.git'), { recursive: true });
    writeFileSync(join(repo, '.env'), `API_KEY=${SECRET}\n`);
    writeFileSync(join(repo, '.gitignore'), '.env\n');
    const command = "printf 'dist/\\n' > app2/.gitignore && rg --hidden API_KEY app2";
    try {
      // The write alone goes ahead (the rule), and so does the search while .gitignore holds .env.
      expect((await run("printf '.env\\n' > app2/.gitignore")).decision).toBe('allow');
      expect((await run('rg --hidden API_KEY app2')).decision).toBe('allow');
      const r = await run(command);
      expect(r).toMatchObject({ decision: 'deny', printed: '' });
      expect(r.asked).toMatchObject({ rule: 'default:secret_path' });
      // Calibration: run, the line prints the key.
      expect(
        spawnSync('bash', ['-c', command], { cwd: project, encoding: 'utf8' }).stdout,
      ).toContain(SECRET);
    } finally {
      rmSync(repo, { recursive: true, force: true });
    }
  });

  it('a deploy key or a Terraform state kept in the project is read as ~/.ssh/id_rsa is: cat and a search ask, a .pub goes ahead', async () => {
    const keys = join(project, 'deploy');
    mkdirSync(keys, { recursive: true });
    const key = '-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA\n';
    writeFileSync(join(keys, 'id_ed25519'), key);
    writeFileSync(join(keys, 'id_ed25519.pub'), 'ssh-ed25519 AAAAC3Nza deploy\n');
    // Terraform's state holds the secrets of what it manages in clear.
    writeFileSync(
      join(keys, 'terraform.tfstate'),
      '{"resources":[{"password":"b3BlbnNzaC1rZXktdjEAAAAA"}]}\n',
    );
    try {
      for (const command of [
        'cat deploy/id_ed25519',
        'grep -rn -A1 OPENSSH deploy',
        'cat deploy/terraform.tfstate',
      ]) {
        expect(
          spawnSync('bash', ['-c', command], { cwd: project, encoding: 'utf8' }).stdout,
          command,
        ).toContain('b3BlbnNzaC1rZXktdjEAAAAA');
        const r = await run(command);
        expect(r, command).toMatchObject({ decision: 'deny', printed: '' });
        expect(r.asked, command).toMatchObject({ rule: 'default:secret_path' });
      }
      expect(await run('cat deploy/id_ed25519.pub')).toMatchObject({ decision: 'allow' });
    } finally {
      rmSync(keys, { recursive: true, force: true });
    }
  });

  it('git grep --untracked prints an untracked .env .gitignore does not name, and asks; plain git grep reads what is tracked', async () => {
    const repo = join(project, 'app3');
    mkdirSync(repo, { recursive: true });
    const git = (...args: string[]) => spawnSync('git', args, { cwd: repo, encoding: 'utf8' });
    git('init', '-q');
    writeFileSync(join(repo, '.env'), `API_KEY=${SECRET}\n`);
    writeFileSync(join(repo, 'main.ts'), 'process.env.API_KEY\n');
    // git -C: the line's working directory stays the project (whose own .env a walk from
    // there would find: `cd app3 && …` is judged from both folders).
    const inRepo = (command: string) => command.replace(/^git /, 'git -C app3 ');
    try {
      expect(git('grep', '--untracked', 'API_KEY').stdout).toContain(SECRET);
      expect(await run(inRepo('git grep --untracked API_KEY'))).toMatchObject({
        decision: 'deny',
        printed: '',
      });
      const plain = await run(inRepo('git grep API_KEY'));
      expect(plain.decision).toBe('allow');
      expect(plain.printed).not.toContain(SECRET);
      writeFileSync(join(repo, '.gitignore'), '.env\n');
      const kept = await run(inRepo('git grep --untracked API_KEY'));
      expect(kept.decision).toBe('allow');
      expect(kept.printed).toContain('main.ts');
      expect(kept.printed).not.toContain(SECRET);
    } finally {
      rmSync(repo, { recursive: true, force: true });
    }
  });

  it('rg --hidden given a folder .gitignore names reads it all, and asks; from the root it goes ahead', async () => {
    const repo = join(project, 'app4');
    mkdirSync(join(repo, '.git'), { recursive: true });
    mkdirSync(join(repo, 'secret'));
    writeFileSync(join(repo, 'secret/.env.local'), `API_KEY=${SECRET}\n`);
    writeFileSync(join(repo, '.gitignore'), 'secret/\n');
    writeFileSync(join(repo, 'main.ts'), 'process.env.API_KEY\n');
    const bash = (command: string) =>
      spawnSync('bash', ['-c', command], { cwd: project, encoding: 'utf8' }).stdout;
    try {
      expect(bash('rg --hidden API_KEY app4/secret')).toContain(SECRET);
      expect(await run('rg --hidden API_KEY app4/secret')).toMatchObject({
        decision: 'deny',
        printed: '',
      });
      expect(bash('rg --hidden API_KEY app4')).not.toContain(SECRET);
      const root = await run('rg --hidden API_KEY app4');
      expect(root.decision).toBe('allow');
      expect(root.printed).toContain('main.ts');
    } finally {
      rmSync(repo, { recursive: true, force: true });
    }
  });

  it("rg told nothing, and the agents' search tools, print a deploy key under a plain name .gitignore does not name: they ask; named in .gitignore, they go ahead", async () => {
    const repo = join(project, 'app5');
    mkdirSync(join(repo, 'deploy'), { recursive: true });
    const git = (...args: string[]) => spawnSync('git', args, { cwd: repo, encoding: 'utf8' });
    git('init', '-q');
    const key = '-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA\n';
    writeFileSync(join(repo, 'deploy/id_ed25519'), key);
    writeFileSync(
      join(repo, 'deploy/terraform.tfstate'),
      '{"password":"b3BlbnNzaC1rZXktdjEAAAAA"}\n',
    );
    writeFileSync(join(repo, 'main.ts'), 'const b3Bl = 1;\n');
    const bash = (command: string) =>
      spawnSync('bash', ['-c', command], { cwd: project, encoding: 'utf8' }).stdout;
    const commands = [
      'rg -n b3Bl app5',
      'rg -A1 OPENSSH app5/deploy',
      'git -C app5 grep --untracked -n b3Bl',
    ];
    try {
      for (const command of commands) {
        // Calibration: bash runs it and it prints the key.
        expect(bash(command), command).toContain('b3BlbnNzaC1rZXktdjEAAAAA');
        const r = await run(command);
        expect(r, command).toMatchObject({ decision: 'deny', printed: '' });
        expect(r.asked, command).toMatchObject({ rule: 'default:secret_path' });
      }
      // Claude Code's Grep (rg --hidden within .gitignore) in content mode: the same.
      const grep = await callDenyingAsks({
        env: { ...hook.daemon.env, GATEHOUSE_HOOK_WAIT_MS: '10000' },
        admin: hook.admin,
        tool: 'Grep',
        input: { pattern: 'b3Bl', path: repo, output_mode: 'content' },
        cwd: project,
        session: 'search-secrets',
        asked: () => true,
      });
      expect(grep.decision).toBe('deny');
      expect(grep.asked).toMatchObject({ rule: 'default:secret_path' });
      // .gitignore names the folder: rg and git grep --untracked read neither file.
      writeFileSync(join(repo, '.gitignore'), 'deploy/\n');
      for (const command of commands.filter((c) => !c.includes('app5/deploy'))) {
        const r = await run(command);
        expect(r.decision, command).toBe('allow');
        expect(r.printed, command).toContain('main.ts');
        expect(r.printed, command).not.toContain('OPENSSH');
      }
    } finally {
      rmSync(repo, { recursive: true, force: true });
    }
  });

  it('plain git grep prints what the repository tracks: a committed .env or deploy key asks; untracked, it goes ahead', async () => {
    const repo = join(project, 'app6');
    mkdirSync(join(repo, 'deploy'), { recursive: true });
    const git = (...args: string[]) => spawnSync('git', args, { cwd: repo, encoding: 'utf8' });
    git('init', '-q');
    writeFileSync(join(repo, '.env'), `API_KEY=${SECRET}\n`);
    writeFileSync(join(repo, '.gitignore'), '.env\n');
    writeFileSync(join(repo, 'main.ts'), 'process.env.API_KEY\n');
    git('add', 'main.ts', '.gitignore');
    const inRepo = (command: string) => command.replace(/^git /, 'git -C app6 ');
    try {
      const untracked = await run(inRepo('git grep -n API_KEY'));
      expect(untracked.decision).toBe('allow');
      expect(untracked.printed).toContain('main.ts');
      expect(untracked.printed).not.toContain(SECRET);
      // Committed before .gitignore named it (forced here): plain git grep prints it
      // (--untracked walks the working tree within .gitignore, and does not).
      git('add', '-f', '.env');
      expect(git('grep', '-n', 'API_KEY').stdout).toContain(SECRET);
      expect(await run(inRepo('git grep -n API_KEY'))).toMatchObject({
        decision: 'deny',
        printed: '',
      });
      const walked = await run(inRepo('git grep --untracked API_KEY'));
      expect(walked.decision).toBe('allow');
      expect(walked.printed).not.toContain(SECRET);
      git('rm', '-q', '--cached', '.env');
      expect((await run(inRepo('git grep -n API_KEY'))).decision).toBe('allow');
      // A line that stages it first: the index is not read for it.
      const staged = 'git -C app6 add -f .env && git -C app6 grep -n API_KEY';
      expect(await run(staged)).toMatchObject({ decision: 'deny', printed: '' });
    } finally {
      rmSync(repo, { recursive: true, force: true });
    }
  });

  it("a search that follows links (grep -R, rg -L) reads through a link to a folder elsewhere: a .env or Gatehouse's own folder there asks; grep -r does not follow, and goes ahead", async () => {
    const elsewhere = realpathSync(mkdtempSync(join(tmpdir(), 'gatehouse-linked-')));
    writeFileSync(join(elsewhere, '.env'), `API_KEY=${SECRET}\n`);
    writeFileSync(join(elsewhere, 'notes.txt'), 'API_KEY is in .env\n');
    const app = join(project, 'app7');
    mkdirSync(app);
    symlinkSync(elsewhere, join(app, 'shared'));
    const bash = (command: string) =>
      spawnSync('bash', ['-c', command], { cwd: project, encoding: 'utf8' }).stdout;
    try {
      for (const command of ['grep -Rn API_KEY app7', 'rg -L --hidden -n API_KEY app7']) {
        expect(bash(command), command).toContain(SECRET);
        const r = await run(command);
        expect(r, command).toMatchObject({ decision: 'deny', printed: '' });
        expect(r.asked, command).toMatchObject({ rule: 'default:secret_path' });
      }
      const plain = await run('grep -rn API_KEY app7');
      expect(plain.decision).toBe('allow');
      expect(plain.printed).not.toContain(SECRET);
      // A link to Gatehouse's own folder: what is there lets an agent approve itself.
      rmSync(join(app, 'shared'));
      symlinkSync(hook.daemon.home, join(app, 'gh'));
      const own = await run('grep -Rn a app7');
      expect(own).toMatchObject({ decision: 'deny', printed: '' });
    } finally {
      rmSync(app, { recursive: true, force: true });
      rmSync(elsewhere, { recursive: true, force: true });
    }
  });
});
