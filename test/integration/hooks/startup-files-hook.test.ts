import { spawnSync } from 'node:child_process';
import {
  copyFileSync,
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
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdminClient } from '../../../clients/cli/admin-client';
import { bashDenyingAsks } from '../../support/claude-hook';
import { TestDaemon } from '../../support/daemon';

/**
 * What a person's shell loads when it starts: Debian's default `~/.bashrc` (/etc/skel) sources
 * `~/.bash_aliases`, so an agent that writes it runs code in every shell the person opens
 * later. Real hook processes against a real daemon whose user's home is a temporary folder
 * holding that `.bashrc`, and whose person allows every write and command by rule; a call that
 * asks is denied, one allowed is performed, and then the person's next shell is started.
 */
/**
 * npm's settings as `npm test` hands them to the tests it runs (npm_config_prefix=/usr …):
 * unset, so the daemon and npm read the person's own, as outside npm.
 */
const NO_NPM_CONFIG = Object.fromEntries(
  Object.keys(process.env)
    .filter((k) => /^npm_config_/i.test(k))
    .map((k) => [k, undefined]),
);

describe("a person's start-up files (real hook, real daemon)", () => {
  let d: TestDaemon;
  let admin: AdminClient;
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'gatehouse-startup-')));
  const userHome = join(dir, 'user');
  const project = join(userHome, 'code', 'app');
  const marker = join(dir, 'pwned');
  /** The person's next interactive bash, in their home. */
  const nextShell = () =>
    spawnSync('bash', ['-ic', 'true'], {
      env: { ...process.env, HOME: userHome },
      stdio: 'ignore',
    });

  beforeAll(async () => {
    mkdirSync(project, { recursive: true });
    copyFileSync('/etc/skel/.bashrc', join(userHome, '.bashrc'));
    d = await TestDaemon.start({ HOME: userHome, ...NO_NPM_CONFIG }, ['--no-dashboard']);
    admin = await d.admin();
    for (const action of ['write_file', 'run_command'])
      await admin.call('rules.add', { action, tier: 'auto' });
  });
  afterAll(async () => {
    admin?.close();
    await d?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it("calibration: the person's next shell runs ~/.bash_aliases (no hook)", () => {
    const aliases = join(userHome, '.bash_aliases');
    writeFileSync(aliases, `touch ${marker}\n`);
    try {
      nextShell();
      expect(existsSync(marker)).toBe(true);
    } finally {
      rmSync(aliases);
      rmSync(marker, { force: true });
    }
  });

  it('writing ~/.bash_aliases asks, critical, though writes are allowed by rule; denied, the next shell runs nothing', async () => {
    const command = `echo 'touch ${marker}' >> ${join(userHome, '.bash_aliases')}`;
    const r = await bashDenyingAsks({ env: d.env, admin, cwd: project, session: 'startup' })(
      command,
    );
    nextShell();
    expect(existsSync(marker), `${command} was allowed and the next shell ran it`).toBe(false);
    expect(r.asked).toMatchObject({ risk: 'critical', rule: 'protected:startup_config' });
    expect(r.decision).toBe('deny');
  });

  /** Where Python looks for the person's user site-packages (a `.pth` there runs at start). */
  const userSite = (env: NodeJS.ProcessEnv): string =>
    spawnSync('python3', ['-c', 'import site; print(site.getusersitepackages())'], {
      env: { ...process.env, ...env },
      encoding: 'utf8',
    }).stdout.trim();
  /** The person's next Python, which runs every `.pth` file of their user site-packages. */
  const nextPython = (env: NodeJS.ProcessEnv) =>
    spawnSync('python3', ['-c', '0'], { env: { ...process.env, ...env }, stdio: 'ignore' });
  const pth = `import os; open(${JSON.stringify(marker)}, 'w')`;

  it("calibration: the person's next Python runs a .pth file in their user site-packages (no hook)", () => {
    const site = userSite({ HOME: userHome });
    expect(site.startsWith(`${userHome}/`)).toBe(true);
    mkdirSync(site, { recursive: true });
    try {
      writeFileSync(join(site, 'calibration.pth'), `${pth}\n`);
      nextPython({ HOME: userHome });
      expect(existsSync(marker)).toBe(true);
    } finally {
      rmSync(join(userHome, '.local', 'lib'), { recursive: true, force: true });
      rmSync(marker, { force: true });
    }
  });

  it.each([
    ['in the home', {}],
    ['moved by PYTHONUSERBASE', { PYTHONUSERBASE: join(dir, 'python-base') }],
  ] as const)(
    "a .pth file in Python's user site-packages %s asks, critical, though writes are allowed by rule; denied, the next Python runs nothing",
    async (_where, moved: NodeJS.ProcessEnv) => {
      const site = userSite({ HOME: userHome, ...moved });
      const command = `mkdir -p ${site} && echo ${JSON.stringify(pth)} > ${site}/gatehouse-probe.pth`;
      try {
        const r = await bashDenyingAsks({
          env: { ...d.env, ...moved },
          admin,
          cwd: project,
          session: `python-${Object.keys(moved).length}`,
        })(command);
        nextPython({ HOME: userHome, ...moved });
        expect(existsSync(marker), `${command} was allowed and the next Python ran it`).toBe(false);
        expect(r.asked).toMatchObject({ risk: 'critical', rule: 'protected:startup_config' });
        expect(r.decision).toBe('deny');
      } finally {
        rmSync(join(userHome, '.local', 'lib'), { recursive: true, force: true });
        rmSync(join(dir, 'python-base'), { recursive: true, force: true });
        rmSync(marker, { force: true });
      }
    },
  );

  /** A folder of the person's own programs, first on their PATH and the agent's. */
  const tools = join(dir, 'tools', 'bin');
  const withTools = `${tools}:${process.env.PATH ?? '/usr/bin:/bin'}`;
  /** The person's next `git status`, found on that PATH. */
  const nextGit = () =>
    spawnSync('git', ['status'], {
      cwd: project,
      env: { ...process.env, PATH: withTools },
      stdio: 'ignore',
    });
  const fakeGit = `#!/bin/sh\ntouch ${marker}\nexec /usr/bin/git "$@"\n`;

  it('calibration: a program named git in a folder first on the PATH runs at the next git status (no hook)', () => {
    mkdirSync(tools, { recursive: true });
    try {
      writeFileSync(join(tools, 'git'), fakeGit, { mode: 0o755 });
      nextGit();
      expect(existsSync(marker)).toBe(true);
    } finally {
      rmSync(join(dir, 'tools'), { recursive: true, force: true });
      rmSync(marker, { force: true });
    }
  });

  it.each([
    [
      'a program in it',
      () => `printf '${fakeGit.replace(/\n/g, '\\n')}' > ${tools}/git && chmod +x ${tools}/git`,
    ],
    // A link in its place, to a folder the agent filled first.
    [
      'the folder itself',
      () => `mkdir -p ${dir}/own && rmdir ${tools} && ln -s ${dir}/own ${tools}`,
    ],
  ])(
    "a folder on the agent's PATH: writing %s asks, critical, though writes are allowed by rule; denied, the next git status runs only git",
    async (_what, commandOf) => {
      mkdirSync(tools, { recursive: true });
      const command = commandOf();
      try {
        const r = await bashDenyingAsks({
          env: { ...d.env, PATH: withTools },
          admin,
          cwd: project,
          session: `path-${_what.length}`,
        })(command);
        // What the agent would have placed in the linked folder, had the link been made.
        if (existsSync(join(dir, 'own')))
          writeFileSync(join(dir, 'own', 'git'), fakeGit, { mode: 0o755 });
        nextGit();
        expect(existsSync(marker), `${command} was allowed and the next git status ran it`).toBe(
          false,
        );
        expect(r.asked).toMatchObject({ risk: 'critical', rule: 'protected:startup_config' });
        expect(r.decision).toBe('deny');
      } finally {
        rmSync(join(dir, 'tools'), { recursive: true, force: true });
        rmSync(join(dir, 'own'), { recursive: true, force: true });
        rmSync(marker, { force: true });
      }
    },
  );

  it("a kubeconfig the agent's KUBECONFIG lists asks, critical, though writes are allowed by rule (its exec plugin runs at every kubectl call); denied, the file is unchanged", async () => {
    const k8s = join(dir, 'k8s');
    mkdirSync(k8s, { recursive: true });
    const kubeconfigs = [join(k8s, 'dev.yaml'), join(k8s, 'prod.yaml')];
    for (const f of kubeconfigs) writeFileSync(f, 'apiVersion: v1\nkind: Config\n');
    const plugin = `users:\n- name: x\n  user:\n    exec:\n      command: /bin/sh\n      args: [-c, 'touch ${marker}']\n`;
    const command = `printf '${plugin}' >> ${kubeconfigs[1]}`;
    try {
      const r = await bashDenyingAsks({
        env: { ...d.env, KUBECONFIG: kubeconfigs.join(':') },
        admin,
        cwd: project,
        session: 'kubeconfig',
      })(command);
      expect(readFileSync(kubeconfigs[1]!, 'utf8'), `${command} was allowed`).not.toContain('exec');
      expect(r.asked).toMatchObject({ risk: 'critical', rule: 'protected:startup_config' });
      expect(r.decision).toBe('deny');
    } finally {
      rmSync(k8s, { recursive: true, force: true });
    }
  });

  /**
   * npm's global prefix, where the person moved it: `npm i -g` installs a tool's code in
   * `<prefix>/lib/node_modules` and links it from `<prefix>/bin`, on their PATH. Set in the
   * person's `~/.npmrc` (the daemon reads it), or in the agent's `NPM_CONFIG_PREFIX`.
   */
  it.each([
    ['the person’s ~/.npmrc (prefix=~/.local)', '~/.local', {}],
    ['the agent’s NPM_CONFIG_PREFIX', 'tools', { NPM_CONFIG_PREFIX: join(userHome, 'tools') }],
  ] as const)(
    'a globally installed npm tool’s code under the prefix from %s asks, critical, though writes are allowed by rule; denied, the tool runs as installed',
    async (_from, prefixSetting, agentEnv) => {
      const prefix = prefixSetting.startsWith('~/')
        ? join(userHome, prefixSetting.slice(2))
        : join(userHome, prefixSetting);
      const npmrc = join(userHome, '.npmrc');
      if (prefixSetting.startsWith('~/')) writeFileSync(npmrc, `prefix=${prefixSetting}\n`);
      const pkg = join(dir, 'npm-tool');
      mkdirSync(pkg, { recursive: true });
      writeFileSync(
        join(pkg, 'package.json'),
        JSON.stringify({
          name: 'gh-probe-tool',
          version: '1.0.0',
          bin: { 'gh-probe-tool': 'cli.js' },
        }),
      );
      writeFileSync(join(pkg, 'cli.js'), '#!/usr/bin/env node\nconsole.log("tool ran");\n');
      const npmEnv = { ...process.env, ...NO_NPM_CONFIG, HOME: userHome, ...agentEnv };
      try {
        const packed = spawnSync('npm', ['pack', '--silent', '--pack-destination', dir], {
          cwd: pkg,
          env: npmEnv,
          encoding: 'utf8',
        });
        const tarball = join(dir, packed.stdout.trim());
        const installed = spawnSync(
          'npm',
          ['install', '-g', '--offline', '--no-audit', '--no-fund', tarball],
          { env: npmEnv, encoding: 'utf8' },
        );
        expect(installed.status, installed.stderr).toBe(0);
        const cli = join(prefix, 'lib/node_modules/gh-probe-tool/cli.js');
        const tool = join(prefix, 'bin/gh-probe-tool');
        // Calibration: the person's `gh-probe-tool` runs the code under the prefix.
        expect(spawnSync(tool, { encoding: 'utf8' }).stdout).toBe('tool ran\n');
        const command = `echo "require('fs').writeFileSync('${marker}', '')" >> ${cli}`;
        const r = await bashDenyingAsks({
          env: { ...d.env, ...agentEnv },
          admin,
          cwd: project,
          session: `npm-prefix-${prefixSetting}`,
        })(command);
        spawnSync(tool, { stdio: 'ignore' });
        expect(existsSync(marker), `${command} was allowed and the tool ran it`).toBe(false);
        expect(r.asked).toMatchObject({ risk: 'critical', rule: 'protected:startup_config' });
        expect(r.decision).toBe('deny');
      } finally {
        rmSync(npmrc, { force: true });
        rmSync(prefix, { recursive: true, force: true });
        rmSync(pkg, { recursive: true, force: true });
        rmSync(marker, { force: true });
      }
    },
  );

  it('a program for every login shell in /etc/profile.d asks, critical (an agent running as root could write it); denied, the next login shell runs nothing', async () => {
    const probe = `/etc/profile.d/gatehouse-probe-${process.pid}.sh`;
    const command = `echo 'touch ${marker}' > ${probe}`;
    try {
      const r = await bashDenyingAsks({ env: d.env, admin, cwd: project, session: 'system' })(
        command,
      );
      spawnSync('bash', ['-lc', 'true'], {
        env: { ...process.env, HOME: userHome },
        stdio: 'ignore',
      });
      expect(existsSync(marker), `${command} was allowed and the next login shell ran it`).toBe(
        false,
      );
      expect(r.asked).toMatchObject({ risk: 'critical', rule: 'protected:startup_config' });
      expect(r.decision).toBe('deny');
    } finally {
      rmSync(probe, { force: true });
      rmSync(marker, { force: true });
    }
  });

  describe("a relative folder on the agent's PATH (`.`, `node_modules/.bin`)", () => {
    const work = join(project, 'relative-path');
    const readme = join(work, 'README.md');
    const fake = `#!/bin/sh\ntouch ${marker}\n`;
    const withPath = (path: string) => ({ ...d.env, PATH: path });
    beforeAll(() => {
      mkdirSync(work, { recursive: true });
      writeFileSync(readme, 'hello\n');
    });

    it('calibration: with `.` first on the PATH, `cat README.md` runs ./cat (no hook)', () => {
      writeFileSync(join(work, 'cat'), fake, { mode: 0o755 });
      try {
        spawnSync('bash', ['-c', 'cat README.md'], {
          cwd: work,
          env: { ...process.env, PATH: `.:${process.env.PATH}` },
        });
        expect(existsSync(marker)).toBe(true);
      } finally {
        rmSync(join(work, 'cat'));
        rmSync(marker, { force: true });
      }
    });

    it('a program there named like the system’s asks, though commands are allowed by rule; denied, it does not run; last on the PATH, the system’s runs', async () => {
      writeFileSync(join(work, 'cat'), fake, { mode: 0o755 });
      try {
        const first = await bashDenyingAsks({
          env: withPath(`.:${process.env.PATH}`),
          admin,
          cwd: work,
          session: 'relative-first',
        })('cat README.md');
        expect(first.decision).toBe('deny');
        expect(first.asked).toMatchObject({ rule: 'shell:opaque' });
        expect(first.asked?.ruleReason).toContain(`${work}/cat`);
        expect(existsSync(marker)).toBe(false);
        const last = await bashDenyingAsks({
          env: withPath(`${process.env.PATH}:.`),
          admin,
          cwd: work,
          session: 'relative-last',
        })('cat README.md');
        expect(last.decision).toBe('allow');
        expect(last.printed).toBe('hello\n');
        expect(existsSync(marker)).toBe(false);
      } finally {
        rmSync(join(work, 'cat'));
        rmSync(marker, { force: true });
      }
    });

    /**
     * A program planted in `node_modules/.bin` under `cwd`, which `command` starts by name:
     * bash runs it with that folder first on the PATH (calibration: the plant runs); the real
     * hook asks and the call is denied, so it does not run; with the folder last the call is
     * allowed, and performed it prints `prints`.
     */
    async function plantedHelper(o: {
      helper: string;
      command: string;
      cwd?: string;
      /** What the calibration's shell has besides the PATH (Debian's LESSOPEN). */
      env?: Record<string, string>;
      prints?: string;
    }): Promise<void> {
      const cwd = o.cwd ?? work;
      const bin = join(cwd, 'node_modules/.bin');
      mkdirSync(bin, { recursive: true });
      writeFileSync(join(bin, o.helper), fake, { mode: 0o755 });
      const first = `node_modules/.bin:${process.env.PATH}`;
      try {
        spawnSync('bash', ['-c', o.command], {
          cwd,
          env: { ...process.env, ...o.env, PATH: first },
          stdio: 'ignore',
        });
        expect(existsSync(marker), `${o.command} ran the planted ${o.helper}`).toBe(true);
        rmSync(marker);
        const r = await bashDenyingAsks({
          env: withPath(first),
          admin,
          cwd,
          session: `relative-${o.helper}`,
        })(o.command);
        expect(r.decision).toBe('deny');
        expect(r.asked?.ruleReason).toContain(`${bin}/${o.helper} as ${o.helper}`);
        expect(existsSync(marker)).toBe(false);
        if (o.prints === undefined) return;
        const last = await bashDenyingAsks({
          env: withPath(`${process.env.PATH}:node_modules/.bin`),
          admin,
          cwd,
          session: `relative-${o.helper}-last`,
        })(o.command);
        expect(last.decision).toBe('allow');
        expect(last.printed).toContain(o.prints);
        expect(existsSync(marker)).toBe(false);
      } finally {
        rmSync(join(bin, o.helper));
        rmSync(marker, { force: true });
      }
    }

    it('a decompressor there, which tar starts by name, asks; the system’s first, tar lists the archive', async () => {
      spawnSync('tar', ['-czf', 'a.tgz', 'README.md'], { cwd: work });
      try {
        await plantedHelper({ helper: 'gzip', command: 'tar -tzf a.tgz', prints: 'README.md\n' });
      } finally {
        rmSync(join(work, 'a.tgz'));
      }
    });

    it('a tar there, which less runs through Debian’s lesspipe (LESSOPEN) for an archive, asks', async () => {
      spawnSync('tar', ['-czf', 'a.tgz', 'README.md'], { cwd: work });
      try {
        // With the preprocessor Debian's and Ubuntu's ~/.bashrc set, and no terminal, less
        // runs lesspipe, which runs tar by name.
        await plantedHelper({
          helper: 'tar',
          command: 'less a.tgz',
          env: { LESSOPEN: '| /usr/bin/lesspipe %s' },
        });
      } finally {
        rmSync(join(work, 'a.tgz'));
      }
    });

    it('a gpg there, which git log --show-signature starts by name for a signed commit, asks; the system’s first, the log is shown', async () => {
      const repo = join(work, 'signed');
      mkdirSync(repo);
      const git = (args: string[], input?: string) =>
        spawnSync('git', args, { cwd: repo, input, encoding: 'utf8' }).stdout.trim();
      git(['init', '-q']);
      // A commit with a signature, as GitHub makes for every pull request merged on its site.
      const commit = git(
        ['hash-object', '-t', 'commit', '-w', '--stdin'],
        `tree ${git(['write-tree'])}\nauthor t <t@t> 0 +0000\ncommitter t <t@t> 0 +0000\ngpgsig -----BEGIN PGP SIGNATURE-----\n \n iQEzBAABCAAdFiEE\n -----END PGP SIGNATURE-----\n\nsigned\n`,
      );
      git(['update-ref', 'HEAD', commit]);
      try {
        await plantedHelper({
          helper: 'gpg',
          command: 'git log --show-signature -1',
          cwd: repo,
          prints: 'signed',
        });
      } finally {
        rmSync(repo, { recursive: true, force: true });
      }
    });

    it('writing a program into it asks, critical, though writes are allowed by rule; denied, the next ls runs only ls', async () => {
      mkdirSync(join(work, 'node_modules/.bin'), { recursive: true });
      const path = `node_modules/.bin:${process.env.PATH}`;
      const command = `printf '${fake.replace(/\n/g, '\\n')}' > node_modules/.bin/ls && chmod +x node_modules/.bin/ls`;
      const r = await bashDenyingAsks({
        env: withPath(path),
        admin,
        cwd: work,
        session: 'relative-write',
      })(command);
      spawnSync('bash', ['-c', 'ls'], { cwd: work, env: { ...process.env, PATH: path } });
      expect(existsSync(marker), `${command} was allowed and the next ls ran it`).toBe(false);
      expect(r.asked).toMatchObject({ risk: 'critical', rule: 'protected:startup_config' });
      expect(r.decision).toBe('deny');
    });
  });

  // VS Code (not installable here) runs, in a folder the person trusts, the programs its
  // workspace settings name (`git.path`) and a task marked `runOn: folderOpen`; a dev
  // container's `initializeCommand` runs on the host. Each write asks, though writes are
  // allowed by rule; denied, nothing is written. A file beside them is written as before.
  it.each([
    ['.vscode/settings.json', '{"git.path": "./tools/git"}'],
    [
      '.vscode/tasks.json',
      '{"tasks": [{"command": "./x", "runOptions": {"runOn": "folderOpen"}}]}',
    ],
    ['.devcontainer/devcontainer.json', '{"initializeCommand": "./x"}'],
    ['app.code-workspace', '{"settings": {"git.path": "./tools/git"}}'],
  ])('writing %s in the project asks, critical; denied, it is not written', async (file, text) => {
    // The folder is there, as the person's editor made it.
    mkdirSync(join(project, dirname(file)), { recursive: true });
    const command = `echo '${text}' > ${file}`;
    const r = await bashDenyingAsks({ env: d.env, admin, cwd: project, session: 'editor' })(
      command,
    );
    expect(r.asked).toMatchObject({ risk: 'critical', rule: 'protected:startup_config' });
    expect(r.decision).toBe('deny');
    expect(existsSync(join(project, file))).toBe(false);
  });

  it('a file of the editor folder that runs nothing is written by the rule', async () => {
    const r = await bashDenyingAsks({ env: d.env, admin, cwd: project, session: 'editor' })(
      `echo '{}' > .vscode/extensions.json`,
    );
    expect(r.decision).toBe('allow');
    expect(readFileSync(join(project, '.vscode/extensions.json'), 'utf8')).toBe('{}\n');
  });
});
