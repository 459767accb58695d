import { z } from 'zod';
import { isWaitingForYou, RequestRecord } from '../../../shared/domain';
import { offerOf } from '../../../shared/hub-rule-offer-match';
import { RuleOffers, type RuleOffer } from '../../../shared/hub-rule-offers';
import { ErrorCode } from '../../../shared/protocol/errors';
import type { AdminMethod, AdminParams, AdminResult } from '../../../shared/protocol/method-map';
import { RpcError } from '../../sdk/rpc-client';
import { UsageError } from '../run-admin';
import { HubCallError, callHub } from './hub-http-client';

const HubView = z.object({
  machine: z.string(),
  request: RequestRecord,
  /** The rules the machine offers for a session or "always" approval (its own preview). */
  offers: RuleOffers.optional(),
});
/** The hub's answer to a vote: decided, or counted toward a team rule's quorum. */
const DecideAnswer = z.object({
  decided: z.boolean().default(true),
  approvals: z.number().optional(),
  needed: z.number().optional(),
});
type HubView = z.infer<typeof HubView>;
const HubPage = z.object({
  requests: z.array(HubView),
  total: z.number(),
  nextCursor: z.string().optional(),
});

/** How long `approve`/`deny` against the hub waits to see the machine apply the decision. */
const APPLIED_WAIT_MS = 10_000;

/** The methods the queue commands call: the local daemon's admin client has the same shape. */
export interface QueueClient {
  call<K extends AdminMethod>(method: K, params: AdminParams<K>): Promise<AdminResult<K>>;
  /** The machine a request is on, for the hub (absent against the local daemon). */
  machineOf?(requestId: string): string | undefined;
  close(): void;
}

/** Why a rule shaped by --pattern/--any-* cannot be asked of the hub, and what can. */
const notOffered = (machine: string, offers: readonly RuleOffer[] | undefined): string =>
  offers
    ? `against a hub, a session or always approval saves one of the rules ${machine} offered; --pattern and --any-* must give one of them:\n${offers.map((o, i) => `  ${i === 0 ? 'narrowest' : `wider ${i}`}: ${o.describe}`).join('\n')}`
    : `against a hub, ${machine} offered no rules for this request (an older Gatehouse): it saves its own narrowest rule, so --pattern and --any-* are not available`;

/**
 * The queue commands (`list`, `show`, `approve`, `deny`, `review`) against a hub: the same
 * admin methods, answered from the hub's HTTP API with a person's token, so the commands and
 * their printers stay the ones used against the local daemon. A refusal of the hub becomes
 * the error the daemon would give (not found, invalid), so exit codes agree too.
 */
export class HubQueueClient implements QueueClient {
  private readonly machines = new Map<string, string>();

  constructor(
    private readonly url: string,
    private readonly credential: { token: string; ca?: string },
    private readonly sleep = (ms: number) => new Promise((r) => setTimeout(r, ms)),
  ) {}

  machineOf(requestId: string): string | undefined {
    return this.machines.get(requestId);
  }

  close(): void {}

  async call<K extends AdminMethod>(method: K, params: AdminParams<K>): Promise<AdminResult<K>> {
    const result: unknown = await this.dispatch(method, params as Record<string, unknown>);
    return result as AdminResult<K>;
  }

  private async dispatch(method: AdminMethod, p: Record<string, unknown>): Promise<unknown> {
    switch (method) {
      case 'pending.list': {
        const q = p as AdminParams<'pending.list'>;
        return this.page(true, q.agent, q.agentConnected, q.limit, q.cursor);
      }
      case 'requests.query': {
        const q = p as AdminParams<'requests.query'>;
        if (q.status || q.sessionId || q.action)
          throw new UsageError('against a hub, history filters by agent only');
        return this.page(false, q.agent, undefined, q.limit, q.cursor);
      }
      case 'request.get':
        return { request: (await this.one((p as AdminParams<'request.get'>).requestId)).request };
      case 'decide': {
        const { requestId, ...rest } = p as AdminParams<'decide'>;
        return { request: await this.decide(requestId, rest) };
      }
      case 'decideMany': {
        const { requestIds, ...rest } = p as AdminParams<'decideMany'>;
        const decided: RequestRecord[] = [];
        const failed: { requestId: string; error: string }[] = [];
        for (const requestId of requestIds) {
          try {
            decided.push(await this.decide(requestId, rest));
          } catch (error) {
            if (error instanceof UsageError) throw error;
            failed.push({
              requestId,
              error: error instanceof Error ? error.message : String(error),
            });
          }
        }
        return { decided, failed };
      }
      case 'rules.preview': {
        // The machine's own preview, as it published it: a rule shaped from it must be one
        // of these, since the machine applies nothing else.
        const { machine, offers } = await this.one((p as AdminParams<'rules.preview'>).requestId);
        if (!offers) throw new UsageError(notOffered(machine, offers));
        return {
          draft: offers[0]!.draft,
          widenings: offers.slice(1).map((o) => o.draft),
          describe: offers.map((o) => o.describe),
        };
      }
      default:
        throw new UsageError(
          `${method} is not available against a hub: \`gatehouse --hub URL\` runs list, show, approve, deny and review`,
        );
    }
  }

  private async get(path: string): Promise<unknown> {
    return this.hub(() => callHub(this.url, 'GET', path, this.credential));
  }

  /** A hub call whose refusal becomes the daemon's error of the same meaning. */
  private async hub<T>(fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (error) {
      if (!(error instanceof HubCallError)) throw error;
      if (error.status === 404) throw new RpcError(ErrorCode.NotFound, error.message);
      if (error.status === 400 || error.status === 409)
        throw new RpcError(ErrorCode.InvalidParams, error.message);
      throw error;
    }
  }

  private remember(v: HubView): HubView {
    this.machines.set(v.request.requestId, v.machine);
    return v;
  }

  private async page(
    waiting: boolean,
    agent: string | undefined,
    connected: boolean | undefined,
    limit: number | undefined,
    cursor: string | undefined,
  ) {
    const q = new URLSearchParams({
      waiting: waiting ? '1' : '0',
      limit: String(Math.min(limit ?? 50, 500)),
      ...(agent ? { agent } : {}),
      ...(connected !== undefined ? { connected: connected ? '1' : '0' } : {}),
      ...(cursor ? { cursor } : {}),
    });
    const page = HubPage.parse(await this.get(`/api/requests/page?${q}`));
    return {
      requests: page.requests.map((v) => this.remember(v).request),
      total: page.total,
      ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}),
    };
  }

  private async one(requestId: string): Promise<HubView> {
    const machine = this.machines.get(requestId);
    const q = new URLSearchParams({ id: requestId, ...(machine ? { machine } : {}) });
    return this.remember(HubView.parse(await this.get(`/api/requests/one?${q}`)));
  }

  /**
   * Decides on the hub, then waits a little for the machine to apply it and publish the
   * outcome, so the line printed is what happened; a machine that is not linked applies it
   * when it is, and the record then still shows it waiting (said on stderr).
   */
  private async decide(
    requestId: string,
    p: Omit<AdminParams<'decide'>, 'requestId'>,
  ): Promise<RequestRecord> {
    const { machine, offers } = await this.one(requestId);
    const reason = p.reason ?? (p.decision === 'deny' ? p.message : undefined);
    // A shaped rule travels as the id of the machine's offer it is, never as its text.
    const offer = p.rule ? offerOf(offers ?? [], p.rule) : undefined;
    if (p.rule && !offer) throw new UsageError(notOffered(machine, offers));
    // What an approval carries besides its scope travels as it is; the machine applies it
    // through its own decide, which checks it as a local approval's.
    const terms =
      p.decision === 'approve'
        ? {
            ...(p.envelope ? { envelope: p.envelope } : {}),
            ...(p.message ? { message: p.message } : {}),
            ...(p.conditions?.length ? { conditions: p.conditions } : {}),
            ...(offer ? { ruleOffer: offer.id } : {}),
            ...(p.edit ? { edit: p.edit } : {}),
          }
        : {};
    const vote = DecideAnswer.parse(
      await this.hub(() =>
        callHub(this.url, 'POST', '/api/decide', {
          ...this.credential,
          body: {
            machine,
            requestId,
            decision: p.decision,
            ...(p.scope && p.scope !== 'once' ? { scope: p.scope } : {}),
            ...(reason ? { reason } : {}),
            ...(Object.keys(terms).length > 0 ? { terms } : {}),
          },
        }),
      ),
    );
    if (!vote.decided) {
      // A team rule waits for more approvals: the vote counted, nothing reaches the machine yet.
      console.error(
        `gatehouse: your approval counted: ${vote.approvals ?? 0} of ${vote.needed ?? 0} approvals; the team rule waits for more`,
      );
      return (await this.one(requestId)).request;
    }
    const deadline = Date.now() + APPLIED_WAIT_MS;
    for (;;) {
      const { request } = await this.one(requestId);
      if (!isWaitingForYou(request.status)) return request;
      if (Date.now() > deadline) {
        console.error(
          `gatehouse: the hub took the decision; ${machine} applies it when it is linked`,
        );
        return request;
      }
      await this.sleep(200);
    }
  }
}
