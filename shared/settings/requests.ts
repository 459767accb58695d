import { z } from 'zod';

export const RequestSettings = z
  .object({
    defaultTimeoutMs: z
      .number()
      .int()
      .positive()
      .max(24 * 60 * 60 * 1000)
      .default(600_000)
      .meta({
        title: 'Default timeout',
        unit: 'ms',
        description:
          'How long a waiting request blocks before it answers timed_out (it stays in the queue). An agent may ask for another timeout per request.',
      }),
    maxQueuedPerSession: z.number().int().positive().max(1_000_000).default(1000).meta({
      title: 'Most waiting requests per session',
      description:
        'Requests one session may have waiting for you (pending or timed out). Past it the agent is refused, so one agent cannot bury your queue.',
    }),
    inferUrgency: z.boolean().default(true).meta({
      title: 'Infer urgency',
      description:
        'When the agent gives no urgency, raise a request to high for a high risk, production, a push to main, a force push, or an agent blocked for 5 minutes; shown with its reason and used by notifications.',
    }),
  })
  .meta({ title: 'Requests', description: 'How long an agent waits for your answer.' });

export const SessionSettings = z
  .object({
    graceMs: z
      .number()
      .int()
      .nonnegative()
      .max(7 * 24 * 60 * 60 * 1000)
      .default(300_000)
      .meta({
        title: 'Grace period',
        unit: 'ms',
        description:
          'How long a session outlives its last connection before it is closed as abandoned.',
      }),
  })
  .meta({ title: 'Sessions', description: 'When an agent session counts as over.' });
