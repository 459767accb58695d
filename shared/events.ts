import { z } from 'zod';
import {
  AgentState,
  RequestRecord,
  RuleRecord,
  SessionRecord,
  SessionSummary,
  Verdict,
  Mode,
} from './domain';
import { RequestPicture } from './request-picture/picture-schema';

/**
 * Everything the engine publishes after a committed change. The notifier, the admin
 * `subscribe` stream, the Electron shell and the dashboard all consume this one union.
 */
export const GatehouseEvent = z.discriminatedUnion('type', [
  z.object({ type: z.literal('request.created'), request: RequestRecord }),
  z.object({ type: z.literal('request.decided'), request: RequestRecord }),
  z.object({ type: z.literal('request.timed_out'), request: RequestRecord }),
  z.object({ type: z.literal('request.cancelled'), request: RequestRecord }),
  /** A filed request's picture (its diff, its push, its commands), computed after filing. */
  z.object({ type: z.literal('request.picture'), requestId: z.string(), picture: RequestPicture }),
  z.object({ type: z.literal('session.started'), session: SessionRecord }),
  z.object({ type: z.literal('session.ended'), session: SessionRecord, summary: SessionSummary }),
  /**
   * A session's first connection opened again (`connected`), or its last one closed: its
   * waiting requests are from a connected or a gone agent from now on.
   */
  z.object({
    type: z.literal('session.connection'),
    sessionId: z.string(),
    agent: z.string(),
    connected: z.boolean(),
  }),
  z.object({
    type: z.literal('agent.control'),
    agents: z.array(AgentState),
    state: z.enum(['paused', 'resumed', 'killed']),
    reason: z.string().optional(),
  }),
  z.object({ type: z.literal('rules.changed'), rules: z.array(RuleRecord) }),
  z.object({ type: z.literal('settings.changed'), settings: z.record(z.string(), z.unknown()) }),
  z.object({
    type: z.literal('guard.tripped'),
    sessionId: z.string().optional(),
    agent: z.string().optional(),
    verdict: Verdict,
  }),
  z.object({
    type: z.literal('guard.warning'),
    sessionId: z.string().optional(),
    agent: z.string().optional(),
    verdict: Verdict,
  }),
  z.object({
    type: z.literal('guard.reset'),
    breaker: z.string(),
  }),
  z.object({
    type: z.literal('ladder.changed'),
    project: z.string(),
    from: z.number().int(),
    to: z.number().int(),
    by: z.enum(['auto', 'human']),
    reason: z.string(),
  }),
  z.object({
    /** A project policy file that would promote actions was used while not trusted. */
    type: z.literal('policy.untrusted'),
    project: z.string(),
    file: z.string(),
    sha256: z.string(),
    /** `edited`: the person trusted other content of this file; `untrusted`: never trusted. */
    trust: z.enum(['untrusted', 'edited']),
    /** What the file would allow without asking, one line each. */
    allows: z.array(z.string()),
    sessionId: z.string().optional(),
    agent: z.string().optional(),
  }),
  z.object({
    type: z.literal('policy.trust_changed'),
    project: z.string(),
    trusted: z.boolean(),
    sha256: z.string().optional(),
  }),
  z.object({
    type: z.literal('mode.changed'),
    sessionId: z.string(),
    agent: z.string(),
    mode: Mode,
    reason: z.string().optional(),
  }),
]);
export type GatehouseEvent = z.infer<typeof GatehouseEvent>;
