import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a script in plain JavaScript, without types.
import { classify as classifyUntyped } from '../../../scripts/conditional-spreads.mjs';

interface Site {
  class: 'types' | 'behaviour' | 'removable' | 'guarded';
  file: string;
  line: number;
  text: string;
}
const classify = classifyUntyped as (o: {
  cheap?: boolean;
  files?: Record<string, string>;
}) => Site[];

const ROOT = join(import.meta.dirname, '..', '..', '..');

/** One site of each class, each on its own line (the line names the class it should get). */
const FIXTURE = `
interface Target {
  note?: string | undefined;
  id?: string;
}
declare const note: string | undefined;
declare const id: string | undefined;
declare const label: string | undefined;
declare const when: Date | undefined;
declare const box: { n: number } | undefined;
export const removable: Target = { ...(note !== undefined ? { note } : {}) };
export const removableObject: { box?: { n: number } | undefined } = { ...(box ? { box } : {}) };
export const types: Target = { ...(id !== undefined ? { id } : {}) };
export const behaviour: Target = { ...(label ? { note: label } : {}) };
export const guarded: Target = { ...(when ? { note: when.toISOString() } : {}) };
`;

const classesOf = (sites: Site[]): [number, string][] =>
  sites.map((s) => [s.line, s.class]).sort(([a], [b]) => Number(a) - Number(b)) as [
    number,
    string,
  ][];

/**
 * A conditional spread (`...(x !== undefined ? { x } : {})`) that exactOptionalPropertyTypes
 * does not need, over a value whose only falsy value is undefined, is a plain property
 * written the long way: none may come back. Where each remaining one stands, by class:
 * `node scripts/conditional-spreads.mjs --list` (the full type test, rewriting each site).
 */
describe('conditional spreads', () => {
  it('tells a removable spread from one that types, behaviour or a computed value need', () => {
    const file = join(ROOT, 'main', 'conditional-spreads-fixture.ts');
    const expected: [number, string][] = [
      [11, 'removable'],
      [12, 'removable'],
      [13, 'types'],
      [14, 'behaviour'],
      [15, 'guarded'],
    ];
    // The cheap test (what the project check below runs) and the full one (each site
    // rewritten and typechecked) agree on it.
    expect(classesOf(classify({ cheap: true, files: { [file]: FIXTURE } }))).toEqual(expected);
    expect(classesOf(classify({ cheap: false, files: { [file]: FIXTURE } }))).toEqual(expected);
  }, 60_000);

  it('finds none left in the project that could be a plain property', () => {
    const removable = classify({ cheap: true })
      .filter((s) => s.class === 'removable')
      .map((s) => `${s.file}:${s.line}  ${s.text}`);
    expect(removable).toEqual([]);
  }, 120_000);
});
