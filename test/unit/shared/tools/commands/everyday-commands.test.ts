import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { commandClassifier } from '../../../../support/command-verdict';

const corpus = readFileSync(join(__dirname, '../../../../fixtures/everyday-commands.txt'), 'utf8')
  .split('\n')
  .filter((line) => line.trim() && !line.startsWith('#'));

/**
 * The share of the everyday corpus that asked before the allowlist (commit 9ce18f0, measured
 * with this test on that checkout): 107 of 381 (28.1%).
 */
const BASELINE_ASKING = 107;

describe('the everyday command corpus', () => {
  it('has at least 300 commands', () => {
    expect(corpus.length).toBeGreaterThanOrEqual(300);
  });

  it('asks no more often than before the allowlist', async () => {
    const { verdict } = await commandClassifier();
    const asking = corpus.map((c) => verdict(c)).filter((v) => v.tier === 'ask');
    const share = ((100 * asking.length) / corpus.length).toFixed(1);
    console.log(`everyday corpus: ${asking.length} of ${corpus.length} ask (${share}%)`);
    if (process.env.EVERYDAY_LIST) for (const v of asking) console.log(`  ask: ${v.command}`);
    expect(asking.length).toBeLessThanOrEqual(BASELINE_ASKING);
  });
});
