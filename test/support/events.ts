import type { AdminClient } from '../../clients/cli/admin-client';
import type { RequestRecord } from '../../shared/domain';
import type { GatehouseEvent } from '../../shared/events';

/**
 * Waiting for what the daemon says happened, on the admin event stream the CLI and the
 * dashboard use (`subscribe`), instead of polling the CLI or sleeping.
 */

interface Waiter {
  match: (event: GatehouseEvent) => boolean;
  resolve: (event: GatehouseEvent) => void;
}

/** One subscription per admin connection, fanned out to every waiter. */
const streams = new WeakMap<AdminClient, Promise<Set<Waiter>>>();

function eventStream(admin: AdminClient): Promise<Set<Waiter>> {
  let stream = streams.get(admin);
  if (!stream) {
    const waiters = new Set<Waiter>();
    stream = admin
      .subscribe((event) => {
        for (const w of [...waiters])
          if (w.match(event as GatehouseEvent)) {
            waiters.delete(w);
            w.resolve(event as GatehouseEvent);
          }
      })
      .then(() => waiters);
    streams.set(admin, stream);
  }
  return stream;
}

/**
 * Subscribes `admin` to the daemon's events (once per connection). Await it before an action
 * whose event a later {@link waitForEvent} on the same connection expects.
 */
export async function subscribeEvents(admin: AdminClient): Promise<void> {
  await eventStream(admin);
}

interface PendingWait {
  event: Promise<GatehouseEvent>;
  cancel(): void;
}

/** A wait registered once the subscription stands, which `cancel` withdraws. */
async function registerWait(
  admin: AdminClient,
  match: (event: GatehouseEvent) => boolean,
  timeoutMs: number,
): Promise<PendingWait> {
  const waiters = await eventStream(admin);
  let waiter!: Waiter;
  let timer!: ReturnType<typeof setTimeout>;
  const event = new Promise<GatehouseEvent>((resolve, reject) => {
    timer = setTimeout(() => {
      waiters.delete(waiter);
      reject(new Error(`no matching daemon event within ${timeoutMs} ms`));
    }, timeoutMs);
    waiter = {
      match,
      resolve: (e) => {
        clearTimeout(timer);
        resolve(e);
      },
    };
    waiters.add(waiter);
  });
  return {
    event,
    cancel: () => {
      clearTimeout(timer);
      waiters.delete(waiter);
    },
  };
}

/**
 * The next event the daemon publishes that `match` accepts. Events published before the
 * connection subscribed are not seen: call {@link subscribeEvents} before the action, or use
 * {@link untilEvent} to check first what may already have happened.
 */
export async function waitForEvent(
  admin: AdminClient,
  match: (event: GatehouseEvent) => boolean,
  timeoutMs = 10_000,
): Promise<GatehouseEvent> {
  return (await registerWait(admin, match, timeoutMs)).event;
}

/**
 * Resolves once `check` holds: checked at once, then again after each event `match` accepts
 * (subscribed before the first check, so nothing in between is missed).
 */
export async function untilEvent<T>(
  admin: AdminClient,
  match: (event: GatehouseEvent) => boolean,
  check: () => Promise<T | undefined | false>,
  timeoutMs = 10_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const next = await registerWait(admin, match, Math.max(1, deadline - Date.now()));
    let found: T | undefined | false;
    try {
      found = await check();
    } catch (error) {
      next.cancel();
      throw error;
    }
    if (found !== undefined && found !== false) {
      next.cancel();
      return found;
    }
    await next.event;
  }
}

/**
 * The pending request that `which` accepts (an action name, or a test of the request): one
 * already waiting, or the next one filed.
 */
export function waitForPending(
  admin: AdminClient,
  which: string | ((request: RequestRecord) => boolean),
  timeoutMs = 10_000,
): Promise<RequestRecord> {
  const accepts = (r: RequestRecord) =>
    r.status === 'pending' && (typeof which === 'string' ? r.action === which : which(r));
  return untilEvent(
    admin,
    (e) => e.type === 'request.created' && accepts(e.request),
    async () => (await admin.call('pending.list', {})).requests.find(accepts),
    timeoutMs,
  );
}
