import type { EngineStores } from '../../main/engine/engine-stores';

/** An error shaped like better-sqlite3's for a full disk (`code` is what Gatehouse reads). */
export function diskFullError(): Error {
  return Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' });
}

/** Every method name of every port of the engine's storage. */
type StoreMethod = {
  [P in keyof EngineStores]: keyof EngineStores[P];
}[keyof EngineStores];

/**
 * Wraps a real store so a test can make its next commits, or its next writes of one kind,
 * fail as a full disk would. Everything else goes to the real store.
 */
export class FaultyStore {
  /** Commits still to fail. */
  failCommits = 0;
  /** Failures still to inject per store method (`updateRequest`, `updateSession`, …). */
  readonly failWrites = new Map<StoreMethod, number>();

  /** Each port of `stores` behind the faults (a method of several ports fails in each). */
  wrap = (stores: EngineStores): EngineStores => {
    const wrapped: Record<string, object> = {};
    for (const [name, port] of Object.entries(stores)) wrapped[name] = this.wrapPort(port);
    return wrapped as unknown as EngineStores;
  };

  private wrapPort<T extends object>(port: T): T {
    return new Proxy(port, {
      get: (target, key) => {
        const real = (target as Record<string | symbol, unknown>)[key];
        if (typeof real !== 'function') return real;
        const method = key as StoreMethod;
        return (...args: unknown[]) => {
          if (method === 'commitBatch' && this.failCommits > 0) {
            this.failCommits--;
            throw diskFullError();
          }
          const left = this.failWrites.get(method) ?? 0;
          if (left > 0) {
            this.failWrites.set(method, left - 1);
            throw diskFullError();
          }
          return (real as (...a: unknown[]) => unknown).apply(target, args);
        };
      },
    });
  }
}
