import type { z } from 'zod';
import type { RequestRecord } from '../../shared/domain';
import { DecideParams } from '../../shared/protocol/admin-methods';
import type { Engine } from '../engine/engine';
import { toRequestRecord } from '../engine/records';
import type { AuditFields } from '../engine/unit-of-work';

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

/** The port over the engine of this process. */
export function engineLinkPort(engine: Engine): LinkEnginePort {
  return {
    now: () => engine.deps.clock.now(),
    getRequest(requestId) {
      const row = engine.deps.store.getRequest(requestId);
      return row ? toRequestRecord(row) : undefined;
    },
    agentWaiting: (requestId) => engine.queue.waitingCount(requestId) > 0,
    async decideSpending(spend, params) {
      const parsed = DecideParams.parse(params);
      const outcome = engine.work.run(() => (spend() ? engine.queue.decide(parsed) : 'spent'));
      await engine.work.durable();
      return outcome === 'spent' ? 'spent' : outcome.request;
    },
    async audit(type, fields) {
      engine.work.record(type, fields);
      await engine.work.durable();
    },
  };
}
