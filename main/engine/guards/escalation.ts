/** The four parts of an escalation (seed 003): enough for a human to pick it up cold. */
export interface Escalation {
  whatFailed: string;
  whatWasTried: string;
  whyItStopped: string;
  whatToDecide: string;
}

/** Renders an escalation as the message a human reads in a notification or the CLI. */
export function escalationMessage(e: Escalation): string {
  return [
    'The agent loop was stopped.',
    '',
    `What failed: ${e.whatFailed}`,
    `What was tried: ${e.whatWasTried}`,
    `Why it stopped: ${e.whyItStopped}`,
    `What a human should decide next: ${e.whatToDecide}`,
  ].join('\n');
}
