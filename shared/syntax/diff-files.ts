/**
 * The file each line of a diff belongs to, for its language: `path` until a header names
 * another (`diff --git a/x b/y`, `+++ b/y`, or an apply_patch `*** Add|Update|Delete File: y`).
 */
export function filesOfLines(
  lines: readonly string[],
  path: string | undefined,
): (string | undefined)[] {
  let current = path;
  return lines.map((line) => {
    const named =
      /^diff --git a\/.* b\/(.+)$/.exec(line)?.[1] ??
      /^\+\+\+ (?:b\/)?(.+?)(?:\t.*)?$/.exec(line)?.[1] ??
      /^\*\*\* (?:Add|Update|Delete) File: (.+)$/.exec(line)?.[1];
    if (named !== undefined && named !== '/dev/null') current = named;
    return current;
  });
}
