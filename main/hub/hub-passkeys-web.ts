import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  PASSKEY_PATH,
  PasskeyAssertion,
  PasskeyRegistration,
  PasskeyRemove,
} from '../../shared/protocol/hub-passkeys';
import { readJson, reply } from './hub-http';
import type { HubPasskeys, SignedInSession } from './hub-passkeys';
import { HubRefusal } from './hub-service';

/** What hub-web.ts lends the passkey routes: its session check and its cookie. */
export interface PasskeyRouteContext {
  /** The signed-in session, its CSRF token checked; refuses (401/403) otherwise. */
  signedIn: () => Promise<SignedInSession>;
  /** Sets the session cookie of a new session (as a sign-in link's does). */
  startSession: (s: { sessionId: string; expiresAt: number }) => void;
}

/**
 * The team dashboard's passkey steps, `POST /web/passkey/<step>` (hub-web.ts has already
 * checked the method and the origin). Signing in needs no session; every other step needs the
 * signed-in session and its CSRF token.
 */
export function passkeyWebRoutes(passkeys: HubPasskeys) {
  return async (
    req: IncomingMessage,
    res: ServerResponse,
    path: string,
    ctx: PasskeyRouteContext,
  ): Promise<void> => {
    const body = await readJson(req);
    switch (path) {
      case PASSKEY_PATH.signInOptions:
        reply(res, 200, { options: await passkeys.signInOptions() });
        return;
      case PASSKEY_PATH.signIn: {
        const s = await passkeys.signIn(PasskeyAssertion.parse(body));
        ctx.startSession(s);
        reply(res, 200, { person: { name: s.person.name, role: s.person.role } });
        return;
      }
      case PASSKEY_PATH.registerOptions:
        reply(res, 200, { options: await passkeys.registrationOptions(await ctx.signedIn()) });
        return;
      case PASSKEY_PATH.register: {
        const who = await ctx.signedIn();
        reply(res, 200, await passkeys.register(who, PasskeyRegistration.parse(body)));
        return;
      }
      case PASSKEY_PATH.stepUpOptions:
        reply(res, 200, { options: await passkeys.stepUpOptions(await ctx.signedIn()) });
        return;
      case PASSKEY_PATH.stepUp: {
        const who = await ctx.signedIn();
        await passkeys.stepUp(who, PasskeyAssertion.parse(body));
        reply(res, 200, { confirmed: true });
        return;
      }
      case PASSKEY_PATH.status:
        reply(res, 200, await passkeys.status(await ctx.signedIn()));
        return;
      case PASSKEY_PATH.remove: {
        const who = await ctx.signedIn();
        await passkeys.remove(who, PasskeyRemove.parse(body).id);
        reply(res, 200, { removed: true });
        return;
      }
      default:
        throw new HubRefusal(404, `no such passkey step: ${path}`);
    }
  };
}
