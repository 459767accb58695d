import type { IncomingMessage, ServerResponse } from 'node:http';
import { HUB_EVENTS_PATH, type HubLiveEvent } from '../../shared/protocol/hub-web-methods';
import type { HubNotice } from './hub-events';
import { reply } from './hub-http';
import { HUB_SESSION_COOKIE, type HubSessions } from './hub-sessions';

/** A comment line this often keeps proxies and the browser from closing an idle stream. */
const KEEPALIVE_MS = 15_000;
/** How often each open stream's session is checked again (signed out, expired: closed). */
const SESSION_RECHECK_MS = 30_000;
/** The browser waits this long before it reconnects a dropped stream. */
const RETRY_MS = 2_000;

/** How many streams one person may hold open on a replica (tabs, windows, devices). */
export const MAX_STREAMS_PER_PERSON = 8;
/** How many streams a replica holds open in all. */
export const MAX_STREAMS_PER_REPLICA = 2_000;

interface Stream {
  res: ServerResponse;
  sessionId: string;
  personId: string;
}

/**
 * The team dashboard's live updates: `GET /web/events`, a server-sent event stream for a
 * signed-in browser (its session cookie; the page's own origin only). This replica writes an
 * event to every open stream for each notice any replica sent with its change (NOTIFY), so a
 * request published through replica B reaches a browser connected to replica A. An event says
 * only that something changed: the page reloads what it shows through its own calls, which
 * check its role, so the stream itself carries no request data. When the notices were cut
 * (the database connection was re-made) every stream gets a `reload` and catches up; a page
 * whose stream dropped reloads when it reconnects.
 */
export class HubWebEvents {
  private readonly streams = new Set<Stream>();
  private readonly timers: NodeJS.Timeout[] = [];
  /** Open streams by person: each holds a socket and its buffers until it closes. */
  private readonly perPerson = new Map<string, number>();

  constructor(
    private readonly d: {
      sessions: HubSessions;
      limits?: { perPerson?: number; perReplica?: number };
    },
  ) {
    this.timers.push(
      setInterval(() => this.writeAll(': keep-alive\n\n'), KEEPALIVE_MS),
      setInterval(() => void this.recheckSessions(), SESSION_RECHECK_MS),
    );
    for (const t of this.timers) t.unref();
  }

  /** How many browsers this replica streams to now. */
  get size(): number {
    return this.streams.size;
  }

  /** Answers `GET /web/events`: a refusal as JSON, or the stream, which stays open. */
  async open(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (req.method !== 'GET') return reply(res, 400, { error: `use GET for ${HUB_EVENTS_PATH}` });
    const site = req.headers['sec-fetch-site'];
    if (site !== undefined && site !== 'same-origin')
      return reply(res, 403, { error: 'cross-origin request refused' });
    const who = await this.d.sessions.person(req.headers.cookie);
    if (!who) return reply(res, 401, { error: 'not signed in' });
    // A session could otherwise open thousands and hold this replica's sockets and memory.
    const personId = who.person.personId;
    const held = this.perPerson.get(personId) ?? 0;
    const perPerson = this.d.limits?.perPerson ?? MAX_STREAMS_PER_PERSON;
    const perReplica = this.d.limits?.perReplica ?? MAX_STREAMS_PER_REPLICA;
    if (held >= perPerson || this.streams.size >= perReplica) {
      res.setHeader('Retry-After', String(Math.ceil(SESSION_RECHECK_MS / 1000)));
      return reply(res, 429, {
        error:
          held >= perPerson
            ? `${who.person.name} has ${held} live update streams open here already (at most ${perPerson}): close a tab`
            : 'this hub replica holds as many live update streams as it takes: try again later',
      });
    }
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      // A proxy in front (nginx) must not buffer the stream.
      'x-accel-buffering': 'no',
    });
    const stream: Stream = { res, sessionId: who.sessionId, personId };
    this.add(stream);
    res.once('close', () => this.remove(stream));
    req.socket.setKeepAlive(true);
    res.write(`retry: ${RETRY_MS}\n\n`);
    write(stream, { kind: 'hello' });
  }

  /** A notice from any replica: every browser here reloads what it shows. */
  onNotice(notice: HubNotice): void {
    const event: HubLiveEvent =
      notice.kind === 'revoked' ? { kind: 'machines' } : { kind: 'requests' };
    for (const s of this.streams) write(s, event);
  }

  /** The notices were cut for a while: every browser here reloads everything. */
  catchUp(): void {
    for (const s of this.streams) write(s, { kind: 'reload' });
  }

  /** A session signed out here: its streams end now (other replicas' at their next check). */
  endSession(sessionId: string): void {
    for (const s of [...this.streams])
      if (s.sessionId === sessionId) {
        this.remove(s);
        s.res.end();
      }
  }

  /** Ends every stream (the replica stops). */
  close(): void {
    for (const t of this.timers) clearInterval(t);
    for (const s of this.streams) s.res.end();
    this.streams.clear();
    this.perPerson.clear();
  }

  private add(s: Stream): void {
    this.streams.add(s);
    this.perPerson.set(s.personId, (this.perPerson.get(s.personId) ?? 0) + 1);
  }

  /** Idempotent: a stream ended here closes too, and is counted out once. */
  private remove(s: Stream): void {
    if (!this.streams.delete(s)) return;
    const left = (this.perPerson.get(s.personId) ?? 1) - 1;
    if (left > 0) this.perPerson.set(s.personId, left);
    else this.perPerson.delete(s.personId);
  }

  private writeAll(text: string): void {
    for (const s of this.streams) s.res.write(text);
  }

  /** A session signed out or expired on any replica loses its stream here. */
  private async recheckSessions(): Promise<void> {
    for (const s of [...this.streams]) {
      const who = await this.d.sessions
        .person(`${HUB_SESSION_COOKIE}=${s.sessionId}`)
        .catch(() => 'unknown' as const);
      if (who === undefined) {
        this.remove(s);
        s.res.end();
      }
    }
  }
}

function write(s: Stream, event: HubLiveEvent): void {
  s.res.write(`data: ${JSON.stringify(event)}\n\n`);
}
