import type { MachineToHub } from '../../shared/hub-protocol';
import { hubCopy } from '../../shared/hub-copy';
import { maskSecrets } from '../../shared/request-picture/mask-secrets';

/**
 * A machine's message with the secrets in its texts masked, as the hub stores it. A machine
 * masks what it sends itself (shared/hub-copy.ts); one from before that sends its requests,
 * rule offers, shadow examples and refusals as they are, and the hub masks them on arrival
 * the same way, so its database, pages and channels hold no secret the masker recognises
 * from either. Ids (the request's, each offer's digest of the machine's rule) stay.
 */
export function maskedOnArrival(message: MachineToHub): MachineToHub {
  switch (message.t) {
    case 'publish':
      return {
        ...message,
        entries: message.entries.map(({ offers, ...entry }) => ({
          ...entry,
          ...hubCopy(entry.request, offers),
        })),
      };
    case 'answer':
      return message.detail === undefined
        ? message
        : { ...message, detail: maskedAnswerDetail(message.detail) };
    case 'shadow':
      return {
        ...message,
        records: message.records.map((r) => ({
          ...r,
          summary: maskedShadowSummary(r.summary),
        })),
      };
    default:
      return message;
  }
}

/** A machine's answer to a decision (why it refused), masked and within its bound. */
export const maskedAnswerDetail = (detail: string): string => maskSecrets(detail).slice(0, 2000);

/** A shadow record's example of the call (its command), masked and within its bound. */
export const maskedShadowSummary = (summary: string): string =>
  maskSecrets(summary, { shell: true }).slice(0, 300);
