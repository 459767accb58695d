/**
 * A unified diff shown two ways: side by side on a wide screen (removed lines on the left,
 * added on the right, paired within each change), unified on a narrow one. Both are
 * rendered and the stylesheet shows one by the screen's width, so resizing needs no state.
 */
export function DiffView({ diff, testId = 'picture-diff' }: { diff: string; testId?: string }) {
  const lines = diff.split('\n');
  return (
    <div className="diff-views">
      <pre className="diff diff-unified" data-testid={testId}>
        {lines.map((line, i) => (
          <span key={i} className={`diff-line diff-${kindOf(line)}`}>
            {line}
            {'\n'}
          </span>
        ))}
      </pre>
      <SplitDiff lines={lines} />
    </div>
  );
}

type Kind = 'hunk' | 'file' | 'add' | 'del' | 'ctx';

function kindOf(line: string): Kind {
  if (line.startsWith('@@')) return 'hunk';
  if (line.startsWith('+++') || line.startsWith('---') || line.startsWith('*** ')) return 'file';
  if (line.startsWith('diff --git') || line.startsWith('index ')) return 'file';
  if (line.startsWith('+')) return 'add';
  if (line.startsWith('-')) return 'del';
  return 'ctx';
}

interface Row {
  left?: { text: string; kind: Kind };
  right?: { text: string; kind: Kind };
  /** A header row (file or hunk) spans both sides. */
  span?: { text: string; kind: Kind };
}

/** The rows of the side-by-side view: each run of removals paired with the additions after it. */
export function splitRows(lines: readonly string[]): Row[] {
  const rows: Row[] = [];
  let dels: string[] = [];
  let adds: string[] = [];
  const flush = () => {
    for (let i = 0; i < Math.max(dels.length, adds.length); i++)
      rows.push({
        ...(dels[i] !== undefined
          ? { left: { text: dels[i]!.slice(1), kind: 'del' as const } }
          : {}),
        ...(adds[i] !== undefined
          ? { right: { text: adds[i]!.slice(1), kind: 'add' as const } }
          : {}),
      });
    dels = [];
    adds = [];
  };
  // A git diff's header (`new file mode`, `index …`) runs from `diff --git` to the first
  // hunk; an apply_patch file's lines follow its `*** Add File:` line at once.
  let inHunk = false;
  for (const line of lines) {
    const kind = kindOf(line);
    if (line.startsWith('diff --git')) inHunk = false;
    else if (line.startsWith('*** ') || kind === 'hunk') inHunk = true;
    if (kind === 'del' && inHunk) {
      if (adds.length) flush();
      dels.push(line);
    } else if (kind === 'add' && inHunk) adds.push(line);
    else {
      flush();
      if (kind === 'ctx' && inHunk) {
        const text = line.slice(1);
        rows.push({ left: { text, kind }, right: { text, kind } });
      } else rows.push({ span: { text: line, kind: kind === 'ctx' ? 'file' : kind } });
    }
  }
  flush();
  return rows;
}

function SplitDiff({ lines }: { lines: readonly string[] }) {
  return (
    <table className="diff diff-split" data-testid="picture-diff-split">
      <tbody>
        {splitRows(lines).map((r, i) =>
          r.span ? (
            <tr key={i}>
              <td colSpan={2} className={`diff-${r.span.kind}`}>
                {r.span.text}
              </td>
            </tr>
          ) : (
            <tr key={i}>
              <td className={r.left ? `diff-${r.left.kind}` : 'diff-none'}>{r.left?.text}</td>
              <td className={r.right ? `diff-${r.right.kind}` : 'diff-none'}>{r.right?.text}</td>
            </tr>
          ),
        )}
      </tbody>
    </table>
  );
}
