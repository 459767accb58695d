/**
 * Files a command writes or reaches without naming them: a folder copied or moved
 * into place (`cp -r`, `cp -a`, `mv`, `rsync -a`, `git mv`) writes every name inside it at
 * the destination, `.claude/settings.json` or `.git/hooks/` included; a link (`ln -s T L`)
 * makes whatever is later read or written through `L` reach `T`. Pure: the folder's contents
 * come through the resolver port ({@link PathResolver.listTree}).
 */
import { protectedLocation } from '../policy/protected-locations';
import { commandStart } from './command-start';
import { programName } from './commands/vet';
import type { PathResolver, PathUse, ResolvedPath, ResolveOptions } from './path-resolution';
import type { ShellCommand } from './shell-syntax';

const clip = (s: string, n = 60): string => (s.length > n ? `${s.slice(0, n - 1)}…` : s);
const baseOf = (p: string): string => p.replace(/\/+$/, '').replace(/^.*\//, '');
const under = (dir: string, rel: string): string =>
  rel ? `${dir.replace(/\/+$/, '')}/${rel}` : dir;

/** Words that may name a program that copies or moves folders (checked before parsing). */
const COPIERS = /(^|\/)(cp|mv|rsync|git)$/;
/** Options of cp, mv and git mv that take the next word. */
const COPY_VALUE = /^(-t|-S|--target-directory|--suffix)$/;
/** Options of rsync that take the next word (the `--x=value` forms are one word). */
const RSYNC_VALUE =
  /^(-e|-f|-T|-B|-M|--rsh|--rsync-path|--filter|--exclude|--include|--exclude-from|--include-from|--files-from|--temp-dir|--partial-dir|--backup-dir|--suffix|--block-size|--max-size|--min-size|--timeout|--contimeout|--port|--password-file|--link-dest|--copy-dest|--compare-dest|--remote-option|--chmod|--chown|--log-file|--log-file-format|--out-format|--modify-window|--bwlimit|--iconv|--usermap|--groupmap|--info|--debug|--max-delete|--compress-level|--skip-compress|--checksum-choice|--outbuf|--stop-after|--stop-at|--write-batch|--read-batch|--only-write-batch|--sockopts|--protocol)$/;
/** Options that make the copy follow links inside the folder (their targets are copied). */
const FOLLOWS =
  /^(-[A-Za-z]*[LHk][A-Za-z]*|--dereference|--copy-links|--copy-dirlinks|--copy-unsafe-links)$/;

/** The copies a command makes: folders it copies or moves, and where to. */
interface TreeCopy {
  sources: string[];
  destination: string;
  follow: boolean;
}

/** What `cp`/`mv`/`rsync`/`git mv` copy and where, or undefined for any other command. */
function treeCopy(cmd: ShellCommand): TreeCopy | undefined {
  if (!cmd.words.some((w) => COPIERS.test(w))) return undefined;
  const start = commandStart(cmd.words).program;
  const name = programName(cmd.words[start] ?? '');
  let args = cmd.words.slice(start + 1);
  if (name === 'git') {
    // `git mv SRC… DEST`, past git's global options (which the allowlist judges).
    const sub = args.findIndex((a) => !a.startsWith('-'));
    if (args[sub] !== 'mv' || args.slice(0, sub).some((a) => a === '-C' || a === '-c'))
      return undefined;
    args = args.slice(sub + 1);
  } else if (name !== 'cp' && name !== 'mv' && name !== 'rsync') return undefined;
  const valueOption = name === 'rsync' ? RSYNC_VALUE : COPY_VALUE;
  const operands: string[] = [];
  let target: string | undefined;
  let follow = false;
  let optionsEnd = false;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (optionsEnd || !a.startsWith('-') || a === '-') {
      operands.push(a);
      continue;
    }
    if (a === '--') optionsEnd = true;
    else if (valueOption.test(a)) {
      if (a === '-t' || a === '--target-directory') target = args[i + 1];
      i++;
    } else if (a.startsWith('--target-directory=')) target = a.slice(a.indexOf('=') + 1);
    else if (/^-t./.test(a) && name !== 'rsync') target = a.slice(2);
    else if (FOLLOWS.test(a) && !(name === 'rsync' && /^-[A-Za-z]*H/.test(a) && !/[Lk]/.test(a)))
      follow = true;
  }
  if (target !== undefined) return { sources: operands, destination: target, follow };
  if (operands.length < 2) return undefined;
  return { sources: operands.slice(0, -1), destination: operands.at(-1)!, follow };
}

/** An entry whose name may be protected at the destination: a protected name, or a dot name at the top. */
const suspect = (rel: string): boolean =>
  (rel.startsWith('.') && !rel.includes('/')) || protectedLocation(`/${rel}`, '') !== undefined;
/** At most this many names of one folder are checked at each destination. */
const MAX_NAMED = 256;

/**
 * The writes of a folder copied or moved into place: for each source folder, each name in
 * it that may be protected, at the destination (`dest/name`, and `dest/folder/name` when the
 * destination is an existing folder). A folder that cannot be read whole gives `unresolved`.
 */
export function treeCopyUses(
  cmd: ShellCommand,
  command: number,
  opts: ResolveOptions,
  resolver: PathResolver,
): (PathUse | { word: string; unresolved: string })[] {
  const copy = resolver.listTree && treeCopy(cmd);
  if (!copy) return [];
  const out: (PathUse | { word: string; unresolved: string })[] = [];
  const line = clip(cmd.words.join(' '));
  const destinations = resolver.resolve(copy.destination, opts).paths;
  for (const source of copy.sources) {
    for (const from of resolver.resolve(source, opts).paths) {
      const listing = resolver.listTree!(from.real, copy.follow);
      if (!listing) continue;
      if ('unreadable' in listing) {
        out.push({
          word: source,
          unresolved: `${line} copies the folder ${clip(source)}, which ${listing.unreadable}; what it holds (.claude, .git, hooks …) cannot be checked`,
        });
        continue;
      }
      const into = destinations.flatMap((to) => {
        const folder = baseOf(from.lexical);
        return [
          to,
          { lexical: under(to.lexical, folder), real: under(to.real, folder), glob: false },
        ];
      });
      out.push({
        word: `${line} (the folder ${clip(source)})`,
        role: 'write',
        paths: [],
        command,
        copied: { into, entries: listing.entries },
      });
      const named = listing.entries.filter(suspect);
      // One protected name is enough to ask; the rest are checked only at the home level.
      const anywhere = named.find((rel) => protectedLocation(`/${rel}`, '') !== undefined);
      const checked = anywhere !== undefined ? [anywhere] : named.slice(0, MAX_NAMED);
      for (const rel of checked) {
        const paths: ResolvedPath[] = [];
        for (const to of destinations) {
          const folder = baseOf(from.lexical);
          for (const d of [
            to,
            { lexical: under(to.lexical, folder), real: under(to.real, folder) },
          ])
            paths.push({ lexical: under(d.lexical, rel), real: under(d.real, rel), glob: false });
        }
        out.push({
          word: `${line} (it writes ${rel}, named only inside ${clip(source)})`,
          role: 'write',
          paths,
          command,
        });
      }
    }
  }
  return out;
}

/** How `ln` was called: its targets (word indices), where the links go, and its kind. */
export interface LinkCall {
  /** Indices in the command's words of what the links point at. */
  targets: number[];
  /** `-t DIR`, or the last operand: a folder for the links, or the one link's name. */
  place?: string | undefined;
  /** The place is a folder for sure (`-t`, three operands or more). */
  placeIsFolder: boolean;
  symbolic: boolean;
  /** `ln -r`: the target is named from the working directory (ln makes it relative). */
  relative: boolean;
}

/** The parts of an `ln` command, or undefined for any other program. */
export function lnCall(words: readonly string[]): LinkCall | undefined {
  if (!words.some((w) => w === 'ln' || w.endsWith('/ln'))) return undefined;
  const start = commandStart(words).program;
  if (programName(words[start] ?? '') !== 'ln') return undefined;
  const operands: number[] = [];
  const call: LinkCall = { targets: [], placeIsFolder: false, symbolic: false, relative: false };
  let optionsEnd = false;
  for (let i = start + 1; i < words.length; i++) {
    const a = words[i]!;
    if (optionsEnd || !a.startsWith('-') || a === '-') operands.push(i);
    else if (a === '--') optionsEnd = true;
    else if (a === '-t' || a === '--target-directory') call.place = words[++i];
    else if (a.startsWith('--target-directory=')) call.place = a.slice(a.indexOf('=') + 1);
    else if (a === '-S' || a === '--suffix') i++;
    else if (a === '--symbolic') call.symbolic = true;
    else if (a === '--relative') call.relative = true;
    else if (/^-[A-Za-z]+$/.test(a)) {
      call.symbolic ||= a.includes('s');
      call.relative ||= a.includes('r');
      if (a.endsWith('t')) call.place = words[++i];
    }
  }
  if (call.place !== undefined) {
    call.placeIsFolder = true;
    call.targets = operands;
  } else if (operands.length === 1) call.targets = operands;
  else if (operands.length > 1) {
    call.place = words[operands.at(-1)!];
    call.placeIsFolder = operands.length > 2;
    call.targets = operands.slice(0, -1);
  }
  return call;
}

/**
 * What the links a command makes point at: `ln -s TARGET LINK` (the target taken from the
 * link's folder, as the kernel does), `ln -s TARGET` (a link in the working directory),
 * `ln -s T… DIR`, `-t DIR`, `-r` (the target as written from the working directory), and a
 * hard link's file (`ln FILE LINK`, the same file under two names).
 */
export function linkUses(
  cmd: ShellCommand,
  opts: ResolveOptions,
  resolver: PathResolver,
): { word: string; paths: ResolvedPath[]; unresolved?: string }[] {
  const call = lnCall(cmd.words);
  if (!call) return [];
  /** Where each link is made: its folder, from which a relative target is taken. */
  const linkDirs =
    call.place === undefined
      ? [...opts.cwds]
      : resolvedDirs(call.place, opts, resolver, !call.placeIsFolder);
  const out: { word: string; paths: ResolvedPath[]; unresolved?: string }[] = [];
  for (const k of call.targets) {
    const t = cmd.words[k]!;
    // A hard link's file and `ln -r`'s target are named from the working directory.
    const from = !call.symbolic || call.relative ? [...opts.cwds] : linkDirs;
    const r = resolver.resolve(t, {
      ...opts,
      cwds: from,
      literal: cmd.dynamic?.[k] === false,
    });
    out.push({
      word: `${clip(cmd.words.join(' '))} (a link to ${clip(t)})`,
      paths: r.paths,
      ...(r.unresolved ? { unresolved: r.unresolved } : {}),
    });
  }
  return out;
}

/** The folders a path word names (real), and with `parentToo` the folder holding it. */
function resolvedDirs(
  word: string,
  opts: ResolveOptions,
  resolver: PathResolver,
  parentToo: boolean,
): string[] {
  const dirs: string[] = [];
  for (const p of resolver.resolve(word, opts).paths) {
    dirs.push(p.real);
    if (parentToo) dirs.push(p.real.slice(0, p.real.lastIndexOf('/')) || '/');
  }
  return dirs;
}
