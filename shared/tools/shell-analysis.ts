import { ansiCText } from './ansi-c-string';
import { declarationPrints, printsEnvironment } from './secret-variables';
import { commandStart, PREFIXES } from './command-start';
import {
  assignedVariableProblem,
  declarationOptions,
  exportedVariableProblem,
} from './commands/environment';
import { isLoose } from './commands/options';
import { commandProblem, prefixProblem, programName } from './commands/vet';
import type {
  OpaqueConstruct,
  OpaquePart,
  ShellAnalysis,
  ShellCommand,
  ShellRedirect,
  SyntaxNode,
} from './shell-syntax';

/** `[[ $x -eq 1 ]]`: bash evaluates both sides as arithmetic. */
const TEST_ARITHMETIC = /\s-(eq|ne|lt|le|gt|ge)\s/;

/** Parses nested shell text (`bash -c '…'`, `eval '…'`) with the same parser. */
export type ParseNested = (source: string) => SyntaxNode;

/**
 * Text that stands for a command substitution without being one: `'$(…)'` (not `$((`) or a
 * backtick in quotes, or a `$` spelled as an escape (`$'\x24(…)'`). Bash may still run it: see
 * {@link EVALUATING}.
 */
const SUBSTITUTION_TEXT = /\$\((?!\()|`|\\(x24|0?44|u0{0,2}24|U0{0,6}24)/;
/**
 * Where bash reads text as code after quote removal: a subscript (`test -v 'a[$(id)]'`,
 * `unset`, `read`, `printf -v`, `${a[…]}`, `a[…]=`), an indirection `${!x}`, a substring
 * offset `${x:…}`, and arithmetic (`((…))`, `let`, `[[ … -gt … ]]`, `declare -i`).
 */
const EVALUATING =
  /[A-Za-z_]\w*\[|\$\{!|\$\{[^}]*:|\(\(|\b(let|declare|typeset|local)\b|\s-(eq|ne|lt|le|gt|ge)\s/;
/** A variable name with a subscript bash evaluates: anything but `a[0]`, `a[@]`, `a[*]`. */
const SUBSCRIPTED = /^[A-Za-z_]\w*\[(?!(\d+|@|\*)\](=|$))/;
/**
 * `[[ -v name[…] ]]` / `-R`: the name's subscript is evaluated (a plain number is not code), as
 * is that of a name an expansion gives (`[[ -v $y ]]`).
 */
const TEST_NAME_SUBSCRIPT = /(^|\s)-[vR]\s+(\$?['"])?([A-Za-z_]\w*\[(?!(\d+|@|\*)\])|[$`])/;
/** `${!x}`, but not `${!a[@]}` or `${!prefix*}`, which list names without reading a value. */
const INDIRECTION = /\$\{!(?![A-Za-z_]\w*(\[[@*]\]|[@*])\})/;
/**
 * `${x:offset}` / `${x:offset:length}` (also of `$@`, `$*`, `$1`) naming a variable in the
 * offset or length, which are arithmetic (not `${x:-…}`, `:=`, `:+`, `:?`; plain numbers like
 * `${x:1:2}` are harmless).
 */
const SUBSTRING = /\$\{([A-Za-z_]\w*(\[[^\]]*\])?|[@*]|\d+):(?![-=+?])[^}]*[A-Za-z_$]/;
/**
 * The variable names a built-in of {@link NAMING_BUILTINS} is given: after `-v` of `test`,
 * `printf` (and `-p` of `wait`), the second word of `getopts`, the words of `read`/`mapfile`
 * that are not options or their values, and the names of declarations and `unset` (before
 * any `=`). `let` is arithmetic, judged as such.
 */
function namesGiven(name: string, args: readonly string[]): string[] {
  const after = (option: RegExp) => args.filter((_, k) => option.test(args[k - 1] ?? ''));
  switch (name) {
    case 'test':
    case '[':
      return after(/^-[vR]$/);
    case 'printf':
      return after(/^-v$/);
    case 'wait':
      return after(/^-p$/);
    case 'getopts':
      return args.slice(1, 2);
    case 'let':
      return [];
    case 'read':
    case 'mapfile':
    case 'readarray': {
      // Options whose value is the next word (`read -p prompt`), and `read -a NAME`.
      const valued = name === 'read' ? 'dinNptu' : 'dnOsuCc';
      const names: string[] = [];
      for (let k = 0; k < args.length; k++) {
        const a = args[k]!;
        if (a === '--') return [...names, ...args.slice(k + 1)];
        if (!a.startsWith('-') || a === '-') names.push(a);
        else if (name === 'read' && a.endsWith('a')) names.push(args[++k] ?? '');
        else if (valued.includes(a.at(-1)!) && a.length === 2) k++;
      }
      return names;
    }
    default:
      return args
        .filter((a) => !a.startsWith('-') && !a.startsWith('+'))
        .map((a) => a.split('=')[0]!);
  }
}

/** Whether `set …` gives the positional parameters values (words past its options). */
function setsPositional(words: readonly string[]): boolean {
  for (let k = 1; k < words.length; k++) {
    const w = words[k]!;
    if (w === '--' || w === '-') return k + 1 < words.length;
    if (/^[-+][a-zA-Z]*o$/.test(w)) k++;
    else if (!/^[-+]/.test(w)) return true;
  }
  return false;
}

/** `${x@P}`: the value is expanded as a prompt string, which runs the `$(…)` in it. */
const PROMPT_EXPANSION = /@P\}/;
/** Built-ins whose arguments are variable names (subscripts included), and where the names are. */
const NAMING_BUILTINS = new Set([
  'test',
  '[',
  'unset',
  'read',
  'mapfile',
  'readarray',
  'printf',
  'getopts',
  'wait',
  'declare',
  'typeset',
  'local',
  'export',
  'readonly',
  'let',
]);

const MAX_DEPTH = 4;
const SHELLS = new Set(['bash', 'sh', 'zsh', 'dash', 'ksh', 'fish', 'mksh', 'busybox']);

/**
 * The named node types of tree-sitter-bash that never have children (its node-types.json):
 * walking one finds nothing, so the walk stops at its type instead of asking the parser
 * for its children.
 */
export const SHELL_LEAVES: ReadonlySet<string> = new Set([
  'word',
  'ansi_c_string',
  'comment',
  'extglob_pattern',
  'file_descriptor',
  'heredoc_content',
  'heredoc_end',
  'heredoc_start',
  'raw_string',
  'regex',
  'special_variable_name',
  'string_content',
  'test_operator',
  'variable_name',
]);

const NO_PREFIX = { program: 0, prefixes: [] } as const;
const clip = (s: string, n = 120): string => (s.length > n ? `${s.slice(0, n - 1)}…` : s);
const nodes = (list: readonly (SyntaxNode | null)[]): SyntaxNode[] =>
  list.filter((n): n is SyntaxNode => n !== null);

const WORDS_SPLIT = (text: string): string =>
  `${clip(text, 60)}: the shell parser does not read this as bash reads its words`;

/** Whether `text` has whitespace no backslash escapes (bash would end a word there). */
function hasUnescapedSpace(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    if (text[i] === '\\') i++;
    else if (/\s/.test(text[i]!)) return true;
  }
  return false;
}

/**
 * False when a word's value (`wordValue`) cannot hold an expansion: every node that makes a
 * word dynamic is written with a `$` (`$x`, `${x}`, `$(…)`, `$((…))`), a backquote or a `(`
 * (`<(…)`), and removing quotes and backslashes keeps those characters. Ruling a word out
 * from its text spares walking its syntax nodes (each read a call into WASM memory).
 */
const mayExpand = (value: string): boolean => /[$`(]/.test(value);

/** True when a word's value depends on something only known when it runs. */
export function isDynamicWord(node: SyntaxNode): boolean {
  // One read of `type`: each is a call into the parser's WASM memory.
  const type = node.type;
  if (
    type === 'simple_expansion' ||
    type === 'expansion' ||
    type === 'command_substitution' ||
    type === 'process_substitution' ||
    type === 'arithmetic_expansion'
  )
    return true;
  return nodes(node.namedChildren).some(isDynamicWord);
}

/**
 * A word's value with quoting removed; expansions stay as written (`$HOME`, `$(…)`). `type`
 * is the node's, when the caller has read it already (each read is a call into WASM memory).
 */
export function wordValue(node: SyntaxNode, type = node.type): string {
  switch (type) {
    case 'word': {
      // Most words have no backslash: nothing to unescape.
      const text = node.text;
      return text.includes('\\') ? text.replace(/\\\n/g, '').replace(/\\(.)/gs, '$1') : text;
    }
    case 'raw_string':
      return node.text.slice(1, -1);
    case 'string': {
      const inner = node.text.slice(1, -1);
      return inner.includes('\\')
        ? inner.replace(/\\([$`"\\\n])/g, (_, c: string) => (c === '\n' ? '' : c))
        : inner;
    }
    case 'ansi_c_string':
      return ansiCText(node.text.slice(2, -1));
    case 'translated_string':
      return node.text.slice(2, -1);
    case 'concatenation':
      return nodes(node.children)
        .map((c) => wordValue(c))
        .join('');
    default:
      return node.text;
  }
}

/**
 * Walks a bash syntax tree (tree-sitter-bash) into simple commands, their redirections and
 * the constructs whose effect cannot be known statically. Pure: the parser is passed in.
 */
export function analyseShellTree(root: SyntaxNode, parseNested: ParseNested): ShellAnalysis {
  return new Walker(parseNested).run(root);
}

class Walker {
  private readonly commands: ShellCommand[] = [];
  private readonly opaque: OpaquePart[] = [];
  private readonly assignments = new Map<string, string[]>();

  constructor(private readonly parseNested: ParseNested) {}

  /** Where bash evaluates text as arithmetic (`$((x))`, `[[ $x -eq 1 ]]`, `${a[x]}`, `let`). */
  private arithmetic?: string;
  /** A variable set from input or a list (`read`, `mapfile`, `printf -v`, `for … in`). */
  private setIndirectly = false;
  /**
   * Whether the text being walked has an `&` at all: without one no node can be the `&`
   * operator, and the walk skips reading every node's children for it (each read is a call
   * into the parser's WASM memory, and most commands have no `&`).
   */
  private hasAmpersand = true;
  /**
   * Whether the text has a `\` or a `$`: tree-sitter-bash splits some words bash reads as
   * one after either (`a[\!]x` as `a[` and `\!]x`, `a}$!!` as `a}$` and `!!`); without
   * them the walk skips looking for split words.
   */
  private splitProne = true;
  /** See ShellAnalysis.printsEnvironment. */
  private printsEnvironment = false;
  /** The first word the parser reads otherwise than bash (see ShellAnalysis.misread). */
  private misread?: string;

  run(root: SyntaxNode): ShellAnalysis {
    const text = root.text;
    this.hasAmpersand = text.includes('&');
    this.splitProne = text.includes('\\') || text.includes('$');
    this.walk(root, 0, false);
    if (INDIRECTION.test(text) || SUBSTRING.test(text)) this.arithmetic ??= text;
    this.judgeArithmetic();
    this.judgeEvaluatedText(text);
    if (PROMPT_EXPANSION.test(text))
      this.flag('unproven', text, '${x@P} expands a value as a prompt, which runs the $(…) in it');
    const analysis: ShellAnalysis = {
      commands: this.commands,
      opaque: this.opaque,
      assignments: this.assignments,
    };
    if (this.misread !== undefined) analysis.misread = this.misread;
    if (this.printsEnvironment) analysis.printsEnvironment = true;
    return analysis;
  }

  /**
   * Bash evaluates a variable's value as an expression in arithmetic, and an array subscript
   * in that value runs command substitutions: `x='a[$(id)]'; echo $((x))` runs `id`. So
   * arithmetic asks when the line itself gives a variable a value that is not a plain number.
   */
  private judgeArithmetic(): void {
    if (!this.arithmetic) return;
    const values = [...this.assignments.values()].flat();
    if (!this.setIndirectly && values.every((v) => /^-?\d+$/.test(v))) return;
    this.flag(
      'unproven',
      this.arithmetic,
      `arithmetic in ${clip(this.arithmetic, 40)} evaluates variables this command sets, and a value like a[$(…)] runs a command`,
    );
  }

  /**
   * Bash runs a `$(…)` it reads inside a subscript or arithmetic even when the line quoted it:
   * `test -v 'a[$(id)]'`, `[[ 'a[$(id)]' -gt 0 ]]` and `echo ${a['$(id)']}` all run `id`. A
   * line with such text and such a place asks (one that already asks needs no second reason).
   */
  private judgeEvaluatedText(text: string): void {
    if (this.opaque.length || !SUBSTITUTION_TEXT.test(text) || !EVALUATING.test(text)) return;
    this.flag(
      'unproven',
      text,
      'text like $(…) in quotes runs as a command where bash evaluates it (a subscript, ${!x}, ${x:…} or arithmetic)',
    );
  }

  /**
   * A variable name a built-in is given with a subscript (`unset 'a[$i]'`, `read "a[$k]"`,
   * `test -v 'a[x]'`): bash evaluates the subscript, and what it expands to may run a command.
   */
  private judgeNamedSubscripts(words: string[]): void {
    const start = PREFIXES.has(programName(words[0] ?? '')) ? commandStart(words).program : 0;
    const name = programName(words[start] ?? '');
    if (!NAMING_BUILTINS.has(name)) return;
    const args = words.slice(start + 1);
    this.judgeNames(name, args, words.slice(start).join(' '));
  }

  /** {@link judgeNamedSubscripts} for the arguments `args` of the built-in `name`. */
  private judgeNames(name: string, args: string[], line: string): void {
    for (const given of namesGiven(name, args)) {
      // A name the line does not spell out (`printf -v "$y"`) may be `a[$(…)]` when it runs.
      const subscripted = SUBSCRIPTED.test(given);
      const dynamic = !subscripted && /[$`]/.test(given);
      if (!subscripted && !dynamic) continue;
      this.flag(
        'unproven',
        line,
        `${name} ${clip(given, 40)}: bash evaluates the subscript${dynamic ? ' of the name this expands to' : ''}, and what it expands to may run a command`,
      );
      return;
    }
  }

  /** Notes arithmetic and indirect assignments among syntax nodes (`type` read once: it is a WASM call). */
  private noteArithmeticNode(node: SyntaxNode, type: string): void {
    switch (type) {
      case 'arithmetic_expansion':
      case 'c_style_for_statement':
        this.arithmetic ??= node.text;
        return;
      case 'compound_statement':
      case 'test_command': {
        const text = node.text;
        if (type === 'compound_statement' ? text.startsWith('((') : TEST_ARITHMETIC.test(text))
          this.arithmetic ??= text;
        if (type === 'test_command' && TEST_NAME_SUBSCRIPT.test(text))
          this.flag(
            'unproven',
            text,
            `${clip(text, 40)}: bash evaluates the subscript of the name it tests, and what it expands to may run a command`,
          );
        return;
      }
      case 'subscript':
        if (!/^(\d+|@|\*)$/.test(node.childForFieldName('index')?.text ?? '0'))
          this.arithmetic ??= node.text;
        return;
      case 'for_statement':
        this.setIndirectly = true;
        return;
    }
  }

  /** The same for a simple command's words (`let`, `[ $x -eq 1 ]`, `read x`, `printf -v x`). */
  private noteArithmeticWords(words: string[]): void {
    const name = words[0];
    if (name === 'let' || words.some((w) => /^-(eq|ne|lt|le|gt|ge)$/.test(w)))
      this.arithmetic ??= words.join(' ');
    if (name && /^(read|mapfile|readarray|getopts)$/.test(name)) this.setIndirectly = true;
    if (name === 'printf' && words.includes('-v')) this.setIndirectly = true;
    // `set -- *`: $1… become file names, and a file may be named a[$(…)].
    if (name === 'set' && setsPositional(words)) this.setIndirectly = true;
    if (name && (NAMING_BUILTINS.has(name) || PREFIXES.has(name))) this.judgeNamedSubscripts(words);
  }

  private flag(construct: OpaqueConstruct, text: string, reason: string): void {
    const seen = (o: OpaquePart) =>
      o.construct === construct && (construct === 'parse_error' || o.text === clip(text));
    if (this.opaque.some(seen)) return;
    this.opaque.push({ construct, text: clip(text), reason });
  }

  private walk(node: SyntaxNode, depth: number, piped: boolean, type = node.type): void {
    if (SHELL_LEAVES.has(type)) return;
    // `cmd &` (the operator, not `&&`, `&>` or `>&`): the process outlives the call, so
    // whatever Gatehouse read to judge the next call (a folder to copy, an archive, a
    // package.json) could be changed under it; only a person lets one run.
    if (this.hasAmpersand && node.children.some((c) => c?.type === '&'))
      this.flag(
        'background',
        node.text,
        `${clip(node.text, 60)} leaves a process running after the call, free to change files after Gatehouse has judged them`,
      );
    switch (type) {
      case 'ERROR':
        this.flag('parse_error', node.text, 'the command does not parse as shell');
        return this.walkChildren(node, depth);
      case 'command':
        return this.command(node, [], depth, piped);
      case 'redirected_statement':
        return this.redirected(node, depth, piped);
      case 'pipeline': {
        nodes(node.namedChildren).forEach((child, i) => this.walk(child, depth, i > 0));
        return;
      }
      case 'command_substitution':
        this.flag(
          'command_substitution',
          node.text,
          `the output of ${clip(node.text, 60)} becomes part of the command, unknown until it runs`,
        );
        return this.walkChildren(node, depth);
      case 'process_substitution':
        this.flag(
          'process_substitution',
          node.text,
          `${clip(node.text, 60)} runs a command whose output is read as a file`,
        );
        return this.walkChildren(node, depth);
      case 'variable_assignment':
        this.assign(node, false);
        return this.walkChildren(node, depth);
      case 'for_statement': {
        // `for f in a b`: $f takes each listed word (without a list, the arguments: unknown).
        const name = node.childForFieldName('variable')?.text;
        // The loop sets its variable like an assignment: `for PATH in .; do ls; done`.
        if (name) this.checkVariable(name, false, node);
        const values = nodes(node.childrenForFieldName('value')).map((v) => wordValue(v));
        if (name && values.length)
          this.assignments.set(name, [...(this.assignments.get(name) ?? []), ...values]);
        return this.walkChildren(node, depth);
      }
      case 'negated_command': {
        // Bash negates only with `!` as a word of its own: `!'cat' x` runs a program named
        // `!cat`, which the parser reads as `! cat x`.
        const [bang, negated] = nodes(node.children);
        if (bang && negated && bang.endIndex === negated.startIndex)
          this.misreadWord(clip(node.text, 40));
        return this.walkChildren(node, depth);
      }
      case 'declaration_command':
        return this.declaration(node, depth);
      case 'unset_command': {
        // `unset 'a[$i]'` (a node of its own, like declarations): its names' subscripts.
        const [keyword, ...rest] = nodes(node.children);
        const names = rest.filter((c) => c.isNamed).map((c) => wordValue(c));
        this.judgeNames(keyword?.text ?? 'unset', names, node.text);
        return this.walkChildren(node, depth);
      }
      default:
        this.noteArithmeticNode(node, type);
        if (type === 'program' && node.hasError && !this.opaque.length)
          this.flag('parse_error', node.text, 'the command does not parse as shell');
        return this.walkChildren(node, depth);
    }
  }

  private walkChildren(node: SyntaxNode, depth: number): void {
    for (const child of nodes(node.namedChildren)) this.walk(child, depth, false);
  }

  /**
   * `export A=1 B`, `declare -x A`, `local a=1`: exported names must be on the safe list,
   * others follow the rule for plain assignments (environment-like names ask).
   */
  private declaration(node: SyntaxNode, depth: number): void {
    const [keyword, ...rest] = nodes(node.children);
    const { exported, nameref, integer } = declarationOptions(
      keyword?.text ?? 'declare',
      rest.filter((c) => c.type === 'word').map((c) => c.text),
    );
    // `declare -n x=PATH; x=/tmp/evil`: assigning x then sets PATH.
    if (nameref)
      this.flag('unproven', node.text, 'declare -n makes a name stand for another variable');
    // `declare -i n; read n < f`: every value given to n later is evaluated as arithmetic.
    if (integer) this.arithmetic ??= node.text;
    const nameNodes = rest.filter((c) => c.isNamed && c.type !== 'variable_assignment');
    const named = nameNodes.map((c) => wordValue(c));
    this.judgeNames(keyword?.text ?? 'declare', named, node.text);
    const assigns = rest.some((c) => c.type === 'variable_assignment');
    const written = nameNodes.map((c) => c.text);
    if (!assigns && declarationPrints(keyword?.text ?? '', named, written))
      this.printsEnvironment = true;
    for (const child of rest) {
      if (child.type === 'variable_assignment') {
        this.assign(child, exported);
        this.walkChildren(child, depth);
      } else if (child.type === 'variable_name') this.checkVariable(child.text, exported, node);
      else if (child.isNamed) this.walk(child, depth, false);
    }
  }

  private checkVariable(name: string, exported: boolean, at: SyntaxNode): void {
    const problem = exported ? exportedVariableProblem(name) : assignedVariableProblem(name);
    if (problem) this.flag('unproven', at.text, problem);
  }

  private assign(node: SyntaxNode, exported: boolean): void {
    const name = node.childForFieldName('name')?.text;
    const value = node.childForFieldName('value');
    if (!name) return;
    this.checkVariable(name, exported, node);
    const list = this.assignments.get(name) ?? [];
    list.push(value ? wordValue(value) : '');
    this.assignments.set(name, list);
  }

  private redirected(node: SyntaxNode, depth: number, piped: boolean): void {
    const redirects: ShellRedirect[] = [];
    let heredoc = false;
    const collect = (r: SyntaxNode): void => {
      const found = redirectOf(r);
      if (found) redirects.push(found);
      if (r.type === 'heredoc_redirect') {
        heredoc = true;
        // `cat <<EOF > notes.md`: the file redirect sits inside the here-document's node.
        nodes(r.childrenForFieldName('redirect')).forEach(collect);
      }
      // A here-string, a destination or an unquoted here-document body may hold substitutions.
      for (const child of nodes(r.namedChildren))
        if (!child.type.endsWith('_redirect')) this.walk(child, depth, false);
    };
    nodes(node.childrenForFieldName('redirect')).forEach(collect);
    const body = node.childForFieldName('body');
    if (body?.type === 'command') return this.command(body, redirects, depth, piped, heredoc);
    const before = this.commands.length;
    if (body) this.walk(body, depth, piped);
    // tree-sitter-bash hangs `a && b > f` on the list; bash applies it to the last command.
    const last = this.commands.length > before ? this.commands.at(-1) : undefined;
    if (last) last.redirects.push(...redirects);
    else if (redirects.length) this.commands.push({ words: [], redirects });
  }

  private command(
    node: SyntaxNode,
    redirects: ShellRedirect[],
    depth: number,
    piped: boolean,
    heredoc = false,
  ): void {
    const wordNodes: SyntaxNode[] = [];
    const words: string[] = [];
    for (const child of nodes(node.namedChildren)) {
      const type = child.type;
      if (type === 'variable_assignment') {
        // `X=… cmd`: the variable is in the command's environment.
        this.assign(child, true);
        this.walkChildren(child, depth);
        continue;
      }
      if (type === 'command_name') {
        const name = nodes(child.namedChildren)[0] ?? child;
        wordNodes.push(name);
        words.push(wordValue(name));
      } else if (type.endsWith('_redirect')) {
        const r = redirectOf(child);
        if (r) redirects.push(r);
      } else {
        wordNodes.push(child);
        const value = wordValue(child, type);
        words.push(value);
        // `cat [ ]/x` is `[` and `]/x` to bash; the parser reads a word `[ ]`.
        if (type === 'word' && /\s/.test(value) && hasUnescapedSpace(child.text))
          this.misreadWord(child.text);
      }
      // Substitutions inside words are commands too (and opaque).
      if (!SHELL_LEAVES.has(type)) this.walk(child, depth, false, type);
    }
    if (this.splitProne) this.judgeWordSplits(node, wordNodes);
    this.noteArithmeticWords(words);
    if (printsEnvironment(words, (k) => /[$\\]/.test(wordNodes[k]!.text)))
      this.printsEnvironment = true;
    const dynamic = wordNodes.map((n, k) => mayExpand(words[k]!) && isDynamicWord(n));
    const cmd: ShellCommand = { words, redirects, dynamic };
    this.commands.push(cmd);
    const unproven = this.judge(wordNodes, words, redirects, depth, piped || heredoc);
    if (unproven) {
      cmd.unproven = unproven;
      this.flag('unproven', words.join(' '), unproven);
    }
  }

  /**
   * Two words with nothing between them are one word to bash that the parser split: what
   * bash opens (`cat a[\!]x`, a pattern matching `a!x`) is then neither of the words seen.
   * A `$` the parser leaves out of every word (`cat $`, `cat -b$`) is a word to bash too.
   */
  private judgeWordSplits(node: SyntaxNode, wordNodes: readonly SyntaxNode[]): void {
    for (let k = 1; k < wordNodes.length; k++) {
      const [before, after] = [wordNodes[k - 1]!, wordNodes[k]!];
      if (before.endIndex === after.startIndex) this.misreadWord(before.text + after.text);
    }
    const children = node.children;
    children.forEach((child, k) => {
      if (!child || child.isNamed) return;
      // `$"text"` (a string translated for the locale) is read as a `$` and a string.
      const next = children[k + 1];
      if (next?.type === 'string' && next.startIndex === child.endIndex) return;
      this.misreadWord(child.text);
    });
  }

  private misreadWord(text: string): void {
    this.misread ??= text;
    this.flag('parse_error', text, WORDS_SPLIT(text));
  }

  /**
   * Flags the commands that run other commands Gatehouse cannot see, and returns the reason
   * a command is not proven harmless (its prefixes, program and options, commands/vet.ts).
   */
  private judge(
    wordNodes: SyntaxNode[],
    words: string[],
    redirects: ShellRedirect[],
    depth: number,
    readsStdin: boolean,
  ): string | undefined {
    // Most commands start with their program: nothing to skip, nothing allocated.
    const start = PREFIXES.has(programName(words[0] ?? '')) ? commandStart(words) : NO_PREFIX;
    let prefixIssue: string | undefined;
    for (const p of start.prefixes)
      prefixIssue ??= prefixProblem(p.name, words.slice(p.from, p.optionsEnd));
    const i = start.program;
    // `command -v node` only says where a program is; nothing runs.
    if (programName(words[i] ?? '') === 'command' && /^-[vV]$/.test(words[i + 1] ?? ''))
      return prefixIssue;
    const name = programName(words[i] ?? '');
    const args = words.slice(i + 1);
    const argNodes = wordNodes.slice(i + 1);
    // The command as written, for the reasons below (most commands need none).
    const line = (): string => words.slice(i).join(' ');
    if (name === 'eval') {
      this.flag('eval', line(), 'eval runs text as a command, built when it runs');
      if (!argNodes.some(isDynamicWord)) this.nested(args.join(' '), depth);
      return;
    }
    if (name === 'source' || name === '.') {
      this.flag(
        'source',
        line(),
        `${name} runs the commands of ${args[0] ?? 'a file'} in this shell`,
      );
      return;
    }
    if (name === 'alias') {
      this.flag('alias', line(), 'an alias changes what later commands mean');
      return;
    }
    if (name === 'xargs') {
      this.flag('xargs', line(), 'xargs builds commands from its input, unknown until it runs');
      return;
    }
    if (name === 'find' && args.some((a) => /^-(exec|execdir|ok|okdir)$/.test(a))) {
      this.flag('find_exec', line(), 'find -exec runs a command on files found when it runs');
      return;
    }
    if (SHELLS.has(name)) {
      const c = args.findIndex((a) => /^-\w*c\w*$/.test(a) && !a.startsWith('--'));
      // `bash --rcfile ./x.sh -ic 'ls'` runs x.sh before the script Gatehouse reads.
      const startup = (c >= 0 ? args.slice(0, c) : args).find(
        (a) =>
          a.startsWith('--') && !/^--(norc|noprofile|posix|login|restricted|noediting)$/.test(a),
      );
      if (startup)
        this.flag('unproven', line(), `${name} ${clip(startup, 40)} can run a start-up file first`);
      if (c >= 0) {
        const script = argNodes[c + 1];
        if (!script || isDynamicWord(script))
          this.flag(
            'shell_c',
            line(),
            `${name} -c runs a script built from expansions when it runs`,
          );
        else this.nested(args[c + 1]!, depth);
        // `env BASH_ENV=./x.sh sh -c 'true'`: the shell reads what env set before the script.
        return prefixIssue;
      }
      const operands = args.filter((a) => !a.startsWith('-'));
      const fed = redirects.some(
        (r) => r.kind === 'heredoc' || (r.kind === 'read' && r.op === '<'),
      );
      if (!operands.length && (readsStdin || fed))
        this.flag('heredoc_to_shell', line(), `${name} runs commands fed to it on its input`);
      return prefixIssue;
    }
    if (prefixIssue || i >= words.length) return prefixIssue;
    // The text rules out most words before the syntax tree (WASM calls) is asked.
    return commandProblem(words[i]!, args, (k, anywhere) => {
      const node = argNodes[k];
      if (anywhere) return /[$`]/.test(args[k] ?? '') && !!node && isDynamicWord(node);
      return isLoose(args[k] ?? '') && looseNode(node);
    });
  }

  private nested(source: string, depth: number): void {
    if (depth >= MAX_DEPTH) {
      this.flag('shell_c', source, 'shell nested too deeply to follow');
      return;
    }
    const outer = this.hasAmpersand;
    this.hasAmpersand = source.includes('&');
    this.walk(this.parseNested(source), depth + 1, false);
    this.hasAmpersand = outer;
  }
}

/**
 * True when a word may become something else when the shell runs it, judged from its
 * syntax: a leading expansion (but `$HOME`, `$PWD`), an unquoted leading glob or brace, or
 * an ANSI-C string with escapes. A quoted literal (`'{print $1}'`, `"*.ts"`) is not loose.
 */
function looseNode(node: SyntaxNode | undefined): boolean {
  if (!node) return false;
  switch (node.type) {
    case 'raw_string':
    case 'number':
      return false;
    case 'ansi_c_string':
      return node.text.includes('\\');
    case 'word':
      return /^[*?[{]/.test(node.text);
    case 'string':
      return /^"[$`]/.test(node.text) && isLoose(wordValue(node));
    case 'concatenation': {
      const first = nodes(node.children)[0];
      return first?.type === 'word' ? /^[*?[{]/.test(first.text) : looseNode(first);
    }
    default:
      return isDynamicWord(node) && isLoose(wordValue(node));
  }
}

function redirectOf(node: SyntaxNode): ShellRedirect | undefined {
  const op = nodes(node.children).find((c) => !c.isNamed)?.text ?? '';
  if (node.type === 'heredoc_redirect') return { op: op || '<<', target: '', kind: 'heredoc' };
  if (node.type === 'herestring_redirect') {
    const value = nodes(node.namedChildren)[0];
    return { op: '<<<', target: value ? wordValue(value) : '', kind: 'heredoc' };
  }
  const dest = node.childForFieldName('destination') ?? nodes(node.namedChildren).at(-1);
  if (!dest) return undefined;
  const target = wordValue(dest);
  if (/^(>&|<&)$/.test(op) || (op.endsWith('&') && /^\d+-?$|^-$/.test(target)))
    return { op, target, kind: 'dup' };
  if (op === '>&' && /^\d+$/.test(target)) return { op, target, kind: 'dup' };
  return { op, target, kind: op.startsWith('<') && op !== '<>' ? 'read' : 'write' };
}
