import type { z } from 'zod';
import { RISK_ORDER, type Risk } from '../../../shared/domain';
import type { DecideParams } from '../../../shared/protocol/admin-methods';
import { ErrorCode, GatehouseError } from '../../../shared/protocol/errors';
import { severity, type ActionSpec } from '../../../shared/tools/action-spec';
import { agentToolAction, isAgentKind } from '../../../shared/tools/agent-tools';
import { runDirectory } from '../../../shared/tools/run-directory';
import type { ShellParser } from '../../../shared/tools/shell-syntax';
import type { Classification } from '../policy/classifier';
import type { CallEnvironment } from '../policy/classification';
import { riskOfRule } from '../policy/protected-paths';
import { canTakeEdit } from '../../../shared/request-picture/edit-support';
import type { RequestRow } from './requests-store';
import { MaskedEditRefused, restoreMaskedEdit } from './masked-edit';

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
  input: Record<string, unknown>;
  environment: CallEnvironment;
}

/** Classifies an edited tool call of a request filed through `gate`, in the agent's environment. */
export type CheckEdit = (
  r: RequestRow,
  input: Record<string, unknown>,
  environment: CallEnvironment | undefined,
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
  const verdict = check!(r, input, original?.environment);
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

type EditedAction = ActionSpec & { command?: string } & CallEnvironment;

/**
 * An edited tool call classified as the gate would classify the agent's own call: mapped by
 * the agent's tool table, each action classified in the request's directory, the most
 * restrictive asking one (a critical one first) standing for it, compared with the original.
 */
export function classifyEdited(
  r: RequestRow,
  input: Record<string, unknown>,
  shell: ShellParser,
  classify: (
    a: EditedAction,
    cwd: string | undefined,
    call: readonly EditedAction[],
  ) => Classification,
  environment: CallEnvironment = {},
): EditVerdict {
  const call = gateCallOf(r);
  if (!call || !isAgentKind(call.client))
    throw new GatehouseError(ErrorCode.InvalidParams, 'only an agent tool call can be edited');
  const mapping = agentToolAction(call.client, call.tool, input, shell);
  if (mapping.kind === 'internal') return { action: call.tool, tier: 'auto', rule: 'internal' };
  // Where the edited call will run: its own working directory (if the edit has one) resolved
  // against the agent's, never the original call's (an edit without `dir_path` runs in the
  // agent's directory).
  const agentCwd = typeof r.context?.cwd === 'string' ? r.context.cwd : undefined;
  const cwd = runDirectory(agentCwd, mapping.workdir);
  const actions: EditedAction[] = mapping.candidates.map((c) =>
    mapping.command === undefined
      ? { ...c, ...environment }
      : { ...c, command: mapping.command, ...environment },
  );
  const verdicts = actions.map((a) => ({ a, c: classify(a, cwd, actions) }));
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
