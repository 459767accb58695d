import { z } from 'zod';

export const RetentionSettings = z
  .object({
    days: z.number().int().positive().max(36_500).default(180).meta({
      title: 'Keep history for',
      unit: 'days',
      description:
        'Decided requests, audit entries and the transcripts of ended sessions older than this are deleted in the background (run it now with `gatehouse prune`). Requests still waiting for you are never deleted. Export what you want to keep first.',
    }),
    abandonAfterMs: z
      .number()
      .int()
      .nonnegative()
      .max(365 * 24 * 60 * 60 * 1000)
      .default(24 * 60 * 60 * 1000)
      .meta({
        title: 'Close requests of agents gone for',
        unit: 'ms',
        description:
          'A request still waiting whose agent session ended (or was abandoned) this long ago, with no connection since, is closed as `abandoned` when retention runs: its agent will not act on an answer. 0 keeps such requests waiting.',
      }),
    batchRows: z.number().int().min(10).max(5000).default(200).meta({
      title: 'Rows per pruning step',
      description:
        'How many rows one pruning step deletes in one transaction. Small steps keep agents from waiting behind the pruning.',
    }),
  })
  .meta({ title: 'Retention', description: 'How long Gatehouse keeps its history.' });

export const AuditSettings = z
  .object({
    classifyFoldMs: z
      .number()
      .int()
      .nonnegative()
      .max(24 * 60 * 60 * 1000)
      .default(60_000)
      .meta({
        title: 'Fold repeated classifications within',
        unit: 'ms',
        description:
          'Identical `classify` calls of one session within this window are counted in one audit entry (with a count and the first and last time) instead of one entry each. 0 records every call. Decisions are never folded.',
      }),
    checkpointMs: z
      .number()
      .int()
      .min(1000)
      .max(24 * 60 * 60 * 1000)
      .default(10 * 60 * 1000)
      .meta({
        title: 'Sign the audit chain every',
        unit: 'ms',
        description:
          "Every audit entry is chained to the one before it; this often (and when Gatehouse stops) the chain's head is signed with this Gatehouse's key, so `gatehouse audit verify` can tell a rewritten trail from a true one. Retention deletes history only in whole signed segments.",
      }),
  })
  .meta({ title: 'Audit', description: 'What the audit trail records.' });
