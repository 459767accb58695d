import type { RequestRecord } from '../../../shared/domain';
import type { RequestPicture } from '../../../shared/request-picture/picture-schema';
import type { AgentControls } from '../controls/controls';
import type { AdminHandlers } from '../kernel/admin-handlers';
import { compact, toRequestRecord } from '../kernel/records';
import type { SessionService } from '../sessions/sessions';
import { notFound } from '../../../shared/protocol/errors';
import type { GrantRecord, GrantsStore, RequestRow, RequestRowsStore } from './requests-store';
import type { Clock } from '../../../shared/clock';
import { iso } from '../../../shared/clock';
import type { ReviewQueue } from './review-queue';

export interface RequestsAdminDeps {
  store: Pick<RequestRowsStore, 'pageOpenRequests' | 'queryRequests'> &
    Pick<GrantsStore, 'listGrantsInForce' | 'getGrant'>;
  clock: Clock;
  queue: ReviewQueue;
  controls: Pick<AgentControls, 'stateOf'>;
  sessions: Pick<SessionService, 'connectionCount' | 'connectedSessionIds'>;
  /** Whether the queue ranks by inferred urgency (`requests.inferUrgency`, on by default). */
  inferUrgency?: () => boolean;
  /** A request's stored picture (shared/request-picture/), shown when one request is opened. */
  pictureOf?: (requestId: string) => RequestPicture | undefined;
}

/** The admin methods of the review queue: its pages, one request, and deciding. */
export function requestsAdmin(d: RequestsAdminDeps) {
  /** A request as a person sees it: with its agent's state and whether it is still there. */
  const withAgentFacts = (r: RequestRow): RequestRecord => ({
    ...toRequestRecord(r),
    agentState: d.controls.stateOf(r.agent),
    agentConnected: d.sessions.connectionCount(r.sessionId) > 0,
  });
  /** A grant as the wire shows it: times as ISO strings, without its internal fingerprint. */
  const grantView = (g: GrantRecord) =>
    compact({
      ...g,
      fingerprint: undefined,
      expiresAt: g.expiresAt === undefined ? undefined : iso(g.expiresAt),
      createdAt: iso(g.createdAt),
      endedAt: g.endedAt === undefined ? undefined : iso(g.endedAt),
    });
  return {
    /** The review queue, a page at a time: exactly the requests waiting for you. */
    'pending.list': (p) => {
      const { agentConnected, ...q } = p;
      const ids = d.sessions.connectedSessionIds();
      const { items, ...page } = d.store.pageOpenRequests(
        compact({
          ...q,
          sessions: agentConnected === undefined ? undefined : { ids, connected: agentConnected },
          connectedSessionIds: ids,
          inferUrgencyAt: d.inferUrgency?.() === false ? undefined : d.clock.now(),
        }),
      );
      return { requests: items.map(withAgentFacts), ...page };
    },
    'requests.query': (p) => {
      const { items, ...page } = d.store.queryRequests(p);
      return { requests: items.map(withAgentFacts), ...page };
    },
    'request.get': (p) => {
      const picture = d.pictureOf?.(p.requestId);
      const request = withAgentFacts(d.queue.get(p.requestId));
      return { request: picture ? { ...request, picture } : request };
    },
    decide: (p) => {
      const { request, rule, grants } = d.queue.decide(p);
      return { request, rule, ...(grants.length ? { grants } : {}) };
    },
    /** Decides each request in turn; one that cannot be decided is reported, not fatal. */
    decideMany: (p) => {
      const { requestIds, ...rest } = p;
      const decided: RequestRecord[] = [];
      const rules: { requestId: string; ruleId: string; description: string }[] = [];
      const failed: { requestId: string; error: string }[] = [];
      for (const requestId of requestIds) {
        try {
          const { request, rule } = d.queue.decide({ ...rest, requestId });
          decided.push(request);
          if (rule) rules.push({ requestId, ...rule });
        } catch (error) {
          failed.push({ requestId, error: error instanceof Error ? error.message : String(error) });
        }
      }
      return { decided, failed, ...(rules.length ? { rules } : {}) };
    },
    /** What the person's approvals let agents do without asking, right now. */
    'grants.list': (p) => ({
      grants: d.store.listGrantsInForce(d.clock.now(), p.limit, p.agent).map(grantView),
    }),
    /** One grant, in force or not (a decision's `grant:` provenance names it). */
    'grants.get': (p) => {
      const grant = d.store.getGrant(p.grantId);
      if (!grant) throw notFound(`grant ${p.grantId}`);
      return { grant: grantView(grant) };
    },
  } satisfies AdminHandlers<
    | 'pending.list'
    | 'requests.query'
    | 'request.get'
    | 'decide'
    | 'decideMany'
    | 'grants.list'
    | 'grants.get'
  >;
}
