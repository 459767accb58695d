import { codeRunnerProblem } from './code-runners';
import {
  assignedVariableProblem,
  declarationOptions,
  exportedVariableProblem,
} from './environment';
import { gitProblem } from './git';
import { clip, lookupTable, looseByText, own, type KnownProgram, type Looseness } from './options';
import {
  jsPackageManagerProblem,
  npxProblem,
  prettierProblem,
  pythonPmProblem,
} from './package-managers';
import { runnerProblem, taskRunnerProblem, TEST_RUNNERS, toolchainProblem } from './runners';
import { SEARCH_TOOLS } from './search-tools';
import { TEXT_TOOLS } from './text-tools';
import { dateArgs } from './date-args';

/** Programs that read, search or list, each with the options known to be harmless. */
export const KNOWN_PROGRAMS: ReadonlyMap<string, KnownProgram> = lookupTable({
  ...TEXT_TOOLS,
  ...SEARCH_TOOLS,
});

export const JS_PACKAGE_MANAGERS: ReadonlySet<string> = new Set([
  'npm',
  'pnpm',
  'yarn',
  'bun',
  'cnpm',
]);
export const NPX: ReadonlySet<string> = new Set(['npx', 'bunx', 'pnpx']);
export const PYTHON_PACKAGE_MANAGERS: ReadonlySet<string> = new Set([
  'pip',
  'pip3',
  'uv',
  'poetry',
  'pipenv',
]);
export const TASK_RUNNERS: ReadonlySet<string> = new Set(['make', 'just', 'rake', 'mvn', 'gradle']);

/**
 * The program a command word names, for the allowlist: its base name when it is a bare
 * name or a system directory's program (`/usr/bin/git`), else the word itself, which no
 * list holds: a test runner or reader is recognised only as the real program, never as
 * `./pytest` or `bin/cat` (a file the agent may have written).
 */
export function programName(word: string): string {
  if (!word.includes('/')) return word;
  return /^\/(usr\/)?(local\/)?s?bin\/[^/]+$/.test(word) ? word.replace(/^.*\//, '') : word;
}

/**
 * Why a simple command (its program word and arguments, after prefixes such as `env` or
 * `timeout`) is not proven harmless, or undefined. Programs with no entry here are not
 * judged: the mapping makes them `run_command`, which asks.
 */
export function commandProblem(
  programWord: string,
  args: readonly string[],
  loose?: Looseness,
): string | undefined {
  const name = programName(programWord);
  const known = KNOWN_PROGRAMS.get(name);
  if (known) return known.vet(args, loose);
  if (name === 'git') return gitProblem(args, loose);
  if (JS_PACKAGE_MANAGERS.has(name)) return jsPackageManagerProblem(name, args, loose);
  if (NPX.has(name)) return npxProblem(args, loose);
  if (PYTHON_PACKAGE_MANAGERS.has(name)) return pythonPmProblem(name, args);
  if (TEST_RUNNERS.has(name)) return runnerProblem(name, args, loose);
  if (name === 'prettier') return prettierProblem(args);
  if (TASK_RUNNERS.has(name)) return taskRunnerProblem(name, args, loose);
  if (name === 'cargo' || name === 'go') return toolchainProblem(name, args, loose);
  if (name === 'set') return setProblem(args);
  // Built-ins that only print, save for these options.
  if (name === 'history' && args.some((a) => !/^\d+$/.test(a)))
    return `history ${clip(args.join(' '))}: history -w/-a/-r write or read a file (an empty one replaces it)`;
  if (name === 'date') {
    // `date $X` with X=-s… sets the clock, with X=-fFILE prints FILE; and an expansion
    // anywhere may split into more words when unquoted (`-d @$E`, E='1 -s 2020-01-01'). No
    // word of date is a path, so no path check would catch that after this.
    const may = loose ?? looseByText(args);
    const hidden = args.findIndex((_, i) => may(i, true));
    if (hidden >= 0) return `date ${clip(args[hidden]!)}: an expansion may add options to date`;
    if (dateArgs(args).setsClock) return 'date -s sets the clock';
  }
  if (
    name === 'hostname' &&
    args.some(
      (a) =>
        !/^-[sfidAIa]$|^--(short|fqdn|long|domain|ip-address|all-fqdns|all-ip-addresses|alias)$/.test(
          a,
        ),
    )
  )
    return 'hostname with a name or file sets the host name';
  if (name === 'read' || name === 'mapfile' || name === 'readarray' || name === 'getopts')
    return namesProblem(args.filter((a) => /^[A-Za-z_]\w*$/.test(a)));
  if (DECLARATIONS.has(name)) return declarationProblem(name, args);
  if (name === 'wait') {
    // `wait -p X` sets X to a process id.
    const p = args.indexOf('-p');
    return p >= 0 ? namesProblem([args[p + 1] ?? '']) : undefined;
  }
  if (name === 'printf') {
    const v = args.findIndex((a) => a === '-v');
    return v >= 0 ? namesProblem([args[v + 1] ?? '']) : undefined;
  }
  return codeRunnerProblem(name, args);
}

/** `set -a` exports every later assignment; `set -k` exports assignments anywhere. */
function setProblem(args: readonly string[]): string | undefined {
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--' || a === '-') break;
    if (/^[-+][a-zA-Z]*[ak]/.test(a)) return `set ${a} exports assignments to every command`;
    if (/^[-+]o$/.test(a) && /^(allexport|keyword)$/.test(args[i + 1] ?? ''))
      return `set -o ${args[i + 1]} exports assignments to every command`;
  }
  return undefined;
}

/**
 * The built-ins that set variables. Written plainly they are declarations, which the shell
 * analysis judges with their names; only one run as a command reaches here: `builtin export
 * LD_PRELOAD=./x.so` or `command declare -x PATH=.` set them all the same.
 */
const DECLARATIONS = new Set(['export', 'declare', 'typeset', 'local', 'readonly']);

function declarationProblem(name: string, args: readonly string[]): string | undefined {
  const { exported, nameref, integer } = declarationOptions(name, args);
  if (nameref) return `${name} -n makes a name stand for another variable`;
  // The analysis follows a written `declare -i` to the values given later; one run as a
  // command (`command declare -i n; read n < f`) it does not see, so it asks.
  if (integer) return `${name} -i evaluates every value given to its names as arithmetic`;
  for (const a of args) {
    const variable = /^([A-Za-z_]\w*)(=|\[|$)/.exec(a)?.[1];
    if (!variable) continue;
    const problem = exported
      ? exportedVariableProblem(variable)
      : assignedVariableProblem(variable);
    if (problem) return problem;
  }
  return undefined;
}

function namesProblem(names: readonly string[]): string | undefined {
  for (const n of names) {
    const problem = assignedVariableProblem(n);
    if (problem) return problem;
  }
  return undefined;
}

/** Why the options and assignments of a prefix (`env`, `timeout`, `nice` …) are unproven. */
export function prefixProblem(prefix: string, words: readonly string[]): string | undefined {
  for (const w of words) {
    const assignment = /^([A-Za-z_]\w*)=/.exec(w);
    if (assignment) {
      const problem = exportedVariableProblem(assignment[1]!);
      if (problem) return problem;
      continue;
    }
    if (!w.startsWith('-')) continue;
    if (prefix === 'env')
      return `env ${clip(w)}: env's options (-S, -u, -i, -C …) are not known to be harmless`;
    if (!own(PREFIX_OPTIONS, prefix)?.test(w))
      return `${prefix} ${clip(w)} is not an option known to be harmless`;
  }
  if (prefix === 'chroot' || prefix === 'unbuffer')
    return `${prefix} runs a command Gatehouse cannot follow`;
  return undefined;
}

/** Options of the prefixes that only change priority, timing or buffering. */
const PREFIX_OPTIONS: Readonly<Record<string, RegExp>> = {
  timeout:
    /^(-s|-k|-v|--signal(=\w+)?|--kill-after(=\w+)?|--preserve-status|--foreground|--verbose|-[sk]\w+)$/,
  nice: /^(-n|-\d+|--adjustment(=-?\d+)?|-n-?\d+)$/,
  ionice: /^(-c|-n|-t|-c\d|-n\d)$/,
  stdbuf: /^(-[ioe]|-[ioe]\w+|--(input|output|error)=\w+)$/,
  time: /^-p$/,
  command: /^-[pvV]$/,
  exec: /^-[cl]$/,
  sudo: /./,
  doas: /./,
  nohup: /^$/,
};
