import { readEnvelopeHeader } from '../tools/patch-envelope';

/**
 * A patch that changes several files, split into one part per file: Codex's `apply_patch`
 * envelope (`*** Update File: p`, `*** Add File: p`, `*** Delete File: p`) or a unified diff
 * (`diff --git a/p b/p`, or `--- a/p` / `+++ b/p`). A patch in neither form is one part.
 */
export interface PatchPart {
  /** The file as the patch names it (relative paths are the call's directory's). */
  path?: string;
  kind: 'add' | 'update' | 'delete';
  /** The part's own lines, as in the patch. */
  text: string;
  added: number;
  removed: number;
}

/** A line that starts a file of the envelope, as any agent applying it reads it. */
function envelopeStart(line: string): { path: string; kind: PatchPart['kind'] } | undefined {
  const header = readEnvelopeHeader(line);
  if (!header || header.operation === 'move') return undefined;
  return { path: header.paths[0]!, kind: header.operation };
}
const GIT_HEADER = /^diff --git a\/(.+?) b\/(.+)$/;
const PLUS_HEADER = /^\+\+\+ (?:b\/)?(.+?)(\t.*)?$/;

export function splitPatch(patch: string): PatchPart[] {
  const lines = patch.split('\n');
  // Each line's header read once: whether the patch is an envelope, and where its files start.
  const starts = lines.map(envelopeStart);
  const envelope = starts.some((e) => e !== undefined);
  const parts: { path?: string; kind: PatchPart['kind']; lines: string[] }[] = [];
  let current: (typeof parts)[number] | undefined;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const e = starts[i];
    const g = envelope ? null : GIT_HEADER.exec(line);
    // A plain `--- a/p` / `+++ b/p` pair starts a file unless it belongs to a `diff --git`
    // header just read (whose part has no hunk yet).
    const plainStart =
      !envelope &&
      line.startsWith('--- ') &&
      lines[i + 1]?.startsWith('+++ ') === true &&
      (current === undefined || current.lines.some((l) => l.startsWith('@@')));
    if (e) {
      current = { path: e.path, kind: e.kind, lines: [] };
      parts.push(current);
    } else if (g || plainStart) {
      current = { kind: 'update', lines: [] };
      if (g) current.path = g[2]!;
      parts.push(current);
    }
    if (envelope && /^\*\*\* (Begin|End) Patch/.test(line)) continue;
    if (!current) {
      current = { kind: 'update', lines: [] };
      parts.push(current);
    }
    current.lines.push(line);
    if (!envelope && current.path === undefined) {
      const plus = PLUS_HEADER.exec(line);
      if (plus && plus[1] !== '/dev/null') current.path = plus[1]!;
    }
    if (!envelope && line.startsWith('new file mode')) current.kind = 'add';
    if (!envelope && line.startsWith('deleted file mode')) current.kind = 'delete';
  }
  return parts
    .filter((p) => p.lines.some((l) => l.trim() !== ''))
    .map((p) => {
      let added = 0;
      let removed = 0;
      for (const l of p.lines) {
        if (l.startsWith('+') && !l.startsWith('+++')) added++;
        else if (l.startsWith('-') && !l.startsWith('---')) removed++;
      }
      const text = p.lines.join('\n');
      return {
        ...(p.path !== undefined ? { path: p.path } : {}),
        kind: p.kind,
        text,
        added,
        removed,
      };
    });
}
