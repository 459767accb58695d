import type { RequestRecord } from '../../shared/domain';

/**
 * Called once a request's chat message is posted and saved: a request decided (or cancelled)
 * while its message was being posted had its decision's edit find no message, so the message
 * would keep buttons that decide nothing. When the request is no longer waiting, its message
 * is edited at once to the decided form, by the app's own edit (which forgets the message
 * before editing, so this and a decision event arriving meanwhile edit it once).
 */
export function editIfDecidedMeanwhile(
  requestId: string,
  o: {
    getRequest: (requestId: string) => Promise<RequestRecord | undefined>;
    edit: (request: RequestRecord) => void;
    log: (message: string, error?: unknown) => void;
  },
): void {
  void o
    .getRequest(requestId)
    .then((request) => {
      if (request && request.status !== 'pending') o.edit(request);
    })
    .catch((e: unknown) => o.log('chat edit after posting', e));
}
