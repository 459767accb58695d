import type { Dispatch, SetStateAction } from 'react';

/**
 * Narrower and Wider over a ladder of rules, narrowest first (step 0): the daemon's "always"
 * preview and the rules a machine offers on the hub. The buttons go in the caller's row (the
 * preview puts its Save button beside them), each with the ids that place has always had.
 */
export function RuleStepButtons(p: {
  step: number;
  last: number;
  busy: boolean;
  setStep: Dispatch<SetStateAction<number>>;
  narrower: { testId: string; id?: string };
  wider: { testId: string; id?: string };
}) {
  return (
    <>
      <button
        type="button"
        className="button"
        id={p.narrower.id}
        data-testid={p.narrower.testId}
        disabled={p.busy || p.step === 0}
        onClick={() => p.setStep((s) => Math.max(0, s - 1))}
      >
        Narrower
      </button>
      <button
        type="button"
        className="button"
        id={p.wider.id}
        data-testid={p.wider.testId}
        disabled={p.busy || p.step >= p.last}
        onClick={() => p.setStep((s) => Math.min(p.last, s + 1))}
      >
        Wider
      </button>
    </>
  );
}
