/**
 * Reads a sed script far enough to tell whether it only prints: GNU sed's `e` runs commands,
 * `w`/`W` write files, `r`/`R` read files the path checks never see, and the `s` command's
 * `e` and `w` flags do the same. Returns the reason the script is not proven harmless.
 */
export function sedScriptProblem(script: string): string | undefined {
  let i = 0;
  const n = script.length;
  const skipSpace = (): void => {
    while (i < n && /[\s;]/.test(script[i]!)) i++;
  };
  /** Skips a delimited part (`/re/`, `\cREc`) starting at the delimiter; false if unterminated. */
  const delimited = (d: string): boolean => {
    i++;
    while (i < n && script[i] !== d) {
      if (script[i] === '\\') i++;
      else if (script[i] === '\n') return false;
      i++;
    }
    if (i >= n) return false;
    i++;
    return true;
  };
  const address = (): boolean => {
    if (/\d/.test(script[i] ?? '')) {
      while (i < n && /[\d~]/.test(script[i]!)) i++;
    } else if (script[i] === '$') i++;
    else if (script[i] === '/' || script[i] === '\\') {
      if (script[i] === '\\') i++;
      if (!delimited(script[i] ?? '')) return false;
      while (i < n && /[IM]/.test(script[i]!)) i++;
    }
    return true;
  };
  const toLineEnd = (): void => {
    while (i < n && script[i] !== '\n') i++;
  };
  const toCommandEnd = (): void => {
    while (i < n && !/[;\n}]/.test(script[i]!)) i++;
  };
  for (;;) {
    skipSpace();
    if (i >= n) return undefined;
    if (!address()) return 'the sed script does not parse';
    if (script[i] === ',') {
      i++;
      if (script[i] === '+' || script[i] === '~') i++;
      if (!address()) return 'the sed script does not parse';
    }
    while (script[i] === ' ' || script[i] === '!') i++;
    const c = script[i] ?? '';
    i++;
    if (c === '{' || c === '}') continue;
    if (/^[=dDgGhHlnNpPqQxzF]$/.test(c)) {
      toCommandEnd();
      continue;
    }
    if (c === 'e') return 'sed e runs a command';
    if (c === 'w' || c === 'W') return 'sed w writes a file';
    if (c === 'r' || c === 'R') return 'sed r reads a file the path checks do not see';
    if (c === 'a' || c === 'i' || c === 'c') {
      toLineEnd();
      continue;
    }
    if (c === ':' || c === 'b' || c === 't' || c === 'T') {
      toCommandEnd();
      continue;
    }
    if (c === 'y') {
      const d = script[i] ?? '';
      if (!delimited(d) || !delimited2(d)) return 'the sed script does not parse';
      continue;
    }
    if (c === 's') {
      const d = script[i] ?? '';
      if (!d || /[\s\\\n]/.test(d)) return 'the sed script does not parse';
      if (!delimited(d)) return 'the sed script does not parse';
      i--;
      if (!delimited(d)) return 'the sed script does not parse';
      while (i < n && /[gpiImM0-9ew]/.test(script[i]!)) {
        if (script[i] === 'e') return 'sed s///e runs the result as a command';
        if (script[i] === 'w') return 'sed s///w writes a file';
        i++;
      }
      continue;
    }
    return `sed ${c || 'script'} is not a command known to be harmless`;
  }
  /** The second half of `y/abc/xyz/`: from just after the middle delimiter. */
  function delimited2(d: string): boolean {
    i--;
    return delimited(d);
  }
}
