import type { z } from 'zod';
import * as A from './agent-methods';
import { auditChainAdminMethods } from './audit-chain-methods';
import { coreAdminMethods } from './admin-methods';
import { guardAdminMethods } from './guard-methods';
import { grantAdminMethods } from './grant-methods';
import { linkAdminMethods } from './link-methods';
import { notifyAdminMethods } from './notify-methods';
import { retentionAdminMethods } from './retention-methods';
import { suggestionAdminMethods } from './suggestion-methods';
import { trustAdminMethods } from './trust-methods';

interface MethodSpec {
  params: z.ZodType;
  result: z.ZodType;
}

/** Methods an agent connection may call (docs/protocol.md, "Agent methods"). */
export const agentMethods = {
  hello: { params: A.HelloParams, result: A.HelloResult },
  classify: { params: A.ClassifyParams, result: A.ClassifyResult },
  request: { params: A.RequestParams, result: A.RequestResult },
  await: { params: A.AwaitParams, result: A.RequestResult },
  cancel: { params: A.CancelParams, result: A.CancelResult },
  log: { params: A.LogParams, result: A.OkResult },
  usage: { params: A.UsageParams, result: A.UsageResult },
  check: { params: A.CheckParams, result: A.CheckResult },
  outcome: { params: A.OutcomeParams, result: A.OutcomeResult },
  end: { params: A.EndParams, result: A.EndResult },
  gate: { params: A.GateParams, result: A.GateResult },
  note: { params: A.NoteParams, result: A.NoteResult },
} as const satisfies Record<string, MethodSpec>;

/**
 * Admin methods. This one map is the admin API: the socket's admin role, the Electron IPC
 * handlers, the dashboard's HTTP API, the preload bridge and the CLI are all driven by it.
 * Each group's rows live with its schemas (`*-methods.ts`), so a method added to a group needs
 * no edit here. `mutates` marks methods that change state (never reachable by a GET).
 */
export const adminMethods = {
  ...coreAdminMethods,
  ...grantAdminMethods,
  ...guardAdminMethods,
  ...trustAdminMethods,
  ...suggestionAdminMethods,
  ...linkAdminMethods,
  ...notifyAdminMethods,
  ...retentionAdminMethods,
  ...auditChainAdminMethods,
} as const satisfies Record<string, MethodSpec & { mutates: boolean }>;

export type AgentMethod = keyof typeof agentMethods;
export type AgentParams<K extends AgentMethod> = z.input<(typeof agentMethods)[K]['params']>;
export type AgentParsedParams<K extends AgentMethod> = z.output<(typeof agentMethods)[K]['params']>;
export type AgentResult<K extends AgentMethod> = z.output<(typeof agentMethods)[K]['result']>;

export type AdminMethod = keyof typeof adminMethods;
export type AdminParams<K extends AdminMethod> = z.input<(typeof adminMethods)[K]['params']>;
export type AdminParsedParams<K extends AdminMethod> = z.output<(typeof adminMethods)[K]['params']>;
export type AdminResult<K extends AdminMethod> = z.output<(typeof adminMethods)[K]['result']>;

export const isAgentMethod = (m: string): m is AgentMethod => Object.hasOwn(agentMethods, m);
export const isAdminMethod = (m: string): m is AdminMethod => Object.hasOwn(adminMethods, m);
