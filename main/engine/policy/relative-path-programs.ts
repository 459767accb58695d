import type { Classification } from './classification';
import { relativeEntryUnder, shellPathRelativeEntries } from '../../../shared/policy/shell-path';
import { TEST_RUNNERS } from '../../../shared/tools/commands/runners';
import { programIndex } from '../../../shared/tools/shell-paths';
import type { ShellAnalysis } from '../../../shared/tools/shell-syntax';
import type { PathProtection } from './path-port';

/** What bash runs itself, never looked up on the PATH. */
const BASH_OWN = new Set(
  '. : [ [[ alias bg bind break builtin caller cd command compgen complete compopt continue declare dirs disown echo enable eval exec exit export false fc fg getopts hash help history jobs kill let local logout mapfile popd printf pushd pwd read readarray readonly return set shift shopt source suspend test times trap true type typeset ulimit umask unalias unset wait if then else elif fi case esac for select while until do done in function time { } ! coproc'.split(
    ' ',
  ),
);

/**
 * A command whose program, called by name, is a file under the working directory, found
 * through a relative entry of the agent's PATH (`.`, an empty one, `node_modules/.bin`)
 * before any folder of the system's: `ls` with `.` first on the PATH runs `./ls`. Gatehouse
 * judges `ls`, `cat`, `grep` … as the system's programs, so such a call asks. A test runner
 * or checker found there (`tsc` in `node_modules/.bin`) is the project's own tool, which
 * `run_tests` runs anyway. The decompressors `tar`, `rg -z` and `zcat` start by name are
 * looked up too. Only a PATH with relative entries costs a look at the files.
 */
export function relativePathProgram(
  analysis: ShellAnalysis | undefined,
  cwds: readonly string[],
  shellPath: string | undefined,
  pc: Pick<PathProtection, 'isProgramFile'>,
): Classification | undefined {
  if (!analysis || !shellPath || !pc.isProgramFile) return undefined;
  if (!relativeEntriesOf(shellPath).length) return undefined;
  const entries = shellPath.split(':');
  for (const cmd of analysis.commands) {
    const at = programIndex(cmd.words);
    const name = cmd.words[at];
    if (!name || name.includes('/') || BASH_OWN.has(name) || TEST_RUNNERS.has(name)) continue;
    for (const program of [name, ...helpersOf(name, cmd.words.slice(at + 1))]) {
      const found = firstOnPath(program, entries, cwds, pc.isProgramFile);
      if (found)
        return {
          tier: 'ask',
          rule: 'shell:opaque',
          reason: `\`${name}\` runs ${found.path}${program === name ? '' : ` as ${program}`}, a file under the working directory that the agent's PATH finds first (its entry \`${found.entry}\` is relative), not the system's ${program}; what it does cannot be known, so this asks`,
          risk: 'high',
        };
    }
  }
  return undefined;
}

/** The programs a compressed file is read with, which `tar`, `rg -z` and the `z*` tools run by name. */
const DECOMPRESSORS = ['gzip', 'bzip2', 'xz', 'lzma', 'lz4', 'zstd', 'brotli', 'uncompress'];

/**
 * What gzip's shell scripts (`zcat`, `zgrep`, `zless`, `zdiff` …) run by name: gzip, the
 * tool they wrap, each other, and the utilities of their own code.
 */
const Z_SCRIPT_PROGRAMS = [
  'gzip',
  ...'grep less more diff cmp zgrep zdiff sed expr mktemp rm cat tr'.split(' '),
];

/**
 * What `less` runs by name through the person's preprocessor: Debian's and Ubuntu's shells
 * set `LESSOPEN="| /usr/bin/lesspipe %s"`, which less runs even at no terminal, and
 * lesspipe (a shell script) reads an archive, package or document with these, by name.
 */
const LESSPIPE_PROGRAMS = [
  ...DECOMPRESSORS,
  ...'tar unzip file ar dpkg dpkg-deb rpm isoinfo unrar unarj unzoo unsquashfs lunzip lzip miniunz miniunzip catdoc pdftotext identify cat sed grep tr rm mktemp basename dirname'.split(
    ' ',
  ),
];

/**
 * What git runs by name without a terminal: the signature checkers (`gpg.program`,
 * `gpg.x509.program` and `gpg.ssh.program` default to them, and `git log --show-signature`,
 * or any `git log` under the person's `log.showSignature`, runs one for each signed commit it
 * shows), and the manual readers of `git help NAME`.
 */
const GIT_HELPERS = ['gpg', 'gpgsm', 'ssh-keygen', 'man', 'info'];

/**
 * Programs an allowed program starts by name on the same PATH: `tar` reads a compressed
 * archive with its decompressor (chosen by the file's suffix too), `rg -z` searches inside
 * compressed files with them, `zcat`/`zgrep`/`zless`/`zdiff` are scripts that run `gzip`
 * and more, `less` runs lesspipe's tools, git checks signatures with gpg and shows its
 * manual with man. (git's pager and ssh run only at a terminal or for a call that asks
 * anyway.)
 */
function helpersOf(name: string, args: readonly string[]): readonly string[] {
  if (name === 'tar' || name === 'bsdtar' || name === 'gtar') return DECOMPRESSORS;
  if ((name === 'rg' || name === 'ripgrep') && args.some((a) => /^(-[^-]*z|--search-zip$)/.test(a)))
    return DECOMPRESSORS;
  if (/^z(cat|grep|egrep|fgrep|less|more|diff|cmp)$/.test(name)) return Z_SCRIPT_PROGRAMS;
  if (name === 'less') return LESSPIPE_PROGRAMS;
  if (name === 'git') return GIT_HELPERS;
  return [];
}

/**
 * The file a relative PATH entry gives `name` before any absolute folder has it, and that
 * entry as written, or undefined.
 */
function firstOnPath(
  name: string,
  entries: readonly string[],
  cwds: readonly string[],
  isProgramFile: (path: string) => boolean,
): { path: string; entry: string } | undefined {
  const inFolder = (dir: string) => `${dir === '/' ? '' : dir}/${name}`;
  for (const entry of entries) {
    if (entry.startsWith('~')) continue;
    if (entry.startsWith('/')) {
      if (isProgramFile(inFolder(entry.replace(/\/+$/, '')))) return undefined;
      continue;
    }
    for (const cwd of cwds) {
      const path = inFolder(relativeEntryUnder(cwd, entry));
      if (isProgramFile(path)) return { path, entry: entry.replace(/\/+$/, '') || '.' };
    }
  }
  return undefined;
}

/** The relative entries of the last PATH seen: an agent sends the same one with every call. */
let last: { shellPath: string; relative: readonly string[] } | undefined;
export function relativeEntriesOf(shellPath: string): readonly string[] {
  if (last?.shellPath !== shellPath)
    last = { shellPath, relative: shellPathRelativeEntries(shellPath) };
  return last.relative;
}
