import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';

// The built renderer (dist/renderer, built by the test run's global setup) as the dashboard
// serves it: strict-CSP compatible and small. The dashboard's first load is under
// 300 KB of JavaScript gzipped.

const dist = join(import.meta.dirname, '..', '..', '..', 'dist', 'renderer');
const LIMIT_BYTES = 300 * 1024;

describe('renderer bundle', () => {
  const html = readFileSync(join(dist, 'index.html'), 'utf8');
  const scripts = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)];
  const preloads = [...html.matchAll(/<link\b[^>]*rel="modulepreload"[^>]*href="([^"]+)"/g)].map(
    (m) => m[1]!,
  );
  const entry = scripts
    .map((m) => /src="([^"]+)"/.exec(m[1]!)?.[1])
    .filter((s): s is string => !!s);

  it('has no inline script, style or event handler (the CSP allows none)', () => {
    expect(scripts.length).toBeGreaterThan(0);
    for (const [, attrs, body] of scripts) {
      expect(attrs).toMatch(/src="/);
      expect(body!.trim()).toBe('');
    }
    expect(html).not.toMatch(/<style\b/);
    expect(html).not.toMatch(/\sstyle="/);
    expect(html).not.toMatch(/\son[a-z]+="/);
  });

  it('loads less than 300 KB of JavaScript gzipped on first load, as a production build', () => {
    let raw = 0;
    let gzipped = 0;
    let code = '';
    for (const src of [...entry, ...preloads]) {
      const text = readFileSync(join(dist, src), 'utf8');
      code += text;
      raw += Buffer.byteLength(text);
      gzipped += gzipSync(text, { level: 9 }).length;
    }
    console.log(
      `renderer first load: ${(raw / 1024).toFixed(1)} KB of JS, ${(gzipped / 1024).toFixed(1)} KB gzipped ` +
        `(${((gzipped / LIMIT_BYTES) * 100).toFixed(0)} % of the 300 KB budget)`,
    );
    expect(gzipped).toBeLessThan(LIMIT_BYTES);
    // React's development build is twice the size and behaves differently; it must not ship.
    expect(code).toContain('react.dev/errors');
    expect(code).not.toMatch(/\beval\(|new Function\(/);
  });
});
