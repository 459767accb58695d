import { rankCandidates, type ActionSpec } from './action-spec';
import { gate, type ToolInput, type ToolMapping } from './tool-mapping';

/**
 * The file headers of an `apply_patch` envelope (`*** Add File: p`, `*** Update File: p`,
 * `*** Delete File: p`, `*** Move to: p`), read as every agent that applies one reads them.
 * The agents differ, and what Gatehouse checks must include what each one opens:
 *
 * - Codex (codex-rs/apply-patch/src/parser.rs) trims a hunk's first line of Unicode white
 *   space (Rust's `trim`, which takes U+0085 and not U+FEFF, unlike JavaScript's) before it
 *   looks for `*** Add File: ` with its space; the path is the rest as written. `*** Move to: `
 *   is read from the line untrimmed.
 * - OpenCode (its `apply_patch` tool) looks for `*** Add File:` at the start of the untrimmed
 *   line, with or without the space, and trims the path.
 *
 * So ` *** Add File: .git/hooks/pre-commit` adds that hook in Codex, and
 * `*** Add File:.git/hooks/pre-commit` in OpenCode: a line is read every way any of them
 * reads it, and each path found is checked. A path read where no agent reads one only makes
 * the call ask more.
 */
export type EnvelopeOperation = 'add' | 'update' | 'delete' | 'move';

export interface EnvelopeHeader {
  operation: EnvelopeOperation;
  /** The path as each agent reads it (one, or two when they differ). */
  paths: string[];
}

const MARKERS: readonly [string, EnvelopeOperation][] = [
  ['*** Add File:', 'add'],
  ['*** Update File:', 'update'],
  ['*** Delete File:', 'delete'],
  ['*** Move to:', 'move'],
];

/** Rust's `char::is_whitespace` (Unicode White_Space), which Codex's `trim` removes. */
const RUST_SPACE =
  '[\\t\\n\\v\\f\\r \\u0085\\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000]';
const RUST_TRIM = new RegExp(`^${RUST_SPACE}+|${RUST_SPACE}+$`, 'g');
const rustTrim = (s: string): string => s.replace(RUST_TRIM, '');

/** The header a line of a patch is to any agent, or undefined. */
export function readEnvelopeHeader(line: string): EnvelopeHeader | undefined {
  const trimmed = rustTrim(line);
  for (const [marker, operation] of MARKERS) {
    const paths = new Set<string>();
    // Codex: the marker with its space, on the trimmed line (a move line untrimmed).
    const codexLine = operation === 'move' ? line.replace(/\r$/, '') : trimmed;
    if (codexLine.startsWith(`${marker} `)) paths.add(codexLine.slice(marker.length + 1));
    // OpenCode: the marker at the start of the line as written, the path trimmed.
    if (line.startsWith(marker)) paths.add(line.slice(marker.length).trim());
    // Either, on the trimmed line: a header indented in a way one of them may come to accept.
    if (trimmed.startsWith(marker)) paths.add(trimmed.slice(marker.length).trim());
    paths.delete('');
    if (paths.size) return { operation, paths: [...paths] };
  }
  return undefined;
}

/** The path of a patch whose files Gatehouse could not read: a variable, never resolved. */
export const UNREAD_FILES = '$FILES_THE_PATCH_NAMES';

const ACTION_OF: Readonly<Record<EnvelopeOperation, string>> = {
  add: 'write_file',
  update: 'edit_file',
  delete: 'delete_files',
  move: 'write_file',
};

/**
 * The file operations of one `apply_patch` body (`*** Add File: p`, `*** Update File: p`,
 * `*** Delete File: p`, `*** Move to: p`), each path as any agent applying it reads it,
 * most restrictive first.
 */
export function patchActions(patch: string): ActionSpec[] {
  const found: ActionSpec[] = [];
  for (const line of patch.split('\n')) {
    const header = readEnvelopeHeader(line);
    if (header) found.push({ action: ACTION_OF[header.operation], paths: header.paths });
  }
  // None read: the patch may sit where no reader looked (another field of the call), so it
  // is an edit of a file Gatehouse cannot name, which no rule settles (a word no check
  // resolves), rather than an edit of nothing a rule for every edit would let pass.
  return found.length ? rankCandidates(found) : [{ action: 'edit_file', paths: [UNREAD_FILES] }];
}

/**
 * The fields a patch tool's call carries its patch in: Codex's `command` (or `patch`,
 * `input`), Copilot CLI's free-text argument kept as `input`, OpenCode's `patchText`.
 */
export const PATCH_FIELDS = ['command', 'patch', 'input', 'patchText'] as const;

/**
 * Every patch a call carries, one per field that holds one. A call is judged on all of them
 * and the person is shown all of them, so a second field can neither slip past the check nor
 * be what the person reads in place of what runs.
 */
export function patchesIn(input: ToolInput): string[] {
  return PATCH_FIELDS.flatMap((field) => {
    const v = input[field];
    return typeof v === 'string' && v.length ? [v] : [];
  });
}

/** A patch tool's call: one candidate per kind of file operation, its paths with it. */
export const patchCall = (input: ToolInput): ToolMapping => {
  const candidates = patchActions(patchesIn(input).join('\n'));
  const paths = candidates.flatMap((c) => c.paths ?? []);
  return gate(candidates, `Apply a patch to ${paths.length ? paths.join(', ') : 'files'}`);
};
