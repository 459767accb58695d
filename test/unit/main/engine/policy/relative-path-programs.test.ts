import { describe, expect, it } from 'vitest';
import { relativePathProgram } from '../../../../../main/engine/policy/relative-path-programs';
import { loadBashParser } from '../../../../../shared/node/bash-parser';

/**
 * Which program a command runs when the agent's PATH has relative entries, over a fake file
 * system: the files that exist and are executable.
 */
describe('a program found through a relative entry of the PATH', () => {
  const files = new Set(['/p/cat', '/p/node_modules/.bin/tsc', '/p/node_modules/.bin/ls']);
  const system = new Set(['/usr/bin/cat', '/usr/bin/ls', '/usr/bin/git']);
  const isProgramFile = (path: string) => files.has(path) || system.has(path);
  const judge = async (command: string, shellPath: string, cwds = ['/p']) =>
    relativePathProgram((await loadBashParser()).analyse(command), cwds, shellPath, {
      isProgramFile,
    });

  it('asks when it comes before the system’s program of that name', async () => {
    expect(await judge('cat README.md', '.:/usr/bin')).toMatchObject({
      tier: 'ask',
      rule: 'shell:opaque',
      reason: expect.stringContaining('/p/cat'),
    });
    expect(await judge('git status && ls', 'node_modules/.bin:/usr/bin')).toMatchObject({
      reason: expect.stringContaining('/p/node_modules/.bin/ls'),
    });
    // An empty entry is the working directory, as `.`.
    expect(await judge('cat a', ':/usr/bin')).toMatchObject({ tier: 'ask' });
    expect(await judge('cat a', '/usr/bin:')).toBeUndefined();
    // Every working directory of the line.
    expect(await judge('cd sub && cat a', '.:/usr/bin', ['/q', '/p'])).toMatchObject({
      tier: 'ask',
    });
  });

  it('looks up the decompressors tar, rg -z and zcat start by name', async () => {
    files.add('/p/gzip');
    try {
      for (const command of ['tar -tzf a.tgz', 'tar -tf a.tar.gz', 'rg -z TODO', 'zcat a.gz'])
        expect(await judge(command, '.:/usr/bin'), command).toMatchObject({
          tier: 'ask',
          reason: expect.stringContaining('/p/gzip as gzip'),
        });
      expect(await judge('rg TODO', '.:/usr/bin')).toBeUndefined();
    } finally {
      files.delete('/p/gzip');
    }
  });

  it('looks up what gzip’s scripts, lesspipe under less, and git’s signature check run by name', async () => {
    for (const [command, helper] of [
      ['zgrep TODO a.gz', 'grep'],
      ['zless a.gz', 'less'],
      ['zegrep x a.gz', 'zgrep'],
      ['less a.tar.gz', 'tar'],
      ['less a.deb', 'dpkg-deb'],
      ['git log --show-signature', 'gpg'],
      ['git log -1', 'ssh-keygen'],
      ['git help status', 'man'],
    ] as const) {
      files.add(`/p/${helper}`);
      system.add(`/usr/bin/${helper}`);
      try {
        expect(await judge(command, '.:/usr/bin'), command).toMatchObject({
          tier: 'ask',
          reason: expect.stringContaining(`/p/${helper} as ${helper}`),
        });
        expect(await judge(command, '/usr/bin:.'), command).toBeUndefined();
      } finally {
        files.delete(`/p/${helper}`);
        system.delete(`/usr/bin/${helper}`);
      }
    }
  });

  it('is silent when the system’s comes first, for bash’s own commands, test runners, and without relative entries', async () => {
    expect(await judge('cat README.md', '/usr/bin:.')).toBeUndefined();
    expect(await judge('echo hi; test -f a; cd x', '.:/usr/bin')).toBeUndefined();
    expect(await judge('tsc --noEmit', 'node_modules/.bin:/usr/bin')).toBeUndefined();
    expect(await judge('cat README.md', '/usr/bin:/bin')).toBeUndefined();
    expect(await judge('./cat README.md', '.:/usr/bin')).toBeUndefined();
  });
});
