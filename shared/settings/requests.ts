import { z } from 'zod';

export const RequestSettings = z.object({
  /** How long a waiting `request` blocks before it answers `timed_out` (10 minutes). */
  defaultTimeoutMs: z
    .number()
    .int()
    .positive()
    .max(24 * 60 * 60 * 1000)
    .default(600_000),
  /**
   * Requests one session may have waiting for a human (pending or timed out); past it
   * `request` answers -32004, so one agent cannot bury the person's queue.
   */
  maxQueuedPerSession: z.number().int().positive().max(1_000_000).default(1000),
});

export const SessionSettings = z.object({
  /** How long a session outlives its last connection before it is closed as abandoned. */
  graceMs: z
    .number()
    .int()
    .nonnegative()
    .max(7 * 24 * 60 * 60 * 1000)
    .default(300_000),
});
