/**
 * The text a file tool call would leave on disk, computed from the call's input and the
 * file's current text: Write-like tools replace it, Edit-like tools replace one string (or
 * each of a list, in turn). Pure: the Node side reads the file (main/picture/). Tools that
 * carry their own patch (Codex apply_patch) are shown as that patch instead.
 */

export type FileEdit =
  | { kind: 'write'; path: string; content: string }
  | { kind: 'replace'; path: string; edits: { old: string; new: string; all: boolean }[] }
  | { kind: 'patch'; patch: string };

import { patchesIn } from '../tools/patch-envelope';

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

/** The file a call's input names, under each agent's spelling of the field. */
function pathOf(input: Record<string, unknown>): string | undefined {
  return str(input.file_path) ?? str(input.path) ?? str(input.filePath) ?? str(input.absolute_path);
}

/**
 * What a tool call does to a file, read from its input, when the tool is one of the file
 * tools: Claude Code Write/Edit/MultiEdit, Gemini CLI write_file/replace, Copilot CLI and
 * OpenCode create/edit/write, Codex and OpenCode apply_patch. Undefined for anything else.
 */
export function fileEditOf(tool: string, input: Record<string, unknown>): FileEdit | undefined {
  const name = tool.toLowerCase();
  if (name === 'apply_patch') {
    // Every field the call is judged on (patch-envelope.ts), so what is shown is what ran.
    const patches = patchesIn(input);
    return patches.length ? { kind: 'patch', patch: patches.join('\n') } : undefined;
  }
  const path = pathOf(input);
  if (path === undefined) return undefined;
  const content = str(input.content) ?? str(input.file_text);
  if ((name === 'write' || name === 'write_file' || name === 'create') && content !== undefined)
    return { kind: 'write', path, content };
  if (name === 'multiedit' && Array.isArray(input.edits)) {
    const edits = input.edits.flatMap((e: unknown) => {
      if (typeof e !== 'object' || e === null) return [];
      const r = e as Record<string, unknown>;
      const o = str(r.old_string) ?? str(r.oldString);
      const n = str(r.new_string) ?? str(r.newString);
      return o === undefined || n === undefined
        ? []
        : [{ old: o, new: n, all: r.replace_all === true || r.replaceAll === true }];
    });
    return { kind: 'replace', path, edits };
  }
  if (name === 'edit' || name === 'replace' || name === 'str_replace' || name === 'edit_file') {
    const o = str(input.old_string) ?? str(input.oldString) ?? str(input.old_str);
    const n = str(input.new_string) ?? str(input.newString) ?? str(input.new_str);
    if (o === undefined || n === undefined) return undefined;
    const all = input.replace_all === true || input.replaceAll === true;
    return { kind: 'replace', path, edits: [{ old: o, new: n, all }] };
  }
  return undefined;
}

/** The file's text after the edits, or why they do not apply (the agent's tool would fail too). */
export function applyEdits(
  before: string,
  edits: readonly { old: string; new: string; all: boolean }[],
): { text: string } | { error: string } {
  let text = before;
  for (const e of edits) {
    if (e.old === '') {
      if (text !== '') return { error: 'an edit with an empty old string on a non-empty file' };
      text = e.new;
      continue;
    }
    const at = text.indexOf(e.old);
    if (at < 0) return { error: 'an edit whose old string is not in the file' };
    text = e.all
      ? text.split(e.old).join(e.new)
      : text.slice(0, at) + e.new + text.slice(at + e.old.length);
  }
  return { text };
}
