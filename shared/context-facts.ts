/** Labels for the context keys agents' hooks send (the Claude Code hook: tool, cwd, …). */
const CONTEXT_LABELS: Readonly<Record<string, string>> = {
  tool: 'Tool',
  cwd: 'Working dir',
  event: 'Hook event',
  permissionMode: 'Permissions',
  alsoAsking: 'Also asks',
  toolUseId: 'Tool call',
  diff: 'Changes',
  toolInput: 'Tool input',
};

/** Keys whose value can be long (a file's content): their line is cut to this many characters. */
const CUT: Readonly<Record<string, number>> = { toolInput: 200 };

/** One line of a request's context, readable: a label and the value as text. */
export interface ContextFact {
  key: string;
  label: string;
  text: string;
}

/**
 * A request's context as labelled facts, one per key, instead of one blob of JSON: lists of
 * strings joined, nested values as compact JSON, whitespace folded. The CLI's `show` and the
 * dashboard's request detail print the same facts; the raw JSON stays one step away in both.
 */
export function contextFacts(context: Record<string, unknown> | undefined): ContextFact[] {
  if (!context) return [];
  const facts: ContextFact[] = [];
  for (const [key, value] of Object.entries(context)) {
    if (value === undefined || value === null) continue;
    const text =
      Array.isArray(value) && value.every((v) => typeof v === 'string')
        ? value.join(', ')
        : typeof value === 'string'
          ? value
          : JSON.stringify(value);
    const label = Object.prototype.hasOwnProperty.call(CONTEXT_LABELS, key)
      ? CONTEXT_LABELS[key]!
      : key;
    const folded = text.replace(/\s+/g, ' ');
    const cut = CUT[key];
    facts.push({
      key,
      label,
      text: cut !== undefined && folded.length > cut ? `${folded.slice(0, cut)}…` : folded,
    });
  }
  return facts;
}
