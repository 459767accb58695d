// One highlight.js language definition, as the Node-side project sees it (see
// highlight-core.d.ts): passed to registerLanguage, never looked into.
export interface LanguageFn {
  (hljs: unknown): unknown;
}
declare const language: LanguageFn;
export default language;
