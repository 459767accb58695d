/**
 * Masks what looks like a secret in text shown to a person (a diff may travel to a phone, a
 * chat or an email, a request to the team hub): well-known token shapes, private key blocks,
 * a URL's password, an HTTP credential after `Bearer` or `Basic`, and the value of a
 * `password = …` / `API_KEY: …` assignment. The line stays, with its key name and the first
 * four characters of the value, so the person still sees that a secret is written and where;
 * only the value is hidden.
 */

const TOKEN_SHAPES: readonly RegExp[] = [
  /\b(?:ghp|gho|ghu|ghs|ghr|github_pat)_[A-Za-z0-9_]{20,}/g,
  /\bsk-(?:ant-|proj-)?[A-Za-z0-9_-]{20,}/g,
  /\bxox[abprs]-[A-Za-z0-9-]{10,}/g,
  /\bAKIA[0-9A-Z]{16}\b/g,
  /\bAIza[0-9A-Za-z_-]{35}\b/g,
  /\beyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}/g,
];

/*
 * Nothing a shell acts on is ever hidden: a value holding a quote, `$`, a backtick, `|`, `;`,
 * `&`, a parenthesis, `<`, `>` or a backslash is shown, or masked only up to it. Masked text
 * goes to the person deciding (the hub, a phone, a chat), and an agent that wrote
 * `psql postgres://app:pw|sh|x@db` or `token=abcd|sh` would otherwise show them a harmless
 * line while the command that runs holds more. A real password with such a character is shown:
 * a secret seen is a smaller harm than code approved unseen.
 */

/**
 * The password of a URL's user info (`postgres://app:s3cr3t@db/x`): hidden whole, since a
 * short one would show most of itself. Found from its `://` (a literal the engine searches
 * for fast), not from the scheme before it: a diff of megabytes is masked too.
 */
const URL_PASSWORD = /(:\/\/[^\s/?#@:]*:)([^\s/?#@`$|;&()<>'"\\]+)(?=@)/g;

/**
 * Whether, in a command, the word the match is in stands where a shell runs a command: first
 * on its line or after `;`, `|`, `&`, `(`, `{` or a backtick, and not an assignment
 * (`DB=postgres://…`). A URL there is a path (`https://u:x@h/run`, in directories the agent
 * made), and its "password" names the directory that runs.
 */
function inCommandWord(m: RegExpExecArray): boolean {
  let start = m.index;
  while (start > 0 && !/[\s;|&({`]/.test(m.input[start - 1]!)) start--;
  if (/^[A-Za-z_][A-Za-z0-9_]*=/.test(m.input.slice(start, m.index))) return false;
  let before = start - 1;
  while (before >= 0 && (m.input[before] === ' ' || m.input[before] === '\t')) before--;
  return before < 0 || /[\n;|&({`]/.test(m.input[before]!);
}

/**
 * A credential after its HTTP scheme (`Authorization: Bearer …`, `Basic …`), of any shape;
 * one with a digit in it, so a sentence ("Basic authentication") is left alone. On the same
 * line: `echo Bearer` and a command on the next line are two commands.
 */
const AUTH_SCHEME = /(\b(?:Bearer|Basic)[ \t]+)((?=[A-Za-z._~+/-]*[0-9])[A-Za-z0-9._~+/-]{8,}=*)/g;

/**
 * The value of a `password=` / `API_KEY: …` assignment, on the key's line. Not a key that
 * names a command (`--password-command=…`, `token_helper`, `auth-exec`): its value is a
 * program that runs, not a secret.
 */
const ASSIGNMENT =
  /((?:password|passwd|secret|token|api[_-]?key|access[_-]?key|private[_-]?key|client[_-]?secret|auth)(?![A-Za-z0-9_-]*(?:command|cmd|exec|helper|program|script|hook))[A-Za-z0-9_-]*["']?[ \t]*[:=][ \t]*["']?)([^\s"',;`$|&()<>\\]{6,})/gi;

/**
 * A `key:value` written as one word, its value holding a `/`, is a path a shell runs when the
 * word is a command (`auth:bin/run`, a directory the agent made): not masked.
 */
const pathWord = (m: RegExpExecArray): boolean =>
  /^[A-Za-z0-9_-]+:$/.test(m[1]!) && m[2]!.includes('/');

/**
 * A private key block: its PEM headers and lines of base64, to its end line or to the last of
 * them (a diff cut short). Nothing else is taken into it, so no command written between a
 * BEGIN and an END line is hidden with the key. Not a block already masked: masked again (the
 * hub's copy of a kept input), it would take the lines after it.
 *
 * A line of base64 characters only is also a command a shell runs (`sh`, `bin/run`), so a key
 * block is hidden only where the text is not a command ({@link MaskOptions.shell}), and only
 * when it has a key's shape ({@link keyShaped}).
 */
const PRIVATE_KEY =
  /-----BEGIN [A-Z ]*PRIVATE KEY-----(?! …\[masked\])(?:[ \t]*\r?\n[ \t]*(?:(?:Proc-Type|DEK-Info): [A-Za-z0-9,-]+|[A-Za-z0-9+/=]+(?=[ \t]*(?:\r?\n|$))))*(?:[ \t]*\r?\n[ \t]*-----END [A-Z ]*PRIVATE KEY-----)?/g;

/** The width of a key's base64 lines: PEM writes 64, OpenSSH 70, some tools 76. */
const KEY_LINE_MIN = 40;

/**
 * Whether a matched key block's base64 lines have a key's shape: every line but the last of one
 * width, at least 40 characters, and the last no wider. `sh` or `bin/run` on a line of its own
 * after a BEGIN line is not a key, and stays shown.
 */
function keyShaped(block: string): boolean {
  const lines = block
    .split(/\r?\n/)
    .slice(1)
    .map((l) => l.trim())
    .filter((l) => l !== '' && !l.startsWith('-----END') && !/^(?:Proc-Type|DEK-Info):/.test(l));
  if (lines.length === 0) return false;
  const width = lines[0]!.length;
  if (lines.length === 1) return width >= KEY_LINE_MIN;
  return (
    width >= KEY_LINE_MIN &&
    lines.slice(0, -1).every((l) => l.length === width) &&
    lines[lines.length - 1]!.length <= width
  );
}

/** How a text is masked. */
export interface MaskOptions {
  /**
   * The text is a command a shell runs (a command field, a tool input's `command`, a title or
   * a rule's wording that holds one): key blocks are shown whole. Any line of one could run, so
   * approving a command whose key block was hidden would run lines the person never saw.
   */
  shell?: boolean;
}

/** What a masked value ends with; text that holds it was masked (or imitates a mask). */
export const MASK_MARK = '…[masked]';

const hide = (value: string): string => `${value.slice(0, 4)}${MASK_MARK}`;

/**
 * A piece of masked text: `shown` is what a person sees, `original` what it stands for. The
 * two differ only where `masked` is true; a masked piece's `shown` never holds a line break.
 */
export interface MaskSegment {
  shown: string;
  original: string;
  masked: boolean;
}

/** A masking pass: what it finds, what it shows instead, and which of its finds it masks. */
interface MaskPassSpec {
  re: RegExp;
  replace: (m: RegExpExecArray) => string;
  accept?: (m: RegExpExecArray, options: MaskOptions) => boolean;
}

const KEY_PASS: MaskPassSpec = {
  re: PRIVATE_KEY,
  replace: () => `-----BEGIN PRIVATE KEY----- ${MASK_MARK}`,
  accept: (m) => keyShaped(m[0]),
};

/** The passes every text gets, after the key blocks: none hides anything a shell acts on. */
const VALUE_PASSES: readonly MaskPassSpec[] = [
  ...TOKEN_SHAPES.map((re) => ({ re, replace: (m: RegExpExecArray) => hide(m[0]) })),
  {
    re: URL_PASSWORD,
    replace: (m: RegExpExecArray) => m[1]! + MASK_MARK,
    accept: (m: RegExpExecArray, options: MaskOptions) => !(options.shell && inCommandWord(m)),
  },
  { re: AUTH_SCHEME, replace: (m: RegExpExecArray) => m[1]! + hide(m[2]!) },
  {
    re: ASSIGNMENT,
    replace: (m: RegExpExecArray) => m[1]! + hide(m[2]!),
    accept: (m: RegExpExecArray) => !pathWord(m),
  },
];

/** The masking passes, in order: each runs over what the ones before it left shown. */
const PASSES: readonly MaskPassSpec[] = [KEY_PASS, ...VALUE_PASSES];

export function maskSecrets(text: string, options?: MaskOptions): string {
  return maskedSegments(text, options)
    .map((s) => s.shown)
    .join('');
}

/**
 * The text masked as {@link maskSecrets} masks it, in pieces that say what each masked piece
 * stands for: the daemon puts a masked secret back where a person left it untouched when they
 * edit a masked tool input (main/engine/requests/masked-edit.ts), never sending it to them.
 */
export function maskedSegments(text: string, options?: MaskOptions): MaskSegment[] {
  let segments: MaskSegment[] = [{ shown: text, original: text, masked: false }];
  const how = options ?? {};
  for (const pass of how.shell ? VALUE_PASSES : PASSES) segments = maskPass(segments, pass, how);
  return segments.filter((s) => s.shown !== '' || s.original !== '');
}

/** One region of the shown text a pass replaces, widened to whole masked pieces. */
interface Region {
  from: number;
  to: number;
  shown: string;
}

/**
 * Replaces every match of the pass's pattern that it accepts in the shown text, as
 * `String.prototype.replace` would; a match
 * that reaches into an already masked piece takes that whole piece into the new one, so every
 * masked piece still knows exactly what it stands for.
 */
function maskPass(
  segments: readonly MaskSegment[],
  pass: MaskPassSpec,
  options: MaskOptions,
): MaskSegment[] {
  const { re, replace, accept } = pass;
  const text = segments.map((s) => s.shown).join('');
  const starts: number[] = [];
  let at = 0;
  for (const s of segments) {
    starts.push(at);
    at += s.shown.length;
  }
  const segmentAt = (pos: number): number => {
    let lo = 0;
    let hi = segments.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid]! <= pos) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  };
  const regions: Region[] = [];
  re.lastIndex = 0;
  for (let m = re.exec(text); m !== null; m = re.exec(text)) {
    if (m[0] === '') {
      re.lastIndex++;
      continue;
    }
    if (accept && !accept(m, options)) continue;
    let from = m.index;
    let to = m.index + m[0].length;
    const first = segmentAt(from);
    if (segments[first]!.masked) from = starts[first]!;
    const last = segmentAt(to - 1);
    if (segments[last]!.masked) to = starts[last]! + segments[last]!.shown.length;
    const end = m.index + m[0].length;
    const replaced = replace(m) + text.slice(end, to);
    const prev = regions[regions.length - 1];
    // Two matches that reach into the same masked piece become one piece: the earlier one's
    // shown text already holds, unchanged, what lies between its match and this one's end.
    if (prev && from < prev.to)
      regions[regions.length - 1] = {
        from: prev.from,
        to: Math.max(to, prev.to),
        shown: prev.shown.slice(0, prev.shown.length - (prev.to - m.index)) + replaced,
      };
    else regions.push({ from, to, shown: text.slice(from, m.index) + replaced });
  }
  re.lastIndex = 0;
  if (regions.length === 0) return [...segments];
  const originalOf = (from: number, to: number): string => {
    let out = '';
    for (let i = segmentAt(from); i < segments.length && starts[i]! < to; i++) {
      const s = segments[i]!;
      if (s.masked) out += s.original;
      else
        out += s.shown.slice(
          Math.max(0, from - starts[i]!),
          Math.min(s.shown.length, to - starts[i]!),
        );
    }
    return out;
  };
  const out: MaskSegment[] = [];
  const keep = (from: number, to: number): void => {
    if (from >= to) return;
    for (let i = segmentAt(from); i < segments.length && starts[i]! < to; i++) {
      const s = segments[i]!;
      if (s.masked) out.push(s);
      else {
        const piece = s.shown.slice(
          Math.max(0, from - starts[i]!),
          Math.min(s.shown.length, to - starts[i]!),
        );
        if (piece !== '') out.push({ shown: piece, original: piece, masked: false });
      }
    }
  };
  let pos = 0;
  for (const r of regions) {
    keep(pos, r.from);
    out.push({ shown: r.shown, original: originalOf(r.from, r.to), masked: true });
    pos = r.to;
  }
  keep(pos, text.length);
  return out;
}
