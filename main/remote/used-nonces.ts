/**
 * The nonces of decision tokens that have decided, as the link decider uses them; stored by
 * main/store/used-nonces-repository.ts. `consume` is synchronous, so inside the engine's
 * unit of work it commits or rolls back with the decision it allowed: a token is spent
 * exactly when its decision is stored.
 */
export interface UsedNonces {
  /** Records the nonce as used; false when it already was (a replay). */
  consume(nonce: string, requestId: string, now: number, expiresAt: number): boolean;
  /** When the nonce was used, or undefined when it was not. */
  usedAt(nonce: string): number | undefined;
  /** Forgets nonces whose tokens have expired. Returns the count. */
  pruneExpired(now: number): number;
}
