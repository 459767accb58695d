import type { Clock } from '../../shared/clock';
import { systemClock } from '../../shared/node/system-clock';
import { CircuitBreaker, type CircuitBreakerConfig } from '../../shared/circuit-breaker';
import type { GuardClient } from './guard-chain';

export interface ToolGuardOptions {
  /** Default time limit of one tool call (30 s, seed 002). */
  defaultTimeoutMs?: number;
  /** Per-tool time limits. */
  toolTimeouts?: Record<string, number>;
  /** Config of each tool's own circuit breaker; `false` turns the breakers off. */
  circuit?: Partial<CircuitBreakerConfig> | false;
  /** When given, each call also asks Gatehouse (`check` with `tool`) and reports its `outcome`. */
  client?: Pick<GuardClient, 'check' | 'outcome'>;
  clock?: Clock;
}

export type ToolResult<T> =
  | { success: true; result: T; durationMs: number }
  | {
      success: false;
      error: string;
      timedOut: boolean;
      /** Refused without running: the tool's breaker is open or Gatehouse said stop. */
      refused: boolean;
      durationMs: number;
    };

export interface ToolHealth {
  totalCalls: number;
  failures: number;
  timeouts: number;
  avgDurationMs: number;
  circuitState: 'closed' | 'open' | 'half_open';
}

/** Raised inside a tool call when its time is up. */
export class ToolTimeoutError extends Error {
  constructor(
    readonly tool: string,
    readonly timeoutMs: number,
  ) {
    super(`tool ${tool} timed out after ${timeoutMs} ms`);
    this.name = 'ToolTimeoutError';
  }
}

/**
 * Runs tools with a time limit and a circuit breaker per tool (seed 002's
 * ToolExecutionGuard), so one hanging or failing tool cannot hold up or spin an agent. The
 * tool gets an AbortSignal that fires at the time limit; cooperative tools stop early.
 */
export class ToolExecutionGuard {
  private readonly breakers = new Map<string, CircuitBreaker>();
  private readonly health = new Map<string, ToolHealth & { totalDurationMs: number }>();
  private readonly clock: Clock;

  constructor(private readonly options: ToolGuardOptions = {}) {
    this.clock = options.clock ?? systemClock;
  }

  timeoutFor(tool: string): number {
    return this.options.toolTimeouts?.[tool] ?? this.options.defaultTimeoutMs ?? 30_000;
  }

  async execute<T>(tool: string, fn: (signal: AbortSignal) => Promise<T>): Promise<ToolResult<T>> {
    const started = this.clock.now();
    const breaker = this.breaker(tool);
    const stats = this.stats(tool);
    if (this.options.client) {
      const gate = await this.options.client.check({ tool });
      if (!gate.allowed) {
        const why = gate.verdicts.filter((v) => v.tripped).map((v) => v.reason ?? v.breaker);
        return {
          success: false,
          error: `gatehouse refused ${tool}: ${why.join(', ')}`,
          timedOut: false,
          refused: true,
          durationMs: 0,
        };
      }
    }
    if (breaker && !breaker.tryAcquire()) {
      return {
        success: false,
        error: `circuit for ${tool} is open; retry in ${breaker.retryInMs()} ms`,
        timedOut: false,
        refused: true,
        durationMs: 0,
      };
    }
    stats.totalCalls++;
    const timeoutMs = this.timeoutFor(tool);
    const controller = new AbortController();
    let timer: { cancel(): void } | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = this.clock.setTimer(timeoutMs, () => {
        const error = new ToolTimeoutError(tool, timeoutMs);
        controller.abort(error);
        reject(error);
      });
    });
    try {
      const result = await Promise.race([fn(controller.signal), timeout]);
      const durationMs = this.clock.now() - started;
      breaker?.recordSuccess();
      this.finish(stats, durationMs);
      await this.options.client?.outcome({ ok: true, source: `tool:${tool}`, tool, durationMs });
      return { success: true, result, durationMs };
    } catch (error) {
      const durationMs = this.clock.now() - started;
      const timedOut = error instanceof ToolTimeoutError;
      const message = error instanceof Error ? error.message : String(error);
      breaker?.recordFailure(message);
      stats.failures++;
      if (timedOut) stats.timeouts++;
      this.finish(stats, durationMs);
      await this.options.client?.outcome({
        ok: false,
        source: `tool:${tool}`,
        tool,
        message,
        durationMs,
      });
      return { success: false, error: message, timedOut, refused: false, durationMs };
    } finally {
      timer?.cancel();
    }
  }

  getToolHealth(tool: string): ToolHealth {
    const { totalDurationMs: _, ...health } = this.stats(tool);
    return { ...health, circuitState: this.breakers.get(tool)?.getState() ?? 'closed' };
  }

  getAllToolHealth(): Record<string, ToolHealth> {
    return Object.fromEntries(
      [...this.health.keys()].map((tool) => [tool, this.getToolHealth(tool)]),
    );
  }

  /** Stops every breaker timer (the agent is shutting down). */
  dispose(): void {
    for (const b of this.breakers.values()) b.dispose();
  }

  private breaker(tool: string): CircuitBreaker | undefined {
    if (this.options.circuit === false) return undefined;
    let breaker = this.breakers.get(tool);
    if (!breaker) {
      breaker = new CircuitBreaker(`tool:${tool}`, this.clock, this.options.circuit ?? {});
      this.breakers.set(tool, breaker);
    }
    return breaker;
  }

  private stats(tool: string): ToolHealth & { totalDurationMs: number } {
    let s = this.health.get(tool);
    if (!s) {
      s = {
        totalCalls: 0,
        failures: 0,
        timeouts: 0,
        avgDurationMs: 0,
        circuitState: 'closed',
        totalDurationMs: 0,
      };
      this.health.set(tool, s);
    }
    return s;
  }

  private finish(stats: ToolHealth & { totalDurationMs: number }, durationMs: number): void {
    stats.totalDurationMs += durationMs;
    stats.avgDurationMs = stats.totalDurationMs / stats.totalCalls;
  }
}
