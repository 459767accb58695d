import type { z } from 'zod';
import type { RequestRecord } from '../../shared/domain';
import { inferUrgency, type InferredUrgency } from '../../shared/request-picture/inferred-urgency';
import { DecideParams } from '../../shared/protocol/admin-methods';
import type { Engine } from '../engine/engine';
import type { Clock } from '../../shared/clock';
import { ErrorCode, GatehouseError } from '../../shared/protocol/errors';
import type { AuditFields, UnitOfWork } from '../engine/kernel/unit-of-work';

/**
 * What the decision links need from the engine, and nothing more: read a request, say whether
 * an agent is blocked on it, decide it in the same unit of work that spends the link's nonce,
 * and audit a refused link. The one place that knows the engine's services (see
 * {@link engineLinkPort}).
 */
export interface LinkEnginePort {
  now(): number;
  getRequest(requestId: string): RequestRecord | undefined;
  /** True while an agent's `request` / `await` call is blocked on this request. */
  agentWaiting(requestId: string): boolean;
  /** The urgency Gatehouse infers for it, unless the person turned that off (`requests.inferUrgency`). */
  inferredUrgency?(request: RequestRecord): InferredUrgency | undefined;
  /**
   * Runs `spend` and then the decision in one unit of work: both are stored, or neither (a
   * decision that fails leaves the link unspent). `spend` false (already spent) decides
   * nothing and answers 'spent'. Resolves once durable.
   */
  decideSpending(
    spend: () => boolean,
    params: z.input<typeof DecideParams>,
  ): Promise<RequestRecord | 'spent'>;
  /** Appends an audit entry as its own unit; resolves once durable. */
  audit(type: string, fields: AuditFields): Promise<void>;
}

/** The port over the engine of this process, and the unit of work it runs in. */
export function engineLinkPort(engine: Engine, work: UnitOfWork, clock: Clock): LinkEnginePort {
  return {
    now: () => clock.now(),
    getRequest(requestId) {
      try {
        return engine.admin.call('request.get', { requestId }).request;
      } catch (error) {
        if (error instanceof GatehouseError && error.code === ErrorCode.NotFound) return undefined;
        throw error;
      }
    },
    agentWaiting: (requestId) => engine.admin.waitingAgents(requestId) > 0,
    inferredUrgency(request) {
      const { value } = engine.admin.call('settings.get', { key: 'requests.inferUrgency' });
      return value === false ? undefined : inferUrgency(request, clock.now());
    },
    async decideSpending(spend, params) {
      const parsed = DecideParams.parse(params);
      // The decision's own unit nests in this one: the nonce is spent only with it.
      const outcome = work.run(() => (spend() ? engine.admin.call('decide', parsed) : 'spent'));
      await engine.durable();
      return outcome === 'spent' ? 'spent' : outcome.request;
    },
    async audit(type, fields) {
      engine.recordAudit(type, fields);
      await engine.durable();
    },
  };
}
