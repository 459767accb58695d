import type { PlacedCommand } from './placed-commands';

/** A file (or folder of files) a command applies, as its words name it. */
export interface AppliedRef {
  /** What applies it: `kubectl apply`, `terraform apply`, `psql`, `docker compose up`. */
  by: string;
  /** As written; resolved against `cwd` when read. */
  path: string;
  cwd?: string;
  unknownDir?: string;
  /** Set when the path names a folder of files: which of its files are shown. */
  folder?: RegExp;
  /** True when the path may be absent and then is passed over (compose's default names). */
  optional?: boolean;
  /** When the path is a file, not a folder, it is not shown: why (a saved terraform plan). */
  fileNotShown?: string;
}

const base = (w: string | undefined): string => (w ?? '').replace(/^.*\//, '');

/** The value of a `-f X`, `-fX`, `--file X` or `--file=X` option at `words[i]`, if it is one. */
function optionValue(
  words: readonly string[],
  i: number,
  short: string | undefined,
  long: readonly string[],
): { value: string; next: number } | undefined {
  const w = words[i]!;
  for (const l of long) {
    if (w === l && i + 1 < words.length) return { value: words[i + 1]!, next: i + 1 };
    if (w.startsWith(`${l}=`)) return { value: w.slice(l.length + 1), next: i };
  }
  if (short === undefined) return undefined;
  if (w === short && i + 1 < words.length) return { value: words[i + 1]!, next: i + 1 };
  if (w.startsWith(short) && !w.startsWith('--') && w.length > short.length) {
    const rest = w.slice(short.length);
    return { value: rest.startsWith('=') ? rest.slice(1) : rest, next: i };
  }
  return undefined;
}

/** Every value of one option in `words`. */
function valuesOf(words: readonly string[], short: string | undefined, long: readonly string[]) {
  const out: string[] = [];
  for (let i = 0; i < words.length; i++) {
    const v = optionValue(words, i, short, long);
    if (v) {
      out.push(v.value);
      i = v.next;
    }
  }
  return out;
}

const MANIFESTS = /\.(ya?ml|json)$/i;
const TERRAFORM = /\.tf$/i;
const COMPOSE_NAMES = ['compose.yaml', 'compose.yml', 'docker-compose.yaml', 'docker-compose.yml'];

/**
 * The files the commands of a line apply, read from their words: `kubectl apply|create|replace
 * -f F` (a folder: its manifests), `terraform apply` (a saved plan is named, not shown; else
 * the configuration's `.tf` files, `-chdir` followed), `psql -f F`, and `docker compose up`
 * (its `-f` files, or the default compose file of the directory).
 */
export function appliedRefs(commands: readonly PlacedCommand[]): AppliedRef[] {
  const out: AppliedRef[] = [];
  for (const c of commands) {
    const w = c.words;
    const at = {
      ...(c.cwd !== undefined ? { cwd: c.cwd } : {}),
      ...(c.unknownDir !== undefined ? { unknownDir: c.unknownDir } : {}),
    };
    const program = base(w[0]);
    if (program === 'kubectl') {
      const verb = w.find((x) => x === 'apply' || x === 'create' || x === 'replace');
      if (verb === undefined) continue;
      for (const path of valuesOf(w, '-f', ['--filename']))
        out.push({ by: `kubectl ${verb}`, path, ...at, folder: MANIFESTS });
      for (const path of valuesOf(w, '-k', ['--kustomize']))
        out.push({ by: `kubectl ${verb}`, path, ...at, folder: MANIFESTS });
    } else if (program === 'terraform') {
      const sub = w.findIndex((x, i) => i > 0 && !x.startsWith('-'));
      if (w[sub] !== 'apply') continue;
      const chdir = valuesOf(w.slice(0, sub), undefined, ['-chdir'])[0];
      const operand = w.slice(sub + 1).find((x) => !x.startsWith('-'));
      const dir = { by: 'terraform apply', ...at, folder: TERRAFORM };
      if (operand !== undefined)
        out.push({
          ...dir,
          path: chdir ? `${chdir}/${operand}` : operand,
          fileNotShown: 'a saved plan (binary): `terraform show` prints it',
        });
      else out.push({ ...dir, path: chdir ?? '.' });
    } else if (program === 'psql') {
      for (const path of valuesOf(w, '-f', ['--file'])) out.push({ by: 'psql', path, ...at });
    } else if (
      (program === 'docker' && w[1] === 'compose') ||
      (program === 'docker' && w.includes('compose')) ||
      program === 'docker-compose'
    ) {
      const up = w.indexOf('up');
      if (up < 0) continue;
      const files = valuesOf(w.slice(0, up), '-f', ['--file']);
      const projectDir = valuesOf(w.slice(0, up), undefined, ['--project-directory'])[0];
      const by = 'docker compose up';
      if (files.length) for (const path of files) out.push({ by, path, ...at });
      else
        for (const name of COMPOSE_NAMES)
          out.push({
            by,
            path: projectDir ? `${projectDir}/${name}` : name,
            ...at,
            optional: true,
          });
    }
  }
  return out;
}
