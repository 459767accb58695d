import { maskSecrets } from './mask-secrets';

/**
 * The fields whose strings a shell runs: a tool input's `command` (Claude Code's, Gemini's and
 * Copilot's shell tools), Codex's `command` argument list, a `script`, and a request's own
 * `command`. Their text is masked as a command (mask-secrets.ts, `shell`), in every string
 * below them too.
 */
const SHELL_FIELDS = /^(?:command|commands|cmd|script|args|argv)$/i;

/** Whether the strings under this key (and below it) are a command a shell runs. */
export const isShellField = (key: string): boolean => SHELL_FIELDS.test(key);

/**
 * A tool input with every string in it masked as a picture's diff is (mask-secrets.ts): what
 * a request keeps for the person to read and edit. Keys stay as they are, so each field is
 * still where it was; the daemon alone keeps the unmasked input, while the agent waits.
 */
export function maskInput(input: Record<string, unknown>): Record<string, unknown> {
  return maskStrings(input);
}

/**
 * `value` with every string in it, however deep, masked (mask-secrets.ts); keys, numbers and
 * the shape stay as they are. Strings under a shell field ({@link isShellField}) are masked
 * as commands.
 */
export function maskStrings<T>(value: T): T {
  return maskValue(value, false) as T;
}

function maskValue(v: unknown, shell: boolean): unknown {
  if (typeof v === 'string') return maskSecrets(v, { shell });
  if (Array.isArray(v)) return v.map((x) => maskValue(x, shell));
  if (typeof v === 'object' && v !== null)
    return Object.fromEntries(
      Object.entries(v).map(([k, x]) => [k, maskValue(x, shell || isShellField(k))]),
    );
  return v;
}
