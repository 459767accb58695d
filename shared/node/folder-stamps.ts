import { realpathSync, statSync } from 'node:fs';

/**
 * What a walk saw of the folders it read (each one's inode and change time: a name added,
 * removed or renamed in it, or its permissions changed, moves the change time) and of the
 * links it followed to files (where each led), so that an answer kept from it can be told
 * apart from one the tree would give now. A walk of more than `max` folders keeps nothing
 * (the list is memory an agent could make large): its answer cannot be kept.
 */
export class FolderStamps {
  private readonly paths: string[] = [];
  private readonly stamps: string[] = [];
  private over = false;

  constructor(private readonly max: number) {}

  /** Records `folder` as it is now; call it before reading the folder's entries. */
  folder(path: string): void {
    this.add(path, folderStamp(path));
  }

  /** Records where the link `path` leads now (`real`, as the walk found it). */
  link(path: string, real: string): void {
    this.add(`\0${path}`, real);
  }

  /** Whether what was recorded holds still; false when too much was seen to keep. */
  unchanged(): boolean {
    if (this.over) return false;
    for (let i = 0; i < this.paths.length; i++) {
      const path = this.paths[i]!;
      const now = path.startsWith('\0') ? linkTarget(path.slice(1)) : folderStamp(path);
      if (now !== this.stamps[i]) return false;
    }
    return true;
  }

  private add(path: string, stamp: string): void {
    if (this.over) return;
    if (this.paths.length >= this.max) {
      this.over = true;
      this.paths.length = 0;
      this.stamps.length = 0;
      return;
    }
    this.paths.push(path);
    this.stamps.push(stamp);
  }
}

function folderStamp(path: string): string {
  try {
    // ctimeMs keeps the change time's microseconds: two changes in one microsecond are one.
    const s = statSync(path, { throwIfNoEntry: false });
    return s ? `${s.ino}:${s.ctimeMs}` : '-';
  } catch {
    return '-';
  }
}

function linkTarget(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return '-';
  }
}
