/**
 * A line diff (Myers' O((N+M)D) algorithm after trimming the common start and end) and its
 * unified form with three lines of context. No diff library is installed; this one is small
 * and bounded: past `maxWork` steps it gives up on a minimal diff and shows the changed middle
 * as removed and added whole, which is still a true diff, only longer.
 */

export type DiffOp = { kind: ' ' | '-' | '+'; line: string };

export interface DiffCounts {
  added: number;
  removed: number;
}

/** Splits a text into lines; a final newline ends the last line rather than starting one. */
export function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/** The edit script from `a` to `b`, as kept, removed and added lines in order. */
export function diffLines(
  a: readonly string[],
  b: readonly string[],
  maxWork = 4_000_000,
): DiffOp[] {
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--;
    endB--;
  }
  const middle = myers(a.slice(start, endA), b.slice(start, endB), maxWork) ?? [
    ...a.slice(start, endA).map((line) => ({ kind: '-' as const, line })),
    ...b.slice(start, endB).map((line) => ({ kind: '+' as const, line })),
  ];
  return [
    ...a.slice(0, start).map((line) => ({ kind: ' ' as const, line })),
    ...middle,
    ...a.slice(endA).map((line) => ({ kind: ' ' as const, line })),
  ];
}

/** Myers' greedy forward search with its trace kept for the walk back; undefined past `maxWork`. */
function myers(a: readonly string[], b: readonly string[], maxWork: number): DiffOp[] | undefined {
  const n = a.length;
  const m = b.length;
  if (n === 0) return b.map((line) => ({ kind: '+', line }));
  if (m === 0) return a.map((line) => ({ kind: '-', line }));
  const max = n + m;
  const offset = max;
  const v = new Int32Array(2 * max + 2);
  const trace: Int32Array[] = [];
  let work = 0;
  for (let d = 0; d <= max; d++) {
    trace.push(v.slice(offset - d, offset + d + 2));
    work += 2 * d + 2;
    if (work > maxWork) return undefined;
    for (let k = -d; k <= d; k += 2) {
      let x =
        k === -d || (k !== d && v[offset + k - 1]! < v[offset + k + 1]!)
          ? v[offset + k + 1]!
          : v[offset + k - 1]! + 1;
      let y = x - k;
      while (x < n && y < m && a[x] === b[y]) {
        x++;
        y++;
      }
      v[offset + k] = x;
      if (x >= n && y >= m) return walkBack(a, b, trace, d);
    }
  }
  return undefined;
}

/** Rebuilds the script from the saved V arrays (each saved before its round, from k = -d). */
function walkBack(
  a: readonly string[],
  b: readonly string[],
  trace: readonly Int32Array[],
  last: number,
): DiffOp[] {
  const ops: DiffOp[] = [];
  let x = a.length;
  let y = b.length;
  for (let d = last; d > 0; d--) {
    // trace[d] holds V before round d, indexed from k = -d.
    const at = (k: number): number => trace[d]![k + d]!;
    const k = x - y;
    const down = k === -d || (k !== d && at(k - 1) < at(k + 1));
    const prevK = down ? k + 1 : k - 1;
    const prevX = at(prevK);
    const prevY = prevX - prevK;
    while (x > prevX && y > prevY) {
      ops.push({ kind: ' ', line: a[--x]! });
      y--;
    }
    if (down) ops.push({ kind: '+', line: b[--y]! });
    else ops.push({ kind: '-', line: a[--x]! });
  }
  while (x > 0 && y > 0) {
    ops.push({ kind: ' ', line: a[--x]! });
    y--;
  }
  return ops.reverse();
}

export function countOps(ops: readonly DiffOp[]): DiffCounts {
  let added = 0;
  let removed = 0;
  for (const op of ops) {
    if (op.kind === '+') added++;
    else if (op.kind === '-') removed++;
  }
  return { added, removed };
}

/** The script as unified-diff hunks (`@@ -a,n +b,m @@`), `context` lines around each change. */
export function unifiedHunks(ops: readonly DiffOp[], context = 3): string {
  const out: string[] = [];
  let i = 0;
  // Line numbers in the old and new file before op i.
  const oldAt: number[] = [];
  const newAt: number[] = [];
  let o = 1;
  let nw = 1;
  for (const op of ops) {
    oldAt.push(o);
    newAt.push(nw);
    if (op.kind !== '+') o++;
    if (op.kind !== '-') nw++;
  }
  while (i < ops.length) {
    while (i < ops.length && ops[i]!.kind === ' ') i++;
    if (i >= ops.length) break;
    const from = Math.max(0, i - context);
    let to = i;
    // Extend while at most two contexts of unchanged lines lie before the next change.
    let lastChange = i;
    while (to < ops.length && to - lastChange <= 2 * context + 1) {
      if (ops[to]!.kind !== ' ') lastChange = to;
      to++;
    }
    const end = Math.min(ops.length, lastChange + context + 1);
    const slice = ops.slice(from, end);
    const oldLen = slice.filter((x) => x.kind !== '+').length;
    const newLen = slice.filter((x) => x.kind !== '-').length;
    const oldStart = oldLen ? oldAt[from]! : oldAt[from]! - 1;
    const newStart = newLen ? newAt[from]! : newAt[from]! - 1;
    out.push(`@@ -${oldStart},${oldLen} +${newStart},${newLen} @@`);
    for (const op of slice) out.push(op.kind + op.line);
    i = end;
  }
  return out.join('\n');
}
