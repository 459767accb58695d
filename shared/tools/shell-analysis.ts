import type {
  OpaqueConstruct,
  OpaquePart,
  ShellAnalysis,
  ShellCommand,
  ShellRedirect,
  SyntaxNode,
} from './shell-syntax';

/** Parses nested shell text (`bash -c '…'`, `eval '…'`) with the same parser. */
export type ParseNested = (source: string) => SyntaxNode;

const MAX_DEPTH = 4;
const SHELLS = new Set(['bash', 'sh', 'zsh', 'dash', 'ksh', 'fish', 'mksh', 'busybox']);
/** Words that run the rest of the command line as a command. */
const PREFIXES = new Set([
  'sudo',
  'doas',
  'env',
  'nohup',
  'time',
  'nice',
  'ionice',
  'timeout',
  'command',
  'exec',
  'builtin',
  'stdbuf',
  'chroot',
  'unbuffer',
  'then',
  'do',
  'else',
  '!',
]);
/** Options of the prefixes above that take a value (the word after them is not a program). */
const PREFIX_VALUE_OPTION = /^-([ugCDhprtsknS]|-user|-group|-chdir|-signal|-kill-after)$/;

const clip = (s: string, n = 120): string => (s.length > n ? `${s.slice(0, n - 1)}…` : s);
const base = (word: string): string => word.replace(/^.*\//, '');
const nodes = (list: readonly (SyntaxNode | null)[]): SyntaxNode[] =>
  list.filter((n): n is SyntaxNode => n !== null);

/** True when a word's value depends on something only known when it runs. */
export function isDynamicWord(node: SyntaxNode): boolean {
  if (
    node.type === 'simple_expansion' ||
    node.type === 'expansion' ||
    node.type === 'command_substitution' ||
    node.type === 'process_substitution' ||
    node.type === 'arithmetic_expansion'
  )
    return true;
  return nodes(node.namedChildren).some(isDynamicWord);
}

/** A word's value with quoting removed; expansions stay as written (`$HOME`, `$(…)`). */
export function wordValue(node: SyntaxNode): string {
  switch (node.type) {
    case 'word':
      return node.text.replace(/\\\n/g, '').replace(/\\(.)/gs, '$1');
    case 'raw_string':
      return node.text.slice(1, -1);
    case 'string':
      return node.text
        .slice(1, -1)
        .replace(/\\([$`"\\\n])/g, (_, c: string) => (c === '\n' ? '' : c));
    case 'ansi_c_string':
    case 'translated_string':
      return node.text.slice(2, -1);
    case 'concatenation':
      return nodes(node.children).map(wordValue).join('');
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

  run(root: SyntaxNode): ShellAnalysis {
    this.walk(root, 0, false);
    return { commands: this.commands, opaque: this.opaque, assignments: this.assignments };
  }

  private flag(construct: OpaqueConstruct, text: string, reason: string): void {
    const seen = (o: OpaquePart) =>
      o.construct === construct && (construct === 'parse_error' || o.text === clip(text));
    if (this.opaque.some(seen)) return;
    this.opaque.push({ construct, text: clip(text), reason });
  }

  private walk(node: SyntaxNode, depth: number, piped: boolean): void {
    switch (node.type) {
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
        this.assign(node);
        return this.walkChildren(node, depth);
      case 'for_statement': {
        // `for f in a b`: $f takes each listed word (without a list, the arguments: unknown).
        const name = node.childForFieldName('variable')?.text;
        const values = nodes(node.childrenForFieldName('value')).map(wordValue);
        if (name && values.length)
          this.assignments.set(name, [...(this.assignments.get(name) ?? []), ...values]);
        return this.walkChildren(node, depth);
      }
      default:
        if (node.type === 'program' && node.hasError && !this.opaque.length)
          this.flag('parse_error', node.text, 'the command does not parse as shell');
        return this.walkChildren(node, depth);
    }
  }

  private walkChildren(node: SyntaxNode, depth: number): void {
    for (const child of nodes(node.namedChildren)) this.walk(child, depth, false);
  }

  private assign(node: SyntaxNode): void {
    const name = node.childForFieldName('name')?.text;
    const value = node.childForFieldName('value');
    if (!name) return;
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
    for (const child of nodes(node.namedChildren)) {
      if (child.type === 'variable_assignment') {
        this.assign(child);
        this.walkChildren(child, depth);
        continue;
      }
      if (child.type === 'command_name') wordNodes.push(nodes(child.namedChildren)[0] ?? child);
      else if (child.type.endsWith('_redirect')) {
        const r = redirectOf(child);
        if (r) redirects.push(r);
      } else wordNodes.push(child);
      // Substitutions inside words are commands too (and opaque).
      this.walk(child, depth, false);
    }
    const words = wordNodes.map(wordValue);
    this.commands.push({ words, redirects, dynamic: wordNodes.map(isDynamicWord) });
    this.judge(wordNodes, words, redirects, depth, piped || heredoc);
  }

  /** Flags the commands that run other commands Gatehouse cannot see. */
  private judge(
    wordNodes: SyntaxNode[],
    words: string[],
    redirects: ShellRedirect[],
    depth: number,
    readsStdin: boolean,
  ): void {
    let i = 0;
    while (i < words.length) {
      const b = base(words[i]!);
      if (!PREFIXES.has(b)) break;
      i++;
      while (i < words.length && (words[i]!.startsWith('-') || /^[A-Za-z_]\w*=/.test(words[i]!)))
        i += PREFIX_VALUE_OPTION.test(words[i]!) ? 2 : 1;
      if (b === 'timeout' && i < words.length) i++;
    }
    const name = base(words[i] ?? '');
    const args = words.slice(i + 1);
    const argNodes = wordNodes.slice(i + 1);
    const line = words.slice(i).join(' ');
    if (name === 'eval') {
      this.flag('eval', line, 'eval runs text as a command, built when it runs');
      if (!argNodes.some(isDynamicWord)) this.nested(args.join(' '), depth);
      return;
    }
    if (name === 'source' || name === '.') {
      this.flag(
        'source',
        line,
        `${name} runs the commands of ${args[0] ?? 'a file'} in this shell`,
      );
      return;
    }
    if (name === 'alias') {
      this.flag('alias', line, 'an alias changes what later commands mean');
      return;
    }
    if (name === 'xargs') {
      this.flag('xargs', line, 'xargs builds commands from its input, unknown until it runs');
      return;
    }
    if (name === 'find' && args.some((a) => /^-(exec|execdir|ok|okdir)$/.test(a))) {
      this.flag('find_exec', line, 'find -exec runs a command on files found when it runs');
      return;
    }
    if (SHELLS.has(name)) {
      const c = args.findIndex((a) => /^-\w*c\w*$/.test(a) && !a.startsWith('--'));
      if (c >= 0) {
        const script = argNodes[c + 1];
        if (!script || isDynamicWord(script))
          this.flag('shell_c', line, `${name} -c runs a script built from expansions when it runs`);
        else this.nested(args[c + 1]!, depth);
        return;
      }
      const operands = args.filter((a) => !a.startsWith('-'));
      const fed = redirects.some(
        (r) => r.kind === 'heredoc' || (r.kind === 'read' && r.op === '<'),
      );
      if (!operands.length && (readsStdin || fed))
        this.flag('heredoc_to_shell', line, `${name} runs commands fed to it on its input`);
    }
  }

  private nested(source: string, depth: number): void {
    if (depth >= MAX_DEPTH) {
      this.flag('shell_c', source, 'shell nested too deeply to follow');
      return;
    }
    this.walk(this.parseNested(source), depth + 1, false);
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
