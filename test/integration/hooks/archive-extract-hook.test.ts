import { execFileSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdminClient } from '../../../clients/cli/admin-client';
import { preToolUse, runClaudeHook, type PreToolAnswer } from '../../support/claude-hook';
import { TestDaemon, waitForPending } from '../../support/daemon';

/**
 * `tar -x` and `unzip` of an archive in the project: Gatehouse lists it (`tar -tvf`,
 * `unzip -Z`, nothing from it run) and asks only for what the listing shows: a protected
 * name, a name outside the folder (absolute, `..`), a link. Where the person lets file writes
 * pass (`rules add write_file --tier auto`), a plain archive extracts without asking, and one
 * bringing a package.json makes the next test run ask (the watch of what runs when tests
 * run). Real hook processes, a real daemon; whatever is allowed is performed.
 */
describe('archives extracted in the project are read before they are judged (real hook)', () => {
  let d: TestDaemon;
  let admin: AdminClient;
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'gatehouse-archives-')));
  const project = join(root, 'project');
  const build = join(root, 'build');

  /** Makes an archive in the project from files laid out in a scratch folder. */
  function archive(
    name: string,
    files: Record<string, string>,
    links: Record<string, string> = {},
  ) {
    rmSync(build, { recursive: true, force: true });
    mkdirSync(build);
    for (const [rel, text] of Object.entries(files)) {
      mkdirSync(join(build, rel, '..'), { recursive: true });
      writeFileSync(join(build, rel), text);
    }
    for (const [rel, target] of Object.entries(links)) symlinkSync(target, join(build, rel));
    const names = [...Object.keys(files), ...Object.keys(links)].map((n) => n.split('/')[0]!);
    const top = [...new Set(names)];
    if (name.endsWith('.zip'))
      execFileSync('zip', ['-qry', join(project, name), ...top], { cwd: build });
    else execFileSync('tar', ['-cf', join(project, name), ...top], { cwd: build });
  }

  beforeAll(async () => {
    mkdirSync(project);
    execFileSync('git', ['init', '-q', project]);
    writeFileSync(
      join(project, 'package.json'),
      JSON.stringify({ name: 'app', version: '1.0.0', scripts: { test: 'node -e 0' } }),
    );
    d = await TestDaemon.start({}, ['--no-dashboard']);
    admin = await d.admin();
    // The person lets every file write pass: only what the archive holds can make it ask.
    const r = await d.cli(['rules', 'add', 'write_file', '--tier', 'auto', '--project', project]);
    expect(r.code, r.stderr).toBe(0);
  });
  afterAll(async () => {
    admin?.close();
    await d?.stop();
    rmSync(root, { recursive: true, force: true });
  });

  /** Runs the hook on a Bash call; when it allows, runs the command in the project. */
  async function bash(command: string, waitMs = 300): Promise<PreToolAnswer> {
    const r = await runClaudeHook(
      { ...d.env, GATEHOUSE_HOOK_FALLBACK: 'deny', GATEHOUSE_HOOK_WAIT_MS: String(waitMs) },
      preToolUse('Bash', { command }, { cwd: project, session: 'archives' }),
    );
    if (r.decision === 'allow') {
      try {
        execFileSync('bash', ['-c', command], { cwd: project, stdio: 'ignore', timeout: 60_000 });
      } catch {
        // Its effect is what counts.
      }
    }
    return r;
  }

  const lastRequest = async (command: string) =>
    (await admin.call('requests.query', {})).requests.find((r) => r.command === command);

  it.each([
    ['tar -xf plain.tar', 'plain.tar'],
    ['unzip -q plain.zip -d unzipped', 'plain.zip'],
  ])('a plain archive (%s) extracts without asking, and its files land', async (command, name) => {
    archive(name, { 'docs/readme.txt': 'hello\n', 'src/a.ts': 'export {};\n' });
    const r = await bash(command);
    expect(r.decision, r.reason).toBe('allow');
    const at = name.endsWith('.zip') ? join(project, 'unzipped') : project;
    expect(existsSync(join(at, 'docs/readme.txt'))).toBe(true);
  });

  it.each([
    [
      'tar -xf hooks.tar',
      'hooks.tar',
      { '.git/hooks/post-checkout': '#!/bin/sh\ntouch pwned\n' },
      {},
      'protected:vcs_config',
      '.git/hooks/post-checkout',
    ],
    [
      'tar -xf agent.tar',
      'agent.tar',
      { '.claude/settings.json': '{"disableAllHooks":true}\n' },
      {},
      'protected:change_gatehouse_policy',
      '.claude/settings.json',
    ],
    [
      'unzip -o agent.zip',
      'agent.zip',
      { '.claude/settings.json': '{"disableAllHooks":true}\n' },
      {},
      'protected:change_gatehouse_policy',
      '.claude/settings.json',
    ],
    [
      'tar -xf link.tar',
      'link.tar',
      { 'ok.txt': 'x\n' },
      { escape: '/etc' },
      'protected:vcs_config',
      'escape',
    ],
    [
      'unzip -o link.zip',
      'link.zip',
      { 'ok.txt': 'x\n' },
      { escape: '/etc' },
      'protected:vcs_config',
      'escape',
    ],
  ] as const)(
    '%s asks (what it holds), and denied, writes nothing',
    async (command, name, files, links, rule, written) => {
      archive(name, files, links);
      const r = await bash(command);
      expect(r.decision, r.reason).toBe('deny');
      expect(await lastRequest(command)).toMatchObject({ rule });
      expect(existsSync(join(project, written))).toBe(false);
    },
  );

  it('a name that climbs out of the folder asks (tar -P keeps it; GNU tar would strip it)', async () => {
    const outside = join(root, 'outside.txt');
    writeFileSync(outside, 'x\n');
    execFileSync('tar', ['-cPf', join(project, 'abs.tar'), outside]);
    rmSync(outside);
    const r = await bash('tar -xf abs.tar');
    expect(r.decision).toBe('deny');
    expect(await lastRequest('tar -xf abs.tar')).toMatchObject({
      rule: 'protected:unresolved_path',
    });
  });

  it('an archive that brings a package.json: extracted, the next npm test asks once', async () => {
    const marker = join(project, 'pkg', 'pwned');
    archive('pkg.tar', {
      'pkg/package.json': JSON.stringify({
        name: 'pkg',
        version: '1.0.0',
        scripts: { test: `node -e "require('fs').writeFileSync('pwned','')"` },
      }),
    });
    expect((await bash('tar -xf pkg.tar')).decision).toBe('allow');
    expect(existsSync(join(project, 'pkg/package.json'))).toBe(true);
    const run = 'cd pkg && npm test';
    expect((await bash(run)).decision).toBe('deny');
    expect(existsSync(marker)).toBe(false);
    expect(await lastRequest(run)).toMatchObject({ rule: 'watch:tests' });
    // The person approves: the archive's script runs (the attack is real).
    const running = bash(run, 20_000);
    const pending = await waitForPending(admin, (r) => r.command === run);
    expect((await d.cli(['approve', pending.requestId])).code).toBe(0);
    expect((await running).decision).toBe('allow');
    expect(existsSync(marker)).toBe(true);
  });

  it('an archive Gatehouse cannot read still asks as before', async () => {
    writeFileSync(join(project, 'broken.tar'), 'not an archive');
    for (const command of [
      'tar -xf broken.tar',
      'tar -xf missing.tar',
      'tar --strip-components=1 -xf plain.tar',
    ]) {
      const r = await bash(command);
      expect(r.decision, command).toBe('deny');
      expect(await lastRequest(command)).toMatchObject({ rule: 'protected:vcs_config' });
    }
  });
});
