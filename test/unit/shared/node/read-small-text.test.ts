import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { surelyIgnored } from '../../../../shared/node/gitignore-check';
import {
  createCredentialFiles,
  createRepositoryCredentials,
} from '../../../../shared/node/git-url-credentials';
import { readSmallText } from '../../../../shared/node/read-small-text';

describe('readSmallText: the files the daemon reads that an agent can put in a project', () => {
  const root = mkdtempSync(join(tmpdir(), 'gatehouse-small-text-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('reads a small regular file; not a folder, a larger file, or one not there', () => {
    writeFileSync(join(root, 'a.txt'), 'hello');
    writeFileSync(join(root, 'big.txt'), 'x'.repeat(2000));
    expect(readSmallText(join(root, 'a.txt'))).toBe('hello');
    expect(readSmallText(join(root, 'big.txt'), 1000)).toBeUndefined();
    expect(readSmallText(root)).toBeUndefined();
    expect(readSmallText(join(root, 'none'))).toBeUndefined();
  });

  it('a FIFO named .gitignore, .npmrc or .git/config does not stall the checks that read them', () => {
    const repo = join(root, 'repo');
    mkdirSync(join(repo, '.git'), { recursive: true });
    for (const name of ['.gitignore', '.npmrc', '.git/config'])
      execFileSync('mkfifo', [join(repo, name)]);
    // Each would block forever on a plain read: no writer ever opens the FIFO.
    expect(readSmallText(join(repo, '.npmrc'))).toBeUndefined();
    expect(surelyIgnored(join(repo, '.env'))).toBe(false);
    expect(createCredentialFiles()(join(repo, '.npmrc'))).toBeUndefined();
    expect(createRepositoryCredentials()(repo)).toBeUndefined();
  });
});
