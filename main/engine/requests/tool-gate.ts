import type { z } from 'zod';
import {
  decidedByOf,
  provenanceOfGrant,
  provenanceOfRule,
  ruleOf,
  type Provenance,
} from '../../../shared/provenance';
import type {
  GateParams,
  GateResult,
  RequestResult,
  CheckResult,
} from '../../../shared/protocol/agent-methods';
import { ErrorCode, GatehouseError } from '../../../shared/protocol/errors';
import type { CommandPart } from '../../../shared/request-picture/picture-schema';
import { AGENT_KINDS, agentToolAction, isAgentKind } from '../../../shared/tools/agent-tools';
import { editStats } from '../../../shared/tools/edit-stats';
import type { ShellParser } from '../../../shared/tools/shell-syntax';
import type { ToolMapping } from '../../../shared/tools/tool-mapping';
import { runDirectory } from '../../../shared/tools/run-directory';
import { MAX_CONTEXT_BYTES } from '../../../shared/protocol/constants';
import type { Classification } from '../policy/classifier';
import type { CallEnvironment } from '../policy/classification';
import type { EditOriginal } from './edited-call';
import { callActions, classifyEditedCall, type CallAction } from './call-actions';
import { compact } from '../kernel/records';
import { configHomesIn } from '../../../shared/policy/config-homes';
import { mayLeaveSandbox } from './outside-sandbox';
import { canTakeEdit } from '../../../shared/request-picture/edit-support';
import { maskInput } from '../../../shared/request-picture/mask-input';

type Params = z.output<typeof GateParams>;
type ClassifyInput = CallAction & { oversize?: number };
type RequestInput = ClassifyInput & {
  description: string;
  urgency: 'normal';
  wait: boolean;
  timeoutMs?: number | undefined;
  context: Record<string, unknown>;
  dedupeKey?: string | undefined;
  risk?: Classification['risk'];
};

/** What the gate needs from the engine, for one caller. */
export interface ToolGateDeps {
  shell: ShellParser;
  check(tool: string): z.output<typeof CheckResult>;
  /** `call`: every action of the tool call (a file it writes may decide what another runs). */
  classify(
    a: ClassifyInput,
    cwd: string | undefined,
    call: readonly ClassifyInput[],
  ): Classification;
  log(type: string, description: string, details: Record<string, unknown>): void;
  /**
   * Lets the call through when grants cover every asking action, using each up in the same
   * transaction that logs the call; `undefined` (nothing written) when one is not covered.
   */
  allowByGrants(
    asking: readonly { a: ClassifyInput; c: Classification }[],
    type: string,
    description: string,
    details: Record<string, unknown>,
    /** Where the call runs: a late approval given for another directory does not cover it. */
    runsIn: string | undefined,
  ): readonly { grantId: string; kind: string }[] | undefined;
  request(
    p: RequestInput,
    cwd: string | undefined,
    call: readonly ClassifyInput[],
    /** Each action of the call with the classifier's verdict: the request's command breakdown. */
    parts: readonly CommandPart[],
    /** The unmasked tool input behind the request's masked `toolInput`, kept while it waits. */
    editOriginal: EditOriginal | undefined,
  ): RequestResult | Promise<RequestResult>;
  /** The call was let through: what it writes is noted (run-input-watch.ts). */
  allowed(actions: readonly ClassifyInput[], cwd: string | undefined): void;
}

const SYSTEM: Provenance = { kind: 'system' };

/**
 * The warm half of every agent adapter: maps the tool call (shared/tools), checks the kill
 * switch and breakers, classifies each candidate action, logs an all-auto call or files
 * the most restrictive ask, and answers in one shape every adapter turns into its own.
 */
export async function gateToolCall(p: Params, d: ToolGateDeps): Promise<GateResult> {
  const result = await decideToolCall(p, d);
  if (result.outcome === 'allow' && result.performs) d.allowed(result.performs, result.runsIn);
  const { performs: _performs, runsIn: _runsIn, ...answer } = result;
  // A person's allow may leave the agent's sandbox; Gatehouse's own never does. An edited
  // call is judged as edited: what runs is the person's version, not the agent's.
  const judged = answer.updatedInput ? editedActions(p, answer.updatedInput, d) : answer.actions;
  return answer.outcome === 'allow' && mayLeaveSandbox(judged, answer.decidedBy)
    ? { ...answer, outsideSandbox: true }
    : answer;
}

/** The largest tool input kept with a request for the person to edit, as JSON. */
const MAX_EDITABLE_INPUT = 16 * 1024;

/**
 * What a person's edit of the call is completed and judged against while the agent waits,
 * when its agent can run an edited call (the dashboard offers it to edit: a file write's
 * content, an MCP call's arguments); undefined for other agents. The edit runs in the agent's
 * environment, and is mapped as the call was (its MCP server and tool). The tool input is
 * kept up to {@link MAX_EDITABLE_INPUT} (past it, the edit starts from scratch). The request
 * stores it masked ({@link maskInput}): every reader of the request (the dashboard's JSON,
 * `show --json`, the admin API, the hub) sees it so; the unmasked input stays in the daemon's
 * memory while the agent waits, to put back what an edit left untouched.
 */
function editOriginalOf(p: Params, environment: CallEnvironment): EditOriginal | undefined {
  if (!canTakeEdit({ context: { client: p.client, event: p.event } })) return undefined;
  const input = JSON.stringify(p.input).length <= MAX_EDITABLE_INPUT ? p.input : undefined;
  return { input, environment, mcp: p.mcp };
}

/** The agent's environment as its gate call reports it, for each action's classification. */
function callEnvironment(p: Params): CallEnvironment {
  // As the hook reads them (absolute, no device): any client's, not only the hook's.
  const homes = p.configHomes ? configHomesIn(p.configHomes) : {};
  return {
    ...(p.cdpath ? { cdpath: p.cdpath } : {}),
    ...(p.shellPath ? { shellPath: p.shellPath } : {}),
    ...(p.secretVariables?.length ? { secretVariables: p.secretVariables } : {}),
    ...(Object.keys(homes).length ? { configHomes: homes } : {}),
  };
}

/** The actions of a call as the person edited it, each with how it classifies. */
function editedActions(
  p: Params,
  input: Record<string, unknown>,
  d: ToolGateDeps,
): GateResult['actions'] {
  if (!isAgentKind(p.client)) return [];
  const call = {
    client: p.client,
    tool: p.tool,
    mcp: p.mcp,
    cwd: p.cwd,
    environment: callEnvironment(p),
  };
  const verdicts = classifyEditedCall(call, input, d.shell, d.classify);
  if (verdicts === 'internal') return [];
  return verdicts.map(({ a, c }) =>
    compact({ action: a.action, tier: c.tier, rule: c.rule, risk: c.risk }),
  );
}

/** The gate's answer, with the actions the call performs when it is let through. */
async function decideToolCall(
  p: Params,
  d: ToolGateDeps,
): Promise<GateResult & { performs?: readonly ClassifyInput[]; runsIn?: string | undefined }> {
  // `client` is the agent kind: its tool table maps the call (shared/tools/agent-tools.ts).
  if (!isAgentKind(p.client))
    throw new GatehouseError(
      ErrorCode.InvalidParams,
      `gate: unknown client "${p.client}" (known: ${AGENT_KINDS.join(', ')})`,
    );
  const size = p.oversize ?? JSON.stringify(p.input).length;
  const mapping =
    size > MAX_CONTEXT_BYTES
      ? oversizeMapping(p, size)
      : agentToolAction(p.client, p.tool, p.input, d.shell, p.mcp);
  if (mapping.kind === 'internal')
    return { outcome: 'none', reason: `${p.tool} only touches the agent's own state`, actions: [] };
  const gate = d.check(p.tool.slice(0, 128));
  if (!gate.allowed) {
    const reason = stopReason(gate);
    return {
      outcome: 'deny',
      reason,
      decidedBy: decidedByOf(SYSTEM),
      stop: { reason },
      actions: [],
    };
  }
  const environment = callEnvironment(p);
  const call: ClassifyInput[] = callActions(mapping, {
    ...(size > MAX_CONTEXT_BYTES ? { oversize: size } : {}),
    ...environment,
  });
  // The directory the call runs in: a shell tool's own working directory (Gemini CLI's
  // `dir_path`, OpenCode's `workdir`) resolved against the agent's, else the agent's. Its
  // relative paths are judged there, and the request's picture is drawn there.
  const runsIn = runDirectory(p.cwd, mapping.workdir);
  const verdicts = call.map((c) => d.classify(c, runsIn, call));
  const actions = mapping.candidates.map((c, i) =>
    compact({
      action: c.action,
      tier: verdicts[i]!.tier,
      rule: verdicts[i]!.rule,
      risk: verdicts[i]!.risk,
    }),
  );
  const details = compact({
    client: p.client,
    tool: p.tool,
    toolUseId: p.toolUseId,
    event: p.event,
  });
  const asking = call.flatMap((c, i) =>
    verdicts[i]!.tier === 'ask' ? [{ spec: c, verdict: verdicts[i]! }] : [],
  );
  if (!asking.length) {
    const top = mapping.candidates[0]!;
    const verdict = verdicts[0]!;
    d.log(top.action, mapping.description, { ...details, rule: verdict.rule });
    return {
      performs: call,
      runsIn,
      outcome: 'allow',
      reason: `Gatehouse: ${top.action} is auto-allowed (${verdict.rule}: ${verdict.reason})`,
      decidedBy: decidedByOf(provenanceOfRule(verdict.rule)),
      actions,
    };
  }
  const top = asking[0]!;
  const granted = d.allowByGrants(
    asking.map((x) => ({ a: x.spec, c: x.verdict })),
    top.spec.action,
    mapping.description,
    { ...details, rule: top.verdict.rule },
    runsIn,
  );
  if (granted) {
    const grants = granted.map((g) => `${g.kind.replace('_', ' ')} grant ${g.grantId}`);
    const by = granted.map((g) => provenanceOfGrant(g));
    let next = 0;
    return {
      performs: call,
      runsIn,
      outcome: 'allow',
      reason: `Gatehouse: ${asking.map((x) => x.spec.action).join(', ')} allowed by ${grants.join(', ')}`,
      decidedBy: decidedByOf(by[0]!),
      // The asking actions in order, each with the grant that let it through.
      actions: actions.map((x) =>
        x.tier === 'ask' ? { ...x, tier: 'auto', rule: ruleOf(by[next++]!) } : x,
      ),
    };
  }
  // Candidates are most restrictive first; a critical finding goes first whatever its action.
  const chosen = asking.find((a) => a.verdict.risk === 'critical') ?? asking[0]!;
  const editOriginal = editOriginalOf(p, environment);
  const answer = await d.request(
    compact({
      ...chosen.spec,
      description: mapping.description,
      urgency: 'normal' as const,
      wait: p.wait,
      timeoutMs: p.timeoutMs,
      risk: chosen.verdict.risk,
      context: compact({
        ...details,
        // The agent's directory: an edited call's own working directory resolves against it.
        cwd: p.cwd,
        workdir: runsIn !== p.cwd ? runsIn : undefined,
        permissionMode: p.permissionMode,
        diff: editStats(p.tool, p.input),
        toolInput: editOriginal?.input && maskInput(editOriginal.input),
        alsoAsking:
          asking.length > 1
            ? asking.filter((a) => a !== chosen).map((a) => a.spec.action)
            : undefined,
      }),
      dedupeKey: p.toolUseId ? `${p.client}:${p.toolUseId}` : undefined,
    }),
    runsIn,
    call,
    call.map((c, i) =>
      compact({
        action: c.action,
        target: c.target,
        paths: c.paths,
        tier: verdicts[i]!.tier,
        rule: verdicts[i]!.rule,
        risk: verdicts[i]!.risk,
      }),
    ),
    editOriginal,
  );
  const out = answerOf(answer, chosen.spec.action, actions);
  return out.outcome === 'allow' ? { ...out, performs: call, runsIn } : out;
}

/**
 * A call larger than Gatehouse parses is not parsed: one `run_command` that asks (the
 * classifier's `protected:too_large`), with the start of what it would run for the person.
 */
function oversizeMapping(p: Params, size: number): ToolMapping {
  const raw = typeof p.input.command === 'string' ? p.input.command : JSON.stringify(p.input);
  const shown = raw.length > OVERSIZE_SHOWN ? `${raw.slice(0, OVERSIZE_SHOWN - 1)}…` : raw;
  return {
    kind: 'gate',
    candidates: [{ action: 'run_command', target: `${p.tool.slice(0, 64)}: too large to check` }],
    description: `${p.tool.slice(0, 64)} call too large to check (${size} bytes): ${shown.slice(0, 200)}`,
    command: shown,
  };
}

/** How much of an oversize call the person is shown. */
const OVERSIZE_SHOWN = 2000;

function answerOf(
  answer: RequestResult,
  action: string,
  actions: GateResult['actions'],
): GateResult {
  const id = answer.requestId;
  const base = compact({ requestId: id, decidedBy: answer.decidedBy, actions });
  switch (answer.status) {
    case 'approved': {
      const extra = [
        answer.message,
        answer.conditions?.length ? `conditions: ${answer.conditions.join('; ')}` : undefined,
      ].filter(Boolean);
      return {
        ...base,
        outcome: 'allow',
        reason: `Gatehouse: ${action} approved by ${answer.decidedBy ?? 'human'} (${id})${extra.length ? `: ${extra.join(' — ')}` : ''}`,
        // The person edited the call: the agent runs this input instead of its own.
        updatedInput: answer.updatedInput,
      };
    }
    case 'denied':
    case 'cancelled':
      return {
        ...base,
        outcome: 'deny',
        reason: `Gatehouse: ${action} ${answer.status} (${id}): ${answer.reason ?? 'no reason given'}`,
      };
    default:
      return {
        ...base,
        outcome: 'pending',
        reason: `Gatehouse: no decision on ${action} yet; request ${id} stays in the queue`,
      };
  }
}

/** Why Gatehouse says stop: a paused or killed agent, or a tripped breaker, with its advice. */
function stopReason(r: z.output<typeof CheckResult>): string {
  const trips = r.verdicts.filter((v) => v.tripped);
  const why = trips.length
    ? trips
        .map((v) => `${v.reason ?? v.breaker}${v.suggestion ? ` — ${v.suggestion}` : ''}`)
        .join('; ')
    : `mode ${r.mode}`;
  return `Gatehouse says stop: ${why}`;
}
