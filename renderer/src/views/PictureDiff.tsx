import { highlightLine } from '../../../shared/syntax/highlight-line';
import { filesOfLines } from '../../../shared/syntax/diff-files';
import { MarkedText } from '../components/agent-text';

/**
 * A unified diff shown two ways: side by side on a wide screen (removed lines on the left,
 * added on the right, paired within each change), unified on a narrow one. Both are
 * rendered and the stylesheet shows one by the screen's width, so resizing needs no state.
 * Code lines are syntax-highlighted by the language of their file (`path` for a one-file
 * diff, else each `diff --git` / `+++` / `*** … File:` header's), as text: never as HTML.
 */
export function DiffView({
  diff,
  path,
  testId = 'picture-diff',
}: {
  diff: string;
  path?: string;
  testId?: string;
}) {
  const lines = diff.split('\n');
  const files = filesOfLines(lines, path);
  return (
    <div className="diff-views">
      <pre className="diff diff-unified agent-text" dir="ltr" data-testid={testId}>
        {lines.map((line, i) => {
          const kind = kindOf(line);
          return (
            <span key={i} className={`diff-line diff-${kind}`}>
              {kind === 'add' || kind === 'del' || (kind === 'ctx' && line.startsWith(' ')) ? (
                <>
                  {line.slice(0, 1)}
                  <Code text={line.slice(1)} path={files[i]} />
                </>
              ) : (
                <MarkedText text={line} />
              )}
              {'\n'}
            </span>
          );
        })}
      </pre>
      <SplitDiff lines={lines} files={files} />
    </div>
  );
}

/** A line of code, its tokens each in a span of its highlight.js scope (`hljs-keyword`, …). */
function Code({ text, path }: { text: string; path: string | undefined }) {
  return (
    <>
      {highlightLine(text, path).map((t, i) =>
        t.scope ? (
          <span key={i} className={t.scope}>
            <MarkedText text={t.text} />
          </span>
        ) : (
          <MarkedText key={i} text={t.text} />
        ),
      )}
    </>
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
  left?: { text: string; kind: Kind; line: number };
  right?: { text: string; kind: Kind; line: number };
  /** A header row (file or hunk) spans both sides. */
  span?: { text: string; kind: Kind };
}

/** The rows of the side-by-side view: each run of removals paired with the additions after it. */
export function splitRows(lines: readonly string[]): Row[] {
  const rows: Row[] = [];
  let dels: number[] = [];
  let adds: number[] = [];
  const side = (line: number, kind: 'del' | 'add') => ({
    text: lines[line]!.slice(1),
    kind,
    line,
  });
  const flush = () => {
    for (let i = 0; i < Math.max(dels.length, adds.length); i++)
      rows.push({
        ...(dels[i] !== undefined ? { left: side(dels[i]!, 'del') } : {}),
        ...(adds[i] !== undefined ? { right: side(adds[i]!, 'add') } : {}),
      });
    dels = [];
    adds = [];
  };
  // A git diff's header (`new file mode`, `index …`) runs from `diff --git` to the first
  // hunk; an apply_patch file's lines follow its `*** Add File:` line at once.
  let inHunk = false;
  for (const [n, line] of lines.entries()) {
    const kind = kindOf(line);
    if (line.startsWith('diff --git')) inHunk = false;
    else if (line.startsWith('*** ') || kind === 'hunk') inHunk = true;
    if (kind === 'del' && inHunk) {
      if (adds.length) flush();
      dels.push(n);
    } else if (kind === 'add' && inHunk) adds.push(n);
    else {
      flush();
      if (kind === 'ctx' && inHunk) {
        const text = line.slice(1);
        rows.push({ left: { text, kind, line: n }, right: { text, kind, line: n } });
      } else rows.push({ span: { text: line, kind: kind === 'ctx' ? 'file' : kind } });
    }
  }
  flush();
  return rows;
}

function SplitDiff({
  lines,
  files,
}: {
  lines: readonly string[];
  files: readonly (string | undefined)[];
}) {
  const cell = (c: Row['left']) => c && <Code text={c.text} path={files[c.line]} />;
  return (
    <table className="diff diff-split agent-text" dir="ltr" data-testid="picture-diff-split">
      <tbody>
        {splitRows(lines).map((r, i) =>
          r.span ? (
            <tr key={i}>
              <td colSpan={2} className={`diff-${r.span.kind}`}>
                <MarkedText text={r.span.text} />
              </td>
            </tr>
          ) : (
            <tr key={i}>
              <td className={r.left ? `diff-${r.left.kind}` : 'diff-none'}>{cell(r.left)}</td>
              <td className={r.right ? `diff-${r.right.kind}` : 'diff-none'}>{cell(r.right)}</td>
            </tr>
          ),
        )}
      </tbody>
    </table>
  );
}
