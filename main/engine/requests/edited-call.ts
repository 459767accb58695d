import type { z } from 'zod';
import { RISK_ORDER, type Risk } from '../../../shared/domain';
import type { DecideParams } from '../../../shared/protocol/admin-methods';
import { ErrorCode, GatehouseError } from '../../../shared/protocol/errors';
import { severity } from '../../../shared/tools/action-spec';
import { isAgentKind } from '../../../shared/tools/agent-tools';
import type { McpToolRef } from '../../../shared/tools/tool-mapping';
import type { ShellParser } from '../../../shared/tools/shell-syntax';
import type { CallEnvironment } from '../policy/classification';
import { riskOfRule } from '../policy/protected-paths';
import { canTakeEdit } from '../../../shared/request-picture/edit-support';
import type { RequestRow } from './requests-store';
import { MaskedEditRefused, restoreMaskedEdit } from './masked-edit';
import { classifyEditedCall, type ClassifyCallAction } from './call-actions';

/** How the edited call classifies, and whether it is riskier than the one the agent asked. */
export interface EditVerdict {
  /** The edited call's most restrictive asking action (or its first action when none asks). */
  action: string;
  tier: string;
  rule: string;
  risk?: Risk;
  /** Why it is riskier than the original, when it is. */
  riskier?: string;
}

/**
 * What a person's edit of a waiting call is completed and checked against, kept while the
 * agent waits: the agent's own (unmasked) tool input, and the environment its call reported,
 * in which the edited call runs too.
 */
export interface EditOriginal {
  /** Undefined past the size kept for editing: the person's edit then starts from scratch. */
  input?: Record<string, unknown> | undefined;
  environment: CallEnvironment;
  /** The MCP server and tool, when the agent reported them apart from the tool's name. */
  mcp?: McpToolRef | undefined;
}

/**
 * Classifies an edited tool call of a request filed through `gate`, as the agent's call was
 * mapped (`mcp`) and in its environment.
 */
export type CheckEdit = (
  r: RequestRow,
  input: Record<string, unknown>,
  original: Omit<EditOriginal, 'input'> | undefined,
) => EditVerdict;

/** The client and tool of a request filed through `gate`, as its context records them. */
export function gateCallOf(r: RequestRow): { client: string; tool: string } | undefined {
  const client = r.context?.client;
  const tool = r.context?.tool;
  return typeof client === 'string' && typeof tool === 'string' ? { client, tool } : undefined;
}

/**
 * Checks that an approval may carry an edit, completes it and classifies the edited call: an
 * approval once, of a tool call of an agent that can run an edited input, while the agent
 * waits for the answer (an edit never becomes a grant for later). The person edited the
 * masked input: what they left untouched gets its secrets back from `original`, the agent's
 * own input (masked-edit.ts), and the completed call is what is classified and run. A riskier
 * edited call only with `confirmRiskier`. Throws -32602 with the reason otherwise.
 */
export function checkedEdit(
  r: RequestRow,
  p: z.output<typeof DecideParams>,
  agentWaits: boolean,
  check: CheckEdit | undefined,
  original: EditOriginal | undefined,
): (EditVerdict & { input: Record<string, unknown> }) | undefined {
  const edit = p.edit;
  if (!edit) return undefined;
  const refuse = (why: string): never => {
    throw new GatehouseError(ErrorCode.InvalidParams, `request ${r.requestId}: ${why}`);
  };
  if (p.decision !== 'approve') refuse('only an approval carries an edited call');
  if (p.scope !== 'once' || p.envelope || p.rule)
    refuse('an edited call is approved once only, not for the session, always or with an envelope');
  const call = gateCallOf(r);
  if (!call) refuse('only an agent tool call can be edited');
  if (!canTakeEdit(r))
    refuse(`${call!.client}'s hooks cannot run an edited call: approve or deny it as asked`);
  if (r.status !== 'pending' || !agentWaits)
    refuse('the agent is not waiting for this answer, so an edited call could not reach it');
  if (!check) refuse('edited calls cannot be checked here');
  let input: Record<string, unknown> = edit.input;
  try {
    input = restoreMaskedEdit(original?.input, edit.input);
  } catch (e) {
    if (e instanceof MaskedEditRefused) refuse(e.message);
    throw e;
  }
  const verdict = check!(r, input, original);
  if (verdict.riskier && !edit.confirmRiskier)
    refuse(
      `the edited call is riskier than the one asked (${verdict.riskier}; ${verdict.rule}): confirm it to approve`,
    );
  return { ...verdict, input };
}

/** Why `edited` is riskier than the original request, or undefined. */
export function riskierThan(
  r: Pick<RequestRow, 'risk' | 'rule'>,
  edited: { risk?: Risk; rule: string; severity: number; originalSeverity: number },
): string | undefined {
  // A stored row carries no risk of its own: it is the rule's, as the request shows it.
  const risk = r.risk ?? riskOfRule(r.rule);
  const was = RISK_ORDER.indexOf(risk ?? 'low');
  const now = RISK_ORDER.indexOf(edited.risk ?? 'low');
  if (now > was) return `risk ${edited.risk} instead of ${risk ?? 'none'}`;
  if (edited.rule.startsWith('protected:') && !r.rule.startsWith('protected:'))
    return "it touches Gatehouse's own files or policy";
  if (edited.severity > edited.originalSeverity) return 'a more dangerous kind of action';
  return undefined;
}

/**
 * An edited tool call classified as the gate would classify the agent's own call
 * ({@link classifyEditedCall}), the most restrictive asking action (a critical one first)
 * standing for it, compared with the original.
 */
export function classifyEdited(
  r: RequestRow,
  input: Record<string, unknown>,
  shell: ShellParser,
  classify: ClassifyCallAction,
  original: Omit<EditOriginal, 'input'> = { environment: {} },
): EditVerdict {
  const call = gateCallOf(r);
  if (!call || !isAgentKind(call.client))
    throw new GatehouseError(ErrorCode.InvalidParams, 'only an agent tool call can be edited');
  // The edit's own working directory (if it has one) resolves against the agent's, never
  // against the original call's: an edit without `dir_path` runs in the agent's directory.
  const agentCwd = typeof r.context?.cwd === 'string' ? r.context.cwd : undefined;
  const verdicts = classifyEditedCall(
    { client: call.client, tool: call.tool, cwd: agentCwd, ...original },
    input,
    shell,
    classify,
  );
  if (verdicts === 'internal') return { action: call.tool, tier: 'auto', rule: 'internal' };
  const asking = verdicts.filter((v) => v.c.tier === 'ask');
  const top = asking.find((v) => v.c.risk === 'critical') ?? asking[0] ?? verdicts[0]!;
  const worst = Math.max(...verdicts.map((v) => severity(v.a.action)));
  const riskier = riskierThan(r, {
    rule: top.c.rule,
    severity: worst,
    originalSeverity: severity(r.action),
    ...(top.c.risk !== undefined ? { risk: top.c.risk } : {}),
  });
  return {
    action: top.a.action,
    tier: top.c.tier,
    rule: top.c.rule,
    ...(top.c.risk !== undefined ? { risk: top.c.risk } : {}),
    ...(riskier !== undefined ? { riskier } : {}),
  };
}
