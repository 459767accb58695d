/**
 * The shapes of Gatehouse's one shell parser: the syntax tree it walks (the part of
 * tree-sitter's node API the analysis uses, so this file stays free of Node and WASM) and the
 * analysis every adapter and the daemon read.
 */

/** The subset of a tree-sitter node the shell analysis reads. */
export interface SyntaxNode {
  readonly type: string;
  readonly text: string;
  readonly isNamed: boolean;
  readonly hasError: boolean;
  /** Offsets of the node's text in the parsed source. */
  readonly startIndex: number;
  readonly endIndex: number;
  readonly children: readonly (SyntaxNode | null)[];
  readonly namedChildren: readonly (SyntaxNode | null)[];
  childForFieldName(name: string): SyntaxNode | null;
  childrenForFieldName(name: string): readonly (SyntaxNode | null)[];
}

/** A redirection of a simple command, e.g. `> out.log` or `< in.txt`. */
export interface ShellRedirect {
  /** The operator as written: `>`, `>>`, `<`, `&>`, `>|`, `<<`, `<<<`, `>&`, … */
  op: string;
  /** The file (or descriptor, or here-string) it names, unquoted. */
  target: string;
  /** `read` and `write` name files; `dup` duplicates a descriptor; `heredoc` feeds text. */
  kind: 'read' | 'write' | 'dup' | 'heredoc';
}

/** One simple command: `words[0]` is the program, after any `VAR=value` assignments. */
export interface ShellCommand {
  /** The words with quotes removed; expansions (`$HOME`, `${X}`, `$(…)`) kept as written. */
  words: string[];
  redirects: ShellRedirect[];
  /**
   * Set when the command is not proven harmless (an option, program, prefix or variable
   * off the allowlist, shared/tools/commands/); the analysis also lists it as `unproven`.
   */
  unproven?: string;
  /**
   * Per word, true when it holds an expansion the shell performs (not a quoted `'$X'`): only
   * those `$…` are variables. Absent, every `$…` counts as one.
   */
  dynamic?: boolean[];
}

/** Why part of a command cannot be judged before it runs. */
export type OpaqueConstruct =
  | 'command_substitution'
  | 'process_substitution'
  | 'eval'
  | 'shell_c'
  | 'xargs'
  | 'find_exec'
  | 'heredoc_to_shell'
  | 'source'
  | 'alias'
  | 'parse_error'
  /** `cmd &`: a process left running after the call, free to change files once judged. */
  | 'background'
  /** A program, option, prefix or variable not on the list of ones known to be harmless. */
  | 'unproven';

export interface OpaquePart {
  construct: OpaqueConstruct;
  /** The text concerned, clipped. */
  text: string;
  /** A sentence for the human: what cannot be known and why. */
  reason: string;
}

/** What a shell command line does, as far as it can be known without running it. */
export interface ShellAnalysis {
  /** Every simple command, including those inside substitutions, subshells and `bash -c`. */
  commands: ShellCommand[];
  /** Constructs whose effect cannot be known statically; any one of them makes it ask. */
  opaque: OpaquePart[];
  /** Variables the command line itself assigns (`D=~/x; cat $D/y`), name → values. */
  assignments: Map<string, string[]>;
  /**
   * Text the parser does not read as bash reads its words (also in `opaque`): the files
   * bash opens are then not the words seen, and no rule of the person's can vouch for them.
   */
  misread?: string;
  /**
   * A command prints every variable of the environment (`env`, `printenv`, `set`, `export -p`),
   * Gatehouse's secret ones among them when the agent has them (secret-variables.ts).
   */
  printsEnvironment?: true;
}

/**
 * Parses shell command lines. Synchronous once loaded, so the daemon and the hook call it
 * on their hot paths; the Node loader lives in `shared/node/bash-parser.ts`.
 */
export interface ShellParser {
  analyse(source: string): ShellAnalysis;
}
