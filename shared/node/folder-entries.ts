import { readdirSync, type Dirent } from 'node:fs';

/**
 * A folder's entries with their kinds; none when it cannot be read (gone since it was listed,
 * not a folder, no permission): the walks that use it go on without it, each deciding what an
 * unread folder means for its own answer.
 */
export function entriesOf(folder: string): Dirent[] {
  try {
    return readdirSync(folder, { withFileTypes: true });
  } catch {
    return [];
  }
}
