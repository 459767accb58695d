import { commandStart, PREFIXES } from './command-start';
import { programName } from './commands/vet';
import type { ShellAnalysis } from './shell-syntax';

/**
 * Gatehouse's own environment variables whose value lets whoever reads it decide requests:
 * a person's hub token (GATEHOUSE_HUB_TOKEN overrides `gatehouse hub login`'s file, which
 * agents cannot read) and the hub's database URL, password included. Set in the shell an agent
 * is started from, they are in the agent's environment, and `echo $GATEHOUSE_HUB_TOKEN` would
 * hand the model what approves its own requests on the hub.
 */
export const GATEHOUSE_SECRET_VARIABLES = [
  'GATEHOUSE_HUB_TOKEN',
  'GATEHOUSE_HUB_DATABASE_URL',
] as const;

/** One of {@link GATEHOUSE_SECRET_VARIABLES}. */
export type SecretVariable = (typeof GATEHOUSE_SECRET_VARIABLES)[number];

/** The secret variables set in `env` (the hook's, which the agent's commands inherit). */
export const secretVariablesIn = (
  env: Readonly<Record<string, string | undefined>>,
): SecretVariable[] => GATEHOUSE_SECRET_VARIABLES.filter((name) => !!env[name]);

/**
 * The secret variable a command names, however it spells it: `$X`, `${X}`, `printenv X`,
 * `ENVIRON["X"]`, or with quotes and backslashes inside the name (`X` as `GATEHOUSE_HUB_TOK""EN`
 * after quote removal), or in one of the command's words as the parser reads them (`words`:
 * `GATEHOUSE_HUB_TOK$'E'N` is one word).
 */
export function namedSecretVariable(
  command: string,
  analysis?: Pick<ShellAnalysis, 'commands'>,
): string | undefined {
  const plain = command.replace(/["'\\]/g, '');
  return GATEHOUSE_SECRET_VARIABLES.find(
    (name) =>
      plain.includes(name) ||
      !!analysis?.commands.some((c) => c.words.some((w) => w.includes(name))),
  );
}

/** How a command would show the agent a secret variable: by its name, or with all the rest. */
export interface ShownSecretVariable {
  name: string;
  how: 'named' | 'printed';
}

/**
 * The secret variable a command would show the agent: one it names, or, while the agent's
 * environment holds one (`held`), the first of them when the command prints the whole
 * environment. The daemon's finding and the offline judge both ask this one question.
 */
export function shownSecretVariable(
  command: string,
  analysis: Pick<ShellAnalysis, 'commands' | 'printsEnvironment'> | undefined,
  held: readonly string[] | undefined,
): ShownSecretVariable | undefined {
  const named = namedSecretVariable(command, analysis);
  if (named) return { name: named, how: 'named' };
  const printed = analysis?.printsEnvironment ? held?.[0] : undefined;
  return printed ? { name: printed, how: 'printed' } : undefined;
}

/**
 * Whether a simple command's words print every variable of the environment, or any one of
 * them: `env` or `printenv` with nothing to run or name, `set` with no arguments, `printenv`
 * given a name it computes (`computed(i)`: word `i` as written holds a `$` or a backslash, as
 * in `printenv X$'\x45'`, which bash spells out only when it runs).
 */
export function printsEnvironment(
  words: readonly string[],
  computed: (index: number) => boolean = () => false,
): boolean {
  // Most commands start with neither a printer nor a prefix: no need to find their program.
  const first = words[0] === undefined ? '' : programName(words[0]);
  if (first !== 'printenv' && first !== 'set' && !JQ_LANGUAGE.has(first) && !PREFIXES.has(first))
    return false;
  const { program, prefixes } = commandStart(words);
  if (program >= words.length) return prefixes.some((p) => p.name === 'env');
  const name = programName(words[program]!);
  const args = words.slice(program + 1);
  if (name === 'printenv')
    return args.every((a) => a.startsWith('-')) || args.some((_, i) => computed(program + 1 + i));
  if (JQ_LANGUAGE.has(name)) return args.some((a) => !a.startsWith('-') && JQ_READS_ENV.test(a));
  return name === 'set' && args.length === 0;
}

/** Programs whose filter is jq's language (yq as jq's wrapper, or as its own with `env()`). */
const JQ_LANGUAGE = new Set(['jq', 'gojq', 'jaq', 'yq']);

/**
 * A filter that reads the environment: jq's `env` and `$ENV` hold every variable, so a name
 * put together from pieces (`env["GATEHOUSE_HUB_" + "TOKEN"]`) is never written out; yq's
 * `env()`, `strenv()` and `envsubst` read by a name that can be computed too. A key named
 * `env` (`.config.env`) is not one.
 */
const JQ_READS_ENV = /(^|[^\w$.])(\$ENV|env|strenv|envsubst)\b/;

/**
 * Whether `export`, `declare` or `typeset` with these arguments lists the variables, or one
 * whose name it computes (`written`: the arguments as the line spells them).
 */
export const declarationPrints = (
  keyword: string,
  args: readonly string[],
  written: readonly string[],
): boolean =>
  /^(export|declare|typeset)$/.test(keyword) &&
  (args.every((a) => a.startsWith('-')) || written.some((w) => /[$\\]/.test(w)));
