import { accessSync, chmodSync, constants, statSync } from 'node:fs';
import { DataFolderError, makeDirs } from '../shared/node/make-dirs';

const octal = (mode: number): string => `0${(mode & 0o777).toString(8).padStart(3, '0')}`;

/**
 * Makes `GATEHOUSE_HOME` when missing (mode 0700) and checks that Gatehouse can keep its data
 * there, before anything is written: a folder it cannot use fails the start at once with what
 * is wrong and what to do, never with a bare EACCES or a hang. Group and other permission bits
 * are removed, as always (the folder holds the admin token); but a folder whose owner bits the
 * person narrowed (0500: "do not write here") is refused with why, not silently reopened.
 */
export function prepareDataFolder(home: string): void {
  const what = 'GATEHOUSE_HOME';
  makeDirs(home, 0o700, what);
  const st = statSync(home);
  const uid = process.getuid?.();
  const elsewhere = `or set ${what} to another folder`;
  if (uid !== undefined && st.uid !== uid)
    throw new DataFolderError(
      `the data folder ${home} belongs to uid ${st.uid}, not to you (uid ${uid}); Gatehouse keeps its data only in a folder of your own. Use one of yours (${what}=…).`,
    );
  if ((st.mode & 0o700) !== 0o700)
    throw new DataFolderError(
      `the data folder ${home} has mode ${octal(st.mode)}: its owner may not ${(st.mode & 0o200) === 0 ? 'write' : 'enter'} it, and Gatehouse does not change permissions you set. Run \`chmod 700 ${home}\` if Gatehouse may keep its data there, ${elsewhere}.`,
    );
  if ((st.mode & 0o077) !== 0) chmodSync(home, 0o700);
  try {
    accessSync(home, constants.W_OK | constants.X_OK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new DataFolderError(
      code === 'EROFS'
        ? `the data folder ${home} is on a read-only file system; Gatehouse must write its database there. Mount it writable, ${elsewhere}.`
        : `the data folder ${home} cannot be written by you (${code}); Gatehouse must write its database there. Fix its permissions (\`chmod 700 ${home}\`), ${elsewhere}.`,
    );
  }
}
