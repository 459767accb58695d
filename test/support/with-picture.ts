import type { AdminClient } from '../../clients/cli/admin-client';
import type { RequestRecord } from '../../shared/domain';
import { untilEvent } from './events';

/** The request once its picture is stored (the `request.picture` event, or already there). */
export function withPicture(admin: AdminClient, requestId: string): Promise<RequestRecord> {
  return untilEvent(
    admin,
    (e) => e.type === 'request.picture' && e.requestId === requestId,
    async () => {
      const { request } = await admin.call('request.get', { requestId });
      return request.picture ? request : undefined;
    },
  );
}
