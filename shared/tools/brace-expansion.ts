/**
 * Bash's brace expansion, the first of its expansions: `a{b,c}d` → `abd acd`, `{1..3}`,
 * `{a..e}`, `{01..10..2}`. It runs before `~` and `$…` are expanded, so `{~/x,y}` names
 * `$HOME/x`: a path check has to expand braces before anything else, as bash does.
 */

/**
 * The words bash makes of `word` by brace expansion, in its order, or undefined when there
 * would be more than `max` of them. `${…}` is a parameter expansion, never a brace group.
 */
export function expandBraces(word: string, max: number): string[] | undefined {
  const group = firstGroup(word, max);
  if (!group) return [word];
  if (!group.alternatives) return undefined;
  const preamble = word.slice(0, group.start);
  const tails = expandBraces(word.slice(group.end + 1), max);
  if (!tails) return undefined;
  const out: string[] = [];
  for (const alternative of group.alternatives) {
    const heads = group.sequence ? [alternative] : expandBraces(alternative, max);
    if (!heads) return undefined;
    for (const head of heads)
      for (const tail of tails) {
        if (out.length >= max) return undefined;
        out.push(preamble + head + tail);
      }
  }
  return out;
}

interface BraceGroup {
  start: number;
  end: number;
  /** Undefined: a sequence of more than the caller's `max` words. */
  alternatives: readonly string[] | undefined;
  /** A sequence's words are plain text, never expanded again. */
  sequence: boolean;
}

/** The first `{…}` bash expands: one with a comma at its own level, or a sequence. */
function firstGroup(word: string, max: number): BraceGroup | undefined {
  for (let i = 0; i < word.length; i++) {
    const c = word[i];
    if (c === '$' && word[i + 1] === '{') {
      // `${x}`: skip to its end (an unclosed one leaves the rest as it is).
      i = closing(word, i + 1) ?? word.length;
      continue;
    }
    if (c !== '{') continue;
    const end = closing(word, i);
    // No match: this `{` is a plain character, a later one may still open a group.
    if (end === undefined) continue;
    const body = word.slice(i + 1, end);
    const parts = topLevelParts(body);
    if (parts.length > 1) return { start: i, end, alternatives: parts, sequence: false };
    const sequence = sequenceOf(body, max);
    if (sequence !== undefined)
      return {
        start: i,
        end,
        alternatives: sequence === TOO_MANY ? undefined : sequence,
        sequence: true,
      };
    // `{a}` stays as written; `{{a,b}}` expands its inner group: look on from the next character.
  }
  return undefined;
}

/** The index of the `}` closing the `{` at `open`, counting nested braces. */
function closing(word: string, open: number): number | undefined {
  let depth = 0;
  for (let i = open; i < word.length; i++) {
    if (word[i] === '{') depth++;
    else if (word[i] === '}' && --depth === 0) return i;
  }
  return undefined;
}

/** A group's body split at the commas of its own level. */
function topLevelParts(body: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let from = 0;
  for (let i = 0; i < body.length; i++) {
    const c = body[i];
    if (c === '{') depth++;
    else if (c === '}') depth--;
    else if (c === ',' && depth === 0) {
      parts.push(body.slice(from, i));
      from = i + 1;
    }
  }
  parts.push(body.slice(from));
  return parts;
}

const BACKSLASH = 92;
const TOO_MANY = Symbol('more words than asked for');

/**
 * `1..5`, `05..1..2`, `a..e`, `Z..a`: the words of a sequence expression, TOO_MANY past
 * `max` (counted before they are made), or undefined when `body` is not one.
 */
function sequenceOf(body: string, max: number): string[] | typeof TOO_MANY | undefined {
  const numbers = /^([-+]?\d+)\.\.([-+]?\d+)(?:\.\.([-+]?\d+))?$/.exec(body);
  if (numbers) {
    const [from, to] = [Number(numbers[1]), Number(numbers[2])];
    const step = Math.abs(Number(numbers[3] ?? 1)) || 1;
    // `{01..10}`: a leading zero pads every word to the longer end's width.
    const padded = /^[-+]?0\d/.test(numbers[1]!) || /^[-+]?0\d/.test(numbers[2]!);
    const width = padded ? Math.max(numbers[1]!.length, numbers[2]!.length) : 0;
    return steps(from, to, step, max, (n) => pad(n, width));
  }
  const letters = /^([A-Za-z])\.\.([A-Za-z])(?:\.\.([-+]?\d+))?$/.exec(body);
  if (letters) {
    const step = Math.abs(Number(letters[3] ?? 1)) || 1;
    return steps(letters[1]!.charCodeAt(0), letters[2]!.charCodeAt(0), step, max, (n) =>
      // `{Z..a}` passes `\`, which quote removal then takes away.
      n === BACKSLASH ? '' : String.fromCharCode(n),
    );
  }
  return undefined;
}

function steps(
  from: number,
  to: number,
  step: number,
  max: number,
  text: (n: number) => string,
): string[] | typeof TOO_MANY {
  if (!Number.isSafeInteger(from) || !Number.isSafeInteger(to)) return TOO_MANY;
  if (Math.floor(Math.abs(to - from) / step) + 1 > max) return TOO_MANY;
  const out: string[] = [];
  const direction = to >= from ? 1 : -1;
  for (let n = from; direction > 0 ? n <= to : n >= to; n += direction * step) out.push(text(n));
  return out;
}

function pad(n: number, width: number): string {
  const digits = String(Math.abs(n)).padStart(width - (n < 0 ? 1 : 0), '0');
  return n < 0 ? `-${digits}` : digits;
}
