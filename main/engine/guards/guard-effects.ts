import type { Verdict } from '../../../shared/domain';
import type { GatehouseEvent } from '../../../shared/events';
import type { Clock } from '../../../shared/clock';
import type { GuardContext, GuardEffects } from './guard-port';
import { ActionDeduplicator } from './action-dedup';
import type { ModeChange } from './safety-switch';

/** The call an audit entry says a trip or a mode change came from. */
export type EffectSource = 'check' | 'usage' | 'outcome' | 'scope' | 'kill' | 'admin';

/** Longest text kept as evidence in an audit entry. */
const EVIDENCE_CHARS = 500;
/** Keys the deduplicator of published events remembers at most. */
const DEDUP_KEYS = 10_000;

const clip = (value: unknown): unknown =>
  typeof value === 'string' && value.length > EVIDENCE_CHARS
    ? `${value.slice(0, EVIDENCE_CHARS)}…`
    : value;
const evidenceOf = (params: object): Record<string, unknown> =>
  Object.fromEntries(Object.entries(params).map(([k, v]) => [k, clip(v)]));

export const noEffects = (): GuardEffects => ({ audit: [], events: [] });

export function mergeEffects(into: GuardEffects, from: GuardEffects): GuardEffects {
  into.audit.push(...from.audit);
  into.events.push(...from.events);
  return into;
}

/** A human reset breakers: one audit entry and one event each. */
export function resetEffects(names: string[], falsePositive: boolean): GuardEffects {
  return {
    audit: names.map((breaker) => ({
      type: 'guard.reset',
      data: { breaker, by: 'human', falsePositive },
    })),
    events: names.map((breaker) => ({ type: 'guard.reset' as const, breaker })),
  };
}

/**
 * Turns verdicts and a mode change into audit entries and events. Every trip is audited; a
 * warning once per window; and the same trip or warning is published once per window
 * (`guards.eventDedupWindowMs`), so a caller that keeps failing cannot flood the person's view.
 */
export class EffectShaper {
  private notified = new ActionDeduplicator(60_000, DEDUP_KEYS);
  private notifiedWindowMs = 60_000;

  constructor(
    private readonly clock: Clock,
    /** `guards.eventDedupWindowMs`, read on every use. */
    private readonly windowMs: () => number,
  ) {}

  effects(
    ctx: Partial<GuardContext>,
    source: EffectSource,
    verdicts: readonly Verdict[],
    change: ModeChange | undefined,
    params: object,
  ): GuardEffects {
    const out = noEffects();
    if (!change && !verdicts.some((v) => v.tripped || v.warning)) return out;
    const evidence = evidenceOf(params);
    const now = this.clock.now();
    for (const v of verdicts) {
      if (!v.tripped && !v.warning) continue;
      const type = v.tripped ? 'guard.tripped' : 'guard.warning';
      const key = `${ctx.sessionId ?? ''}|${type}|${v.breaker}|${v.reason ?? ''}`;
      const seen = this.dedup().checkAndRecord(key, now);
      const repeat = seen.isDuplicate;
      if (v.tripped || !repeat) {
        out.audit.push({
          type,
          data: { method: source, ...v, evidence, ...(repeat ? { repeat: seen.entry.count } : {}) },
        });
      }
      if (!repeat)
        out.events.push({ type, sessionId: ctx.sessionId, agent: ctx.agent, verdict: v });
    }
    if (change && ctx.sessionId && ctx.agent) {
      out.audit.push({
        type: 'mode.changed',
        data: { method: source, mode: change.mode, reason: change.reason, evidence },
      });
      const event: GatehouseEvent = {
        type: 'mode.changed',
        sessionId: ctx.sessionId,
        agent: ctx.agent,
        mode: change.mode,
        reason: change.reason,
      };
      out.events.push(event);
    }
    return out;
  }

  /** The effects of one guard call: its verdicts and the mode change it caused. */
  ofCall(
    call: { ctx: GuardContext; verdicts: readonly Verdict[]; change?: ModeChange | undefined },
    source: EffectSource,
    params: object,
  ): GuardEffects {
    return this.effects(call.ctx, source, call.verdicts, call.change, params);
  }

  /** The deduplicator, rebuilt when its window setting changes. */
  private dedup(): ActionDeduplicator {
    const windowMs = this.windowMs();
    if (windowMs !== this.notifiedWindowMs) {
      this.notified = new ActionDeduplicator(windowMs, DEDUP_KEYS);
      this.notifiedWindowMs = windowMs;
    }
    return this.notified;
  }
}
