import { mkdirSync, mkdtempSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { RuleRecord } from '../../../../../shared/domain';
import type { TeamRule } from '../../../../../shared/policy/team-policy';
import { pathsMatch, placedIn } from '../../../../../shared/policy/rule-match';
import { loadBashParser } from '../../../../../shared/node/bash-parser';
import { bashActions } from '../../../../../shared/tools/bash-actions';
import { classifyAction, type ClassifyContext } from '../../../../../main/engine/policy/classifier';
import { wordDirectories } from '../../../../../main/engine/policy/protected-paths';
import type { ShellParser } from '../../../../../shared/tools/shell-syntax';
import { testPathContext } from '../../../../support/path-context';

/**
 * A rule's paths are read where the words are opened: the directory the call runs in, and any
 * its command `cd`s to first. A permissive rule must match in every such directory; a team
 * rule, which only asks or denies, applies if it matches in any.
 */
describe('path words are placed where they are opened', () => {
  it('placedIn joins plain relative words and leaves the rest as written', () => {
    expect(placedIn('build', '/p')).toBe('/p/build');
    expect(placedIn('./build/x', '/p/sub/')).toBe('/p/sub/build/x');
    expect(placedIn('.', '/p')).toBe('/p');
    expect(placedIn('x', '/')).toBe('/x');
    expect(placedIn('/etc/passwd', '/p')).toBe('/etc/passwd');
    expect(placedIn('~/x', '/p')).toBe('~/x');
    expect(placedIn('$HOME/x', '/p')).toBe('$HOME/x');
    expect(placedIn('../x', '/p/sub')).toBe('/p/sub/../x');
  });

  it('pathsMatch reads a word in every directory, and never through `..`', () => {
    const m = { paths: ['build/**'], project: '/p' };
    expect(pathsMatch(['build/x'], m, '/p', ['/p'])).toBe(true);
    expect(pathsMatch(['build/x'], m, '/p', ['/p/sub'])).toBe(false);
    expect(pathsMatch(['build/x'], m, '/p', ['/p', '/home/u'])).toBe(false);
    expect(pathsMatch(['x'], m, '/p', ['/p/build'])).toBe(true);
    expect(pathsMatch(['../build/x'], m, '/p', ['/p/sub'])).toBe(false);
    // Without directories, words are the project's, as before.
    expect(pathsMatch(['build/x'], m, '/p')).toBe(true);
  });
});

describe('classification reads rule paths where the command opens them', () => {
  let shell: ShellParser;
  let home: string;
  let project: string;
  const ctxIn = (cwd: string, over: Partial<ClassifyContext> = {}): ClassifyContext => {
    const root = join(home, '..');
    return {
      project,
      rules: [],
      paths: testPathContext({
        root,
        home,
        data: join(home, '.local/share/gatehouse'),
        shell,
        cwd,
      }),
      ...over,
    };
  };
  /** A user rule putting deletes of the project's `build/**` at auto. */
  const buildRule = (): RuleRecord => ({
    ruleId: 'rul-1',
    action: 'delete_files',
    tier: 'auto',
    source: 'user',
    paths: ['build/**'],
    project,
    createdAt: '2026-01-01T00:00:00Z',
  });
  const tierOf = (command: string, ctx: ClassifyContext) =>
    bashActions(command, shell).map((spec) => classifyAction({ ...spec, command }, ctx));

  beforeAll(async () => {
    shell = await loadBashParser();
    const root = realpathSync(mkdtempSync(join(tmpdir(), 'gatehouse-word-dirs-')));
    home = join(root, 'home');
    project = join(home, 'code/app');
    mkdirSync(join(project, 'sub'), { recursive: true });
    mkdirSync(join(project, 'prod'), { recursive: true });
  });

  it("a user rule's --path covers the project's words only, not the same words after a cd", () => {
    const at = (cwd: string) => ctxIn(cwd, { rules: [buildRule()] });
    expect(tierOf('rm -rf build/x', at(project)).map((c) => c.rule)).toEqual(['user:rul-1']);
    for (const [command, cwd] of [
      ['cd ~ && rm -rf build/x', project],
      ['cd /tmp; rm -rf build/x', project],
      ['cd sub && rm -rf build/x', project],
      ['rm -rf build/x', join(project, 'sub')],
      // A cd through `command`, `builtin` or `time` still moves the shell.
      ['command cd ~ && rm -rf build/x', project],
      ['builtin cd ~; rm -rf build/x', project],
      ['time cd ~; rm -rf build/x', project],
      ['\\builtin command cd /tmp; rm -rf build/x', project],
      // The directory stack may hold an earlier call's directories (a shell that persists).
      ['popd && rm -rf build/x', project],
      ['pushd && rm -rf build/x', project],
      ['pushd sub; popd; popd; rm -rf build/x', project],
      ['pushd .; for i in 1 2; do popd; done; rm -rf build/x', project],
    ] as const)
      expect(
        tierOf(command, at(cwd)).map((c) => c.tier),
        `${command} in ${cwd}`,
      ).toEqual(['ask']);
  });

  it("a popd that only returns from the same line's pushd keeps the rule", () => {
    const ctx = ctxIn(project, { rules: [buildRule()] });
    expect(tierOf(`pushd ${project} && rm -rf build/x && popd`, ctx).map((c) => c.tier)).toEqual([
      'auto',
    ]);
    expect(wordDirectories({ action: 'read_file', command: 'popd' }, ctx)).toEqual([project]);
    expect(tierOf('popd', ctx)[0]).toMatchObject({
      tier: 'ask',
      rule: 'protected:unresolved_path',
    });
  });

  it('a team rule applies wherever a word may be opened: a cd does not step around it', () => {
    const deny: TeamRule = {
      ruleId: 'tr-prod1',
      action: 'delete_files',
      tier: 'deny',
      mode: 'enforce',
      paths: ['prod/**'],
    };
    const at = (cwd: string) => ctxIn(cwd, { team: { version: 3, rules: [deny] } });
    for (const [command, cwd] of [
      ['rm -rf prod/data', project],
      ['cd prod && rm -rf data', project],
      ['rm -rf data', join(project, 'prod')],
    ] as const) {
      const [c] = tierOf(command, at(cwd));
      expect(c, `${command} in ${cwd}`).toMatchObject({ tier: 'ask', deny: true });
    }
    expect(tierOf('rm -rf data', at(join(project, 'sub')))[0]).not.toMatchObject({ deny: true });
  });

  it('a command too long to follow is not scanned for its directories; it asks', () => {
    const command = `cd /tmp; rm -rf build ${'x '.repeat(600)}`;
    const ctx = ctxIn(project);
    expect(wordDirectories({ action: 'delete_files', command, paths: ['build'] }, ctx)).toEqual([
      project,
    ]);
    expect(
      wordDirectories({ action: 'delete_files', command: 'cd /tmp; rm -rf build' }, ctx),
    ).toEqual([project, '/tmp']);
    expect(tierOf(command, ctx)[0]).toMatchObject({ tier: 'ask', rule: 'shell:opaque' });
  });
});
