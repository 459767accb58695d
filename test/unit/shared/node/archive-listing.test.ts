import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { listArchive } from '../../../../shared/node/archive-listing';

const dir = mkdtempSync(join(tmpdir(), 'gatehouse-archive-list-'));
const src = join(dir, 'src');
mkdirSync(join(src, 'sub'), { recursive: true });
writeFileSync(join(src, 'a.txt'), 'a');
writeFileSync(join(src, 'sub', 'b c.txt'), 'b');
const make = (program: string, args: string[]) => execFileSync(program, args, { cwd: src });
make('tar', ['-cf', join(dir, 'ok.tar'), 'a.txt', 'sub']);
make('tar', ['-czf', join(dir, 'ok.tgz'), 'a.txt', 'sub']);
make('zip', ['-qr', join(dir, 'ok.zip'), 'a.txt', 'sub']);
symlinkSync('/etc', join(src, 'link'));
make('tar', ['-cf', join(dir, 'link.tar'), 'link']);
make('zip', ['-qry', join(dir, 'link.zip'), 'link']);
make('tar', ['-cPf', join(dir, 'abs.tar'), join(src, 'a.txt')]);
writeFileSync(join(dir, 'garbage.tar'), 'not an archive at all');

describe('listing an archive without extracting it', () => {
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it.each(['ok.tar', 'ok.tgz'])('reads the names of %s', (name) => {
    expect(listArchive(join(dir, name), 'tar')).toEqual({
      entries: ['a.txt', 'sub', 'sub/b c.txt'],
    });
  });

  it('reads the names of a zip', () => {
    expect(listArchive(join(dir, 'ok.zip'), 'zip')).toEqual({
      entries: ['a.txt', 'sub', 'sub/b c.txt'],
    });
  });

  it('keeps an absolute name as it is (the caller asks about it)', () => {
    expect(listArchive(join(dir, 'abs.tar'), 'tar')).toEqual({ entries: [join(src, 'a.txt')] });
  });

  it.each([
    ['link.tar', 'tar', 'holds a link'],
    ['link.zip', 'zip', 'holds a link'],
    ['garbage.tar', 'tar', 'cannot be listed'],
    ['ok.tar', 'zip', 'cannot be listed'],
    ['missing.tar', 'tar', 'is not a regular file here'],
    ['src', 'tar', 'is not a regular file here'],
  ] as const)('refuses %s as %s: %s', (name, kind, why) => {
    expect(listArchive(join(dir, name), kind)).toEqual({ unreadable: why });
  });
});
