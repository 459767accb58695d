import { homedir } from 'node:os';
import { isAbsolute, resolve } from 'node:path';
import { loadBashParser } from '../../shared/node/bash-parser';
import { programIndex } from '../../shared/tools/shell-paths';
import type { ShellCommand } from '../../shared/tools/shell-syntax';

/** One simple command of a call, with the directory it runs in. */
export interface PlacedCommand {
  /** The command's words from its program on (prefixes like `env` or `nice` skipped). */
  words: string[];
  /** True per word when it holds an expansion the shell performs (`$X`, `$(…)`). */
  dynamic: boolean[];
  /** Where it runs: the call's directory after the line's `cd`s; absent when unknown. */
  cwd?: string;
  /** Why the directory is not known (a `cd $X`, a `cd -`), when it is not. */
  unknownDir?: string;
}

/**
 * The simple commands of a command line, in order, each with the directory it runs in: the
 * call's own, moved by every `cd` and `pushd` before it (`cd sub && git push` runs in `sub`).
 * A `cd` whose target is only known when it runs leaves the directory unknown, so the
 * picture says so rather than reading another directory's repository.
 */
export async function placedCommands(
  command: string,
  cwd: string | undefined,
): Promise<PlacedCommand[]> {
  const parser = await loadBashParser();
  const out: PlacedCommand[] = [];
  let at: { cwd?: string; unknownDir?: string } = cwd === undefined ? {} : { cwd };
  for (const c of parser.analyse(command).commands) {
    const start = programIndex(c.words);
    const words = c.words.slice(start);
    const dynamic = words.map((_, i) => isDynamic(c, start + i));
    const program = words[0];
    if (program === 'cd' || program === 'pushd') {
      at = moved(at, words, dynamic);
      continue;
    }
    out.push({ words, dynamic, ...at });
  }
  return out;
}

/** The directory after a `cd` (or `pushd`) from `at`. */
function moved(
  at: { cwd?: string; unknownDir?: string },
  words: readonly string[],
  dynamic: readonly boolean[],
): { cwd?: string; unknownDir?: string } {
  const k = words.findIndex((w, i) => i > 0 && !/^-[LPe@]+$/.test(w) && w !== '--');
  const target = k < 0 ? '~' : words[k]!;
  if (k >= 0 && dynamic[k]) return { unknownDir: `it runs after \`cd ${target}\`` };
  if (target === '-' || /^[+-]\d+$/.test(target))
    return { unknownDir: `it runs after \`cd ${target}\`` };
  if (target === '~' || target.startsWith('~/'))
    return { cwd: resolve(homedir(), target.slice(2)) };
  if (target.startsWith('~')) return { unknownDir: `it runs after \`cd ${target}\`` };
  if (isAbsolute(target)) return { cwd: resolve(target) };
  if (at.cwd === undefined) return at;
  return { cwd: resolve(at.cwd, target) };
}

function isDynamic(c: ShellCommand, i: number): boolean {
  const flag = c.dynamic?.[i];
  return flag ?? /[$`]/.test(c.words[i] ?? '');
}
