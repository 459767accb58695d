import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createBareRepositoryFinder } from '../../../../shared/node/bare-repository';

describe('createBareRepositoryFinder: the bare repository git would find by itself', () => {
  const root = mkdtempSync(join(tmpdir(), 'gatehouse-bare-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  function bare(dir: string): string {
    mkdirSync(join(dir, 'objects'), { recursive: true });
    mkdirSync(join(dir, 'refs/heads'), { recursive: true });
    writeFileSync(join(dir, 'HEAD'), 'ref: refs/heads/main\n');
    return dir;
  }

  it('finds one at or above the folder; a .git on the way, or a .git folder itself, is not one', () => {
    const repo = bare(join(root, 'evil'));
    const find = createBareRepositoryFinder();
    expect(find(repo)).toBe(repo);
    expect(find(join(repo, 'refs/heads'))).toBe(repo);
    // A working tree inside it: git stops at its .git.
    const tree = join(repo, 'work');
    mkdirSync(join(tree, '.git'), { recursive: true });
    expect(find(join(tree))).toBeUndefined();
    // The person's own repository's folder.
    expect(createBareRepositoryFinder()(bare(join(root, 'p', '.git')))).toBeUndefined();
    // A HEAD without objects and refs is not a git folder.
    const plain = join(root, 'plain');
    mkdirSync(plain);
    writeFileSync(join(plain, 'HEAD'), 'x');
    expect(createBareRepositoryFinder()(plain)).toBeUndefined();
    // HEAD as a link to a branch not made yet: git takes it.
    const linked = join(root, 'linked');
    mkdirSync(join(linked, 'objects'), { recursive: true });
    mkdirSync(join(linked, 'refs'), { recursive: true });
    symlinkSync('refs/heads/main', join(linked, 'HEAD'));
    expect(createBareRepositoryFinder()(linked)).toBe(linked);
  });

  it('a folder made one right after it was looked at is one at once', () => {
    const find = createBareRepositoryFinder();
    const later = join(root, 'later');
    mkdirSync(later);
    expect(find(later)).toBeUndefined();
    expect(find(bare(later))).toBe(later);
  });
});
