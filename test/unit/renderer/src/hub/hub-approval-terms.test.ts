import { describe, expect, it } from 'vitest';
import { approvalTerms, EMPTY_TERMS } from '../../../../../renderer/src/hub/hub-approval-terms';

/** The team dashboard's approval terms, checked with the schema the hub and the machine use. */
describe('approvalTerms', () => {
  it('leaves empty fields out', () => {
    expect(approvalTerms(EMPTY_TERMS)).toEqual({ terms: {} });
  });

  it('reads an envelope, a message and conditions (one a line)', () => {
    expect(
      approvalTerms(
        {
          minutes: '30',
          uses: '2',
          maxSpend: '2.50',
          message: '  go ahead ',
          conditions: 'tests pass\n\n  no prod  \n',
        },
        'a'.repeat(32),
      ),
    ).toEqual({
      terms: {
        envelope: { minutes: 30, uses: 2, maxSpendUsd: 2.5 },
        message: 'go ahead',
        conditions: ['tests pass', 'no prod'],
        ruleOffer: 'a'.repeat(32),
      },
    });
  });

  it('refuses what the CLI refuses, naming the field', () => {
    const bad = (patch: Partial<typeof EMPTY_TERMS>) =>
      approvalTerms({ ...EMPTY_TERMS, ...patch }) as { error?: string };
    expect(bad({ uses: '1.5' }).error).toMatch(/^Uses: /);
    expect(bad({ uses: '0' }).error).toMatch(/^Uses: /);
    expect(bad({ minutes: 'ten' }).error).toBe('Minutes: enter a number');
    expect(bad({ minutes: '0' }).error).toMatch(/^Minutes: /);
    expect(bad({ minutes: String(24 * 60 * 30 + 1) }).error).toMatch(/^Minutes: /);
    expect(bad({ maxSpend: '-1' }).error).toBe('Max spend: enter a number');
    expect(bad({ uses: '100001' }).error).toMatch(/^Uses: /);
    expect(bad({ message: 'x'.repeat(8193) }).error).toMatch(/^Message: /);
    expect(bad({ conditions: 'x'.repeat(1025) }).error).toMatch(/^Conditions: /);
  });
});
