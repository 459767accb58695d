import { diffLines } from '../../../shared/request-picture/line-diff';
import { isShellField } from '../../../shared/request-picture/mask-input';
import { maskedSegments } from '../../../shared/request-picture/mask-secrets';

/** A masked edit the daemon will not complete, and why (said to the person as it is). */
export class MaskedEditRefused extends Error {}

/** What the person's edit marks as masked: the mask's end, with or without its ellipsis. */
const MARK = '[masked]';

/** How far the line diff of one field goes before it treats the changed middle as new. */
const MAX_DIFF_WORK = 1_000_000;

/**
 * The person's edit of a masked tool input, with each masked secret they left untouched put
 * back from the agent's own input, here in the daemon (the person never saw the secret).
 *
 * A secret goes back only into its own field (the same JSON path), on a line of that field
 * the edit kept exactly as it was shown, and only where the agent's input had it: every line
 * put back is a line the agent itself wrote. A placeholder moved to another field, another
 * line, or typed into a changed line stays unresolved, and the edit is refused rather than
 * run with a placeholder or a secret somewhere the agent did not put it (an echoed argument,
 * a URL). Text that merely imitates a mask in the agent's input is never a secret: a line
 * kept as it was goes back as the agent wrote it.
 */
export function restoreMaskedEdit(
  original: Record<string, unknown> | undefined,
  edited: Record<string, unknown>,
): Record<string, unknown> {
  return restoreValue(original, edited, []) as Record<string, unknown>;
}

function restoreValue(original: unknown, edited: unknown, path: readonly string[]): unknown {
  if (typeof edited === 'string')
    return restoreText(typeof original === 'string' ? original : '', edited, path);
  if (Array.isArray(edited))
    return edited.map((x, i) =>
      restoreValue(Array.isArray(original) ? original[i] : undefined, x, [...path, String(i)]),
    );
  if (typeof edited === 'object' && edited !== null) {
    const from =
      typeof original === 'object' && original !== null && !Array.isArray(original)
        ? (original as Record<string, unknown>)
        : undefined;
    return Object.fromEntries(
      Object.entries(edited).map(([k, x]) => [
        k,
        restoreValue(
          from && Object.prototype.hasOwnProperty.call(from, k) ? from[k] : undefined,
          x,
          [...path, k],
        ),
      ]),
    );
  }
  return edited;
}

/** One line of a field as the person was shown it, and what the agent's input had there. */
interface ShownLine {
  shown: string;
  original: string;
}

/**
 * The lines of a field's masked form (a masked piece never spans a line break), masked as
 * the kept input was (mask-input.ts): as a command under a shell field.
 */
function shownLines(text: string, path: readonly string[]): ShownLine[] {
  const lines: ShownLine[] = [{ shown: '', original: '' }];
  for (const s of maskedSegments(text, { shell: path.some(isShellField) })) {
    if (s.masked) {
      const last = lines[lines.length - 1]!;
      last.shown += s.shown;
      last.original += s.original;
      continue;
    }
    const parts = s.shown.split('\n');
    parts.forEach((part, i) => {
      if (i > 0) lines.push({ shown: '', original: '' });
      const last = lines[lines.length - 1]!;
      last.shown += part;
      last.original += part;
    });
  }
  return lines;
}

function restoreText(original: string, edited: string, path: readonly string[]): string {
  const shown = shownLines(original, path);
  const editedLines = edited.split('\n');
  const ops = diffLines(
    shown.map((l) => l.shown),
    editedLines,
    MAX_DIFF_WORK,
  );
  const field = path.length ? path.join('.') : 'the input';
  // Lines shown alike but standing for different secrets: which one a kept line is cannot be
  // told when some of them were removed.
  const standsFor = new Map<string, Set<string>>();
  for (const l of shown) {
    const set = standsFor.get(l.shown) ?? new Set<string>();
    set.add(l.original);
    standsFor.set(l.shown, set);
  }
  const kept = new Map<string, number>();
  const out: string[] = [];
  let a = 0;
  let b = 0;
  for (const op of ops) {
    if (op.kind === '-') {
      a++;
      continue;
    }
    if (op.kind === '+') {
      const line = editedLines[b++]!;
      if (line.includes(MARK))
        throw new MaskedEditRefused(
          `the edit has a masked value ("${excerpt(line)}") in ${field} line ${b} that is not where the agent's input had it; a masked secret is put back only in its own field, on a line left exactly as shown: leave that line as it was, or type the value in full`,
        );
      out.push(line);
      continue;
    }
    const line = shown[a++]!;
    b++;
    out.push(line.original);
    if (line.shown !== line.original) kept.set(line.shown, (kept.get(line.shown) ?? 0) + 1);
  }
  for (const [text, count] of kept) {
    const originals = standsFor.get(text)!;
    const all = shown.filter((l) => l.shown === text).length;
    if (originals.size > 1 && count !== all)
      throw new MaskedEditRefused(
        `the edit keeps some of the lines of ${field} shown as "${excerpt(text)}", which stand for different secrets: which one each kept line is cannot be told; keep all of them, or type the values in full`,
      );
  }
  return out.join('\n');
}

const excerpt = (line: string): string => (line.length > 80 ? `${line.slice(0, 79)}…` : line);
