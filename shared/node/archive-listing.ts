import { execFileSync } from 'node:child_process';
import { statSync } from 'node:fs';
import type { ArchiveKind, ArchiveListing } from '../tools/path-resolution';
import { NOT_A_FILE } from '../tools/tree-writes';

/** At most this many names are read from one archive; more asks. */
const MAX_ENTRIES = 10_000;
/** The listing program's output and time are bounded: a huge or hostile archive asks. */
const MAX_OUTPUT = 4 * 1024 * 1024;
const TIMEOUT_MS = 2_000;
/** Archives larger than this are not listed (decompressing them takes the time). */
const MAX_ARCHIVE_BYTES = 256 * 1024 * 1024;

/**
 * The names an archive would write, read with the system's own lister and nothing from the
 * archive run: `tar --force-local -tvf` (a `host:` prefix is not a remote), `unzip -Z`
 * (zipinfo). Only regular files and folders are listed; a link, a hard link or a device in
 * it makes the listing `unreadable`, and so does a failure, a time-out, or too much output:
 * the extraction then asks as it did before the archive was read.
 */
export function listArchive(file: string, kind: ArchiveKind): ArchiveListing {
  const st = statSync(file, { throwIfNoEntry: false });
  if (!st?.isFile()) return { unreadable: NOT_A_FILE };
  if (st.size > MAX_ARCHIVE_BYTES) return { unreadable: 'is too large to list' };
  const run = (program: string, args: string[]): string | undefined => {
    try {
      return execFileSync(program, args, {
        encoding: 'utf8',
        timeout: TIMEOUT_MS,
        maxBuffer: MAX_OUTPUT,
        stdio: ['ignore', 'pipe', 'ignore'],
        // The C locale: the listing's columns read the same everywhere.
        env: { PATH: process.env.PATH ?? '/usr/bin:/bin', LC_ALL: 'C' },
      });
    } catch {
      return undefined;
    }
  };
  const out =
    kind === 'tar'
      ? run('tar', ['--force-local', '--quoting-style=escape', '-tvf', file])
      : run('unzip', ['-Z', file]);
  if (out === undefined) return { unreadable: 'cannot be listed' };
  const lines = out.split('\n').filter((l) => l.length);
  const rows = kind === 'tar' ? lines : lines.filter((l) => /^[-dlbcps?][rwxsStT-]{9}\s/.test(l));
  // zipinfo says how many entries there are: one not read above (an entry made on another
  // system shows other attributes) is not skipped, the listing is refused.
  if (kind === 'zip') {
    const count = /number of entries: (\d+)/.exec(out)?.[1];
    if (count === undefined || Number(count) !== rows.length)
      return { unreadable: 'has entries Gatehouse cannot read' };
  }
  const entries: string[] = [];
  for (const row of rows) {
    const type = row[0];
    if (type !== '-' && type !== 'd')
      return { unreadable: `holds a ${type === 'l' || type === 'h' ? 'link' : 'special file'}` };
    const name = kind === 'tar' ? tarName(row) : zipName(row);
    if (name === undefined) return { unreadable: 'has an entry Gatehouse cannot read' };
    entries.push(name.replace(/\/+$/, ''));
    if (entries.length > MAX_ENTRIES)
      return { unreadable: `holds more than ${MAX_ENTRIES} files and folders` };
  }
  return { entries };
}

/** `-rw-r--r-- user/group 12 2026-01-01 00:00 name`: the name after the time. */
function tarName(row: string): string | undefined {
  const m = /^\S+\s+\S+\s+\d+\s+\d{4}-\d{2}-\d{2}\s+\d{2}:\d{2}(?::\d{2})?\s(.+)$/.exec(row);
  // An escaped character (`\n`, `\\`) is not read: the name may be anything.
  return m && !m[1]!.includes('\\') ? m[1] : undefined;
}

/** `-rw-r--r--  3.0 unx   12 tx stor 26-Jan-01 00:00 name`: the name after the time. */
function zipName(row: string): string | undefined {
  const m = /^\S+\s+\S+\s+\S+\s+\d+\s+\S+\s+\S+\s+\S+\s+\d{2}:\d{2}\s(.+)$/.exec(row);
  return m?.[1];
}
