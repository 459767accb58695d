import { chmodSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FolderStamps } from '../../../../shared/node/folder-stamps';

describe('FolderStamps: whether the folders a walk read are as they were', () => {
  const root = mkdtempSync(join(tmpdir(), 'gatehouse-folder-stamps-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('a name added, removed or renamed, a folder replaced or its permissions changed: changed', () => {
    const dir = join(root, 'a');
    mkdirSync(dir);
    const seen = () => {
      const s = new FolderStamps(10);
      s.folder(dir);
      return s;
    };
    let s = seen();
    expect(s.unchanged()).toBe(true);
    writeFileSync(join(dir, 'x'), '1');
    expect(s.unchanged()).toBe(false);
    s = seen();
    // A file's content is not the folder's: unchanged.
    writeFileSync(join(dir, 'x'), '2');
    expect(s.unchanged()).toBe(true);
    chmodSync(dir, 0o700);
    expect(s.unchanged()).toBe(false);
    s = seen();
    rmSync(dir, { recursive: true });
    mkdirSync(dir);
    expect(s.unchanged()).toBe(false);
    s = seen();
    rmSync(dir, { recursive: true });
    expect(s.unchanged()).toBe(false);
  });

  it('a followed link that leads elsewhere now: changed; past its size it keeps nothing', () => {
    mkdirSync(join(root, 'b'));
    writeFileSync(join(root, 'b/one'), '');
    writeFileSync(join(root, 'b/two'), '');
    const link = join(root, 'b/link');
    symlinkSync(join(root, 'b/one'), link);
    const s = new FolderStamps(10);
    s.link(link, join(root, 'b/one'));
    expect(s.unchanged()).toBe(true);
    rmSync(link);
    symlinkSync(join(root, 'b/two'), link);
    expect(s.unchanged()).toBe(false);
    const small = new FolderStamps(2);
    for (const f of ['b', 'b', 'b']) small.folder(join(root, f));
    expect(small.unchanged()).toBe(false);
  });
});
