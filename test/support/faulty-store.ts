import type { EngineStore } from '../../main/engine/store-port';

/** An error shaped like better-sqlite3's for a full disk (`code` is what Gatehouse reads). */
export function diskFullError(): Error {
  return Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' });
}

/**
 * Wraps a real store so a test can make its next commits, or its next writes of one kind,
 * fail as a full disk would. Everything else goes to the real store.
 */
export class FaultyStore {
  /** Commits still to fail. */
  failCommits = 0;
  /** Failures still to inject per store method (`updateRequest`, `updateSession`, …). */
  readonly failWrites = new Map<keyof EngineStore, number>();

  wrap = (store: EngineStore): EngineStore =>
    new Proxy(store, {
      get: (target, key: keyof EngineStore) => {
        const real = target[key];
        if (typeof real !== 'function') return real;
        return (...args: unknown[]) => {
          if (key === 'commitBatch' && this.failCommits > 0) {
            this.failCommits--;
            throw diskFullError();
          }
          const left = this.failWrites.get(key) ?? 0;
          if (left > 0) {
            this.failWrites.set(key, left - 1);
            throw diskFullError();
          }
          return (real as (...a: unknown[]) => unknown).apply(target, args);
        };
      },
    });
}
