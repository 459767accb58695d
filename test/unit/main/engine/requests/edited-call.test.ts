import { describe, expect, it } from 'vitest';
import { riskierThan } from '../../../../../main/engine/requests/edited-call';

describe('an edited call against the one asked', () => {
  it("takes a stored request's risk from its rule: as risky is not riskier", () => {
    const edited = {
      risk: 'high' as const,
      rule: 'shell:opaque',
      severity: 1,
      originalSeverity: 1,
    };
    // A row read back from the store has no risk field; its rule says high.
    expect(riskierThan({ rule: 'shell:opaque' }, edited)).toBeUndefined();
    expect(riskierThan({ rule: 'default:ask' }, edited)).toBe('risk high instead of none');
    expect(
      riskierThan({ rule: 'shell:opaque' }, { ...edited, risk: 'critical', rule: 'protected:x' }),
    ).toBe('risk critical instead of high');
  });
});
