import type { Engine } from '../engine/engine';
import type { GuardChain } from '../engine/guards/guard-chain';
import { GuardAdmin } from '../engine/guards/guard-admin';
import type { ExtraHandlers } from './admin-service';

/**
 * Routes the `guards.*` and `ladder.*` admin methods to the guardrails. Mutating calls run
 * in a unit of work so that what they change is audited and published like any change.
 */
export function guardAdminHandlers(engine: Engine, chain: GuardChain): ExtraHandlers {
  const admin = new GuardAdmin(
    chain,
    (sessionId) => engine.deps.store.getSession(sessionId)?.agent,
  );
  const mutate = <R>(
    call: () => { result: R; effects: Parameters<Engine['applyEffects']>[2] },
  ): R =>
    engine.work.run((u) => {
      const { result, effects } = call();
      engine.applyEffects(u, undefined, effects);
      return result;
    });
  return {
    'guards.budgets': (p) => admin.budgets(p),
    'guards.breakers': () => admin.breakers(),
    'guards.reset': (p) => mutate(() => admin.reset(p)),
    'guards.recover': (p) => mutate(() => admin.recover(p)),
    'ladder.get': (p) => admin.ladder(p),
    'ladder.set': (p) => mutate(() => admin.setLadderLevel(p)),
  };
}
