/** Lines in a text as an editor counts them: an empty text has none. */
const lines = (text: unknown): number =>
  typeof text === 'string' && text.length ? text.replace(/\n$/, '').split('\n').length : 0;

/**
 * How big a file edit is, for the person deciding on it: `+A −R lines` from a tool call's own
 * input (Claude Code's Write, Edit, MultiEdit, NotebookEdit). Undefined for other tools.
 */
export function editStats(tool: string, input: Record<string, unknown>): string | undefined {
  let added = 0;
  let removed = 0;
  switch (tool) {
    case 'Write':
      added = lines(input.content);
      break;
    case 'Edit':
      added = lines(input.new_string);
      removed = lines(input.old_string);
      break;
    case 'MultiEdit':
      for (const e of Array.isArray(input.edits) ? input.edits : []) {
        if (typeof e !== 'object' || e === null) continue;
        added += lines((e as Record<string, unknown>).new_string);
        removed += lines((e as Record<string, unknown>).old_string);
      }
      break;
    case 'NotebookEdit':
      added = lines(input.new_source);
      break;
    default:
      return undefined;
  }
  return `+${added} −${removed} lines`;
}
