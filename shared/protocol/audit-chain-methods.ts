import { z } from 'zod';
import { Empty } from './admin-methods';

/** One place where the audit trail and its chain disagree. */
export const AuditFinding = z.object({
  /**
   * `changed`: the entry does not follow from the one before it; `deleted`: its link remains,
   * the entry is gone; `added`: an entry the chain passed without; `checkpoint`: the chain no
   * longer reaches a signed checkpoint (rewritten); `signature`: a checkpoint not signed by
   * this Gatehouse's key; `base`: the chain starts where no checkpoint vouches for it.
   */
  kind: z.enum(['changed', 'deleted', 'added', 'checkpoint', 'signature', 'base']),
  /** The entry's number in the audit sequence. */
  seq: z.number().int().nonnegative(),
  at: z.string().optional(),
  detail: z.string(),
});
export type AuditFinding = z.infer<typeof AuditFinding>;

export const AuditVerifyResult = z.object({
  ok: z.boolean(),
  /** Entries whose links were recomputed and compared. */
  checked: z.number().int().nonnegative(),
  /** The newest entry the chain covers. */
  sealedThrough: z.number().int().nonnegative(),
  /** Entries written since, not yet chained (sealing waits until they can no longer change). */
  unsealed: z.number().int().nonnegative(),
  /** Retention dropped the history up to this entry, in whole signed segments. */
  startsAfter: z.number().int().nonnegative().optional(),
  checkpoints: z.number().int().nonnegative(),
  lastCheckpointAt: z.string().optional(),
  /** This Gatehouse's audit key (Ed25519, SPKI DER, base64). */
  publicKey: z.string(),
  findings: z.array(AuditFinding),
});
export type AuditVerifyResult = z.infer<typeof AuditVerifyResult>;

export const auditChainAdminMethods = {
  'audit.verify': { params: Empty, result: AuditVerifyResult, mutates: false },
} as const;
