/**
 * Where a jq comment (`#`) ends, for one jq version: the index just past it. Versions differ,
 * and a `"` inside a comment starts a string for a version that ends the comment earlier, so
 * a program is read once per version and a name any of them sees counts.
 */
type CommentEnd = (program: string, hash: number) => number;

/** The first index at or after `from` of a character `ends` accepts, else the program's end. */
const firstOf = (program: string, from: number, ends: (c: string) => boolean): number => {
  for (let i = from; i < program.length; i++) if (ends(program[i]!)) return i;
  return program.length;
};

/** Whether the line feed at `lf` follows an odd run of backslashes (a `\r` between counts too). */
const escapedLineFeed = (program: string, lf: number): boolean => {
  let at = program[lf - 1] === '\r' ? lf - 1 : lf;
  let backslashes = 0;
  while (program[at - 1] === '\\') {
    backslashes++;
    at--;
  }
  return backslashes % 2 === 1;
};

const COMMENT_ENDS: readonly CommentEnd[] = [
  // jq 1.6 and 1.7.0: at a carriage return or a line feed.
  (p, hash) => firstOf(p, hash, (c) => c === '\r' || c === '\n'),
  // jq 1.7.1: at a line feed (a carriage return is part of the comment).
  (p, hash) => firstOf(p, hash, (c) => c === '\n'),
  // jq 1.8 and gojq: at a line feed, unless an odd run of backslashes continues the comment
  // onto the next line (Tcl style).
  (p, hash) => {
    let lf = firstOf(p, hash, (c) => c === '\n');
    while (lf < p.length && escapedLineFeed(p, lf)) lf = firstOf(p, lf + 1, (c) => c === '\n');
    return lf;
  },
];

/**
 * The tokens of jq's lexer that start as a name does (`src/lexer.l`); at one place the longest
 * wins, as in flex. Only `IDENT` is a name (`import`, `include` and `modulemeta` among them):
 * `.import` is a field, `$import` a variable, `@base64` a format, `1e5` a number.
 */
const NAME_LIKE: readonly [RegExp, boolean][] = [
  [/[0-9.]+(?:[eE][+-]?[0-9]+)?/y, false],
  [/\.[a-zA-Z_][a-zA-Z_0-9]*/y, false],
  [/\$(?:[a-zA-Z_][a-zA-Z_0-9]*::)*[a-zA-Z_][a-zA-Z_0-9]*/y, false],
  [/@[a-zA-Z0-9_]+/y, false],
  [/(?:[a-zA-Z_][a-zA-Z_0-9]*::)*[a-zA-Z_][a-zA-Z_0-9]*/y, true],
];

/** The longest name-like token at `at`: its length and whether it is a name. */
function tokenAt(program: string, at: number): { length: number; name: boolean } | undefined {
  let best: { length: number; name: boolean } | undefined;
  for (const [pattern, name] of NAME_LIKE) {
    pattern.lastIndex = at;
    const length = pattern.exec(program)?.[0].length ?? 0;
    if (length > (best?.length ?? 0)) best = { length, name };
  }
  return best;
}

/**
 * The names in a jq program's code, as jq's lexer reads it with comments ending where
 * `commentEnd` says: not in a string (`"include"`), but in a string's interpolation
 * (`"\(modulemeta)"`). A bracket that does not match, or a string left open, is a program jq
 * refuses before it reads any module; it is read on regardless.
 */
function jqNames(program: string, commentEnd: CommentEnd): string[] {
  const names: string[] = [];
  // The open brackets, and `\(` of a string's interpolation, which `)` ends back in the string.
  const open: string[] = [];
  let inString = false;
  let i = 0;
  while (i < program.length) {
    const c = program[i]!;
    if (inString) {
      if (c === '"') inString = false;
      else if (c === '\\' && program[i + 1] === '(') {
        open.push('\\(');
        inString = false;
        i += 2;
        continue;
      } else if (c === '\\') i++;
      i++;
      continue;
    }
    if (c === '#') {
      i = commentEnd(program, i);
      continue;
    }
    if (c === '"') inString = true;
    else if (c === '(' || c === '[' || c === '{') open.push(c);
    else if (c === ')' || c === ']' || c === '}') inString = open.pop() === '\\(';
    else {
      const token = tokenAt(program, i);
      if (token) {
        if (token.name) names.push(program.slice(i, i + token.length));
        i += token.length;
        continue;
      }
    }
    i++;
  }
  return names;
}

/**
 * Names that read a file the program names: the directives `import "x" as $d;` (`x.json`) and
 * `include "x";` (`x.jq`, from jq's search path: `~/.jq`, folders beside jq), which jq reads
 * whatever stands between the keyword and the path (a comment, a line break), and
 * `modulemeta`, which reads the module a string names. `input_filename`, `$__loc__`,
 * `get_search_list` and `getpath` name files or paths without reading them.
 */
const JQ_READING_NAMES = new Set(['import', 'include', 'modulemeta']);

/**
 * Why a jq program is not proven harmless, or undefined: it holds a name that reads a file it
 * names ({@link JQ_READING_NAMES}), as any jq version reads its comments (1.6 and 1.7.0 end
 * one at a carriage return, 1.7.1 at a line feed, 1.8 continues one after a backslash).
 */
export function jqProgramProblem(program: string): string | undefined {
  for (const commentEnd of COMMENT_ENDS)
    for (const name of jqNames(program, commentEnd))
      if (JQ_READING_NAMES.has(name))
        return `jq import, include or modulemeta reads a file named in its program (here ${name})`;
  return undefined;
}

/**
 * mikefarah yq's functions that read a file (`load`, `load_str`, `xml_load`, `strload`,
 * `load_base64` …: each holds `load`) or run an expression they build (`eval`). Its lexer is
 * not jq's: a token starts anywhere (`1load(…)` is a number, then `load`), and a `"` may be
 * inside a path (`.a"b`), so strings are not set aside: `load` or `eval` anywhere counts but
 * in a path (`.download_url`: `.` then name characters, the `.` not ending `..`, which yq
 * reads as recursive descent) or a variable (`$preload`), whose token runs on past it.
 */
export function yqExpressionProblem(expression: string): string | undefined {
  for (const m of expression.matchAll(/load|eval/g)) {
    let start = m.index;
    while (start > 0 && /[\w-]/.test(expression[start - 1]!)) start--;
    const lead = expression[start - 1];
    const inPath =
      lead === '.' && expression[start - 2] !== '.' && /[A-Za-z_]/.test(expression[start]!);
    if (!inPath && lead !== '$')
      return `yq load(…) or eval(…) reads a file named in its expression or runs one it builds (here ${m[0]})`;
  }
  return jqProgramProblem(expression);
}
