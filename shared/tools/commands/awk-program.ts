/**
 * The awk subset Gatehouse counts as a read: patterns and `print`/`printf` to standard
 * output. Anything that can run a command, write or read another file (`system`, `getline`,
 * `|`, `>`, `close`, `fflush`, `@include`/`@load`, `ARGV`) is refused. String literals are
 * set aside first, so `print "a > b"` passes; `>` as a comparison is refused too, since it
 * cannot be told from a redirection without parsing awk. Returns the reason, if any.
 */
export function awkProgramProblem(program: string): string | undefined {
  if (/\n\s*#|^\s*#/.test(program)) return 'awk programs can run commands (comments are not read)';
  // Each string literal becomes the placeholder `S`; a quote left over means one is open.
  const code = program.replace(/"(?:[^"\\\n]|\\.)*"/g, 'S');
  if (code.includes('"')) return 'awk programs can run commands (a string does not close)';
  const banned: [RegExp, string][] = [
    [/\bsystem\b/, 'awk system() runs a command'],
    [/\bgetline\b/, 'awk getline can run a command or read any file'],
    [/\|/, 'awk | runs a command'],
    [/>/, 'awk > can write a file'],
    [/\b(close|fflush)\b/, 'awk close/fflush act on commands and files'],
    [/@/, 'awk @include/@load load code'],
    [/\bARG[VC]\b/, 'awk ARGV changes which files it reads'],
    [/\bPROCINFO\b|\bENVIRON\b/, 'awk PROCINFO/ENVIRON reach outside the program'],
  ];
  const withoutOr = code.replace(/\|\|/g, ' ');
  for (const [pattern, reason] of banned)
    if (pattern.test(pattern.source === '\\|' ? withoutOr : code)) return reason;
  return undefined;
}
