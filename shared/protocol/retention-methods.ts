import { z } from 'zod';

/** What one kind of history retention deletes (or would): how many, oldest and newest. */
export const PrunedKind = z.object({
  count: z.number().int().nonnegative(),
  oldest: z.string().optional(),
  newest: z.string().optional(),
});

export const RetentionPruneParams = z.object({
  /** Only count what would go: nothing is deleted and nothing is audited. */
  dryRun: z.boolean().default(false),
});

export const RetentionPruneResult = z.object({
  dryRun: z.boolean(),
  /** `retention.days` when it ran. */
  days: z.number().int().positive(),
  /** What was (or would be) older than this went. */
  cutoff: z.string(),
  /** Decided requests, audit entries, session transcript rows, ended sessions. */
  requests: PrunedKind,
  audit: PrunedKind,
  transcript: PrunedKind,
  sessions: PrunedKind,
  /** Transcript files of the pruned sessions (in the transcripts folder). */
  transcriptFiles: z.number().int().nonnegative(),
  /** Bytes the database file gave back (incremental vacuum); 0 on a dry run. */
  bytesFreed: z.number().int().nonnegative(),
  /** Write transactions it took, and the most rows one of them deleted. */
  steps: z.number().int().nonnegative(),
  largestStep: z.number().int().nonnegative(),
  /** The longest the event loop was held by one step (a read, a delete, a vacuum), in ms. */
  longestStepMs: z.number().nonnegative(),
});
export type RetentionPruneResult = z.infer<typeof RetentionPruneResult>;

export const retentionAdminMethods = {
  'retention.prune': {
    params: RetentionPruneParams,
    result: RetentionPruneResult,
    mutates: true,
  },
} as const;
