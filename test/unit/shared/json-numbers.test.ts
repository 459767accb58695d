/**
 * replyJson writes most replies without a replacer (its fast path) and rounds the rest; both
 * must give the same text as rounding every number would.
 */
import { describe, expect, it } from 'vitest';
import { replyJson, withoutFloatNoise } from '../../../shared/json-numbers';

/** What replyJson promises: every number rounded, whatever path wrote it. */
const roundedEverywhere = (value: unknown): string =>
  JSON.stringify(value, (_k, v: unknown) => (typeof v === 'number' ? withoutFloatNoise(v) : v));

describe('replyJson', () => {
  it('drops float noise wherever a number sits', () => {
    expect(replyJson({ spent: 0.1 + 0.2 })).toBe('{"spent":0.3}');
    expect(replyJson([{ a: [20.000000000000004] }])).toBe('[{"a":[20]}]');
    expect(replyJson({ tiny: 1.234567890123456e-7 })).toBe('{"tiny":1.23456789012e-7}');
    expect(replyJson({ neg: -0.7889999999999999 })).toBe('{"neg":-0.789}');
  });

  it('writes the same text as rounding every number, for numbers at the edge of the fast path', () => {
    const values = [
      0.1,
      123456.789012, // twelve significant digits: kept as it is
      123456.7890123, // thirteen: rounded
      1234567890123, // a thirteen-digit integer (a time in ms): kept
      1234567890123456, // a long integer: kept (it only takes the slow path)
      1e21,
      5e-324,
      -0,
      0.000001234567890123,
      Number.MAX_VALUE,
    ];
    for (const n of values) {
      const reply = { jsonrpc: '2.0', id: 7, result: { n, text: `${n}`, list: [n, n / 3] } };
      expect(replyJson(reply), String(n)).toBe(roundedEverywhere(reply));
    }
  });

  it('leaves digits inside strings alone, even when they look like noise', () => {
    expect(replyJson({ s: '0.30000000000000004' })).toBe('{"s":"0.30000000000000004"}');
    expect(replyJson({ s: '0.30000000000000004', n: 0.1 + 0.2 })).toBe(
      '{"s":"0.30000000000000004","n":0.3}',
    );
  });

  it('writes a reply without numbers as JSON.stringify does', () => {
    const reply = { jsonrpc: '2.0', id: 'a', result: { tier: 'auto', rule: 'default:read_file' } };
    expect(replyJson(reply)).toBe(JSON.stringify(reply));
  });
});
