import type { AgentParams, AgentResult } from '../../shared/protocol/method-map';
import type { Verdict } from '../../shared/domain';

/** What the guard helpers need from a client: the SDK's `GatehouseClient` satisfies it. */
export interface GuardClient {
  check(p: AgentParams<'check'>): Promise<AgentResult<'check'>>;
  usage(p: AgentParams<'usage'>): Promise<AgentResult<'usage'>>;
  outcome(p: AgentParams<'outcome'>): Promise<AgentResult<'outcome'>>;
}

/** Thrown when `check` says stop: a breaker is open, a budget would be exceeded, or the agent is paused. */
export class GuardStoppedError extends Error {
  constructor(
    readonly verdicts: Verdict[],
    readonly mode: AgentResult<'check'>['mode'],
  ) {
    const stops = verdicts.filter((v) => v.tripped);
    super(
      `gatehouse stopped the call: ${stops.map((v) => `${v.reason ?? v.breaker}${v.suggestion ? ` (${v.suggestion})` : ''}`).join('; ') || mode}`,
    );
    this.name = 'GuardStoppedError';
  }

  /** The reason codes of the guards that stopped the call. */
  get reasons(): string[] {
    return this.verdicts.filter((v) => v.tripped).map((v) => v.reason ?? v.breaker);
  }
}

/** Token usage of one model call. */
export interface CallUsage {
  inputTokens: number;
  outputTokens: number;
  costUsd?: number;
}

export interface LLMCallOptions<R> {
  model: string;
  /** Reserved against the budgets by `check`, settled by `usage`. */
  estimatedCostUsd?: number;
  phase?: string;
  provider?: string;
  operation?: string;
  iteration?: number;
  progress?: boolean;
  /** Token usage of a result; defaults to the OpenAI, Anthropic and Vercel AI SDK shapes. */
  usageOf?: (result: R) => CallUsage | undefined;
  /** The text of a result, for stuck detection; defaults to common response shapes. */
  outputOf?: (result: R) => string | undefined;
}

/** What the guarded function learns from `check`. */
export interface LLMCallContext {
  mode: AgentResult<'check'>['mode'];
  verdicts: Verdict[];
  /** True in conservative mode: use a cheaper model, fewer tokens, no streaming (see the verdicts). */
  conservative: boolean;
}

type Loose = Record<string, unknown> | undefined;
const num = (v: unknown): number | undefined =>
  typeof v === 'number' && Number.isFinite(v) ? v : undefined;

/** Reads token usage from the response shapes of the common SDKs. */
export function defaultUsageOf(result: unknown): CallUsage | undefined {
  const usage = (result as Loose)?.usage as Loose;
  if (!usage) return undefined;
  const input =
    num(usage.input_tokens) ??
    num(usage.prompt_tokens) ??
    num(usage.inputTokens) ??
    num(usage.promptTokens);
  const output =
    num(usage.output_tokens) ??
    num(usage.completion_tokens) ??
    num(usage.outputTokens) ??
    num(usage.completionTokens);
  return input === undefined && output === undefined
    ? undefined
    : { inputTokens: input ?? 0, outputTokens: output ?? 0 };
}

/** Reads the text of a response: a string, `text`, `content` (string or blocks), or the first choice. */
export function defaultOutputOf(result: unknown): string | undefined {
  if (typeof result === 'string') return result;
  const r = result as Loose;
  if (!r) return undefined;
  if (typeof r.text === 'string') return r.text;
  if (typeof r.content === 'string') return r.content;
  if (Array.isArray(r.content)) {
    return r.content.map((b) => ((b as Loose)?.text as string | undefined) ?? '').join('');
  }
  const choice = (r.choices as Loose[] | undefined)?.[0];
  const content = (choice?.message as Loose)?.content;
  return typeof content === 'string' ? content : undefined;
}

/** The HTTP status of an error from a provider SDK (`status`, `statusCode`, `response.status`). */
export function httpStatusOf(error: unknown): number | undefined {
  const e = error as Loose;
  const status = num(e?.status) ?? num(e?.statusCode) ?? num((e?.response as Loose)?.status);
  return status !== undefined && status >= 100 && status <= 599 ? Math.trunc(status) : undefined;
}

const trim = (s: string, max: number): string => (s.length > max ? s.slice(0, max) : s);

/**
 * Guards one model call in one line: `check` (which reserves `estimatedCostUsd`), the call,
 * then `usage` (which settles the reservation) and `outcome`. Throws {@link GuardStoppedError}
 * without calling `fn` when a guard says stop; rethrows the call's own error after reporting
 * it, so that provider health, error rates, stuck detection and the safety switch learn of it.
 *
 * @example
 * const reply = await guardLLMCall(gatehouse, { model: 'gpt-4o-mini', estimatedCostUsd: 0.01, provider: 'openai' },
 *   () => openai.chat.completions.create({ model: 'gpt-4o-mini', messages }));
 */
export async function guardLLMCall<R>(
  client: GuardClient,
  options: LLMCallOptions<R>,
  fn: (ctx: LLMCallContext) => Promise<R>,
): Promise<R> {
  const gate = await client.check({
    phase: options.phase,
    estimatedCostUsd: options.estimatedCostUsd,
    provider: options.provider,
    iteration: options.iteration,
    progress: options.progress,
  });
  if (!gate.allowed) throw new GuardStoppedError(gate.verdicts, gate.mode);

  const started = Date.now();
  let result: R;
  try {
    result = await fn({
      mode: gate.mode,
      verdicts: gate.verdicts,
      conservative: gate.mode === 'conservative',
    });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    await client.outcome({
      ok: false,
      source: 'llm',
      provider: options.provider,
      message: trim(message, 65_536),
      httpStatus: httpStatusOf(error),
      durationMs: Date.now() - started,
    });
    throw error;
  }
  const durationMs = Date.now() - started;
  const usage = (options.usageOf ?? defaultUsageOf)(result);
  if (usage) {
    await client.usage({
      model: options.model,
      inputTokens: Math.trunc(usage.inputTokens),
      outputTokens: Math.trunc(usage.outputTokens),
      costUsd: usage.costUsd,
      phase: options.phase,
      operation: options.operation,
    });
  }
  const output = (options.outputOf ?? defaultOutputOf)(result);
  await client.outcome({
    ok: true,
    source: 'llm',
    provider: options.provider,
    output: output === undefined ? undefined : trim(output, 1024 * 1024),
    durationMs,
  });
  return result;
}
