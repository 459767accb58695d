// The part of highlight.js's core the diff view uses, typed here for the Node-side
// TypeScript project (tsconfig.node.json maps `highlight.js/lib/core` to this file):
// highlight.js's own types reference the DOM library, which would change Node's globals
// (ReadableStream, fetch) for every file of that project.
import type { LanguageFn } from './highlight-language';

declare const hljs: {
  registerLanguage(name: string, language: LanguageFn): void;
  highlight(
    code: string,
    options: { language: string; ignoreIllegals?: boolean },
  ): {
    value: string;
  };
};
export default hljs;
