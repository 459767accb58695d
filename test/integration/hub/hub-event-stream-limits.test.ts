import { get, type ClientRequest } from 'node:http';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HubService } from '../../../main/hub/hub-service';
import { HubSessions, HUB_SESSION_COOKIE } from '../../../main/hub/hub-sessions';
import { HubWebEvents, MAX_STREAMS_PER_PERSON } from '../../../main/hub/hub-web-events';
import { ensureHubIdentity } from '../../../main/hub/store/identity-repo';
import type { SqlDatabase } from '../../../main/hub/store/sql';
import { generateEd25519 } from '../../../shared/node/hub-keys';
import { HUB_EVENTS_PATH } from '../../../shared/protocol/hub-web-methods';
import { FakeClock } from '../../support/fake-clock';
import { TestHub } from '../../support/hub';
import { hubDatabases } from '../../support/hub-databases';

interface Opened {
  status: number;
  body: string;
  req: ClientRequest;
}

/** Opens `GET /web/events` with a session cookie; resolves with the status (the stream stays open). */
function openStream(base: string, cookie: string): Promise<Opened> {
  return new Promise((resolve, reject) => {
    const req = get(
      new URL(HUB_EVENTS_PATH, base),
      { headers: { cookie }, agent: false },
      (res) => {
        if (res.statusCode === 200) {
          // The first event proves the stream is open and counted.
          res.once('data', () => resolve({ status: 200, body: '', req }));
          return;
        }
        let body = '';
        res.on('data', (c: Buffer) => (body += c.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body, req }));
      },
    );
    req.on('error', reject);
  });
}

const until = async (check: () => Promise<boolean>, ms = 10_000) => {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 50));
  }
};

/**
 * The team dashboard's live update stream is capped per person and per replica: beyond, the
 * hub answers 429 and holds nothing; a stream that closes frees its place.
 */
describe('live update streams are limited', () => {
  describe('on a real hub, per person', () => {
    let hub: TestHub;
    const cookies: Record<string, string> = {};
    const open: Opened[] = [];

    beforeAll(async () => {
      hub = await TestHub.start();
      for (const name of ['ann', 'bob']) {
        const token = new URL(await hub.signInLink(name)).hash.replace('#signin=', '');
        const res = await fetch(new URL('/web/session', hub.url), {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ token }),
        });
        expect(res.status).toBe(200);
        cookies[name] = res.headers.get('set-cookie')!.split(';')[0]!;
      }
    }, 120_000);
    afterAll(async () => {
      for (const o of open) o.req.destroy();
      await hub?.stop();
    });

    it(`refuses a person's stream beyond ${MAX_STREAMS_PER_PERSON} with 429, not another's`, async () => {
      for (let i = 0; i < MAX_STREAMS_PER_PERSON; i++) {
        const o = await openStream(hub.url, cookies.ann!);
        open.push(o);
        expect(o.status).toBe(200);
      }
      const refused = await openStream(hub.url, cookies.ann!);
      expect(refused.status).toBe(429);
      expect(JSON.parse(refused.body).error).toContain(
        `ann has ${MAX_STREAMS_PER_PERSON} live update streams open here already`,
      );
      const bob = await openStream(hub.url, cookies.bob!);
      open.push(bob);
      expect(bob.status).toBe(200);
      // One of Ann's closes: its place is free again once the hub sees the close.
      open.shift()!.req.destroy();
      await until(async () => {
        const o = await openStream(hub.url, cookies.ann!);
        if (o.status === 200) open.push(o);
        return o.status === 200;
      });
      expect((await openStream(hub.url, cookies.ann!)).status).toBe(429);
    });
  });

  describe('per replica in all', () => {
    const dbs = hubDatabases();
    let db: SqlDatabase;
    let server: Server;
    let events: HubWebEvents;
    let base: string;
    const cookies: string[] = [];
    const open: Opened[] = [];

    beforeAll(async () => {
      db = await dbs.fresh('pglite');
      const clock = new FakeClock();
      const identity = await ensureHubIdentity(db, generateEd25519, clock.now());
      const hub = new HubService({ db, clock, identity });
      const sessions = new HubSessions({ db, clock, csrfSecret: 'csrf' });
      for (const name of ['ann', 'bob', 'cat']) {
        const { token } = await hub.addPerson(name, 'viewer');
        cookies.push(`${HUB_SESSION_COOKIE}=${(await sessions.signIn(token)).sessionId}`);
      }
      events = new HubWebEvents({ sessions, limits: { perPerson: 2, perReplica: 3 } });
      server = createServer((req, res) => void events.open(req, res));
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    }, 120_000);
    afterAll(async () => {
      for (const o of open) o.req.destroy();
      events?.close();
      server?.closeAllConnections();
      await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
    });

    it('refuses everyone once the replica holds its total, and takes one again after a close', async () => {
      for (const cookie of [cookies[0]!, cookies[0]!, cookies[1]!]) {
        const o = await openStream(base, cookie);
        open.push(o);
        expect(o.status).toBe(200);
      }
      expect(events.size).toBe(3);
      const cat = await openStream(base, cookies[2]!);
      expect(cat.status).toBe(429);
      expect(JSON.parse(cat.body).error).toContain('as many live update streams as it takes');
      open.pop()!.req.destroy();
      await until(async () => events.size === 2);
      const again = await openStream(base, cookies[2]!);
      open.push(again);
      expect(again.status).toBe(200);
      // Ann still holds two, her own limit.
      expect((await openStream(base, cookies[0]!)).status).toBe(429);
    });
  });
});
