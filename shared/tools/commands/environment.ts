/**
 * Environment variables an agent may set for a command it runs: only ones that change
 * language, time zone, colour or terminal size. Any other (`NODE_OPTIONS`, `LD_PRELOAD`,
 * `BASH_ENV`, `GIT_*`, `PAGER`, `PYTHONPATH`, `PATH`, `HOME` …) can make a harmless program
 * load or run code, so a command that sets one asks, naming it.
 */
const SAFE_VARIABLES = new Set([
  'LC_ALL',
  'LC_CTYPE',
  'LC_COLLATE',
  'LC_MESSAGES',
  'LC_NUMERIC',
  'LC_TIME',
  'LANG',
  'LANGUAGE',
  'TZ',
  'NO_COLOR',
  'FORCE_COLOR',
  'CLICOLOR',
  'CLICOLOR_FORCE',
  'COLORTERM',
  'CI',
  'TERM',
  'COLUMNS',
  'LINES',
  'NODE_ENV',
  'RUST_BACKTRACE',
  'PYTHONUNBUFFERED',
  'PYTHONDONTWRITEBYTECODE',
  'DEBUG',
  'VERBOSE',
]);

/** Why setting `name` for a command is not proven harmless, if it is not. */
export function exportedVariableProblem(name: string): string | undefined {
  if (SAFE_VARIABLES.has(name)) return undefined;
  return `${name} is set for the command; ${knownEffect(name) ?? 'only a short list of variables (LC_ALL, TZ, NO_COLOR, …) is known to be harmless'}`;
}

/**
 * Why assigning `name` without exporting it is not proven harmless: a variable already in
 * the environment (`PATH`, `NODE_OPTIONS`, `npm_config_*`, `http_proxy` …) stays exported, so
 * upper-case names outside the safe list and the lower-case ones tools read ask.
 */
export function assignedVariableProblem(name: string): string | undefined {
  const envLike =
    /^[A-Z_][A-Z0-9_]*$/.test(name) || /^(npm_config_|yarn_|pnpm_)|_proxy$/i.test(name);
  return envLike ? exportedVariableProblem(name) : undefined;
}

/** What a declaration's options (`declare -x`, `typeset -n` …) do to the names it is given. */
export interface DeclarationOptions {
  /** `export`, or `-x`: every name given is exported to the commands that follow. */
  readonly exported: boolean;
  /** `-n` (not `export -n`): a name stands for another variable (`declare -n x=PATH`). */
  readonly nameref: boolean;
  /** `-i`: every value given to a name later is evaluated as arithmetic, `$(…)` in it too. */
  readonly integer: boolean;
}

/**
 * Reads a declaration's options. `words` may hold its names too: only words starting with
 * `-` count (a `+` takes an attribute away).
 */
export function declarationOptions(keyword: string, words: readonly string[]): DeclarationOptions {
  const options = words.filter((w) => w.startsWith('-'));
  const has = (pattern: RegExp): boolean => options.some((o) => pattern.test(o));
  return {
    exported: keyword === 'export' || has(/^-[a-zA-Z]*x/),
    nameref: keyword !== 'export' && has(/^-[a-zA-Z]*n/),
    integer: has(/^-[a-zA-Z]*i/),
  };
}

function knownEffect(name: string): string | undefined {
  if (/^(NODE_OPTIONS|NODE_PATH)$/.test(name))
    return `${name} can load code into every node process`;
  if (/^LD_|^DYLD_/.test(name)) return `${name} can load a library into every program`;
  if (/^(BASH_ENV|ENV|PROMPT_COMMAND|PS4|SHELLOPTS|BASHOPTS|IFS)$/.test(name))
    return `${name} can make the shell run commands`;
  if (/^GIT_/.test(name)) return `${name} can make git run a program or use another repository`;
  if (/PAGER$|^LESS|^EDITOR$|^VISUAL$/.test(name)) return `${name} names a program that runs`;
  if (/^(PYTHON|PERL|RUBY|JAVA_|_JAVA|GEM_|BUNDLE_)/.test(name))
    return `${name} can make an interpreter load code`;
  if (/^(PATH|HOME|XDG_CONFIG_HOME|CDPATH)$/.test(name))
    return `${name} changes which programs and configuration files are used`;
  if (/^(npm_config_|NPM_CONFIG_|yarn_|YARN_|pnpm_)/i.test(name))
    return `${name} configures the package manager (scripts, registry, shell)`;
  return undefined;
}
