import { z } from 'zod';
import { Empty } from './admin-methods';

/** One place where the audit trail and its chain disagree. */
export const AuditFinding = z.object({
  /**
   * `changed`: the entry does not follow from the one before it; `deleted`: its link remains,
   * the entry is gone; `added`: an entry the chain passed without; `checkpoint`: the chain no
   * longer reaches a signed checkpoint (rewritten); `signature`: a checkpoint not signed by
   * this Gatehouse's key; `base`: the chain starts where no checkpoint vouches for it; `hub`:
   * the hub's copy of a checkpoint no longer matches the chain (rewritten here, consistently).
   */
  kind: z.enum(['changed', 'deleted', 'added', 'checkpoint', 'signature', 'base', 'hub']),
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

/** `audit verify --hub`: the local verdict, with the chain also checked against the hub's copies. */
export const AuditVerifyHubResult = AuditVerifyResult.extend({
  hub: z.object({
    /** False: this machine has not joined a hub. */
    joined: z.boolean(),
    url: z.string().optional(),
    /** False: the hub could not be asked (`error` says why); nothing was compared. */
    reachable: z.boolean(),
    error: z.string().optional(),
    /** The hub's copies of this machine's checkpoints, compared with the chain. */
    checkpoints: z.number().int().nonnegative(),
    /** The newest entry a checkpoint on the hub vouches for. */
    throughSeq: z.number().int().nonnegative().optional(),
  }),
});
export type AuditVerifyHubResult = z.infer<typeof AuditVerifyHubResult>;

export const AuditExportSignatureParams = z.object({
  format: z.enum(['jsonl', 'csv']),
  since: z.string().optional(),
  /** The export's end (ISO 8601, exclusive), fixed by the caller so both sides read one range. */
  until: z.string(),
});

/**
 * The daemon's signature of an export it formats itself (shared/export-format.ts) from its own
 * trail: it never signs a digest it is handed, so it cannot be made to vouch for a forged file.
 */
export const AuditExportSignature = z.object({
  format: z.enum(['jsonl', 'csv']),
  since: z.string().optional(),
  until: z.string(),
  entries: z.number().int().nonnegative(),
  bytes: z.number().int().nonnegative(),
  /** SHA-256 of the file's bytes, hex. */
  sha256: z.string(),
  signedAt: z.string(),
  publicKey: z.string(),
  /** Ed25519 over shared/export-format.ts's `exportSignedText`, base64. */
  signature: z.string(),
});
export type AuditExportSignature = z.infer<typeof AuditExportSignature>;

export const AuditKeyResult = z.object({
  /** This Gatehouse's audit key (Ed25519, SPKI DER, base64). */
  publicKey: z.string(),
});

export const auditChainAdminMethods = {
  'audit.verify': { params: Empty, result: AuditVerifyResult, mutates: false },
  'audit.verifyHub': { params: Empty, result: AuditVerifyHubResult, mutates: false },
  'audit.exportSignature': {
    params: AuditExportSignatureParams,
    result: AuditExportSignature,
    mutates: false,
  },
  'audit.key': { params: Empty, result: AuditKeyResult, mutates: false },
} as const;
