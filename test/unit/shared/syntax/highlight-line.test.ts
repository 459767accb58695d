import { describe, expect, it } from 'vitest';
import { filesOfLines } from '../../../../shared/syntax/diff-files';
import { highlightLine } from '../../../../shared/syntax/highlight-line';
import { languageOf } from '../../../../shared/syntax/languages';
import { tokensOf } from '../../../../shared/syntax/tokens';

describe('syntax highlighting of a diff line', () => {
  it('picks the language from the file name, and none for an unknown one', () => {
    expect(languageOf('src/pay.ts')).toBe('typescript');
    expect(languageOf('a/b/Component.TSX')).toBe('typescript');
    expect(languageOf('k8s/prod.yaml')).toBe('yaml');
    expect(languageOf('Dockerfile')).toBe('dockerfile');
    expect(languageOf('notes.txt')).toBeUndefined();
    expect(languageOf('.env')).toBeUndefined();
  });

  it('gives tokens with highlight.js scopes that spell the line exactly', () => {
    const line = 'const fee = Math.round(cents * 0.029) + 30; // the card fee';
    const tokens = highlightLine(line, 'src/pay.ts');
    expect(tokens.map((t) => t.text).join('')).toBe(line);
    expect(tokens).toContainEqual({ text: 'const', scope: 'hljs-keyword' });
    expect(tokens).toContainEqual({ text: '0.029', scope: 'hljs-number' });
    expect(tokens).toContainEqual({ text: '// the card fee', scope: 'hljs-comment' });
  });

  it('keeps markup an agent wrote as text: a string holding </span> or <script> is one token of its characters', () => {
    const line = 'const s = "</span><script>alert(1)</script>&amp;";';
    const tokens = highlightLine(line, 'x.ts');
    expect(tokens.map((t) => t.text).join('')).toBe(line);
    expect(tokens).toContainEqual({
      text: '"</span><script>alert(1)</script>&amp;"',
      scope: 'hljs-string',
    });
    // In an HTML file the tags are tokens too, still their own characters.
    const html = '<script>window.pwned = 1</script>';
    expect(
      highlightLine(html, 'page.html')
        .map((t) => t.text)
        .join(''),
    ).toBe(html);
  });

  it('reads back only the escaped vocabulary of highlight.js: anything else is refused', () => {
    expect(tokensOf('<span class="hljs-keyword">if</span> x &lt; 1')).toEqual([
      { text: 'if', scope: 'hljs-keyword' },
      { text: ' x < 1' },
    ]);
    expect(tokensOf('<script>x</script>')).toBeUndefined();
    expect(tokensOf('<span class="hljs-string" onclick="x">a</span>')).toBeUndefined();
    expect(tokensOf('<span class="hljs-string">a')).toBeUndefined();
    expect(tokensOf('a</span>')).toBeUndefined();
    expect(tokensOf('&nbsp;')).toBeUndefined();
  });

  it('shows plain what it cannot highlight: no language, an empty line, a minified line', () => {
    expect(highlightLine('plain <b>text</b>', 'notes.txt')).toEqual([
      { text: 'plain <b>text</b>' },
    ]);
    expect(highlightLine('', 'a.ts')).toEqual([{ text: '' }]);
    const long = `const x = ${'1+'.repeat(1500)}1;`;
    expect(highlightLine(long, 'a.ts')).toEqual([{ text: long }]);
  });

  it("follows each file's header through a multi-file diff", () => {
    const lines = [
      'diff --git a/src/a.ts b/src/a.ts',
      '+++ b/src/a.ts',
      '+const a = 1;',
      'diff --git a/deploy.yaml b/deploy.yaml',
      '+replicas: 3',
      '*** Update File: tools/run.py',
      '+print(1)',
    ];
    expect(filesOfLines(lines, undefined)).toEqual([
      'src/a.ts',
      'src/a.ts',
      'src/a.ts',
      'deploy.yaml',
      'deploy.yaml',
      'tools/run.py',
      'tools/run.py',
    ]);
  });
});
