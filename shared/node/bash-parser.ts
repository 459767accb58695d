import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import { Language, Parser } from 'web-tree-sitter';
import { analyseShellTree } from '../tools/shell-analysis';
import type { ShellParser, SyntaxNode } from '../tools/shell-syntax';

const require = createRequire(import.meta.url);

let loading: Promise<ShellParser> | undefined;
let loaded: ShellParser | undefined;

/**
 * Loads tree-sitter-bash through web-tree-sitter once per process (about 20 ms) and returns
 * the shell parser every adapter and the daemon share; parses are synchronous afterwards
 * (well under a millisecond). The .wasm files are read from the installed packages, so the
 * bundled `dist/` finds them in `node_modules` like any other external dependency.
 */
export function loadBashParser(): Promise<ShellParser> {
  loading ??= (async () => {
    const runtime = readFileSync(require.resolve('web-tree-sitter/web-tree-sitter.wasm'));
    await Parser.init({ wasmBinary: runtime });
    const grammar = await Language.load(
      readFileSync(require.resolve('tree-sitter-bash/tree-sitter-bash.wasm')),
    );
    const parser = new Parser();
    parser.setLanguage(grammar);
    loaded = {
      analyse: (source) => {
        // Trees live in WASM memory: each is freed once the (synchronous) walk is done.
        const trees: { delete(): void }[] = [];
        const parse = (text: string): SyntaxNode => {
          const tree = parser.parse(text);
          if (!tree) throw new Error('the shell parser returned no tree');
          trees.push(tree);
          // web-tree-sitter's Node has this shape; its own type differs only in nullability.
          return tree.rootNode as unknown as SyntaxNode;
        };
        try {
          return analyseShellTree(parse(source), parse);
        } finally {
          for (const t of trees) t.delete();
        }
      },
    };
    return loaded;
  })();
  return loading;
}

/** The parser once `loadBashParser` has finished, for synchronous callers. */
export function bashParserIfLoaded(): ShellParser | undefined {
  return loaded;
}
