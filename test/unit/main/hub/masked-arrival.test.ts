import { describe, expect, it } from 'vitest';
import { maskedOnArrival } from '../../../../main/hub/masked-arrival';
import { MachineToHub } from '../../../../shared/hub-protocol';

const GH = 'ghp_ARRIVALLEAKARRIVALLEAK0123456789';

describe('a machine message as the hub stores it', () => {
  it("masks a refusal's detail and a shadow example, within their bounds", () => {
    const answer = maskedOnArrival({
      t: 'answer',
      decisionId: 'dec-12345678',
      outcome: 'refused',
      detail: `could not run: git push https://${GH}@github.com/o/r`,
    });
    expect(answer).toEqual({
      t: 'answer',
      decisionId: 'dec-12345678',
      outcome: 'refused',
      detail: 'could not run: git push https://ghp_…[masked]@github.com/o/r',
    });
    // Its mask is longer than a short value: the example is cut back to its bound.
    const summary = `${'x'.repeat(167)} ${GH}${' password=abcdef'.repeat(6)}`;
    expect(summary).toHaveLength(300);
    const shadow = maskedOnArrival({
      t: 'shadow',
      records: [
        {
          id: 1,
          at: 1,
          ruleId: 'tr-aaaa1',
          version: 1,
          action: 'shell',
          would: 'ask',
          actual: 'auto',
          summary,
        },
      ],
    });
    expect(shadow.t === 'shadow' && shadow.records[0]!.summary).toBe(
      `${'x'.repeat(167)} ghp_…[masked]${' password=abcd…[masked]'.repeat(6)}`.slice(0, 300),
    );
    expect(MachineToHub.safeParse(shadow).success).toBe(true);
  });

  it('leaves the messages that carry no text from the agent as they are', () => {
    const ack = {
      t: 'checkpoints.get' as const,
      id: '1',
      afterSeq: 0,
    };
    expect(maskedOnArrival(ack)).toBe(ack);
  });
});
