import type { IncomingMessage } from 'node:http';
import { z } from 'zod';
import type { Clock } from '../../shared/clock';
import { PersonName } from '../../shared/hub-protocol';
import type { HubRoute } from './hub-person-api';
import { HubRefusal } from './hub-service';
import { appendAudit } from './store/audit-repo';
import { endSessionsOf, removeAllPasskeys } from './store/passkeys-repo';
import { personByName } from './store/people-repo';
import type { SqlDatabase } from './store/sql';

const ResetParams = z.object({ name: PersonName });

/**
 * The hub admin token's passkey route, for a person who lost their passkeys (an admin then
 * cannot pass the second factor): removes all of them and ends the person's browser sessions,
 * since a lost passkey may be in other hands. With a new sign-in link the person then adds a
 * passkey again, as the first admin did.
 */
export function passkeyAdminRoutes(d: {
  db: SqlDatabase;
  clock: Clock;
  admin: (req: IncomingMessage) => Promise<void>;
}): Record<string, HubRoute> {
  return {
    'POST /api/admin/people/passkeys/reset': async (req, body) => {
      await d.admin(req);
      const { name } = ResetParams.parse(body);
      const now = d.clock.now();
      const done = await d.db.transaction(async (tx) => {
        const person = await personByName(tx, name);
        if (!person) return undefined;
        const removed = await removeAllPasskeys(tx, person.personId);
        const ended = await endSessionsOf(tx, person.personId, now);
        await appendAudit(tx, now, {
          type: 'person.passkeys_reset',
          actor: 'admin',
          data: { name, removed, sessionsEnded: ended },
        });
        return { removed, sessionsEnded: ended };
      });
      if (!done) throw new HubRefusal(404, `nobody named ${name} on the hub`);
      return done;
    },
  };
}
