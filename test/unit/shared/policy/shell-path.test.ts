import { describe, expect, it } from 'vitest';
import {
  clipShellPath,
  MAX_SHELL_PATH,
  shellPathFolders,
  shellPathRelativeEntries,
} from '../../../../shared/policy/shell-path';

describe('shellPathFolders', () => {
  it('keeps absolute folders once, in order, without trailing or doubled slashes', () => {
    expect(shellPathFolders('/opt/a/bin/:/usr//bin:/opt/a/bin:/bin')).toEqual([
      '/opt/a/bin',
      '/usr/bin',
      '/bin',
    ]);
  });

  it('leaves out relative entries (they move with the working directory), /, /dev and /proc', () => {
    expect(shellPathFolders('.::bin:~/bin:/:/dev/fd:/proc/self/cwd:/usr/bin')).toEqual([
      '/usr/bin',
    ]);
  });
});

describe('shellPathRelativeEntries', () => {
  it('keeps relative entries once, in order, an empty one as `.`; absolute and `~` ones are not', () => {
    expect(shellPathRelativeEntries(':/usr/bin:node_modules/.bin/:~/bin:.:bin::../tools')).toEqual([
      '.',
      'node_modules/.bin',
      'bin',
      '../tools',
    ]);
    expect(shellPathRelativeEntries('/usr/bin:/bin')).toEqual([]);
  });
});

describe('clipShellPath', () => {
  it('keeps a PATH that fits, and cuts a longer one at the end of a folder', () => {
    expect(clipShellPath('/usr/bin:/bin')).toBe('/usr/bin:/bin');
    const long = Array.from({ length: 2000 }, (_, i) => `/opt/tool-${i}/bin`).join(':');
    const clipped = clipShellPath(long);
    expect(clipped.length).toBeLessThanOrEqual(MAX_SHELL_PATH);
    expect(long.startsWith(`${clipped}:`)).toBe(true);
    expect(clipped.split(':').every((f) => /^\/opt\/tool-\d+\/bin$/.test(f))).toBe(true);
  });
});
